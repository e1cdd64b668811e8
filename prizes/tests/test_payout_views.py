"""The payouts page (the director's) and the public results page: what a director at the
festival desk and a player on a phone see, and that bad input never breaks a page."""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from payouts.models import Payout, PayoutLock, PayoutStructure, PayoutTemplate
from payouts.selectors import payout_table
from prizes import services as prize_services
from prizes.messages import LOCK_REASONS, REFUSALS
from tournaments.models import Player
from tournaments.tests.factories import (
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "dealer", "floor", "cashier", "director")


def url(name: str, event) -> str:
    return reverse(f"tournaments:{name}", args=[event.pk])


def director(client):
    client.force_login(staff("director"))
    return client


SETTINGS = {
    "places_mode": "percent",
    "places_percent": "15",
    "places_fixed": "",
    "winner_share": "",
    "min_cash_multiple": "2",
    "unit": "1.00",
    "shares": "",
}


def html(response) -> str:
    return response.content.decode()


# --- The page ---------------------------------------------------------------------------


def test_page_shows_the_pool_and_the_lines(client):
    event = tournament(buy_in=10000, fee=1000, guarantee=300000)
    field(event, 20)  # collected 2,000, guaranteed 3,000
    table = payout_table(event)

    response = director(client).get(url("payouts", event))

    assert response.status_code == 200
    page = html(response)
    for figure in ("€3,000.00", "€2,000.00", "€1,000.00"):  # pool, collected, overlay
        assert figure in page
    assert table.places_paid == 3
    for amount in table.amounts:
        assert f"€{amount // 100:,}.00" in page
    assert "Follows the pool" in page
    assert "rounded down to the house unit (€1.00)" in page
    assert reverse("results-public", args=[event.pk]) in page
    assert url("results-csv", event) in page and url("results-pdf", event) in page


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_director_opens_the_payouts_page(client, persona):
    event = tournament()
    if persona != "anonymous":
        client.force_login(staff(persona))

    response = client.get(url("payouts", event))
    posted = client.post(url("payouts-lock", event), {"action": "lock"})

    if persona == "anonymous":
        assert response.status_code == posted.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif persona == "director":
        assert response.status_code == 200 and posted.status_code == 302
    else:
        assert response.status_code == posted.status_code == 403
    assert PayoutStructure.objects.filter(lock=PayoutLock.LOCKED).exists() == (
        persona == "director"
    )


def test_unknown_tournament_is_404(client):
    assert director(client).get(reverse("tournaments:payouts", args=[999999])).status_code == 404


# --- Settings ----------------------------------------------------------------------------


def test_settings_change_the_table(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 20)  # pool 2,000
    data = {**SETTINGS, "places_mode": "fixed", "places_fixed": "5", "unit": "5.00"}

    response = director(client).post(url("payouts", event), data)

    assert response.status_code == 302
    table = payout_table(event)
    assert table.places_paid == 5
    assert sum(table.amounts) == 200000
    assert all(amount % 500 == 0 for amount in table.amounts)
    assert table.structure.unit == 500
    assert "Payout settings saved." in html(client.get(url("payouts", event)))


def test_house_table_typed_as_percentages(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)  # pool 1,000

    director(client).post(url("payouts", event), {**SETTINGS, "shares": "50, 30, 20"})

    table = payout_table(event)
    assert table.structure.shares == [5000, 3000, 2000]
    assert table.amounts == (50000, 30000, 20000)
    assert "50, 30, 20" in html(client.get(url("payouts", event)))


