"""The REST API (/api/v1/) as a client sees it: status codes, bodies and what was stored."""

import pytest
from django.core.cache import caches
from django.db.models import Sum
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from floorman.models import AuditEntry
from floorman.tests.openapi import documented_responses, resolve, response_schema
from hands.services import busts as bust_services
from seating.services import desk as desk_intentions
from tournaments.messages import refusal_message
from tournaments.models import (
    Alternate,
    Entry,
    Player,
    Tournament,
    Transaction,
)
from tournaments.tests.factories import api, register, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
PASSWORD = "pw-Floorman-2026"  # what factories.staff gives every user

NEW_EVENT = {
    "name": "Friday Deepstack",
    "buy_in": 5000,
    "fee": 500,
    "currency": "EUR",
    "starting_stack": 30000,
    "start_at": "2026-05-01T19:00:00+02:00",
}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hundreds of staff users are made here: PBKDF2 would dominate the run time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def login_limit(settings):
    """The token endpoint's limit as in production (FLOORMAN_RATE_LOGIN, 10 a minute),
    counted from zero in each test whatever cache (Redis) other runs share."""
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    settings.CACHES = {
        **settings.CACHES,
        "login-limit": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    settings.RATELIMIT_USE_CACHE = "login-limit"
    caches["login-limit"].clear()  # a locmem cache's storage outlives its settings


def https_client(**kwargs) -> APIClient:
    """Requests as the TLS proxy forwards them: production settings redirect plain HTTP."""
    return APIClient(HTTP_X_FORWARDED_PROTO="https", **kwargs)


def entries_url(event: Tournament) -> str:
    return f"{API}/tournaments/{event.pk}/entries/"


def entry_url(entry: Entry, action: str = "") -> str:
    path = f"{API}/tournaments/{entry.tournament_id}/entries/{entry.pk}/"
    return f"{path}{action}/" if action else path


def status_url(event: Tournament) -> str:
    return f"{API}/tournaments/{event.pk}/status/"


def entry_of(registration) -> Entry:
    assert registration.entry is not None
    return registration.entry


def ledger(event: Tournament) -> list[tuple]:
    lines = Transaction.objects.filter(tournament=event).order_by("id")
    return [
        (line.kind, line.amount, line.prize_share, line.fee_share, line.entry_id, line.reverses_id)
        for line in lines
    ]


def player_json(player: Player) -> dict:
    return {
        "id": player.pk,
        "name": player.name,
        "nickname": player.nickname,
        "country": player.country,
    }


def entry_json(entry: Entry, **changes) -> dict:
    data = {
        "id": entry.pk,
        "number": entry.number,
        "reentry_number": entry.reentry_number,
        "player": player_json(entry.player),
        "status": entry.status,
        "chips": entry.chips,
        "rebuys": entry.rebuys,
        "addon": entry.addon,
        "table": None,
        "seat": None,
        "place": None,
        "place_shared": None,
    }
    data.update(changes)
    return data


def refusal(code: str) -> dict:
    return {"code": code, "detail": refusal_message(code)}


# --- Authentication -------------------------------------------------------------------


def test_token_login_returns_token():
    user = staff("cashier", username="carla")

    response = https_client().post(
        f"{API}/auth/token/", {"username": "carla", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=user).key}


def test_token_login_wrong_password_is_400():
    staff("cashier", username="carla")

    response = https_client().post(
        f"{API}/auth/token/", {"username": "carla", "password": "wrong"}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Unable to log in with provided credentials."]}
    assert Token.objects.count() == 0


def test_token_login_throttled_after_ten_tries():
    staff("cashier", username="carla")
    client = https_client()
    for _ in range(10):
        response = client.post(
            f"{API}/auth/token/", {"username": "carla", "password": "wrong"}, format="json"
        )
        assert response.status_code == 400

    response = client.post(
        f"{API}/auth/token/", {"username": "carla", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 429
    assert Token.objects.count() == 0


def test_token_header_authenticates_registration():
    staff("cashier", username="carla")
    event = tournament()
    token = (
        https_client()
        .post(f"{API}/auth/token/", {"username": "carla", "password": PASSWORD}, format="json")
        .json()["token"]
    )
    client = https_client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    response = client.post(entries_url(event), {"player": {"name": "Anna Berger"}}, format="json")

    assert response.status_code == 201
    entry = Entry.objects.get()
    assert entry.registered_by.username == "carla"
    assert AuditEntry.objects.get(action="entry.register").actor.username == "carla"


def test_token_unknown_is_401():
    event = tournament()
    client = https_client()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)

    response = client.post(entries_url(event), {"player": {"name": "Anna Berger"}}, format="json")

    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid token."}
    assert Entry.objects.count() == 0


def test_session_login_authenticates_registration():
    staff("cashier", username="carla")
    event = tournament()
    client = https_client()
    assert client.login(username="carla", password=PASSWORD)

    response = client.post(entries_url(event), {"player": {"name": "Anna Berger"}}, format="json")

    assert response.status_code == 201
    assert Entry.objects.get().registered_by.username == "carla"


def test_session_write_without_csrf_token_is_403():
    staff("cashier", username="carla")
    event = tournament()
    client = https_client(enforce_csrf_checks=True)
    assert client.login(username="carla", password=PASSWORD)

    response = client.post(entries_url(event), {"player": {"name": "Anna Berger"}}, format="json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert Entry.objects.count() == 0


# --- Tournaments -------------------------------------------------------------------------


def test_tournament_list_anonymous_shows_setup_and_no_contact_data():
    event = tournament(name="Sunday Main Event", capacity=90, guarantee=500000)
    register(event, "Anna Berger", email="anna@example.com", phone="+43 660 1234567")

    response = api().get(f"{API}/tournaments/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    assert body["results"][0]["id"] == event.pk
    assert body["results"][0]["name"] == "Sunday Main Event"
    assert body["results"][0]["status"] == "registering"
    assert body["results"][0]["capacity"] == 90
    assert body["results"][0]["guarantee"] == 500000
    assert "anna@example.com" not in response.content.decode()
    assert "1234567" not in response.content.decode()


def test_tournament_retrieve_anonymous_gives_every_setup_field():
    event = tournament()

    response = api().get(f"{API}/tournaments/{event.pk}/")

    assert response.status_code == 200
    assert response.json() == {
        "id": event.pk,
        "name": "Sunday Main Event",
        "game": "nlhe",
        "status": "registering",
        "currency": "EUR",
        "buy_in": 10000,
        "fee": 1000,
        "starting_stack": 20000,
        "table_size": 9,
        "capacity": None,
        "start_at": timezone.localtime(event.start_at).isoformat(),
        "late_reg_until_level": None,
        "reentry_allowed": False,
        "reentry_max": None,
        "reentry_until_level": None,
        "rebuy_until_level": None,
        "rebuy_max": None,
        "rebuy_price": 0,
        "rebuy_fee": 0,
        "rebuy_chips": 0,
        "addon_price": 0,
        "addon_fee": 0,
        "addon_chips": 0,
        "addon_at_break_after_level": None,
        "guarantee": 0,
        "format": "",
        "flight_end_level": None,
        "flight_end_percent": None,
        "flight_reentry": True,
        "survivor_keeps": "larger",
        "day2_late_entry": False,
        "day2_late_stack": None,
        "day2_spread_big_stacks": False,
        "satellite_remainder": "next_place",
        "tickets_transferable": False,
        "tickets_refundable": False,
        "bounty_format": "",
        "bounty": 0,
        "bounty_cash_percent": 50,
        "mystery_start": "money",
        "mystery_prizes": [],
        "non_betting_items": "floor",
        "chip_counts_public": True,
        "current_level": 1,
        "satellite_target_id": None,
    }


def test_tournament_retrieve_unknown_is_404():
    response = api().get(f"{API}/tournaments/999999/")

    assert response.status_code == 404


def test_tournament_create_by_director_stores_it_and_audits():
    director = staff("director", username="dora")

    response = api(director).post(f"{API}/tournaments/", NEW_EVENT, format="json")

    assert response.status_code == 201
    event = Tournament.objects.get()
    body = response.json()
    assert body["id"] == event.pk
    assert body["status"] == "planned"
    assert body["start_at"] == "2026-05-01T19:00:00+02:00"
    assert (event.name, event.buy_in, event.fee, event.starting_stack) == (
        "Friday Deepstack",
        5000,
        500,
        30000,
    )
    audit = AuditEntry.objects.get()
    assert (audit.action, audit.actor, audit.tournament, audit.before) == (
        "tournament.create",
        director,
        event,
        None,
    )
    assert audit.after["buy_in"] == 5000


def test_tournament_create_ignores_status_in_body():
    response = api(staff("director")).post(
        f"{API}/tournaments/", {**NEW_EVENT, "status": "running"}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["status"] == "planned"
    assert Tournament.objects.get().status == "planned"


@pytest.mark.parametrize("role", ["cashier", "floor", "dealer"])
def test_tournament_create_by_other_roles_is_403(role):
    response = api(staff(role)).post(f"{API}/tournaments/", NEW_EVENT, format="json")

    assert response.status_code == 403
    assert response.json() == {"detail": "You do not have permission to perform this action."}
    assert Tournament.objects.count() == 0


def test_tournament_create_anonymous_is_401():
    response = api().post(f"{API}/tournaments/", NEW_EVENT, format="json")

    assert response.status_code == 401
    assert response.json() == {"detail": "Authentication credentials were not provided."}
    assert Tournament.objects.count() == 0


def test_tournament_create_rebuys_without_price_names_both_fields():
    response = api(staff("director")).post(
        f"{API}/tournaments/", {**NEW_EVENT, "rebuy_until_level": 4}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "rebuy_price": ["Rebuys need a price."],
        "rebuy_chips": ["Rebuys need a number of chips."],
    }
    assert Tournament.objects.count() == 0
    assert AuditEntry.objects.count() == 0


def test_tournament_create_addon_without_chips_names_the_field():
    response = api(staff("director")).post(
        f"{API}/tournaments/",
        {**NEW_EVENT, "addon_at_break_after_level": 4, "addon_price": 5000},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {"addon_chips": ["The add-on needs a number of chips."]}
    assert Tournament.objects.count() == 0


def test_tournament_create_reentry_limit_without_reentries_is_400():
    response = api(staff("director")).post(
        f"{API}/tournaments/", {**NEW_EVENT, "reentry_max": 2}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {"reentry_max": ["Only with re-entries allowed."]}
    assert Tournament.objects.count() == 0


def test_tournament_create_missing_required_fields_is_400():
    response = api(staff("director")).post(f"{API}/tournaments/", {}, format="json")

    assert response.status_code == 400
    assert set(response.json()) == {"name", "buy_in", "starting_stack", "start_at"}
    assert Tournament.objects.count() == 0


def test_tournament_update_by_director_changes_and_audits():
    director = staff("director")
    event = tournament()

    response = api(director).patch(
        f"{API}/tournaments/{event.pk}/", {"name": "Sunday Special", "capacity": 90}, format="json"
    )

    assert response.status_code == 200
    assert (response.json()["name"], response.json()["capacity"]) == ("Sunday Special", 90)
    event.refresh_from_db()
    assert (event.name, event.capacity) == ("Sunday Special", 90)
    audit = AuditEntry.objects.get()
    assert audit.action == "tournament.update"
    assert audit.actor == director
    assert (audit.before["name"], audit.after["name"]) == ("Sunday Main Event", "Sunday Special")
    assert (audit.before["capacity"], audit.after["capacity"]) == (None, 90)


def test_tournament_put_replaces_setup():
    event = tournament()

    response = api(staff("director")).put(
        f"{API}/tournaments/{event.pk}/", {**NEW_EVENT, "table_size": 6}, format="json"
    )

    assert response.status_code == 200
    event.refresh_from_db()
    assert (event.name, event.buy_in, event.table_size) == ("Friday Deepstack", 5000, 6)


@pytest.mark.parametrize("role", ["cashier", "floor", "dealer"])
def test_tournament_update_by_other_roles_is_403(role):
    event = tournament()

    response = api(staff(role)).patch(
        f"{API}/tournaments/{event.pk}/", {"name": "Hacked"}, format="json"
    )

    assert response.status_code == 403
    event.refresh_from_db()
    assert event.name == "Sunday Main Event"


def test_tournament_update_anonymous_is_401():
    event = tournament()

    response = api().patch(f"{API}/tournaments/{event.pk}/", {"name": "Hacked"}, format="json")

    assert response.status_code == 401
    event.refresh_from_db()
    assert event.name == "Sunday Main Event"


def test_tournament_update_rebuys_without_price_is_400():
    event = tournament()

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/",
        {"rebuy_until_level": 4, "rebuy_chips": 20000},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {"rebuy_price": ["Rebuys need a price."]}
    event.refresh_from_db()
    assert event.rebuy_until_level is None
    assert AuditEntry.objects.count() == 0


def test_tournament_update_turning_reentries_off_keeps_limit_consistent():
    event = tournament(reentry_allowed=True, reentry_max=2)

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/", {"reentry_allowed": False}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {"reentry_max": ["Only with re-entries allowed."]}
    event.refresh_from_db()
    assert event.reentry_allowed is True


@pytest.mark.parametrize(
    "change",
    [{"buy_in": 20000}, {"fee": 0}, {"currency": "USD"}],
    ids=["buy_in", "fee", "currency"],
)
def test_tournament_update_money_after_money_taken_is_409(change):
    event = tournament()
    register(event, "Anna Berger")

    response = api(staff("director")).patch(f"{API}/tournaments/{event.pk}/", change, format="json")

    assert response.status_code == 409
    assert response.json() == refusal("money_taken")
    event.refresh_from_db()
    assert (event.buy_in, event.fee, event.currency) == (10000, 1000, "EUR")


def test_tournament_update_same_buy_in_after_money_taken_is_allowed():
    event = tournament()
    register(event, "Anna Berger")

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/", {"buy_in": 10000, "name": "Renamed"}, format="json"
    )

    assert response.status_code == 200
    event.refresh_from_db()
    assert event.name == "Renamed"


def test_tournament_update_buy_in_before_money_taken_is_allowed():
    event = tournament()

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/", {"buy_in": 20000}, format="json"
    )

    assert response.status_code == 200
    event.refresh_from_db()
    assert event.buy_in == 20000


def test_tournament_update_capacity_below_active_is_409():
    event = tournament(capacity=10)
    for name in ("Anna", "Ben", "Cleo"):
        register(event, name)

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/", {"capacity": 2}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("capacity_below_active")
    event.refresh_from_db()
    assert event.capacity == 10


def test_tournament_update_capacity_equal_to_active_is_allowed():
    event = tournament(capacity=10)
    for name in ("Anna", "Ben", "Cleo"):
        register(event, name)

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/", {"capacity": 3}, format="json"
    )

    assert response.status_code == 200
    event.refresh_from_db()
    assert event.capacity == 3


@pytest.mark.parametrize("status", ["finished", "cancelled"])
def test_tournament_update_after_the_end_is_409(status):
    event = tournament(status=status)

    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/", {"name": "Renamed"}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("tournament_closed")
    event.refresh_from_db()
    assert event.name == "Sunday Main Event"


# --- Tournament status -------------------------------------------------------------------


def test_tournament_status_planned_to_registering():
    director = staff("director")
    event = tournament(status="planned")

    response = api(director).post(status_url(event), {"status": "registering"}, format="json")

    assert response.status_code == 200
    assert response.json()["status"] == "registering"
    event.refresh_from_db()
    assert event.status == "registering"
    audit = AuditEntry.objects.get()
    assert (audit.action, audit.actor, audit.before, audit.after) == (
        "tournament.registering",
        director,
        {"status": "planned"},
        {"status": "registering", "refunded": 0},
    )


def test_tournament_status_start_with_one_entry_is_409():
    event = tournament()
    register(event, "Anna Berger")

    response = api(staff("director")).post(status_url(event), {"status": "running"}, format="json")

    assert response.status_code == 409
    assert response.json() == refusal("too_few_players")
    event.refresh_from_db()
    assert event.status == "registering"


def test_tournament_status_start_counts_only_active_entries():
    event = tournament()
    register(event, "Anna Berger")
    bust_services.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=entry_of(register(event, "Ben Cohen")).pk
    )

    response = api(staff("director")).post(status_url(event), {"status": "running"}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "too_few_players"


def test_tournament_status_start_with_two_entries_runs():
    event = tournament()
    register(event, "Anna Berger")
    register(event, "Ben Cohen")

    response = api(staff("director")).post(status_url(event), {"status": "running"}, format="json")

    assert response.status_code == 200
    assert response.json()["status"] == "running"
    event.refresh_from_db()
    assert event.status == "running"


def test_tournament_status_skipping_registration_is_409():
    event = tournament(status="planned")

    response = api(staff("director")).post(status_url(event), {"status": "running"}, format="json")

    assert response.status_code == 409
    assert response.json() == refusal("transition_not_allowed")
    event.refresh_from_db()
    assert event.status == "planned"


def test_tournament_status_finish_with_players_remaining_is_409():
    event = tournament()
    register(event, "Anna Berger")
    register(event, "Ben Cohen")
    event.status = "running"
    event.save()

    response = api(staff("director")).post(status_url(event), {"status": "finished"}, format="json")

    assert response.status_code == 409
    assert response.json() == refusal("players_remaining")


def test_tournament_status_finish_with_one_player_left():
    # Late registration still open: the last bust leaves the finish to the director.
    event = tournament(late_reg_until_level=5)
    register(event, "Anna Berger")
    ben = entry_of(register(event, "Ben Cohen"))
    event.status = "running"
    event.save()
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=ben.pk)

    response = api(staff("director")).post(status_url(event), {"status": "finished"}, format="json")

    assert response.status_code == 200
    assert response.json()["status"] == "finished"


@pytest.mark.parametrize("role", ["cashier", "floor", "dealer"])
def test_tournament_status_by_other_roles_is_403(role):
    event = tournament(status="planned")

    response = api(staff(role)).post(status_url(event), {"status": "registering"}, format="json")

    assert response.status_code == 403
    event.refresh_from_db()
    assert event.status == "planned"


def test_tournament_status_anonymous_is_401():
    event = tournament(status="planned")

    response = api().post(status_url(event), {"status": "registering"}, format="json")

    assert response.status_code == 401
    event.refresh_from_db()
    assert event.status == "planned"


def test_tournament_cancel_refunds_every_payment_by_reversing_lines():
    director = staff("director")
    event = tournament(rebuy_until_level=4, rebuy_price=10000, rebuy_chips=20000)
    anna = entry_of(register(event, "Anna Berger"))
    ben = entry_of(register(event, "Ben Cohen"))
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=ben.pk)
    paid = ledger(event)

    response = api(director).post(status_url(event), {"status": "cancelled"}, format="json")

    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    lines = list(Transaction.objects.filter(tournament=event).order_by("id"))
    assert ledger(event)[:3] == paid  # nothing deleted or edited
    refunds = lines[3:]
    assert [(r.kind, r.amount, r.prize_share, r.fee_share) for r in refunds] == [
        ("refund", -11000, -10000, -1000),
        ("refund", -11000, -10000, -1000),
        ("refund", -10000, -10000, 0),
    ]
    assert [r.reverses_id for r in refunds] == [line.id for line in lines[:3]]
    assert {r.cashier for r in refunds} == {director}
    assert dict(Entry.objects.values_list("pk", "status")) == {
        anna.pk: "cancelled",
        ben.pk: "busted",
    }
    totals = api().get(f"{API}/tournaments/{event.pk}/totals/").json()
    assert (totals["prize_pool"], totals["collected"], totals["fees"]) == (0, 0, 0)
    assert (totals["entries"], totals["rebuys"], totals["active"]) == (0, 0, 0)
    audit = AuditEntry.objects.get(action="tournament.cancelled")
    assert audit.after == {"status": "cancelled", "refunded": 32000}


def test_tournament_cancel_withdraws_waiting_alternates():
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")

    response = api(staff("director")).post(
        status_url(event), {"status": "cancelled"}, format="json"
    )

    assert response.status_code == 200
    assert Alternate.objects.get().status == "withdrawn"
    assert api().get(f"{API}/tournaments/{event.pk}/alternates/").json() == []


def test_tournament_cancel_with_guarantee_shows_no_prize_pool():
    event = tournament(guarantee=1_000_000)
    register(event, "Anna Berger")

    api(staff("director")).post(status_url(event), {"status": "cancelled"}, format="json")

    totals = api().get(f"{API}/tournaments/{event.pk}/totals/").json()
    assert (totals["prize_pool"], totals["overlay"]) == (0, 0)


def test_tournament_cancel_twice_is_409_and_refunds_once():
    event = tournament()
    register(event, "Anna Berger")
    client = api(staff("director"))
    client.post(status_url(event), {"status": "cancelled"}, format="json")

    response = client.post(status_url(event), {"status": "cancelled"}, format="json")

    assert response.status_code == 409
    assert response.json() == refusal("transition_not_allowed")
    assert Transaction.objects.filter(kind="refund").count() == 1


# --- Entries: registration -----------------------------------------------------------


def test_entry_create_with_new_player_gives_public_fields_only():
    cashier = staff("cashier")
    event = tournament()

    response = api(cashier).post(
        entries_url(event),
        {
            "player": {
                "name": "Anna Berger",
                "nickname": "Annie",
                "country": "at",
                "email": "anna@example.com",
                "phone": "+43 660 1234567",
                "birth_year": 1990,
            }
        },
        format="json",
    )

    assert response.status_code == 201
    entry = Entry.objects.get()
    player = Player.objects.get()
    assert response.json() == {
        "id": entry.pk,
        "number": 1,
        "reentry_number": 1,
        "player": {"id": player.pk, "name": "Anna Berger", "nickname": "Annie", "country": "AT"},
        "status": "active",
        "chips": 20000,
        "rebuys": 0,
        "addon": False,
        "table": None,
        "seat": None,
        "place": None,
        "place_shared": None,
    }
    assert (player.email, player.phone, player.birth_year) == (
        "anna@example.com",
        "+43 660 1234567",
        1990,
    )
    assert entry.registered_by == cashier
    assert ledger(event) == [("buy_in", 11000, 10000, 1000, entry.pk, None)]


def test_entry_create_with_player_id_uses_that_player():
    event = tournament()
    player = Player.objects.create(name="Ben Cohen", country="DE")

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": player.pk}, format="json"
    )

    assert response.status_code == 201
    entry = Entry.objects.get()
    assert response.json() == entry_json(entry)
    assert response.json()["player"] == {
        "id": player.pk,
        "name": "Ben Cohen",
        "nickname": "",
        "country": "DE",
    }
    assert Player.objects.count() == 1


def test_entry_create_numbers_entries_in_order():
    event = tournament()
    client = api(staff("cashier"))

    numbers = [
        client.post(entries_url(event), {"player": {"name": name}}, format="json").json()["number"]
        for name in ("Anna", "Ben", "Cleo")
    ]

    assert numbers == [1, 2, 3]


def test_entry_create_by_director_is_allowed():
    response = api(staff("director")).post(
        entries_url(tournament()), {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 201


@pytest.mark.parametrize("role", ["floor", "dealer"])
def test_entry_create_by_floor_or_dealer_is_403(role):
    event = tournament()

    response = api(staff(role)).post(
        entries_url(event), {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 403
    assert (Entry.objects.count(), Player.objects.count(), Transaction.objects.count()) == (0, 0, 0)


def test_entry_create_anonymous_is_401():
    event = tournament()

    response = api().post(entries_url(event), {"player": {"name": "Anna Berger"}}, format="json")

    assert response.status_code == 401
    assert (Entry.objects.count(), Player.objects.count()) == (0, 0)


def test_entry_create_unknown_tournament_is_404():
    response = api(staff("cashier")).post(
        f"{API}/tournaments/999999/entries/", {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 404
    assert Player.objects.count() == 0


def test_entry_create_player_and_player_id_together_is_400():
    event = tournament()
    player = Player.objects.create(name="Ben Cohen")

    response = api(staff("cashier")).post(
        entries_url(event), {"player": {"name": "Anna"}, "player_id": player.pk}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {"player": ["Give either a player or a player_id, not both."]}
    assert Entry.objects.count() == 0


def test_entry_list_anonymous_shows_no_contact_data():
    event = tournament()
    anna = entry_of(
        register(event, "Anna Berger", email="anna@example.com", phone="+43 660 1234567")
    )

    response = api().get(entries_url(event))

    assert response.status_code == 200
    assert response.json()["results"] == [entry_json(anna)]
    assert "anna@example.com" not in response.content.decode()
    assert "1234567" not in response.content.decode()


def test_entry_retrieve_anonymous_shows_no_contact_data():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger", email="anna@example.com"))

    response = api().get(entry_url(anna))

    assert response.status_code == 200
    assert response.json() == entry_json(anna)


def test_entry_retrieve_through_another_tournament_is_404():
    anna = entry_of(register(tournament(), "Anna Berger"))
    other = tournament(name="Other")

    response = api().get(f"{API}/tournaments/{other.pk}/entries/{anna.pk}/")

    assert response.status_code == 404


def test_entry_list_filters_by_status_and_query():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))
    ben = entry_of(register(event, "Ben Cohen"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=ben.pk)
    client = api()

    busted = client.get(entries_url(event), {"status": "busted"}).json()["results"]
    found = client.get(entries_url(event), {"q": "berg"}).json()["results"]
    by_number = client.get(entries_url(event), {"q": "2"}).json()["results"]

    assert [e["id"] for e in busted] == [ben.pk]
    assert [e["id"] for e in found] == [anna.pk]
    assert [e["id"] for e in by_number] == [ben.pk]


def test_entry_list_query_count_does_not_grow_with_entries(django_assert_num_queries):
    event = tournament()
    register(event, "Anna Berger")
    client = api()
    # the tournament, the count, the page; for places: the field and the bust-outs
    with django_assert_num_queries(5) as one:
        client.get(entries_url(event))
    register(event, "Ben Cohen")
    register(event, "Cleo Dahl")

    with django_assert_num_queries(len(one.captured_queries)):
        response = client.get(entries_url(event))

    assert response.json()["count"] == 3


def test_entry_create_second_active_entry_is_409():
    event = tournament(reentry_allowed=True)
    anna = entry_of(register(event, "Anna Berger", birth_year=1990))

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("already_active")
    assert Entry.objects.count() == 1
    assert Transaction.objects.count() == 1


def test_entry_create_busted_player_without_reentry_flag_is_409():
    event = tournament(reentry_allowed=True)
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("reentry_required")
    assert Entry.objects.count() == 1


def test_entry_reentry_gets_next_number_and_a_full_starting_stack():
    """TDA 8-A: a re-entry is a new entry with a full starting stack."""
    event = tournament(reentry_allowed=True, rebuy_until_level=4, rebuy_price=100, rebuy_chips=10)
    anna = entry_of(register(event, "Anna Berger"))
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    assert response.status_code == 201
    again = Entry.objects.get(reentry_number=2)
    assert response.json() == entry_json(again)
    assert (response.json()["number"], response.json()["chips"], response.json()["rebuys"]) == (
        2,
        20000,
        0,
    )
    assert ledger(event)[-1] == ("reentry", 11000, 10000, 1000, again.pk, None)
    assert AuditEntry.objects.filter(action="entry.reenter").count() == 1


def test_entry_reentry_by_name_finds_the_player_through_birth_year():
    event = tournament(reentry_allowed=True)
    anna = entry_of(register(event, "Anna Berger", birth_year=1990))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(
        entries_url(event),
        {"player": {"name": "anna berger", "birth_year": 1990}, "reentry": True},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["player"]["id"] == anna.player_id
    assert response.json()["reentry_number"] == 2
    assert Player.objects.count() == 1


def test_entry_reentry_when_not_allowed_is_409():
    event = tournament(reentry_allowed=False)
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("reentry_not_allowed")
    assert Entry.objects.count() == 1


def test_entry_reentry_beyond_limit_is_409():
    event = tournament(reentry_allowed=True, reentry_max=1)
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    again = entry_of(
        desk_intentions.entry_register(
            actor=None, tournament_id=event.pk, player_id=anna.player_id, reentry=True
        )
    )
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=again.pk)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("reentry_limit")
    assert Entry.objects.filter(player=anna.player).count() == 2


def test_entry_reentry_after_closing_level_is_409():
    event = tournament(
        reentry_allowed=True, reentry_until_level=4, late_reg_until_level=6, current_level=1
    )
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=5)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("reentry_closed")
    assert Entry.objects.count() == 1


def test_entry_reentry_during_closing_level_is_allowed():
    event = tournament(reentry_allowed=True, reentry_until_level=4, late_reg_until_level=6)
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=4)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    assert response.status_code == 201


def test_entry_reentry_without_earlier_entry_is_400():
    event = tournament(reentry_allowed=True)
    player = Player.objects.create(name="Anna Berger")

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": player.pk, "reentry": True}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {"reentry": ["The player has no earlier entry to re-enter."]}
    assert Entry.objects.count() == 0


def test_entry_reentry_for_new_player_creates_nobody():
    event = tournament(reentry_allowed=True)

    response = api(staff("cashier")).post(
        entries_url(event), {"player": {"name": "Anna Berger"}, "reentry": True}, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()) == ["reentry"]
    assert (Player.objects.count(), Entry.objects.count()) == (0, 0)


def test_entry_create_after_cancelled_entry_registers_again():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))
    desk_intentions.entry_cancel(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["reentry_number"] == 1
    assert Entry.objects.filter(status="active").count() == 1
    assert Entry.objects.count() == 2


def test_entry_create_late_registration_open_until_end_of_level():
    event = tournament(status="running", late_reg_until_level=3, current_level=3)

    response = api(staff("cashier")).post(
        entries_url(event), {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 201


def test_entry_create_after_late_registration_is_409():
    event = tournament(status="running", late_reg_until_level=3, current_level=4)

    response = api(staff("cashier")).post(
        entries_url(event), {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("registration_closed")
    assert (Entry.objects.count(), Player.objects.count(), Transaction.objects.count()) == (0, 0, 0)


@pytest.mark.parametrize("status", ["planned", "finished", "cancelled"])
def test_entry_create_outside_registration_is_409(status):
    event = tournament(status=status)

    response = api(staff("cashier")).post(
        entries_url(event), {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 409
    assert response.json() == refusal("registration_closed")
    assert Entry.objects.count() == 0


def test_entry_create_running_without_late_registration_is_409():
    event = tournament(status="running", late_reg_until_level=None)

    response = api(staff("cashier")).post(
        entries_url(event), {"player": {"name": "Anna Berger"}}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "registration_closed"


# --- Alternates ------------------------------------------------------------------------


def alternates_url(event: Tournament, action: str = "") -> str:
    return f"{API}/tournaments/{event.pk}/alternates/{action}"


def test_entry_create_sold_out_puts_player_on_alternates_list():
    event = tournament(capacity=2)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")

    response = api(staff("cashier")).post(
        entries_url(event),
        {"player": {"name": "Cleo Dahl", "email": "cleo@example.com"}},
        format="json",
    )

    assert response.status_code == 409
    alternate = Alternate.objects.get()
    cleo = Player.objects.get(name="Cleo Dahl")
    assert response.json() == {
        **refusal("sold_out"),
        "alternate": {
            "id": alternate.pk,
            "position": 1,
            "player": player_json(cleo),
            "reentry": False,
            "added_at": timezone.localtime(alternate.added_at).isoformat(),
        },
    }
    assert Entry.objects.count() == 2
    assert Transaction.objects.count() == 2  # alternates pay when they get a place
    listing = api().get(alternates_url(event))
    assert listing.status_code == 200
    assert [(a["position"], a["player"]["name"]) for a in listing.json()] == [(1, "Cleo Dahl")]
    assert "cleo@example.com" not in listing.content.decode()
    assert AuditEntry.objects.filter(action="alternate.add").count() == 1


def test_entry_create_alternate_twice_is_409():
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    ben = Player.objects.create(name="Ben Cohen")
    client = api(staff("cashier"))
    client.post(entries_url(event), {"player_id": ben.pk}, format="json")

    response = client.post(entries_url(event), {"player_id": ben.pk}, format="json")

    assert response.status_code == 409
    assert response.json() == refusal("already_alternate")
    assert Alternate.objects.count() == 1


def test_alternate_enter_next_seats_the_first_alternate_in_order():
    cashier = staff("cashier")
    event = tournament(capacity=2)
    anna = entry_of(register(event, "Anna Berger"))
    register(event, "Ben Cohen")
    register(event, "Cleo Dahl")  # alternate 1
    register(event, "Dan Eder")  # alternate 2
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(cashier).post(alternates_url(event, "enter-next/"))

    assert response.status_code == 201
    entry = Entry.objects.get(player__name="Cleo Dahl")
    assert response.json() == entry_json(entry)
    assert (entry.number, entry.chips, entry.registered_by) == (3, 20000, cashier)
    assert ledger(event)[-1] == ("buy_in", 11000, 10000, 1000, entry.pk, None)
    cleo_alternate = Alternate.objects.get(player__name="Cleo Dahl")
    assert (cleo_alternate.status, cleo_alternate.entry) == ("seated", entry)
    listing = api().get(alternates_url(event)).json()
    assert [(a["position"], a["player"]["name"]) for a in listing] == [(2, "Dan Eder")]


def test_entry_create_walk_up_while_alternates_wait_joins_the_list():
    """Casino §8b: a freed place goes to the alternates in order, not to a walk-up."""
    event = tournament(capacity=2)
    anna = entry_of(register(event, "Anna Berger"))
    register(event, "Ben Cohen")
    register(event, "Cleo Dahl")  # alternate 1
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    client = api(staff("cashier"))

    walk_up = client.post(entries_url(event), {"player": {"name": "Dan Eder"}}, format="json")
    seated = client.post(alternates_url(event, "enter-next/"))

    assert walk_up.status_code == 409
    assert walk_up.json()["code"] == "sold_out"
    assert walk_up.json()["alternate"]["position"] == 2
    assert seated.status_code == 201
    assert seated.json()["player"]["name"] == "Cleo Dahl"
    assert not Entry.objects.filter(player__name="Dan Eder").exists()


def test_alternate_enter_next_without_free_place_is_409():
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")

    response = api(staff("cashier")).post(alternates_url(event, "enter-next/"))

    assert response.status_code == 409
    assert response.json() == refusal("no_free_place")
    assert Entry.objects.count() == 1
    assert Alternate.objects.get().status == "waiting"


def test_alternate_enter_next_with_nobody_waiting_is_409():
    event = tournament(capacity=1)

    response = api(staff("cashier")).post(alternates_url(event, "enter-next/"))

    assert response.status_code == 409
    assert response.json() == refusal("no_alternate")


@pytest.mark.parametrize("role", ["floor", "dealer"])
def test_alternate_enter_next_by_floor_or_dealer_is_403(role):
    event = tournament(capacity=1)
    anna = entry_of(register(event, "Anna Berger"))
    register(event, "Ben Cohen")
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff(role)).post(alternates_url(event, "enter-next/"))

    assert response.status_code == 403
    assert Entry.objects.count() == 1


def test_alternate_withdraw_takes_the_player_off_the_list():
    cashier = staff("cashier")
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")
    alternate = Alternate.objects.get()

    response = api(cashier).post(alternates_url(event, f"{alternate.pk}/withdraw/"))

    assert response.status_code == 204
    alternate.refresh_from_db()
    assert alternate.status == "withdrawn"
    assert api().get(alternates_url(event)).json() == []
    audit = AuditEntry.objects.get(action="alternate.withdraw")
    assert (audit.actor, audit.before, audit.after) == (
        cashier,
        {"status": "waiting"},
        {"status": "withdrawn"},
    )


def test_alternate_withdraw_twice_is_404():
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")
    alternate = Alternate.objects.get()
    client = api(staff("cashier"))
    client.post(alternates_url(event, f"{alternate.pk}/withdraw/"))

    response = client.post(alternates_url(event, f"{alternate.pk}/withdraw/"))

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_alternate_withdraw_through_another_tournament_is_404():
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")
    alternate = Alternate.objects.get()
    other = tournament(name="Other")

    response = api(staff("cashier")).post(alternates_url(other, f"{alternate.pk}/withdraw/"))

    assert response.status_code == 404
    assert Alternate.objects.get().status == "waiting"


def test_alternate_withdrawn_player_may_register_again_later():
    event = tournament(capacity=1)
    anna = entry_of(register(event, "Anna Berger"))
    ben = Player.objects.create(name="Ben Cohen")
    client = api(staff("cashier"))
    client.post(entries_url(event), {"player_id": ben.pk}, format="json")
    client.post(alternates_url(event, f"{Alternate.objects.get().pk}/withdraw/"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = client.post(entries_url(event), {"player_id": ben.pk}, format="json")

    assert response.status_code == 201
    assert response.json()["player"]["id"] == ben.pk


# --- Bust and undo ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["floor", "director"])
def test_entry_bust_by_floor_or_director(role):
    user = staff(role)
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))

    response = api(user).post(entry_url(anna, "bust"))

    assert response.status_code == 200
    assert response.json() == entry_json(anna, status="busted")
    anna.refresh_from_db()
    assert anna.status == "busted"
    assert anna.busted_at is not None
    audit = AuditEntry.objects.get(action="entry.bust")
    assert (audit.actor, audit.tournament, audit.object_id) == (user, event, str(anna.pk))
    assert (audit.before["status"], audit.after["status"]) == ("active", "busted")


@pytest.mark.parametrize("role", ["cashier", "dealer"])
def test_entry_bust_by_cashier_or_dealer_is_403(role):
    anna = entry_of(register(tournament(), "Anna Berger"))

    response = api(staff(role)).post(entry_url(anna, "bust"))

    assert response.status_code == 403
    anna.refresh_from_db()
    assert anna.status == "active"
    assert AuditEntry.objects.filter(action="entry.bust").count() == 0


def test_entry_bust_anonymous_is_401():
    anna = entry_of(register(tournament(), "Anna Berger"))

    response = api().post(entry_url(anna, "bust"))

    assert response.status_code == 401
    anna.refresh_from_db()
    assert anna.status == "active"


def test_entry_bust_busted_entry_is_409():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))
    client = api(staff("floor"))
    client.post(entry_url(anna, "bust"))

    response = client.post(entry_url(anna, "bust"))

    assert response.status_code == 409
    assert response.json() == refusal("entry_not_active")
    assert AuditEntry.objects.filter(action="entry.bust").count() == 1


def test_entry_bust_unknown_entry_is_404():
    event = tournament()

    response = api(staff("floor")).post(f"{API}/tournaments/{event.pk}/entries/999999/bust/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No such entry in this tournament."}


def test_entry_bust_through_another_tournament_is_404():
    anna = entry_of(register(tournament(), "Anna Berger"))
    other = tournament(name="Other")

    response = api(staff("floor")).post(f"{API}/tournaments/{other.pk}/entries/{anna.pk}/bust/")

    assert response.status_code == 404
    anna.refresh_from_db()
    assert anna.status == "active"


def test_entry_bust_undo_restores_the_entry():
    event = tournament(capacity=2)
    anna = entry_of(register(event, "Anna Berger"))
    client = api(staff("floor"))
    client.post(entry_url(anna, "bust"))

    response = client.post(entry_url(anna, "undo-bust"))

    assert response.status_code == 200
    assert response.json() == entry_json(anna, status="active")
    anna.refresh_from_db()
    assert (anna.status, anna.busted_at) == ("active", None)
    audit = AuditEntry.objects.get(action="entry.bust_undo")
    assert (audit.before["status"], audit.after["status"]) == ("busted", "active")


def test_entry_bust_undo_after_alternate_took_the_place_is_409():
    event = tournament(capacity=2)
    anna = entry_of(register(event, "Anna Berger"))
    register(event, "Ben Cohen")
    register(event, "Cleo Dahl")  # alternate
    api(staff("floor")).post(entry_url(anna, "bust"))
    api(staff("cashier")).post(alternates_url(event, "enter-next/"))

    response = api(staff("floor")).post(entry_url(anna, "undo-bust"))

    assert response.status_code == 409
    assert response.json() == refusal("place_taken")
    anna.refresh_from_db()
    assert anna.status == "busted"
    assert Entry.objects.filter(status="active").count() == 2


def test_entry_bust_undo_after_player_reentered_is_409():
    event = tournament(reentry_allowed=True)
    anna = entry_of(register(event, "Anna Berger"))
    floor = api(staff("floor"))
    floor.post(entry_url(anna, "bust"))
    api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )

    response = floor.post(entry_url(anna, "undo-bust"))

    assert response.status_code == 409
    assert response.json() == refusal("player_reentered")
    anna.refresh_from_db()
    assert anna.status == "busted"


def test_entry_bust_undo_of_active_entry_is_409():
    anna = entry_of(register(tournament(), "Anna Berger"))

    response = api(staff("floor")).post(entry_url(anna, "undo-bust"))

    assert response.status_code == 409
    assert response.json() == refusal("entry_not_busted")


def test_entry_bust_undo_by_cashier_is_403():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(entry_url(anna, "undo-bust"))

    assert response.status_code == 403
    anna.refresh_from_db()
    assert anna.status == "busted"


def test_entry_bust_undo_never_leaves_an_active_player_on_the_alternates_list():
    event = tournament(capacity=2, reentry_allowed=True)
    anna = entry_of(register(event, "Anna Berger"))
    register(event, "Ben Cohen")
    register(event, "Cleo Dahl")  # alternate 1
    floor = api(staff("floor"))
    floor.post(entry_url(anna, "bust"))
    api(staff("cashier")).post(
        entries_url(event), {"player_id": anna.player_id, "reentry": True}, format="json"
    )  # sold out while Cleo waits: Anna becomes alternate 2

    response = floor.post(entry_url(anna, "undo-bust"))

    assert response.status_code in (200, 409)
    active = Entry.objects.filter(player=anna.player, status="active").exists()
    waiting = Alternate.objects.filter(player=anna.player, status="waiting").exists()
    assert not (active and waiting)


# --- Rebuys, add-ons, cancel ---------------------------------------------------------------


def rebuy_event(**overrides) -> Tournament:
    data = {
        "rebuy_until_level": 4,
        "rebuy_max": 2,
        "rebuy_price": 10000,
        "rebuy_chips": 20000,
        "addon_at_break_after_level": 4,
        "addon_price": 10000,
        "addon_chips": 30000,
    }
    return tournament(**{**data, **overrides})


def test_entry_rebuy_adds_chips_and_a_ledger_line():
    cashier = staff("cashier")
    event = rebuy_event()
    anna = entry_of(register(event, "Anna Berger"))

    response = api(cashier).post(entry_url(anna, "rebuy"))

    assert response.status_code == 200
    assert response.json() == entry_json(anna, chips=40000, rebuys=1)
    anna.refresh_from_db()
    assert (anna.chips, anna.rebuys) == (40000, 1)
    assert ledger(event)[-1] == ("rebuy", 10000, 10000, 0, anna.pk, None)
    assert Transaction.objects.get(kind="rebuy").cashier == cashier
    audit = AuditEntry.objects.get(action="entry.rebuy")
    assert (audit.actor, audit.before["chips"], audit.after["chips"]) == (cashier, 20000, 40000)


def test_entry_rebuy_beyond_limit_is_409():
    event = rebuy_event(rebuy_max=2)
    anna = entry_of(register(event, "Anna Berger"))
    client = api(staff("cashier"))
    client.post(entry_url(anna, "rebuy"))
    client.post(entry_url(anna, "rebuy"))

    response = client.post(entry_url(anna, "rebuy"))

    assert response.status_code == 409
    assert response.json() == refusal("rebuy_limit")
    anna.refresh_from_db()
    assert (anna.chips, anna.rebuys) == (60000, 2)
    assert Transaction.objects.filter(kind="rebuy").count() == 2


def test_entry_rebuy_after_rebuy_period_is_409():
    event = rebuy_event(rebuy_until_level=4)
    anna = entry_of(register(event, "Anna Berger"))
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=5)

    response = api(staff("cashier")).post(entry_url(anna, "rebuy"))

    assert response.status_code == 409
    assert response.json() == refusal("rebuy_closed")
    assert Transaction.objects.filter(kind="rebuy").count() == 0


def test_entry_rebuy_in_last_rebuy_level_is_allowed():
    event = rebuy_event(rebuy_until_level=4)
    anna = entry_of(register(event, "Anna Berger"))
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=4)

    response = api(staff("cashier")).post(entry_url(anna, "rebuy"))

    assert response.status_code == 200


def test_entry_rebuy_not_offered_is_409():
    anna = entry_of(register(tournament(), "Anna Berger"))

    response = api(staff("cashier")).post(entry_url(anna, "rebuy"))

    assert response.status_code == 409
    assert response.json() == refusal("rebuy_not_offered")


def test_entry_rebuy_of_busted_entry_is_409():
    event = rebuy_event()
    anna = entry_of(register(event, "Anna Berger"))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    response = api(staff("cashier")).post(entry_url(anna, "rebuy"))

    assert response.status_code == 409
    assert response.json() == refusal("entry_not_active")


@pytest.mark.parametrize("role", ["floor", "dealer"])
def test_entry_rebuy_by_floor_or_dealer_is_403(role):
    event = rebuy_event()
    anna = entry_of(register(event, "Anna Berger"))

    response = api(staff(role)).post(entry_url(anna, "rebuy"))

    assert response.status_code == 403
    assert Transaction.objects.count() == 1


def test_entry_addon_adds_chips_once():
    event = rebuy_event()
    anna = entry_of(register(event, "Anna Berger"))
    client = api(staff("cashier"))

    first = client.post(entry_url(anna, "addon"))
    second = client.post(entry_url(anna, "addon"))

    assert first.status_code == 200
    assert first.json() == entry_json(anna, chips=50000, addon=True)
    assert second.status_code == 409
    assert second.json() == refusal("addon_taken")
    anna.refresh_from_db()
    assert (anna.chips, anna.addon) == (50000, True)
    assert ledger(event)[1:] == [("addon", 10000, 10000, 0, anna.pk, None)]


def test_entry_addon_after_its_break_is_409():
    event = rebuy_event(addon_at_break_after_level=4)
    anna = entry_of(register(event, "Anna Berger"))
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=5)

    response = api(staff("cashier")).post(entry_url(anna, "addon"))

    assert response.status_code == 409
    assert response.json() == refusal("addon_closed")
    anna.refresh_from_db()
    assert (anna.chips, anna.addon) == (20000, False)


def test_entry_addon_not_offered_is_409():
    anna = entry_of(register(tournament(), "Anna Berger"))

    response = api(staff("cashier")).post(entry_url(anna, "addon"))

    assert response.status_code == 409
    assert response.json() == refusal("addon_not_offered")


def test_entry_cancel_refunds_every_line_by_reversing_it():
    cashier = staff("cashier")
    event = rebuy_event()
    anna = entry_of(register(event, "Anna Berger"))
    ben = entry_of(register(event, "Ben Cohen"))
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    desk_intentions.entry_addon(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    paid = ledger(event)

    response = api(cashier).post(entry_url(anna, "cancel"))

    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert ledger(event)[:4] == paid
    anna_lines = {line.kind: line.pk for line in Transaction.objects.filter(entry=anna)}
    assert ledger(event)[4:] == [
        ("refund", -11000, -10000, -1000, anna.pk, anna_lines["buy_in"]),
        ("refund", -10000, -10000, 0, anna.pk, anna_lines["rebuy"]),
        ("refund", -10000, -10000, 0, anna.pk, anna_lines["addon"]),
    ]
    assert Entry.objects.get(pk=ben.pk).status == "active"
    totals = api().get(f"{API}/tournaments/{event.pk}/totals/").json()
    assert (totals["entries"], totals["rebuys"], totals["addons"]) == (1, 0, 0)
    assert (totals["prize_pool"], totals["fees"], totals["active"]) == (10000, 1000, 1)
    audit = AuditEntry.objects.get(action="entry.cancel")
    assert (audit.actor, audit.after["refunded"], audit.after["status"]) == (
        cashier,
        31000,
        "cancelled",
    )


def test_entry_cancel_twice_is_409_and_refunds_once():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))
    client = api(staff("cashier"))
    client.post(entry_url(anna, "cancel"))

    response = client.post(entry_url(anna, "cancel"))

    assert response.status_code == 409
    assert response.json() == refusal("entry_not_active")
    assert Transaction.objects.filter(kind="refund").count() == 1


def test_entry_cancel_by_floor_is_403():
    anna = entry_of(register(tournament(), "Anna Berger"))

    response = api(staff("floor")).post(entry_url(anna, "cancel"))

    assert response.status_code == 403
    assert Transaction.objects.filter(kind="refund").count() == 0


# --- Totals ----------------------------------------------------------------------------


def test_totals_reconcile_with_the_ledger():
    event = rebuy_event(reentry_allowed=True, capacity=10)
    anna = entry_of(register(event, "Anna Berger"))
    ben = entry_of(register(event, "Ben Cohen"))
    cleo = entry_of(register(event, "Cleo Dahl"))
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    desk_intentions.entry_addon(actor=None, tournament_id=event.pk, entry_id=ben.pk)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=ben.pk)
    desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=ben.player_id, reentry=True
    )
    desk_intentions.entry_cancel(actor=None, tournament_id=event.pk, entry_id=cleo.pk)

    response = api().get(f"{API}/tournaments/{event.pk}/totals/")

    assert response.status_code == 200
    sums = Transaction.objects.filter(tournament=event).aggregate(
        prize=Sum("prize_share"), fees=Sum("fee_share")
    )
    assert response.json() == {
        "entries": 2,
        "reentries": 1,
        "rebuys": 2,
        "addons": 1,
        "active": 2,
        "free_places": 8,
        "alternates_waiting": 0,
        "prize_pool": sums["prize"],
        "collected": sums["prize"],
        "guarantee": 0,
        "overlay": 0,
        "paid_out": 0,
        "fees": sums["fees"],
        "tickets": 0,
        "bounty_collected": 0,
        "bounty_paid_out": 0,
        "bounty_left": 0,
        "currency": "EUR",
    }
    assert (sums["prize"], sums["fees"]) == (60000, 3000)


def test_totals_guarantee_adds_overlay_when_collected_falls_short():
    event = tournament(guarantee=50000)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")

    totals = api().get(f"{API}/tournaments/{event.pk}/totals/").json()

    assert (totals["collected"], totals["guarantee"], totals["overlay"], totals["prize_pool"]) == (
        20000,
        50000,
        30000,
        50000,
    )
    assert totals["fees"] == 2000


def test_totals_guarantee_met_means_no_overlay():
    event = tournament(guarantee=20000)
    for name in ("Anna", "Ben", "Cleo"):
        register(event, name)

    totals = api().get(f"{API}/tournaments/{event.pk}/totals/").json()

    assert (totals["collected"], totals["overlay"], totals["prize_pool"]) == (30000, 0, 30000)


def test_totals_count_waiting_alternates_and_free_places():
    event = tournament(capacity=1)
    register(event, "Anna Berger")
    register(event, "Ben Cohen")

    totals = api().get(f"{API}/tournaments/{event.pk}/totals/").json()

    assert (totals["active"], totals["free_places"], totals["alternates_waiting"]) == (1, 0, 1)


def test_totals_unknown_tournament_is_404():
    assert api().get(f"{API}/tournaments/999999/totals/").status_code == 404


# --- Players ------------------------------------------------------------------------------


def test_players_anonymous_is_401():
    Player.objects.create(name="Anna Berger", email="anna@example.com")

    response = api().get(f"{API}/players/")

    assert response.status_code == 401
    assert "anna@example.com" not in response.content.decode()


def test_players_dealer_is_403():
    Player.objects.create(name="Anna Berger", email="anna@example.com")

    response = api(staff("dealer")).get(f"{API}/players/")

    assert response.status_code == 403
    assert "anna@example.com" not in response.content.decode()


@pytest.mark.parametrize("role", ["floor", "cashier", "director"])
def test_players_staff_see_contact_data(role):
    anna = Player.objects.create(
        name="Anna Berger", email="anna@example.com", phone="+43 660 1234567", birth_year=1990
    )

    response = api(staff(role)).get(f"{API}/players/")

    assert response.status_code == 200
    assert response.json()["results"] == [
        {
            "id": anna.pk,
            "name": "Anna Berger",
            "nickname": "",
            "country": "",
            "birth_year": 1990,
            "email": "anna@example.com",
            "phone": "+43 660 1234567",
            "accessible_seat": False,
            "id_checked_at": None,
        }
    ]


def test_players_search_by_name_or_nickname():
    Player.objects.create(name="Anna Berger")
    Player.objects.create(name="Ben Cohen", nickname="The Bear")
    client = api(staff("cashier"))

    by_name = client.get(f"{API}/players/", {"q": "berg"}).json()["results"]
    by_nickname = client.get(f"{API}/players/", {"q": "bear"}).json()["results"]

    assert [p["name"] for p in by_name] == ["Anna Berger"]
    assert [p["name"] for p in by_nickname] == ["Ben Cohen"]


def test_player_create_stores_and_audits():
    cashier = staff("cashier")

    response = api(cashier).post(
        f"{API}/players/",
        {"name": "Anna Berger", "country": "at", "email": "anna@example.com", "birth_year": 1990},
        format="json",
    )

    assert response.status_code == 201
    anna = Player.objects.get()
    assert response.json() == {
        "id": anna.pk,
        "name": "Anna Berger",
        "nickname": "",
        "country": "AT",
        "birth_year": 1990,
        "email": "anna@example.com",
        "phone": "",
        "accessible_seat": False,
        "id_checked_at": None,
    }
    audit = AuditEntry.objects.get()
    assert (audit.action, audit.actor, audit.object_id) == ("player.create", cashier, str(anna.pk))


def test_player_create_same_email_returns_the_existing_player():
    anna = Player.objects.create(name="Anna Berger", email="anna@example.com")

    response = api(staff("cashier")).post(
        f"{API}/players/", {"name": "A. Berger", "email": "ANNA@example.com"}, format="json"
    )

    assert response.json()["id"] == anna.pk
    assert response.json()["name"] == "Anna Berger"
    assert Player.objects.count() == 1
    assert AuditEntry.objects.count() == 0


def test_player_create_same_name_and_birth_year_returns_the_existing_player():
    anna = Player.objects.create(name="Anna Berger", birth_year=1990)

    response = api(staff("cashier")).post(
        f"{API}/players/", {"name": "anna berger", "birth_year": 1990}, format="json"
    )

    assert response.json()["id"] == anna.pk
    assert Player.objects.count() == 1


def test_player_create_same_name_other_birth_year_is_a_new_player():
    Player.objects.create(name="Anna Berger", birth_year=1990)

    response = api(staff("cashier")).post(
        f"{API}/players/", {"name": "Anna Berger", "birth_year": 1991}, format="json"
    )

    assert response.status_code == 201
    assert Player.objects.count() == 2


def test_entry_create_with_known_email_registers_the_existing_player():
    event = tournament()
    anna = Player.objects.create(name="Anna Berger", email="anna@example.com")

    response = api(staff("cashier")).post(
        entries_url(event),
        {"player": {"name": "Anna B.", "email": "anna@example.com"}},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["player"]["id"] == anna.pk
    assert Player.objects.count() == 1


def test_player_update_changes_and_audits():
    anna = Player.objects.create(name="Anna Berger", phone="1")

    response = api(staff("cashier")).patch(
        f"{API}/players/{anna.pk}/", {"phone": "+43 660 1234567"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["phone"] == "+43 660 1234567"
    anna.refresh_from_db()
    assert anna.phone == "+43 660 1234567"
    audit = AuditEntry.objects.get()
    assert (audit.action, audit.before["phone"], audit.after["phone"]) == (
        "player.update",
        "1",
        "+43 660 1234567",
    )


def test_player_accessible_seat_is_set_through_the_api_tda_9():
    """Issue 16: the draw honours a player's accessible seat (TDA 9); the API sets it."""
    anna = Player.objects.create(name="Anna Berger")

    response = api(staff("cashier")).patch(
        f"{API}/players/{anna.pk}/", {"accessible_seat": True}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["accessible_seat"] is True
    anna.refresh_from_db()
    assert anna.accessible_seat is True
    audit = AuditEntry.objects.get()
    assert (audit.before["accessible_seat"], audit.after["accessible_seat"]) == (False, True)


def test_player_update_to_another_players_email_is_409():
    Player.objects.create(name="Anna Berger", email="anna@example.com")
    ben = Player.objects.create(name="Ben Cohen", email="ben@example.com")

    response = api(staff("cashier")).patch(
        f"{API}/players/{ben.pk}/", {"email": "Anna@Example.com"}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "duplicate_player"
    ben.refresh_from_db()
    assert ben.email == "ben@example.com"


def test_player_update_to_another_players_name_and_birth_year_is_409():
    anna = Player.objects.create(name="Anna Berger", email="anna@example.com")
    Player.objects.create(name="Ben Cohen", birth_year=1980)

    response = api(staff("cashier")).patch(
        f"{API}/players/{anna.pk}/", {"name": "Ben Cohen", "birth_year": 1980}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "duplicate_player"


def test_player_update_by_dealer_is_403():
    anna = Player.objects.create(name="Anna Berger")

    response = api(staff("dealer")).patch(f"{API}/players/{anna.pk}/", {"name": "X"}, format="json")

    assert response.status_code == 403
    anna.refresh_from_db()
    assert anna.name == "Anna Berger"


def test_player_id_check_records_the_time():
    floor = staff("floor")
    anna = Player.objects.create(name="Anna Berger")

    response = api(floor).post(f"{API}/players/{anna.pk}/id-check/")

    assert response.status_code == 200
    anna.refresh_from_db()
    assert anna.id_checked_at is not None
    assert response.json()["id_checked_at"] is not None
    assert AuditEntry.objects.get().action == "player.id_check"


# --- Audit ------------------------------------------------------------------------------


def test_audit_registration_writes_one_entry_with_actor_and_data():
    cashier = staff("cashier")
    event = tournament()

    response = api(cashier).post(entries_url(event), {"player": {"name": "Anna"}}, format="json")

    entry = Entry.objects.get()
    audit = AuditEntry.objects.get()
    assert response.status_code == 201
    assert (audit.action, audit.actor, audit.tournament) == ("entry.register", cashier, event)
    assert (audit.object_type, audit.object_id) == ("entry", str(entry.pk))
    assert audit.before is None
    assert audit.after == {
        "number": 1,
        "reentry_number": 1,
        "status": "active",
        "chips": 20000,
        "rebuys": 0,
        "addon": False,
        "player": entry.player_id,
    }


def test_audit_refused_action_writes_nothing():
    event = tournament()
    anna = entry_of(register(event, "Anna Berger"))
    before = AuditEntry.objects.count()
    client = api(staff("director"))

    client.post(entry_url(anna, "undo-bust"))
    client.post(entries_url(event), {"player_id": anna.player_id}, format="json")
    client.post(status_url(event), {"status": "running"}, format="json")

    assert AuditEntry.objects.count() == before


def test_audit_endpoint_lists_newest_first_for_the_director():
    director = staff("director", username="dora")
    event = tournament()
    other = tournament(name="Other")
    register(other, "Zoe Other")
    client = api(director)
    client.post(entries_url(event), {"player": {"name": "Anna"}}, format="json")
    anna = Entry.objects.get(tournament=event)
    api(staff("floor", username="fred")).post(entry_url(anna, "bust"))

    response = client.get(f"{API}/tournaments/{event.pk}/audit/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [(e["action"], e["actor"]) for e in body["results"]] == [
        ("entry.bust", "fred"),
        ("entry.register", "dora"),
    ]
    bust = body["results"][0]
    assert (bust["object_type"], bust["object_id"]) == ("entry", str(anna.pk))
    assert (bust["before"]["status"], bust["after"]["status"]) == ("active", "busted")


def test_audit_endpoint_filters_by_action():
    event = tournament()
    client = api(staff("director"))
    for name in ("Anna", "Ben"):
        client.post(entries_url(event), {"player": {"name": name}}, format="json")
    client.post(entry_url(Entry.objects.get(player__name="Anna"), "bust"))

    busts = client.get(f"{API}/tournaments/{event.pk}/audit/", {"action": "entry.bust"}).json()
    nothing = client.get(f"{API}/tournaments/{event.pk}/audit/", {"action": "entry.x"}).json()

    assert [e["action"] for e in busts["results"]] == ["entry.bust"]
    assert nothing["count"] == 0


def test_audit_endpoint_filters_by_actor():
    event = tournament()
    dora = staff("director")
    carla = staff("cashier")
    api(dora).post(entries_url(event), {"player": {"name": "Anna"}}, format="json")
    api(carla).post(entries_url(event), {"player": {"name": "Ben"}}, format="json")

    body = api(dora).get(f"{API}/tournaments/{event.pk}/audit/", {"actor": carla.pk}).json()

    assert [e["actor"] for e in body["results"]] == [carla.username]


def test_audit_endpoint_shows_no_actor_for_what_the_system_did():
    """Fuzzing found it: `actor` is null for a change without a user (a service called
    with actor=None), and the schema said it was always a username."""
    event = tournament()
    register(event, "Anna")  # actor=None

    body = api(staff("director")).get(f"{API}/tournaments/{event.pk}/audit/").json()

    assert [e["actor"] for e in body["results"]] == [None]
    documented = resolve(response_schema("/api/v1/tournaments/{id}/audit/", "get", 200))
    entry = resolve(documented["properties"]["results"]["items"])
    assert entry["properties"]["actor"]["nullable"] is True


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_audit_endpoint_for_other_roles_is_403(role):
    event = tournament()

    response = api(staff(role)).get(f"{API}/tournaments/{event.pk}/audit/")

    assert response.status_code == 403


def test_audit_endpoint_anonymous_is_401():
    response = api().get(f"{API}/tournaments/{tournament().pk}/audit/")

    assert response.status_code == 401


# --- Schema ---------------------------------------------------------------------------------


def test_schema_is_openapi():
    response = api().get(f"{API}/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/tournaments/{tournament_pk}/entries/" in schema["paths"]
    assert "/api/v1/auth/token/" in schema["paths"]


def test_schema_documents_the_alternates_answers():
    """Fuzzing found these: the list is a plain list (the schema said paginated), selling
    to the next alternate answers 201 and a withdrawal 204 (the schema said 200)."""
    listed = response_schema("/api/v1/tournaments/{id}/alternates/", "get", 200)
    enter_next = "/api/v1/tournaments/{tournament_pk}/alternates/enter-next/"
    withdraw = "/api/v1/tournaments/{tournament_pk}/alternates/{id}/withdraw/"

    assert listed["type"] == "array"
    assert list(documented_responses(enter_next, "post")) == ["201"]
    assert list(documented_responses(withdraw, "post")) == ["204"]


def test_schema_docs_page_loads():
    response = api().get(f"{API}/docs/")

    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.mark.parametrize(
    "field, value",
    [("flight_end_percent", 0), ("flight_end_percent", 100), ("day2_late_stack", 0)],
)
def test_festival_settings_out_of_bounds_are_a_400_and_nothing_is_written(field, value):
    director = staff("director", username="dora")

    response = api(director).post(f"{API}/tournaments/", {**NEW_EVENT, field: value}, format="json")

    assert response.status_code == 400
    assert field in response.json()
    assert not Tournament.objects.exists()
