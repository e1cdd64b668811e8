"""Fuzz the whole API against its own OpenAPI schema with schemathesis.

Every operation of /api/v1/schema/ is called in-process (WSGI, the test database) with
requests generated from the schema: as a director with a token, valid and invalid ones
(schemathesis' examples, coverage and fuzzing phases), and anonymously, a few generated
ones (every write stops at the login check there). Each answer must

- never be a server error (5xx);
- have a status code the schema documents, or be one of the client errors every
  operation may answer (400 with field messages, 401, 403, 404, 405, 409, 415, 429):
  drf-spectacular documents only the success answers, as OpenAPI allows;
- match the schema documented for its status code, content type included.

Schemathesis cannot guess database ids, so three requests in four get the path
parameters of a small, complete tournament (entries, seated tables, a clock with its
structure, a hand in play and one finished, a bust, payouts, an alternate, an
announcement, a player clock, an incident and a penalty; and an API key); the rest keep
the generated ones (mostly unknown ids: 404). `test_known_ids_are_found` checks those
ids, so that the fuzzing does not quietly run against 404s only.

The data is made once for the module; each operation and mode runs in its own savepoint,
rolled back after it, so every one starts from the same data whatever the director's
requests before it wrote. Hypothesis is derandomized, so a run is repeatable.

By default each operation gets FUZZ_EXAMPLES=5 generated requests as the director (half
as many anonymously), plus the coverage phase's boundary cases. A longer fuzz, before a
release or after changing the API:

    FUZZ_EXAMPLES=200 .venv/bin/pytest -p no:cacheprovider -n 2 floorman/tests/test_api_fuzz.py

FUZZ_SEED=<n> explores other requests than the derandomized ones. For one operation,
select it by words of its path and the mode: -k "alternates and director".
"""

import os
import zlib
from dataclasses import dataclass
from datetime import timedelta

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi import checks as openapi_checks