def test_house_table_with_decimal_commas_in_german(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    director(client).cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    response = client.post(
        url("payouts", event),
        {**SETTINGS, "places_percent": "15", "unit": "1,00", "shares": "50,5; 29,5; 20"},
    )

    assert response.status_code == 302
    assert payout_table(event).structure.shares == [5050, 2950, 2000]
    assert "50,5; 29,5; 20" in html(client.get(url("payouts", event)))


def test_shares_that_do_not_add_up_are_refused(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)

    response = director(client).post(url("payouts", event), {**SETTINGS, "shares": "50 30 10"})

    assert response.status_code == 400
    assert "add up to 90 %" in html(response)
    assert not PayoutStructure.objects.exists()


def test_locked_table_keeps_its_settings_and_says_to_unlock(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 20)
    registration_closed(event)  # registration over: the table holds
    director(client)

    page = html(client.get(url("payouts", event)))
    assert str(LOCK_REASONS["registration_closed"]) in page
    assert "unlock it first" in page
    assert "Save settings" not in page

    response = client.post(url("payouts", event), {**SETTINGS, "unit": "50.00"})
    assert response.status_code == 409
    assert str(REFUSALS["payouts_locked"]) in html(response)
    assert payout_table(event).structure.unit == 100


# --- Amounts typed by hand -------------------------------------------------------------


def lines(*amounts: str) -> dict:
    return {f"place_{place}": amount for place, amount in enumerate(amounts, start=1)}


def test_typed_lines_that_do_not_add_up_show_the_difference_and_change_nothing(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)  # pool 1,000
    before = payout_table(event).amounts

    response = director(client).post(url("payouts-lines", event), lines("600", "300", "50"))

    assert response.status_code == 400
    page = html(response)
    assert "€950.00" in page and "€1,000.00" in page and "€50.00 too little" in page
    assert 'value="50"' in page  # what was typed stays in the form
    assert "Sum: <b data-sum>€950.00</b>" in page
    assert payout_table(event).amounts == before
    assert not Payout.objects.exists()
    assert not payout_table(event).locked


def test_typed_lines_that_add_up_lock_the_table(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)

    response = director(client).post(
        url("payouts-lines", event), lines("600.00", "300", "100", "", "")
    )

    assert response.status_code == 302
    table = payout_table(event)
    assert table.amounts == (60000, 30000, 10000)
    assert table.locked and table.locked_reason == "edited"
    register(event, "Late")  # the typed table no longer follows the pool
    assert payout_table(event).amounts == (60000, 30000, 10000)
    page = html(client.get(url("payouts", event)))
    assert str(LOCK_REASONS["edited"]) in page
    assert "adds up to €1,000.00 but the prize pool is €1,100.00" in page


def test_rising_lines_are_refused(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)

    response = director(client).post(url("payouts-lines", event), lines("300", "600", "100"))

    assert response.status_code == 400
    assert "Place 2 pays more than the place above it." in html(response)


def test_unlock_lets_the_table_follow_the_pool_again(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    director(client).post(url("payouts-lines", event), lines("600", "300", "100"))

    response = client.post(url("payouts-lock", event), {"action": "unlock"})

    assert response.status_code == 302
    register(event, "Late")
    table = payout_table(event)
    assert not table.locked
    assert sum(table.amounts) == 110000
    assert "follows the prize pool again" in html(client.get(url("payouts", event)))


def test_lock_holds_the_table_as_it_stands(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    before = payout_table(event).amounts

    director(client).post(url("payouts-lock", event), {"action": "lock"})
    register(event, "Late")

    table = payout_table(event)
    assert table.amounts == before and table.locked_reason == "director"


def test_paid_table_is_final(client):
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:9])
    prize_services.prize_pay(actor=staff("cashier"), tournament_id=event.pk, entry_id=entries[8].pk)
    director(client)

    page = html(client.get(url("payouts", event)))
    assert str(REFUSALS["payouts_paid"]) in page
    assert 'value="unlock"' not in page

    client.post(url("payouts-lock", event), {"action": "unlock"})
    assert str(REFUSALS["payouts_paid"]) in html(client.get(url("payouts", event)))
    assert payout_table(event).structure.lock == PayoutLock.LOCKED


# --- Templates ----------------------------------------------------------------------------


def test_template_saved_and_applied_to_another_tournament(client):
    first = tournament(name="Monday Deepstack", buy_in=10000, fee=0)
    field(first, 20)
    director(client).post(
        url("payouts", first),
        {**SETTINGS, "places_mode": "fixed", "places_fixed": "4", "unit": "5.00"},
    )

    response = client.post(url("payouts-template-save", first), {"name": "  Four places  "})
    assert response.status_code == 302
    template = PayoutTemplate.objects.get()
    assert (template.name, template.places_fixed, template.unit) == ("Four places", 4, 500)

    second = tournament(name="Tuesday Turbo", buy_in=10000, fee=0)
    field(second, 30)
    assert "Four places" in html(client.get(url("payouts", second)))
    response = client.post(url("payouts-template-apply", second), {"template": template.pk})

    assert response.status_code == 302
    table = payout_table(second)
    assert (table.places_paid, table.structure.unit) == (4, 500)
    assert "Template “Four places” applied." in html(client.get(url("payouts", second)))


@pytest.mark.parametrize("value", ["", "abc", "999999", str(10**30), "-1", "1.5"])
def test_unknown_template_is_a_form_error(client, value):
    event = tournament()
    PayoutTemplate.objects.create(name="House")

    response = director(client).post(url("payouts-template-apply", event), {"template": value})

    assert response.status_code == 400
    assert not PayoutStructure.objects.exists()


def test_template_needs_a_name(client):
    event = tournament()
    response = director(client).post(url("payouts-template-save", event), {"name": "   "})
    assert response.status_code == 400
    assert not PayoutTemplate.objects.exists()


# --- Bad input never breaks a page -------------------------------------------------------


GARBAGE = ["abc", "-5", str(10**30), "1e999999", "NaN", "Infinity", "1.234", "", "\x00", "💰"]


@pytest.mark.parametrize("name", list(SETTINGS))
@pytest.mark.parametrize("value", GARBAGE)
def test_bad_settings_are_form_errors(client, name, value):
    event = tournament(buy_in=10000, fee=0)
    field(event, 5)

    response = director(client).post(url("payouts", event), {**SETTINGS, name: value})

    assert response.status_code in (302, 400)


@pytest.mark.parametrize("value", GARBAGE)
def test_bad_lines_are_form_errors(client, value):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)

    response = director(client).post(url("payouts-lines", event), lines("600", value, "100"))

    assert response.status_code == 400
    assert not Payout.objects.exists()


