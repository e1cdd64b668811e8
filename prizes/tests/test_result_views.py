"""The results page (the cashier pays, the director places) and the deal page (casino §6):
what staff see and what each role may do, including POSTs nobody should send."""

import re
from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clock import services as clock_services
from clock.models import Clock
from clock.tests.factories import with_structure
from prizes import services as prize_services
from prizes.models import Deal, Payment, PlaceEntered
from prizes.selectors import results
from prizes.views import results as result_views
from tournaments.models import Transaction, TransactionKind
from tournaments.tests.factories import (
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db

LINES = [50000, 30000, 20000]  # €500, €300, €200: the pool of ten €100 buy-ins


def final_three():
    """Ten players of 1,000 chips, places 10 to 4 busted, three paid places left."""
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    prize_services.payouts_update(actor=staff("director"), tournament_id=event.pk, lines=LINES)
    registration_closed(event)
    bust_in_order(event, *entries[:7])
    return event, entries


def login(client, role: str):
    client.force_login(staff(role))
    return client


def url(name: str, event, *args) -> str:
    return reverse(f"tournaments:{name}", args=[event.pk, *args])


def flashed(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def row_ids(html: str) -> list[str]:
    return re.findall(r'<tr id="result-(\d+)"', html)


# --- Results ---------------------------------------------------------------------------------


def test_results_list_places_and_prizes(client):
    event, entries = final_three()
    bust_in_order(event, entries[7])  # third place
    response = login(client, "floor").get(url("results", event))
    assert response.status_code == 200
    html = response.content.decode()
    third = entries[7]
    assert row_ids(html)[0] == str(third.pk)  # best place first
    row = html[html.index(f'id="result-{third.pk}"') :]
    row = row[: row.index("</tr>")]
    assert ">3<" in row and "Player 8" in row and "€200.00" in row
    assert "Prize pool" in html and "€1,000.00" in html
    # The floor sees the results but has no pay button.
    assert "Pay €200.00" not in html
    assert url("results-csv", event) in html and url("results-pdf", event) in html
    assert reverse("results-public", args=[event.pk]) in html


def test_results_show_shared_places(client):
    from hands.models import Elimination

    event, entries = final_three()
    bust_in_order(event, entries[7], entries[8])
    Elimination.objects.filter(entry__in=entries[7:9]).update(hand_key="same-hand")
    html = login(client, "cashier").get(url("results", event)).content.decode()
    assert "2–3" in html and "shared (RP-8 A)" in html


def test_cashier_pays_and_the_row_shows_paid(client):
    event, entries = final_three()
    third = entries[7]
    bust_in_order(event, third)
    login(client, "cashier")
    html = client.get(url("results", event)).content.decode()
    assert "Pay €200.00" in html

    response = client.post(url("result-pay", event, third.pk), {"amount": 20000})

    assert response.status_code == 302
    assert "Paid €200.00 to Player 8 (entry #8)." in flashed(response)
    line = Transaction.objects.get(kind=TransactionKind.PAYOUT)
    assert (line.entry_id, line.amount) == (third.pk, -20000)
    html = client.get(url("results", event)).content.decode()
    assert "Paid €200.00" in html and "Undo payment" in html
    assert "Pay €200.00" not in html


def test_paying_twice_is_refused_and_pays_once(client):
    event, entries = final_three()
    bust_in_order(event, entries[7])
    login(client, "cashier")
    client.post(url("result-pay", event, entries[7].pk), {"amount": 20000})

    response = client.post(url("result-pay", event, entries[7].pk), {"amount": 20000})

    assert response.status_code == 302
    assert "This entry has already been paid." in flashed(response)
    assert Payment.objects.count() == 1
    assert Transaction.objects.filter(kind=TransactionKind.PAYOUT).count() == 1


def test_pay_refuses_an_amount_no_longer_due(client):
    event, entries = final_three()
    bust_in_order(event, entries[7])
    response = login(client, "cashier").post(
        url("result-pay", event, entries[7].pk), {"amount": 30000}
    )
    assert "The prize due is now €200.00: check it and pay again." in flashed(response)
    assert not Payment.objects.exists()


@pytest.mark.parametrize("role", ["floor", "dealer"])
def test_only_the_cashier_pays(client, role):
    event, entries = final_three()
    bust_in_order(event, entries[7])
    response = login(client, role).post(url("result-pay", event, entries[7].pk), {"amount": 20000})
    assert response.status_code == 403
    assert not Payment.objects.exists()


def test_visitor_is_sent_to_log_in(client):
    event, _entries = final_three()
    response = client.get(url("results", event))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_undo_payment_asks_first(client):
    event, entries = final_three()
    third = entries[7]
    bust_in_order(event, third)
    login(client, "cashier")
    client.post(url("result-pay", event, third.pk), {"amount": 20000})

    asked = client.post(url("result-pay-undo", event, third.pk))
    assert asked.status_code == 200
    assert "Undo the payment" in asked.content.decode()
    assert Payment.objects.count() == 1

    done = client.post(url("result-pay-undo", event, third.pk), {"confirm": "yes"})
    assert done.status_code == 302
    assert not Payment.objects.exists()
    lines = Transaction.objects.filter(kind=TransactionKind.PAYOUT)
    assert sorted(lines.values_list("amount", flat=True)) == [-20000, 20000]


def test_director_enters_a_place_and_the_row_moves(client):
    event, entries = final_three()
    tenth = entries[0]
    login(client, "director")
    before = row_ids(client.get(url("results", event)).content.decode())
    assert before[-1] == str(tenth.pk)

    response = client.post(url("result-place", event, tenth.pk), {"place": "2"})

    assert response.status_code == 302
    after = row_ids(client.get(url("results", event)).content.decode())
    assert after[0] == str(tenth.pk)
    assert PlaceEntered.objects.get(entry=tenth).place == 2

    client.post(url("result-place", event, tenth.pk), {"place": "", "clear": "1"})
    assert not PlaceEntered.objects.exists()
    assert row_ids(client.get(url("results", event)).content.decode())[-1] == str(tenth.pk)


def test_director_places_the_players_left_by_hand(client):
    event, entries = final_three()
    login(client, "director")
    html = client.get(url("results", event)).content.decode()
    assert "Set place of entry #10" in html  # still playing, no place yet
    client.post(url("result-place", event, entries[9].pk), {"place": "1"})
    assert results(event).for_entry(entries[9].pk).prize == 50000


def test_results_come_a_page_at_a_time_and_a_payment_returns_to_its_page(client, monkeypatch):
    """Issue 16: at 1,000 entries the whole list took a second to render after every
    prize paid. Places 4 to 10 here, two to a page; place 6 is on the second."""
    monkeypatch.setattr(result_views, "RESULTS_PER_PAGE", 2)
    event, entries = final_three()
    prize_services.payouts_update(
        actor=staff("director"),
        tournament_id=event.pk,
        lines=[40000, 20000, 15000, 10000, 8000, 7000],
    )
    sixth = entries[4]  # busted fifth of the ten
    login(client, "cashier")
    first = client.get(url("results", event)).content.decode()
    assert row_ids(first) == [str(entries[6].pk), str(entries[5].pk)]  # places 4 and 5
    assert "Page 1 of 4" in first

    response = client.post(url("result-pay", event, sixth.pk), {"amount": 7000})

    assert response["Location"] == url("results", event) + f"?entry={sixth.pk}#result-{sixth.pk}"
    second = client.get(response["Location"]).content.decode()
    assert row_ids(second) == [str(sixth.pk), str(entries[3].pk)]  # places 6 and 7
    assert "Page 2 of 4" in second and "Paid €70.00" in second
    third = client.get(url("results", event) + f"?entry={sixth.pk}&page=3").content.decode()
    assert row_ids(third) == [str(entries[2].pk), str(entries[1].pk)]  # the page asked for


def test_the_players_still_playing_come_a_page_at_a_time(client, monkeypatch):
    monkeypatch.setattr(result_views, "PLAYING_PER_PAGE", 2)
    event, entries = final_three()  # entries 8, 9 and 10 still play
    login(client, "director")

    first = client.get(url("results", event)).content.decode()
    second = client.get(url("results", event) + "?playing=2").content.decode()

    assert "Set place of entry #8" in first and "Set place of entry #9" in first
    assert "Set place of entry #10" not in first and "?playing=2#playing" in first
    assert "Set place of entry #10" in second and "Set place of entry #8" not in second


def test_floor_cannot_enter_places(client):
    event, entries = final_three()
    response = login(client, "floor").post(url("result-place", event, entries[0].pk), {"place": 2})
    assert response.status_code == 403


def test_results_warn_of_places_claimed_twice(client):
    event, entries = final_three()
    bust_in_order(event, entries[7])  # third place
    prize_services.place_enter(
        actor=staff("director"), tournament_id=event.pk, entry_id=entries[0].pk, place=3
    )
    html = login(client, "cashier").get(url("results", event)).content.decode()
    assert "Places claimed twice: 3." in html
    assert "Pay €" not in html  # neither claim is paid until the director decides


def test_results_warn_of_an_unbalanced_table(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    prize_services.payouts_update(actor=staff("director"), tournament_id=event.pk, lines=LINES)
    register(event, "Late")  # the typed table no longer matches the pool
    html = login(client, "cashier").get(url("results", event)).content.decode()
    assert "does not add up to the prize pool (difference -€100.00)" in html


# --- Deals (casino §6) ---------------------------------------------------------------------


def chips_post(entries, counts, **extra) -> dict:
    data = {f"chips_{entry.pk}": str(count) for entry, count in zip(entries, counts, strict=True)}
    data.update(extra)
    return data


def test_deal_page_lists_the_players_left_and_the_prizes(client):
    event, entries = final_three()
    html = login(client, "floor").get(url("deal", event)).content.decode()
    for entry in entries[7:]:
        assert f'name="chips_{entry.pk}"' in html and 'value="1000"' in html
    assert "€500.00" in html and "€300.00" in html and "€200.00" in html
    assert "€1,000.00" in html  # still to be won
    assert "3,000" in html and "of 10,000 in play" in html
    assert "Casino §6" in html


@pytest.mark.parametrize(
    ("busted", "unpaid"), [(5, "Places 4 to 5: no prize."), (6, "Place 4: no prize.")]
)
def test_deal_before_the_money_lists_the_prizes_and_names_the_places_without(
    client, busted, unpaid
):
    """A bubble deal (three places paid, four or five players left): the places below
    the money are one line, not rows of 0.00 burying the prizes."""
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    prize_services.payouts_update(actor=staff("director"), tournament_id=event.pk, lines=LINES)
    registration_closed(event)
    bust_in_order(event, *entries[:busted])

    html = login(client, "floor").get(url("deal", event)).content.decode()

    assert "€500.00" in html and "€300.00" in html and "€200.00" in html
    assert "€0.00" not in html
    assert unpaid in html


def test_calculate_shows_the_three_methods_side_by_side(client):
    event, entries = final_three()
    left = entries[7:]
    response = login(client, "cashier").post(
        url("deal", event), chips_post(left, [5000, 3000, 2000], save="50.00")
    )
    assert response.status_code == 200
    comparison = response.context["comparison"]
    methods = [column["method"] for column in comparison["columns"]]
    assert methods == ["icm", "chip_chop", "save"]
    totals = {c["method"]: c["total"] + c["left_to_play"] for c in comparison["columns"]}
    assert totals == {"icm": 100000, "chip_chop": 100000, "save": 100000}
    html = response.content.decode()
    for method in methods:
        figures = prize_services.deal_calculate(
            tournament_id=event.pk,
            method=method,
            chips=[5000, 3000, 2000],
            save=5000 if method == "save" else None,
        )
        for player in figures["players"]:
            assert f"€{player['amount'] / 100:,.2f}" in html
    # Each amount against the next place's prize (€200): the smallest stack's ICM share.
    first_row = comparison["rows"][0]["cells"][0]
    assert first_row["over"] == first_row["amount"] - 20000
    # The cashier works out figures but does not record a deal.
    assert response.context["record_form"] is None
    assert "Record the deal" not in html


def test_a_wrong_chip_total_shows_both_totals(client):
    event, entries = final_three()
    response = login(client, "floor").post(
        url("deal", event), chips_post(entries[7:], [5000, 3000, 1000])
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "add up to 9,000, but 10,000 chips are in play" in html
    assert response.context["comparison"]["columns"] == []


def test_too_much_left_for_the_winner_is_refused_on_its_field(client):
    event, entries = final_three()
    response = login(client, "floor").post(
        url("deal", event), chips_post(entries[7:], [5000, 3000, 2000], save="250")
    )
    html = response.content.decode()
    assert "At most €200.00 can be left for the winner" in html


def test_director_records_the_deal_and_the_tournament_ends(client):
    event, entries = final_three()
    left = entries[7:]
    login(client, "director")
    calculated = client.post(
        url("deal", event), chips_post(left, [5000, 3000, 2000], use="chip_chop")
    )
    record = calculated.context["record_form"]
    assert record.initial["method"] == "chip_chop"
    figures = prize_services.deal_calculate(
        tournament_id=event.pk, method="chip_chop", chips=[5000, 3000, 2000]
    )
    amounts = [p["amount"] for p in figures["players"]]
    assert [record.initial[f"amount_{e.pk}"] for e in left] == [
        Decimal(a).scaleb(-2) for a in amounts
    ]

    data = chips_post(left, [5000, 3000, 2000], method="chip_chop", save="")
    data.update({f"amount_{e.pk}": f"{a / 100:.2f}" for e, a in zip(left, amounts, strict=True)})
    response = client.post(url("deal-record", event), data)

    assert response.status_code == 302
    assert response["Location"] == url("results", event)
    event.refresh_from_db()
    assert event.status == "finished"
    deal = Deal.objects.get(tournament=event)
    assert (deal.method, deal.ends_tournament) == ("chip_chop", True)
    html = client.get(url("results", event)).content.decode()
    assert "A deal was made (Chip chop, casino §6)." in html
    for amount in amounts:
        assert f"€{amount / 100:,.2f}" in html
    # The deal page now shows the deal, read only.
    page = client.get(url("deal", event)).content.decode()
    assert "The deal ended the tournament." in page
    assert 'action="' + url("deal-record", event) not in page


def test_amounts_not_adding_up_show_the_difference(client):
    event, entries = final_three()
    left = entries[7:]
    data = chips_post(left, [5000, 3000, 2000], method="custom")
    data.update({f"amount_{e.pk}": a for e, a in zip(left, ["500", "300", "199"], strict=True)})
    response = login(client, "director").post(url("deal-record", event), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "a difference of -€1.00" in html
    assert response.context["record_form"].errors
    assert not Deal.objects.exists()


def test_deal_leaving_an_amount_lets_play_continue(client):
    event, entries = final_three()
    left = entries[7:]
    login(client, "director")
    calculated = client.post(url("deal", event), chips_post(left, [5000, 3000, 2000], save="100"))
    initial = calculated.context["record_form"].initial
    assert initial["method"] == "save" and initial["continue_play"]
    data = chips_post(left, [5000, 3000, 2000], method="save", save="100.00", continue_play="on")
    data.update({f"amount_{e.pk}": str(initial[f"amount_{e.pk}"]) for e in left})
    response = client.post(url("deal-record", event), data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == "running"
    assert Deal.objects.get().left_to_play == 10000


@pytest.mark.parametrize("role", ["floor", "cashier"])
def test_only_the_director_records_a_deal(client, role):
    event, entries = final_three()
    left = entries[7:]
    data = chips_post(left, [5000, 3000, 2000], method="custom")
    data.update({f"amount_{e.pk}": a for e, a in zip(left, ["500", "300", "200"], strict=True)})
    response = login(client, role).post(url("deal-record", event), data)
    assert response.status_code == 403
    assert not Deal.objects.exists()


def test_dealer_cannot_open_the_deal_page(client):
    event, _entries = final_three()
    assert login(client, "dealer").get(url("deal", event)).status_code == 403


def test_pause_button_pauses_the_clock(client):
    event, _entries = final_three()
    with_structure(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    login(client, "floor")
    assert "Pause the clock for a deal" in client.get(url("deal", event)).content.decode()

    response = client.post(url("deal-pause", event))

    assert response.status_code == 302
    assert Clock.objects.get(pk=event.pk).status == "paused"
    html = client.get(url("deal", event)).content.decode()
    assert "Paused" in html and "Pause the clock for a deal" not in html


def test_pausing_without_a_running_clock_is_refused_politely(client):
    event, _entries = final_three()
    response = login(client, "floor").post(url("deal-pause", event))
    assert response.status_code == 302
    assert "The tournament has no blind structure yet." in flashed(response)


def test_deal_page_before_the_tournament_runs(client):
    event = tournament()
    html = login(client, "floor").get(url("deal", event)).content.decode()
    assert "A deal is made while the tournament is running" in html
    assert "the director starts it on its overview, or by starting the clock" in html


def test_deal_page_before_the_tournament_runs_lets_the_director_start_it_there(client):
    """Issue 16: the page does not dead-end; starting the event brings the deal back."""
    event = tournament()
    field(event, 3)
    director = login(client, "director")
    html = director.get(url("deal", event)).content.decode()
    assert f'action="{url("status", event)}"' in html
    assert 'name="next" value="' + url("deal", event) + '"' in html

    response = director.post(
        url("status", event), {"status": "running", "next": url("deal", event)}
    )

    assert response.status_code == 302 and response.url == url("deal", event)
    event.refresh_from_db()
    assert event.status == "running"
    assert "A deal is made while" not in director.get(url("deal", event)).content.decode()


def test_deal_page_once_the_tournament_is_over_leads_to_the_results(client):
    event, entries = final_three()
    bust_in_order(event, entries[7], entries[8])  # the last bust finishes the event

    html = login(client, "floor").get(url("deal", event)).content.decode()

    assert "The tournament is over." in html
    assert f'href="{url("results", event)}"' in html


# --- Input nobody should send ---------------------------------------------------------------

GARBAGE = ["abc", "-5", "1e5", str(10**30), "", "NaN", "Infinity", "9" * 5000, "1.5", "\x00"]


@pytest.mark.parametrize("value", GARBAGE)
def test_malformed_deal_posts_never_fail(client, value):
    event, entries = final_three()
    left = entries[7:]
    login(client, "director")
    counts = [value, "3000", "2000"]
    response = client.post(url("deal", event), chips_post(left, counts, save=value, use=value))
    assert response.status_code == 200
    response = client.post(url("deal", event), chips_post(left, [5000, 3000, 2000], save=value))
    assert response.status_code == 200
    data = chips_post(left, counts, method=value, save=value, continue_play=value)
    data.update({f"amount_{e.pk}": value for e in left})
    assert client.post(url("deal-record", event), data).status_code == 200
    good = chips_post(left, [5000, 3000, 2000], method="custom", save=value)
    good.update({f"amount_{e.pk}": a for e, a in zip(left, [value, "300", "200"], strict=True)})
    assert client.post(url("deal-record", event), good).status_code == 200
    assert not Deal.objects.exists()


@pytest.mark.parametrize("value", GARBAGE)
def test_malformed_result_posts_never_fail(client, value):
    event, entries = final_three()
    bust_in_order(event, entries[7])
    login(client, "director")  # a director holds every role
    assert (
        client.post(url("result-pay", event, entries[7].pk), {"amount": value}).status_code == 302
    )
    assert (
        client.post(url("result-place", event, entries[0].pk), {"place": value}).status_code == 302
    )
    undo = client.post(url("result-pay-undo", event, entries[7].pk), {"confirm": value})
    assert undo.status_code == 302  # nothing paid: told so, sent back
    assert not Payment.objects.exists()


def test_missing_fields_and_unknown_entries_never_fail(client):
    event, entries = final_three()
    left = entries[7:]
    login(client, "director")
    assert client.post(url("deal", event), {}).status_code == 200
    assert client.post(url("deal-record", event), {}).status_code == 200
    # Entries that are not (or no longer) in the deal are not read.
    data = chips_post(left, [5000, 3000, 2000], method="custom", chips_999999="5")
    data.update({f"amount_{e.pk}": a for e, a in zip(left, ["500", "300", "200"], strict=True)})
    data["amount_999999"] = "1"
    assert client.post(url("deal-record", event), data).status_code == 302
    assert client.post(url("result-pay", event, 999999), {"amount": 1}).status_code == 404
    assert client.post(url("result-place", event, 999999), {"place": 1}).status_code == 404
    assert client.post(url("result-pay-undo", event, 999999)).status_code == 404
    assert client.post(url("result-pay", event, entries[7].pk), {}).status_code == 302
    assert client.post(url("result-place", event, entries[7].pk), {}).status_code == 302
    other = tournament()
    assert client.post(url("result-pay", other, entries[8].pk), {"amount": 1}).status_code in (
        302,
        404,
    )


def test_a_place_beyond_the_field_is_refused(client):
    event, entries = final_three()
    response = login(client, "director").post(
        url("result-place", event, entries[0].pk), {"place": "11"}
    )
    assert response.status_code == 302
    assert "No place beyond the number of entries." in flashed(response)


def test_a_second_deal_is_refused(client):
    event, entries = final_three()
    left = entries[7:]
    data = chips_post(left, [5000, 3000, 2000], method="custom", save="100", continue_play="on")
    data.update({f"amount_{e.pk}": a for e, a in zip(left, ["400", "300", "200"], strict=True)})
    login(client, "director")
    assert client.post(url("deal-record", event), data).status_code == 302
    again = client.post(url("deal-record", event), data)
    assert again.status_code == 302
    assert "A deal has already been recorded for this tournament." in flashed(again)
    assert Deal.objects.count() == 1
    page = login(client, "cashier").get(url("deal", event)).content.decode()
    assert "Play continues for €100.00, which goes to the winner." in page


def test_deal_page_shows_the_seats(client):
    from seating import services as seating_services
    from seating.models import Seat
    from seating.tests.factories import add_tables

    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 3)
    add_tables(event, 1)
    seating_services.seating_draw(actor=None, tournament_id=event.pk)
    registration_closed(event)
    seat = Seat.objects.select_related("table").get(entry=entries[0])
    response = login(client, "floor").get(url("deal", event))
    html = response.content.decode()
    assert f"<td>{seat.table.number}-{seat.number}</td>" in html


def test_results_page_queries_do_not_grow_with_the_rows(client):
    counts = []
    for busted in (2, 6):
        event = tournament(buy_in=10000, fee=0)
        entries = field(event, 10)
        registration_closed(event)
        bust_in_order(event, *entries[:busted])
        login(client, "director")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("results", event)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_paying_a_prize_reads_the_player_it_pays_and_no_other(client):
    """Issue 16: a payment works the places out from plain numbers and reads the one
    entry it pays with its player, not every entry of the field with theirs (half the
    time of a payment at 1,000 entries); as many queries for a larger field."""
    counts = []
    for size in (10, 30):
        event = tournament(name=f"Field of {size}", buy_in=10000, fee=0)
        entries = field(event, size)
        lines = [size * 5000, size * 3000, size * 2000]
        prize_services.payouts_update(actor=staff("director"), tournament_id=event.pk, lines=lines)
        registration_closed(event)
        bust_in_order(event, *entries[: size - 2])
        third = entries[size - 3]  # the last out: third place
        login(client, "cashier").get(url("results", event))  # warm up: the roles
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url("result-pay", event, third.pk), {"amount": lines[2]})
        assert "Paid" in flashed(response)[0]
        counts.append(len(queries))
        players = [q["sql"] for q in queries if 'JOIN "tournaments_player"' in q["sql"]]
        assert players and all(
            f'"tournaments_entry"."id" IN ({third.pk})' in sql for sql in players
        )
    assert counts[0] == counts[1]


def test_a_save_deal_leaving_too_much_is_refused_on_its_field(client):
    event, entries = final_three()
    left = entries[7:]
    data = chips_post(left, [5000, 3000, 2000], method="save", save="250", continue_play="on")
    data.update({f"amount_{e.pk}": a for e, a in zip(left, ["250", "300", "200"], strict=True)})
    response = login(client, "director").post(url("deal-record", event), data)
    assert response.status_code == 200
    assert response.context["record_form"].errors["save"] == [
        "At most €200.00 can be left for the winner: what first prize pays over second."
    ]
    assert not Deal.objects.exists()


def test_deal_figures_in_german(client, settings):
    event, entries = final_three()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = login(client, "director").post(
        url("deal", event), chips_post(entries[7:], [5000, 3000, 2000], save="50,00")
    )
    assert response.status_code == 200
    assert [c["method"] for c in response.context["comparison"]["columns"]][-1] == "save"
    assert "1.000,00\xa0€" in response.content.decode()
    assert response.context["record_form"]["save"].value() == Decimal("50.00")