from clock import services as clock_services
from clock.tests.factories import structure, with_structure
from floorman import keys
from hands.services import hand_action
from hands.tests.factories import button_at, deal, finish, seat_players
from prizes import services as prize_services
from prizes.services import events as prize_events
from rulings import services as rulings_services
from tournaments.models import Alternate, Entry, Player, Tournament, Venue
from tournaments.services import series as series_services
from tournaments.tests.factories import register, staff, tournament
from webhooks.models import Delivery, DeliveryStatus, Endpoint

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "5"))
ANONYMOUS_EXAMPLES = max(EXAMPLES // 2, 2)
SEED = os.environ.get("FUZZ_SEED")

# As the TLS proxy forwards requests: production settings redirect plain HTTP to HTTPS.
HTTPS = {"X-Forwarded-Proto": "https"}
APP = get_wsgi_application()
SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/schema/", APP, headers=HTTPS)
if SEED:
    SCHEMA.config.seed = int(SEED)

# Client errors any operation may answer without the schema listing them.
CLIENT_ERRORS = {400, 401, 403, 404, 405, 409, 415, 429}


def status_code_conformance(ctx, response, case) -> bool | None:
    """Schemathesis' check, but a client error need not be documented: drf-spectacular
    lists only the successes, as OpenAPI allows. A 400 must say what is wrong."""
    if response.status_code == 400:
        assert isinstance(response.json(), dict), "400 without field messages"
    if response.status_code in CLIENT_ERRORS:
        return None
    return openapi_checks.status_code_conformance(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
]


@dataclass
class World:
    director_token: str
    event: Tournament  # running, two tables, a hand in play on each, busts, payouts
    active: Entry  # seated at table 1
    busted: Entry
    player: Player
    full: Tournament  # sold out, with an alternate waiting
    alternate: Alternate
    chip_set_id: int
    structure_id: int  # a template no tournament uses
    announcement_id: int
    player_clock_id: int
    penalty_id: int
    hand_in_play: int  # on table 1
    api_key_id: int  # another tool's key, not revoked
    event_template_id: int  # saved from `event`
    series_id: int  # a public series holding `event` (issue 17)
    venue_id: int  # the default venue, with a house setting of its own (issue 19)
    endpoint_id: int = 0  # a webhook of the event (issue 22)
    delivery_id: int = 0  # a dead letter of it


def build_world() -> World:
    director = staff("director", username="fuzz-director")
    token = Token.objects.create(user=director).key
    event = tournament(
        reentry_allowed=True,
        rebuy_until_level=4,
        rebuy_price=10000,
        rebuy_chips=20000,
        addon_at_break_after_level=4,
        addon_price=10000,
        addon_chips=30000,
        start_at=timezone.now() - timedelta(hours=1),
    )
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]})
    Tournament.objects.filter(pk=event.pk).update(status="running")
    clock_services.clock_act(actor=director, tournament_id=event.pk, action="start")
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    # Table 2: a hand played to its end, a player busted in it.
    played = deal(event, 2)
    out = seated[(2, 3)]
    finish(event, 2, played, busts=[3])
    # Table 1: a hand in play, the first player to act has raised.
    in_play = deal(event, 1)
    hand_action(
        actor=director,
        tournament_id=event.pk,
        number=1,
        hand_number=in_play.number,
        kind="raise",
        amount=600,
    )
    prize_services.payouts_update(
        actor=director, tournament_id=event.pk, settings={"places_mode": "fixed", "places_fixed": 3}
    )
    active = seated[(1, 2)]
    announcement = clock_services.announcement_post(
        actor=director, tournament_id=event.pk, text="Dinner break after level 4"
    )
    player_clock = clock_services.player_clock_call(
        actor=director, tournament_id=event.pk, table=1, seat=4, facing_bet=True
    )
    incident = rulings_services.incident_record(
        actor=director,
        tournament_id=event.pk,
        data={
            "table": 1,
            "category": "etiquette",
            "description": "Swearing at the dealer",
            "rules": ["71"],
            "decision": "Warning",
            "entries": [active.pk],
        },
    )
    penalty = rulings_services.penalty_give(
        actor=director,
        tournament_id=event.pk,
        data={"entry": active.pk, "kind": "missed_hands", "hands": 3, "incident": incident.pk},
    )
    full = tournament(name="Sold out", capacity=1)
    register(full, "Cleo Dahl")
    alternate = register(full, "Dan Eder").alternate
    chip_set = clock_services.chip_set_save(
        actor=director, chip_set_id=None, name="House", chips=[(25, "green"), (100, "black")]
    )
    api_key = keys.api_key_create(actor=director, name="Results site", scope="read").key
    event_template = prize_events.event_template_save(
        actor=director, tournament_id=event.pk, name="Weekly main event"
    )
    series = series_services.series_add(
        actor=director,
        data={
            "name": "Fuzz Festival",
            "slug": "fuzz-festival",
            "starts_on": timezone.localdate(event.start_at),
            "ends_on": timezone.localdate(event.start_at),
        },
    )
    series_services.series_event_set(
        actor=director, tournament_id=event.pk, series_id=series.pk, series_number=1
    )
    venue = Venue.objects.create(
        name="Fuzz Casino", is_default=True, house_settings={"undercall": "casino"}
    )
    # Issue 22: a webhook of the event with a dead letter (rows: no DNS asked).
    webhook = Endpoint.objects.create(
        tournament=event,
        url="https://hooks.example.org/in",
        event_types=["entry.busted"],
        secret="whsec_ZnV6eiB3b3JsZCBzZWNyZXQgb2YgMzIgYnl0ZXMhIQ==",
    )
    dead = Delivery.objects.create(
        endpoint=webhook,
        message_id="msg_fuzz",
        event_type="entry.busted",
        payload={"type": "entry.busted", "data": {}},
        status=DeliveryStatus.DEAD,
    )
    return World(
        endpoint_id=webhook.pk,
        delivery_id=dead.pk,
        venue_id=venue.pk,
        series_id=series.pk,
        director_token=token,
        event=event,
        active=active,
        busted=out,
        player=active.player,
        full=full,
        alternate=alternate,
        chip_set_id=chip_set.pk,
        structure_id=structure(name="Turbo").pk,
        announcement_id=announcement.pk,
        player_clock_id=player_clock.pk,
        penalty_id=penalty.pk,
        hand_in_play=in_play.number,
        api_key_id=api_key.pk,
        event_template_id=event_template.pk,
    )


def known_path_parameters(path: str, world: World) -> dict:
    """Ids that exist, for each path parameter of `path`."""
    if "/alternates/" in path:
        tournament_id = world.full.pk
    else:
        tournament_id = world.event.pk
    if path.startswith("/api/v1/players/"):
        object_id = world.player.pk
    elif path.startswith("/api/v1/chipsets/"):
        object_id = world.chip_set_id
    elif path.startswith("/api/v1/structures/"):
        object_id = world.structure_id
    elif "/entries/" in path:
        object_id = world.active.pk
    elif path.startswith("/api/v1/tournaments/{tournament_pk}/alternates/"):
        object_id = world.alternate.pk
    elif "/announcements/" in path:
        object_id = world.announcement_id
    elif "/player-clocks/" in path:
        object_id = world.player_clock_id
    elif path.startswith("/api/v1/series/"):
        object_id = world.series_id
    else:
        object_id = tournament_id
    return {
        "id": object_id,
        "tournament_pk": tournament_id,
        "player_pk": world.player.pk,
        "entry_pk": world.busted.pk,
        "penalty_pk": world.penalty_id,
        "number": "45" if "/rulings/rules/" in path else 1,
        "hand_number": world.hand_in_play,
        "seat": 6,
        "key_id": world.api_key_id,
        "template_pk": world.event_template_id,
        "bag_pk": 1,  # Day 2 (issue 17): the world's event has no flights, no bags
        "ticket_pk": 1,  # tickets (issue 17): none in this world, or not the caller's
        "knockout_pk": 1,  # bounties (issue 18): the world's event has none
        "venue_pk": world.venue_id,
        "endpoint_pk": world.endpoint_id,
        "delivery_pk": world.delivery_id,
    }