def test_a_line_the_ledger_cannot_store_in_cents_is_too_large(client):
    """10^12 is the most the ledger holds in cents: 10^10 euros and one cent are over."""
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)

    response = director(client).post(
        url("payouts-lines", event), lines("10000000000.01", "200", "100")
    )

    assert response.status_code == 400
    assert "This amount is too large." in response.content.decode()
    assert not Payout.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"place_0": "5"},
        {"place_x": "5"},
        {f"place_{10**30}": "5"},
        {"place_99999": "1000"},
        {"place_1": str(10**30)},
        {"shares": "50"},
    ],
)
def test_malformed_lines_posts(client, data):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)

    response = director(client).post(url("payouts-lines", event), data)

    assert response.status_code == 400
    assert not Payout.objects.exists()


@pytest.mark.parametrize(
    "data", [{}, {"places_mode": "bogus"}, {"shares": "50, 50, abc"}, {"unit": "0.001"}]
)
def test_missing_settings_fields(client, data):
    event = tournament()
    response = director(client).post(url("payouts", event), data)
    assert response.status_code == 400


@pytest.mark.parametrize("data", [{}, {"action": "explode"}, {"action": str(10**30)}])
def test_malformed_lock_posts(client, data):
    event = tournament()
    response = director(client).post(url("payouts-lock", event), data)
    assert response.status_code == 302
    assert not PayoutStructure.objects.exists()


def test_long_template_name_is_a_form_error(client):
    event = tournament()
    response = director(client).post(url("payouts-template-save", event), {"name": "x" * 500})
    assert response.status_code == 400


# --- The public results page ---------------------------------------------------------------


