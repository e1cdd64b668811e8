"""Bounties on the cashier's page, in the results, the exports and the API (issue 18):
who knocked out whom and what is left to pay; the cashier pays, others only look."""

import csv
import io

import pytest
from django.urls import reverse

from hands.models import Knockout, KnockoutSource
from hands.services.busts import entry_bust
from prizes.exports import results_pdf_bytes
from prizes.models import BountyPayment
from prizes.selectors import results
from prizes.services import bounties as bounty_services
from prizes.tests.bounty_factories import bounty_event, knockout, reversed_knockout
from tournaments.models import Transaction, TransactionKind
from tournaments.tests.factories import api, bust_in_order, registration_closed, staff

pytestmark = pytest.mark.django_db


def page_url(event) -> str:
    return reverse("tournaments:bounties", args=[event.pk])


def signed(client, role: str):
    client.force_login(staff(role))
    return client


def text(response) -> str:
    return response.content.decode()


def paid_out(event, *, by: int, order):
    """A knockout event played down by busts in `order`, each knocked out by entry `by`."""
    entries = order
    bust_in_order(event, *entries)
    return [knockout(event, entry, by, bust=False) for entry in entries]


# --- The cashier's page ---------------------------------------------------------------------


def test_the_page_lists_who_knocked_out_whom_and_the_totals(client):
    event, (anna, ben, carl, *_rest) = bounty_event()
    bounty_services.bounty_pay(
        actor=staff("cashier"), tournament_id=event.pk, knockout_id=knockout(event, ben, anna).pk
    )
    knockout(event, carl, anna)
    reversed_knockout(event, anna, carl, bust=False)  # corrected: not shown

    response = signed(client, "floor").get(page_url(event))

    body = text(response)
    assert response.status_code == 200
    assert body.count('<tr id="knockout-') == 2
    assert "Player 1" in body and "Player 2" in body and "Player 3" in body
    assert "Named by the floor" in body
    assert "Paid €50.00" in body
    assert "Left to pay" in body and "€100.00" in body  # won
    # The floor looks; only the cashier has buttons.
    assert "Pay €50.00" not in body


def test_the_cashier_pays_from_the_page(client):
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    cashier = signed(client, "cashier")

    assert "Pay €50.00" in text(cashier.get(page_url(event)))
    response = cashier.post(reverse("tournaments:bounty-pay", args=[event.pk, found.pk]))

    assert response.status_code == 302
    assert response["Location"].endswith(f"#knockout-{found.pk}")
    assert BountyPayment.objects.filter(knockout=found).exists()


def test_paying_twice_from_the_page_says_so_and_pays_once(client):
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    cashier = signed(client, "cashier")
    pay = reverse("tournaments:bounty-pay", args=[event.pk, found.pk])

    cashier.post(pay)
    response = cashier.post(pay, follow=True)

    assert "This bounty has already been paid." in text(response)
    assert Transaction.objects.filter(kind=TransactionKind.BOUNTY).count() == 1


def test_taking_back_asks_first_then_reverses(client):
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    cashier = signed(client, "cashier")
    undo = reverse("tournaments:bounty-pay-undo", args=[event.pk, found.pk])
    cashier.post(reverse("tournaments:bounty-pay", args=[event.pk, found.pk]))

    asked = cashier.post(undo)
    assert "Take back the bounty paid to entry" in text(asked)
    assert BountyPayment.objects.filter(knockout=found).exists()

    cashier.post(undo, {"confirm": "yes"})
    assert not BountyPayment.objects.filter(knockout=found).exists()
    assert Transaction.objects.filter(kind=TransactionKind.BOUNTY).count() == 2


def test_the_cashier_pays_a_players_bounties_at_once(client):
    event, (anna, ben, carl, *_rest) = bounty_event()
    knockout(event, ben, anna), knockout(event, carl, anna)
    cashier = signed(client, "cashier")

    assert "Pay all 2 of this player" in text(cashier.get(page_url(event)))
    response = cashier.post(
        reverse("tournaments:bounties-pay-all", args=[event.pk, anna.pk]), follow=True
    )

    assert "2 bounties paid, €100.00 in all." in text(response)
    assert BountyPayment.objects.filter(knockout__winner=anna).count() == 2


@pytest.mark.parametrize("role", ["floor", "dealer"])
def test_only_the_cashier_pays(client, role):
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)

    response = signed(client, role).post(
        reverse("tournaments:bounty-pay", args=[event.pk, found.pk])
    )

    assert response.status_code == 403
    assert not BountyPayment.objects.exists()


def test_the_page_reads_the_same_queries_for_more_knockouts(client, django_assert_max_num_queries):
    event, entries = bounty_event(count=12)
    cashier = signed(client, "cashier")
    knockout(event, entries[1], entries[0])
    with django_assert_max_num_queries(30) as one:
        cashier.get(page_url(event))
    for busted in entries[2:8]:
        knockout(event, busted, entries[0], hand=None)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = cashier.get(page_url(event))

    assert text(response).count('<tr id="knockout-') == 7


# --- Results, exports ---------------------------------------------------------------------


def pko_final(event, entries):
    """Places 6 to 2 out, each knocked out by Anna as the floor names her: half of each
    €50 bounty in cash, half on her head; her own (€50 + 5 × €25) at the end."""
    anna = entries[0]
    registration_closed(event)
    for busted in reversed(entries[1:]):
        entry_bust(
            actor=staff("floor"), tournament_id=event.pk, entry_id=busted.pk, eliminators=[anna.pk]
        )
    own = Knockout.objects.get(tournament=event, source=KnockoutSource.WINNER)
    assert (own.winner, own.cash) == (anna, 17500)
    return anna