@pytest.fixture(scope="module")
def world_made(django_db_setup, django_db_blocker):
    """Made once for the module, in a transaction rolled back at its end; each test
    runs in a savepoint inside it (pytest-django's `db`), so it starts from this data."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(world_made, db) -> World:
    return world_made


@pytest.fixture(autouse=True)
def test_database_connection_kept():
    """Django closes the connection after each request, which would end the test's
    transaction; its test client disconnects the same handler."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    """The fuzzer asks far more often than people may: it would mostly meet 429s. Every
    limit of the API counts through floorman.ratelimit (test_rate_limits.py checks it)."""
    settings.FLOORMAN_RATE_LOGIN = settings.FLOORMAN_RATE_LOOKUP = ""


def use_known_ids(case) -> bool:
    """Three requests in four go to objects that exist; the rest keep generated ids."""
    generated = repr(sorted(case.path_parameters.items())) if case.path_parameters else ""
    return bool(case.path_parameters) and zlib.crc32(generated.encode()) % 4 != 0


def headers_for(who: str, world: World) -> dict:
    if who == "director":
        return {**HTTPS, "Authorization": f"Token {world.director_token}"}
    return dict(HTTPS)


FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=SEED is None,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
# Without a login every write ends at the authentication check, before any body is read:
# the schema's boundary cases (coverage phase) would all meet the same 401. A few
# generated requests an operation show that none of them is a 500 or off its schema.
ANONYMOUS_SETTINGS = settings(
    FUZZ_SETTINGS, max_examples=ANONYMOUS_EXAMPLES, phases=[Phase.generate]
)


def request_checked(case, who: str, world: World):
    if use_known_ids(case):
        known = known_path_parameters(case.operation.path, world)
        case.path_parameters = {name: known[name] for name in case.path_parameters}
    headers = headers_for(who, world)
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)
    return response


# The tournament's PUT and PATCH take the body its POST takes (the same serializer, some
# sixty fields): the coverage phase's boundary cases of that body, hundreds of requests,
# are sent to the POST only; the other two get the generated requests.
SAME_BODY = ["PUT /api/v1/tournaments/{id}/", "PATCH /api/v1/tournaments/{id}/"] + [
    # So too a PATCH beside its PUT: the same body, every field optional.
    f"PATCH {result.ok().path}"
    for result in SCHEMA.get_all_operations()
    if result.ok().method == "put"
    and result.ok().path != "/api/v1/tournaments/{id}/"
    and any(
        other.ok().method == "patch" and other.ok().path == result.ok().path
        for other in SCHEMA.get_all_operations()
    )
]
GENERATED_ONLY = settings(FUZZ_SETTINGS, phases=[Phase.generate])


def director_checked(case, who, world) -> None:
    response = request_checked(case, who, world)
    # The director must reach every operation: never turned away as unknown (401) or
    # throttled (429), which would leave the operation untried.
    assert response.status_code not in (401, 429), response.text[:500]


# (A parametrize of one value: without one, pytest would give every operation's test the
# same id, the function's name alone.)
@pytest.mark.parametrize("who", ["director"])
@SCHEMA.exclude(name=SAME_BODY).parametrize()
@FUZZ_SETTINGS
def test_api_as_director(case, who, world):
    director_checked(case, who, world)


@pytest.mark.parametrize("who", ["director"])
@SCHEMA.include(name=SAME_BODY).parametrize()
@GENERATED_ONLY
def test_api_as_director_same_body(case, who, world):
    director_checked(case, who, world)


@pytest.mark.parametrize("who", ["anonymous"])
@SCHEMA.parametrize()
@ANONYMOUS_SETTINGS
def test_api_anonymously(case, who, world):
    request_checked(case, who, world)


KNOWN_QUERY = {"q": "Player 0002"}  # the seat lookup
GETS_WITH_IDS = [
    result.ok()
    for result in SCHEMA.get_all_operations()
    if result.ok().method == "get" and "{" in result.ok().path
]


@pytest.mark.parametrize("operation", GETS_WITH_IDS, ids=lambda operation: operation.label)
def test_known_ids_are_found(operation, world):
    """The ids the fuzzing uses exist: each GET of one object answers 200, as documented."""
    known = known_path_parameters(operation.path, world)
    names = [parameter.name for parameter in operation.path_parameters]
    required = [parameter.name for parameter in operation.query if parameter.is_required]
    case = operation.Case(
        path_parameters={name: known[name] for name in names},
        query={name: KNOWN_QUERY[name] for name in required},
    )
    headers = headers_for("director", world)

    response = case.call(headers=headers)

    assert response.status_code == 200, response.text[:500]
    case.validate_response(response, checks=CHECKS, headers=headers)
