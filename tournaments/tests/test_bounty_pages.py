"""The bounty settings on the event's form and in the API, and the bounty pool shown apart
from the prize pool on every page and screen that shows the pool (issue 18)."""

import re
from datetime import date

import pytest
from django.urls import reverse

from floorman.models import AuditEntry
from prizes import exports
from prizes.tests.test_exports import pdf_text
from tournaments.models import Series, Tournament, TransactionKind
from tournaments.services.ledger import ledger_line_add
from tournaments.tests.factories import api, register, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


def knockout(**overrides):
    """€100 + €100 bounty + €10."""
    return tournament(
        **{"name": "Knockout", "bounty_format": "knockout", "bounty": 10_000, **overrides}
    )


def text(html: str) -> str:
    """The words a reader sees: tags out, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def page(client, name, event, **kwargs) -> str:
    response = client.get(reverse(name, args=[event.pk]), **kwargs)
    assert response.status_code == 200
    return text(response.content.decode())


def bounty_paid(event, entry, amount):
    ledger_line_add(
        tournament=event,
        entry=entry,
        kind=TransactionKind.BOUNTY,
        amount=-amount,
        prize_share=0,
        fee_share=0,
        bounty_share=-amount,
    )


# --- The API -------------------------------------------------------------------------------


def setup(**overrides) -> dict:
    return {
        "name": "Bounty Builder",
        "buy_in": 10_000,
        "fee": 1_000,
        "starting_stack": 20_000,
        "start_at": "2026-12-01T19:00:00+01:00",
        **overrides,
    }


def test_the_api_creates_a_mystery_bounty_event_with_its_prize_list():
    prizes = [{"amount": 100_000, "count": 1}, {"amount": 5_000, "count": 18}]

    response = api(staff("director")).post(
        f"{API}/tournaments/",
        setup(
            bounty_format="mystery",
            bounty=10_000,
            mystery_start="day2",
            mystery_prizes=prizes,
            non_betting_items="call",
            chip_counts_public=False,
        ),
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["bounty_format"], body["bounty"], body["mystery_prizes"]) == (
        "mystery",
        10_000,
        prizes,
    )
    event = Tournament.objects.get(pk=body["id"])
    assert (event.mystery_start, event.non_betting_items, event.chip_counts_public) == (
        "day2",
        "call",
        False,
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"bounty_format": "knockout"}, "bounty"),
        ({"bounty_format": "knockout", "bounty": -1}, "bounty"),
        ({"bounty": 5_000}, "bounty"),
        ({"bounty_format": "bingo", "bounty": 5_000}, "bounty_format"),
        (
            {"bounty_format": "pko", "bounty": 5_000, "bounty_cash_percent": 150},
            "bounty_cash_percent",
        ),
        ({"bounty_format": "mystery", "bounty": 5_000}, "mystery_prizes"),
        (
            {"bounty_format": "mystery", "mystery_prizes": [{"amount": 0, "count": 1}]},
            "mystery_prizes",
        ),
        (
            {"bounty_format": "mystery", "mystery_prizes": [{"amount": 500, "count": -2}]},
            "mystery_prizes",
        ),
        ({"bounty_format": "mystery", "mystery_prizes": [{"amount": 500}]}, "mystery_prizes"),
        ({"bounty_format": "mystery", "mystery_prizes": "500 x 10"}, "mystery_prizes"),
        (
            {
                "bounty_format": "knockout",
                "bounty": 500,
                "mystery_prizes": [{"amount": 500, "count": 1}],
            },
            "mystery_prizes",
        ),
        ({"non_betting_items": "raise"}, "non_betting_items"),
        ({"mystery_start": "day9"}, "mystery_start"),
    ],
)
def test_the_api_refuses_bounty_settings_that_do_not_hold_with_field_messages(body, field):
    response = api(staff("director")).post(f"{API}/tournaments/", setup(**body), format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()
    assert Tournament.objects.count() == 0


def test_the_api_refuses_a_new_bounty_once_entries_were_sold_and_writes_nothing():
    event = knockout()
    register(event, "Ada")
    director = api(staff("director"))

    response = director.patch(f"{API}/tournaments/{event.pk}/", {"bounty": 20_000}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "bounty_money_taken"
    event.refresh_from_db()
    assert event.bounty == 10_000
    assert not AuditEntry.objects.filter(action="tournament.update").exists()


def test_the_api_totals_keep_the_bounty_money_apart():
    event = knockout()
    ada = register(event, "Ada").entry
    register(event, "Bo")
    bounty_paid(event, ada, 10_000)

    body = api().get(f"{API}/tournaments/{event.pk}/totals/").json()

    assert (body["prize_pool"], body["fees"]) == (20_000, 2_000)
    assert (body["bounty_collected"], body["bounty_paid_out"], body["bounty_left"]) == (
        20_000,
        10_000,
        10_000,
    )


def test_the_schema_documents_the_bounty_settings_and_totals():
    schema = api().get(f"{API}/schema/", HTTP_ACCEPT="application/json").json()

    tournament_schema = schema["components"]["schemas"]["Tournament"]["properties"]
    for name in ("bounty_format", "bounty", "bounty_cash_percent", "mystery_start"):
        assert name in tournament_schema
    prize = schema["components"]["schemas"]["MysteryPrize"]["properties"]
    assert set(prize) == {"amount", "count"}
    assert "bounty_left" in schema["components"]["schemas"]["Totals"]["properties"]


# --- The event's form ---------------------------------------------------------------------


def form_data(**overrides) -> dict:
    return {
        "name": "Monday Knockout",
        "game": "nlhe",
        "currency": "EUR",
        "start_at": "2026-05-04T19:30",
        "buy_in": "100.00",
        "fee": "10.00",
        "starting_stack": "25000",
        "table_size": "9",
        **overrides,
    }


def test_the_form_takes_the_mystery_prize_list_as_lines(client):
    client.force_login(staff("director"))

    response = client.post(
        reverse("tournaments:create"),
        form_data(
            bounty_format="mystery",
            bounty="100",
            mystery_prizes="1000 × 1\n\n50 x 18\n",
            non_betting_items="all_in",
        ),
    )

    assert response.status_code == 302
    event = Tournament.objects.get()
    assert (event.bounty_format, event.bounty, event.non_betting_items) == (
        "mystery",
        10_000,
        "all_in",
    )
    assert event.mystery_prizes == [
        {"amount": 100_000, "count": 1},
        {"amount": 5_000, "count": 18},
    ]
    edit = client.get(reverse("tournaments:edit", args=[event.pk]))
    assert edit.context["form"]["mystery_prizes"].value() == "1000 × 1\n50 × 18"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        (
            {"bounty_format": "mystery", "bounty": "100", "mystery_prizes": "a lot"},
            "mystery_prizes",
        ),
        (
            {"bounty_format": "mystery", "bounty": "100", "mystery_prizes": "0 × 4"},
            "mystery_prizes",
        ),
        ({"bounty_format": "knockout", "bounty": ""}, "bounty"),
        (
            {"bounty_format": "pko", "bounty": "100", "bounty_cash_percent": "101"},
            "bounty_cash_percent",
        ),
    ],
)
def test_the_form_names_the_bounty_field_at_fault(client, overrides, field):
    client.force_login(staff("director"))

    response = client.post(reverse("tournaments:create"), form_data(**overrides))

    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert Tournament.objects.count() == 0


def test_the_edit_page_fixes_the_bounty_once_money_was_taken(client):
    event = knockout()
    register(event, "Ada")
    client.force_login(staff("director"))

    form = client.get(reverse("tournaments:edit", args=[event.pk])).context["form"]

    assert form.fields["bounty"].disabled and form.fields["bounty_format"].disabled


def test_the_edit_page_warns_when_the_mystery_list_differs_from_the_bounty_money(client):
    event = tournament(
        name="Mystery",
        bounty_format="mystery",
        bounty=10_000,
        mystery_prizes=[{"amount": 50_000, "count": 1}],
    )
    register(event, "Ada")
    client.force_login(staff("director"))

    shown = page(client, "tournaments:edit", event)

    assert (
        "The published mystery bounty prizes add up to €500.00, but the bounty money taken "
        "so far is €100.00." in shown
    )
    for name in ("Bo", "Cy", "Di", "Ed"):
        register(event, name)
    assert "The published mystery bounty prizes" not in page(client, "tournaments:edit", event)


# --- The pages and screens -----------------------------------------------------------------


def test_the_event_page_shows_the_price_with_its_bounty_and_the_bounty_pool_apart(client):
    event = knockout()
    ada = register(event, "Ada").entry
    register(event, "Bo")
    bounty_paid(event, ada, 10_000)

    shown = page(client, "tournaments:detail", event)

    assert "€100.00 + €100.00 bounty + €10.00 fee" in shown
    assert "Prize pool Prize pool €200.00" in shown
    assert "Bounty pool Bounty pool €200.00 Bounties paid €100.00 Bounties left €100.00" in shown
    assert "Knockout: €100.00 on every buy-in and re-entry" in shown


def test_an_event_without_bounties_shows_no_bounty_pool(client):
    event = tournament()
    register(event, "Ada")

    shown = page(client, "tournaments:detail", event)

    assert "Bounty pool" not in shown
    assert "€100.00 + €10.00 fee" in shown


def test_the_list_and_the_desk_show_the_price_with_the_bounty(client):
    event = knockout()
    client.force_login(staff("director"))

    listed = text(client.get(reverse("tournaments:list")).content.decode())
    assert "€100.00 + €100.00 bounty + €10.00" in listed
    assert "€100.00 + €100.00 bounty + €10.00" in page(client, "tournaments:desk", event)


def test_the_desk_receipt_says_the_bounty_was_paid(client):
    event = knockout()
    client.force_login(staff("cashier"))

    response = client.post(
        reverse("tournaments:desk", args=[event.pk]), {"name": "Ada"}, follow=True
    )

    assert "€210.00 (€100.00 + €100.00 bounty + €10.00)" in text(response.content.decode())


def test_the_payouts_page_splits_the_prize_pool_only_and_shows_the_bounty_pool(client):
    event = knockout()
    register(event, "Ada")
    register(event, "Bo")
    client.force_login(staff("director"))

    shown = page(client, "tournaments:payouts", event)

    assert "Prize pool Prize pool €200.00" in shown
    assert "Bounty pool Bounty pool €200.00" in shown
    assert "never in the prize pool or the payouts" in shown


def test_the_cashiers_results_page_and_the_public_results_show_the_bounty_pool(client):
    event = knockout()
    register(event, "Ada")
    client.force_login(staff("cashier"))

    assert "Bounty pool Bounty pool €100.00" in page(client, "tournaments:results", event)
    assert "Bounty pool Bounty pool €100.00" in page(client, "results-public", event)


def test_the_lobby_shows_the_bounty_pool_beside_the_prize_pool(client):
    event = knockout()
    register(event, "Ada")
    register(event, "Bo")

    shown = page(client, "screens:lobby", event)

    assert "Prize pool €200.00" in shown
    assert "Bounty pool €200.00" in shown


def test_the_lobby_of_an_event_without_bounties_hides_the_bounty_pool(client):
    event = tournament()
    register(event, "Ada")

    html = client.get(reverse("screens:lobby", args=[event.pk])).content.decode()

    assert 'data-field="bounty_pool_fact" hidden' in html


def test_the_results_pdf_shows_the_bounty_pool_apart(client, monkeypatch):
    monkeypatch.setattr(exports, "pdf_fonts", lambda: exports.BUILT_IN_FONTS)
    event = knockout()
    register(event, "Ada")
    client.force_login(staff("director"))

    response = client.get(reverse("tournaments:results-pdf", args=[event.pk]))

    shown = pdf_text(response.content).split("\n")
    assert shown[shown.index("Prize pool") + 1] == "€100.00"
    assert shown[shown.index("Bounty pool") + 1] == "€100.00"


def test_the_schedule_shows_what_the_player_pays_and_its_bounty(client):
    series = Series.objects.create(
        name="Autumn Series", slug="autumn", starts_on=date(2026, 10, 1), ends_on=date(2026, 10, 9)
    )
    knockout(series=series, series_number=1)

    html = client.get(reverse("series:schedule", args=["autumn"])).content.decode()

    assert "Buy-in €210.00 (€100.00 + €100.00 bounty + €10.00)" in text(html)


def test_the_event_list_asks_no_more_of_bounty_events_however_many(
    client, django_assert_max_num_queries
):
    knockout(name="Knockout 1")
    client.get(reverse("tournaments:list"))  # warm the session and the caches
    with django_assert_max_num_queries(50) as one:
        client.get(reverse("tournaments:list"))
    knockout(name="Knockout 2")
    tournament(name="Mystery", bounty_format="mystery", bounty=5_000, mystery_prizes=[])
    with django_assert_max_num_queries(len(one.captured_queries)):
        response = client.get(reverse("tournaments:list"))

    assert text(response.content.decode()).count("€100.00 + €100.00 bounty + €10.00") == 2