def test_results_show_the_bounties_each_entry_won_with_the_winners_own():
    event, entries = bounty_event("pko")
    anna = pko_final(event, entries)

    found = results(event)

    won = {row.entry_id: row.bounties for row in found.rows}
    assert won[anna.pk] == 5 * 2500 + 17500
    assert won[entries[1].pk] == 0


def test_the_results_page_and_api_have_a_bounties_column(client):
    event, entries = bounty_event("pko")
    anna = pko_final(event, entries)

    page = signed(client, "cashier").get(reverse("tournaments:results", args=[event.pk]))
    answer = api().get(f"/api/v1/tournaments/{event.pk}/results/").json()

    assert "Bounties won" in text(page) and "€300.00" in text(page)
    (first,) = [row for row in answer["results"] if row["entry"]["id"] == anna.pk]
    assert first["bounties"] == 30000
    assert answer["bounty_format"] == "pko"


def test_an_event_without_bounties_shows_no_bounty_column(client):
    event, entries = bounty_event("", bounty=0)
    registration_closed(event)
    bust_in_order(event, entries[5])

    page = signed(client, "cashier").get(reverse("tournaments:results", args=[event.pk]))

    assert "Bounties won" not in text(page)


def test_the_csv_has_the_bounties_column(client):
    event, entries = bounty_event("pko")
    pko_final(event, entries)

    response = signed(client, "cashier").get(reverse("tournaments:results-csv", args=[event.pk]))

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][-1] == "Bounties (EUR)"
    assert rows[1][-1] == "300.00"  # the winner: five knockouts and their own
    assert rows[2][-1] == "0.00"


def test_the_pdf_prints_with_bounties():
    event, entries = bounty_event("pko")
    pko_final(event, entries)

    assert results_pdf_bytes(event, results(event)).startswith(b"%PDF")


# --- The API ---------------------------------------------------------------------------------


def test_the_knockouts_api_lists_them_for_staff():
    event, (anna, ben, carl, *_rest) = bounty_event("mystery", bounty=0)
    first = knockout(event, ben, anna, cash=100000, draw=1, source=KnockoutSource.HAND)
    knockout(event, carl, anna, cash=20000, draw=2)
    bounty_services.bounty_pay(actor=staff("cashier"), tournament_id=event.pk, knockout_id=first.pk)

    answer = api(staff("floor")).get(f"/api/v1/tournaments/{event.pk}/knockouts/")

    assert answer.status_code == 200
    data = answer.json()
    assert (data["won"], data["paid"], data["left"]) == (120000, 100000, 20000)
    assert [
        (k["busted"]["id"], k["winner"]["id"], k["cash"], k["draw"], k["source"], k["paid"])
        for k in data["knockouts"]
    ] == [(ben.pk, anna.pk, 100000, 1, "hand", True), (carl.pk, anna.pk, 20000, 2, "floor", False)]
    assert "email" not in str(data) and "phone" not in str(data)


def test_the_knockouts_api_is_not_public():
    event, (anna, ben, *_rest) = bounty_event()

    assert api().get(f"/api/v1/tournaments/{event.pk}/knockouts/").status_code in (401, 403)


def test_the_cashier_pays_and_takes_back_through_the_api():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    cashier = api(staff("cashier"))
    path = f"/api/v1/tournaments/{event.pk}/knockouts/{found.pk}/payment/"

    paid = cashier.post(path)
    twice = cashier.post(path)
    floor = api(staff("floor")).delete(path)
    taken_back = cashier.delete(path)

    assert paid.status_code == 201 and paid.json()["paid"] == 5000
    assert twice.status_code == 409
    assert floor.status_code == 403
    assert taken_back.status_code == 200 and taken_back.json()["left"] == 5000


def test_the_cashier_pays_a_players_bounties_at_once_through_the_api():
    event, (anna, ben, carl, *_rest) = bounty_event()
    knockout(event, ben, anna), knockout(event, carl, anna)
    cashier = api(staff("cashier"))
    path = f"/api/v1/tournaments/{event.pk}/knockouts/payments/"

    paid = cashier.post(path, {"entry": anna.pk}, format="json")
    again = cashier.post(path, {"entry": anna.pk}, format="json")
    nonsense = cashier.post(path, {"entry": "Anna"}, format="json")

    assert paid.status_code == 201 and paid.json()["paid"] == 10000
    assert again.status_code == 409
    assert nonsense.status_code == 400 and "entry" in nonsense.json()
    assert Transaction.objects.filter(kind=TransactionKind.BOUNTY).count() == 2


def test_the_knockouts_api_reads_the_same_queries_for_more(django_assert_max_num_queries):
    event, entries = bounty_event(count=12)
    floor = api(staff("floor"))
    knockout(event, entries[1], entries[0])
    path = f"/api/v1/tournaments/{event.pk}/knockouts/"
    with django_assert_max_num_queries(20) as one:
        floor.get(path)
    for busted in entries[2:9]:
        knockout(event, busted, entries[0])

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = floor.get(path)

    assert len(response.json()["knockouts"]) == 8


def test_the_schema_documents_the_knockouts():
    schema = api().get("/api/v1/schema/", {"format": "json"}).json()

    listed = schema["paths"]["/api/v1/tournaments/{tournament_pk}/knockouts/"]["get"]
    payment = schema["paths"][
        "/api/v1/tournaments/{tournament_pk}/knockouts/{knockout_pk}/payment/"
    ]
    assert "200" in listed["responses"]
    assert set(payment) >= {"post", "delete"} and "201" in payment["post"]["responses"]
    knockout_schema = schema["components"]["schemas"]["Knockout"]["properties"]
    assert {"busted", "winner", "cash", "added", "draw", "source", "paid"} <= set(knockout_schema)