def test_public_results_show_names_and_prizes_never_contact_data(client):
    event = tournament(buy_in=10000, fee=0)
    entries = [
        register(
            event,
            f"Player {n}",
            email=f"player{n}@example.com",
            country="AT",
        ).entry
        for n in range(1, 11)
    ]
    Player.objects.filter(entries__tournament=event).update(phone="+43 660 1234567")
    registration_closed(event)
    prize_services.payouts_update(
        actor=staff("director"), tournament_id=event.pk, lines=[60000, 25000, 15000]
    )
    bust_in_order(event, *entries[:7])  # places 10 to 4; places 3, 2, 1 still playing

    response = client.get(reverse("results-public", args=[event.pk]))

    assert response.status_code == 200
    page = html(response)
    assert "€1,000.00" in page  # the prize pool
    for amount in ("€600.00", "€250.00", "€150.00"):
        assert amount in page
    assert "Player 1" in page and "Player 7" in page
    assert "@example.com" not in page and "1234567" not in page
    assert "Players left" in page


def test_public_results_isolate_player_names(client):
    """Issue 15: a direction control in a name reverses at most the name, not the
    nickname, country and entry number beside it."""
    event = tournament(buy_in=10000, fee=0)
    entries = [register(event, f"Player {n}").entry for n in range(1, 10)]
    entries.append(register(event, "\u202eZed", nickname="\u2067Zee", country="AT").entry)
    registration_closed(event)
    prize_services.payouts_update(
        actor=staff("director"), tournament_id=event.pk, lines=[60000, 25000, 15000]
    )
    bust_in_order(event, entries[-1])  # place 10

    page = html(client.get(reverse("results-public", args=[event.pk])))

    assert (
        '<td class="who"><bdi>\u202eZed</bdi> <small>“<bdi>\u2067Zee</bdi>”</small> '
        "<small>(AT)</small> <small>#10</small></td>"
    ) in page


def test_public_results_group_equal_amounts_and_show_shared_places(client):
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    director_user = staff("director")
    prize_services.payouts_update(
        actor=director_user,
        tournament_id=event.pk,
        lines=[40000, 20000, 10000, 10000, 10000, 10000],
    )
    bust_in_order(event, *entries[:6])  # places 10 to 5
    for entry in entries[6:8]:  # out together: they share places 3 and 4 (RP-8 A)
        prize_services.place_enter(
            actor=director_user, tournament_id=event.pk, entry_id=entry.pk, place=3
        )

    page = html(client.get(reverse("results-public", args=[event.pk])))

    assert "3–6" in page  # places 3 to 6 pay the same
    assert "3–4" in page and "RP-8 A" in page


def test_public_results_of_an_empty_tournament(client):
    event = tournament()
    response = client.get(reverse("results-public", args=[event.pk]))
    assert response.status_code == 200
    assert "No finishing places yet." in html(response)


def test_public_results_in_german(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = html(client.get(reverse("results-public", args=[event.pk])))
    with translation.override("en"):
        assert "1.000,00\xa0€" in page


def test_no_more_places_than_entries(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 3)  # pool 300, three entries

    response = director(client).post(url("payouts-lines", event), lines("150", "100", "30", "20"))

    assert response.status_code == 400
    assert "At most 3 places can be paid: one per entry." in html(response)
    assert not Payout.objects.exists()
    # Blank rows past the entries (the page shows two) are no error.
    response = client.post(url("payouts-lines", event), lines("150", "100", "50", "", ""))
    assert response.status_code == 302
    assert payout_table(event).amounts == (15000, 10000, 5000)


def test_german_page_shows_and_takes_decimal_commas(client):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    director(client).cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.post(url("payouts", event), {**SETTINGS, "places_percent": "12,5", "unit": "2,50"})

    page = html(client.get(url("payouts", event)))

    assert 'name="unit" value="2,50"' in page
    assert 'name="places_percent" value="12,50"' in page
    assert "1.000,00\xa0€" in page
    table = payout_table(event)
    assert table.structure.unit == 250
    assert str(table.structure.places_percent) == "12.50"
