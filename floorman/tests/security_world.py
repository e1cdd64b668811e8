"""A tournament with something behind every URL of the project, and the people who ask.

Used by the security tests (test_permissions, test_csrf): every path converter of every
URL pattern is filled with the id of a real object made here, so that a page answers
with its content (200) and not with 404.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman import keys
from hands import services as hand_services
from hands.tests.factories import button_at, deal, seat_players
from prizes import services as prize_services
from prizes.services import events as event_services
from rulings import services as rulings
from seating import services as seating
from seating.models import SeatingAction
from tournaments.models import Ticket, Tournament
from tournaments.services import series as series_services
from tournaments.tests.factories import register, staff, tournament
from webhooks.models import Delivery, DeliveryStatus, Endpoint

EMAIL = "erika.kontakt@example.org"
PHONE = "+43 660 9876543"
CONTACT = (EMAIL, PHONE, PHONE.replace(" ", ""), "9876543")
THROUGH_THE_PROXY = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_HOST": "testserver"}  # conftest

# The admin's own converters: any app, the first user, the catch-all.
ADMIN = {
    "app_label": "admin_app",
    "object_id": "admin_object",
    "id": "admin_object",
    "content_type_id": "admin_type",
}

ANONYMOUS = ("anonymous", "phone", "link")  # nobody signed in: public pages only
ROLES = ("dealer", "cashier", "floor", "director")
PERSONAS = ANONYMOUS + ROLES


@dataclass
class World:
    event: Tournament
    ids: dict[str, Any]
    entry: Any  # the entry of the player with email and phone, seated at table 1
    token: str  # a tablet link for table 1
    token_2: str  # a tablet link for table 2
    users: dict[str, User] = field(default_factory=dict)


def build_world() -> World:
    event = tournament(name="Security Main Event")
    clock = with_structure(event)
    contact = register(event, "Erika Kontakt", email=EMAIL, phone=PHONE).entry
    seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=contact.pk, to_table=1, to_seat=5
    )
    button_at(event, 2, 1)
    button_at(event, 1, 1)
    hand = deal(event, 1)
    # Sold out: the next player waits on the alternates list.
    Tournament.objects.filter(pk=event.pk).update(capacity=9)
    alternate = register(event, "Alex Waiting").alternate
    event.refresh_from_db()

    link = hand_services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    link_2 = hand_services.tablet_link_create(actor=None, tournament_id=event.pk, number=2)
    chip_set = clock_services.chip_set_save(
        actor=None, chip_set_id=None, name="Security chips", chips=[(25, "green"), (100, "black")]
    )
    player_clock = clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=1, seat=2, facing_bet=True
    )
    announcement = clock_services.announcement_post(
        actor=None, tournament_id=event.pk, text="Dinner break after level 4"
    )
    prize_services.payouts_update(actor=None, tournament_id=event.pk, locked=True)
    prize_services.template_save(actor=None, tournament_id=event.pk, name="Ten percent")
    event_template = event_services.event_template_save(
        actor=None, tournament_id=event.pk, name="Security weekly"
    )
    venue = rulings.venue_save(actor=None, name="Casino Test", is_default=True)
    house_rule = rulings.house_rule_save(
        actor=None,
        venue_id=venue.pk,
        data={"kind": "override", "tda": "57", "title": "Unclear amounts", "text": "Lowest."},
    )
    rulings.incident_record(
        actor=None,
        tournament_id=event.pk,
        data={
            "table": 1,
            "hand": hand.number,
            "entries": [contact.pk],
            "category": "betting",
            "description": "Seat 5 put out one oversized chip and said nothing.",
            "rules": ["44"],
            "decision": "A call.",
        },
    )
    penalty = rulings.penalty_give(
        actor=None, tournament_id=event.pk, data={"entry": contact.pk, "kind": "warning"}
    )
    action = SeatingAction.objects.filter(tournament=event).latest("pk")
    colleague = staff("cashier", username="security-colleague")  # whose access is taken back
    api_key = keys.api_key_create(actor=None, name="Security results site", scope="read").key
    # A seat won in a satellite, held by the contact (issue 17).
    ticket = Ticket.objects.create(
        target=event, holder_id=contact.player_id, buy_in=event.buy_in, fee=event.fee
    )
    festival = series_services.series_add(  # issue 17: a public series holding the event
        actor=None,
        data={
            "name": "Security Festival",
            "slug": "security-festival",
            "starts_on": timezone.localdate(event.start_at),
            "ends_on": timezone.localdate(event.start_at),
        },
    )
    series_services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=festival.pk, series_number=1
    )
    # Issue 22: a webhook of the event with a dead letter (made as rows: no DNS asked).
    webhook = Endpoint.objects.create(
        tournament=event,
        url="https://hooks.example.org/in",
        event_types=["entry.busted"],
        secret="whsec_c2VjdXJpdHkgd29ybGQgc2VjcmV0IDMyIGJ5dGVzIQ==",
    )
    dead = Delivery.objects.create(
        endpoint=webhook,
        message_id="msg_security",
        event_type="entry.busted",
        payload={"type": "entry.busted", "data": {}},
        status=DeliveryStatus.DEAD,
    )
    ids = {
        "endpoint_id": webhook.pk,
        "endpoint_pk": webhook.pk,
        "delivery_id": dead.pk,
        "delivery_pk": dead.pk,
        "ticket_id": ticket.pk,
        "ticket_pk": ticket.pk,
        "series_id": festival.pk,
        "slug": festival.slug,
        "tournament_id": event.pk,
        "tournament_pk": event.pk,
        "table": 1,
        "seat": 1,
        "entry_number": contact.number,
        "entry_id": contact.pk,
        "entry_pk": contact.pk,
        "alternate_id": alternate.pk,
        "player_id": contact.player_id,
        "player_pk": contact.player_id,
        "structure_id": clock.structure_id,
        "chip_set_id": chip_set.pk,
        "player_clock_id": player_clock.pk,
        "announcement_id": announcement.pk,
        "action_id": action.pk,
        "token": link.token,
        "hand_number": hand.number,
        "venue_id": venue.pk,
        "venue_pk": venue.pk,
        "rule_id": house_rule.pk,
        "penalty_id": penalty.pk,
        "penalty_pk": penalty.pk,
        "rule_number": "57",
        "admin_app": "auth",
        "admin_object": 1,
        "admin_type": ContentType.objects.get_for_model(User).pk,
        "url": "nothing-here/",
        "user_id": colleague.pk,
        "key_id": api_key.pk,
        "template_id": event_template.pk,
        "template_pk": event_template.pk,
        "bag_id": 1,  # Day 2 (issue 17): the event has no flights, so no such bag
        "bag_pk": 1,
        "knockout_id": 1,  # issue 18: the event has no bounties, so no such knockout
        "knockout_pk": 1,
        "draft_id": 1,  # issue 22: no file waits for its review, so no such draft
    }
    return World(event=event, ids=ids, entry=contact, token=link.token, token_2=link_2.token)


def staff_user(world: World, role: str) -> User:
    """The world's member of staff with this role (one per role)."""
    if role not in world.users:
        world.users[role] = staff(role)
    return world.users[role]


def client_for(world: World, persona: str, **extra) -> Client:
    """The browser of one persona; staff signed in with a session."""
    client = Client(**THROUGH_THE_PROXY, **extra)
    if persona in ROLES:
        client.force_login(staff_user(world, persona))
    elif persona == "phone":  # a player's phone: the receipt's QR code, the seat lookup
        client.get(reverse("tournaments:entry-public", args=[world.event.pk, world.entry.number]))
        client.get(reverse("seats:lookup", args=[world.event.pk]), {"q": "Kontakt"})
    elif persona == "link":  # a dealer without an account: table 1's tablet link
        client.get(reverse("hands:link", args=[world.token]))
    return client


class RolledBack(Exception):
    """Raised to undo what one request wrote."""


def rolled_back(client: Client, request: Callable[[], HttpResponse]) -> HttpResponse:
    """Make one request and undo its writes, and the cookies it set (a logout, a flash
    message), so that the next request finds the same world."""
    cookies = {key: morsel.value for key, morsel in client.cookies.items()}
    try:
        with transaction.atomic():
            response = request()
            raise RolledBack
    except RolledBack:
        pass
    client.cookies = SimpleCookie(cookies)
    return response


@dataclass(frozen=True)
class Route:
    name: str  # namespaced URL name, or the pattern for the few without a name
    pattern: str  # the whole pattern, for messages
    path: str  # the pattern filled with ids of the world's objects


def _kwargs_of(pattern) -> list[str]:
    if hasattr(pattern, "converters") and getattr(pattern, "_route", None) is not None:
        return list(pattern.converters)
    return list(pattern.regex.groupindex)


PK_OF = {  # the router's prefix before (?P<pk>...): which object's id
    "series": "series_id",
    "tournaments": "tournament_id",
    "players": "player_id",
    "entries": "entry_pk",
    "structures": "structure_id",
    "chipsets": "chip_set_id",
    "alternates": "alternate_id",
    "player-clocks": "player_clock_id",
    "announcements": "announcement_id",
}


def fill(pattern: str, ids: dict) -> str:
    """The pattern as a path, each converter and named group given an id from `ids`."""

    def group(match: re.Match) -> str:
        name = match[1]
        before = pattern[: match.start()].rstrip("/").rsplit("/", 1)[-1].lstrip("^")
        if name == "pk":
            return str(ids[PK_OF[before]])
        if name == "format":
            return "json"
        return str(ids[ADMIN.get(name, name)])

    def converter(match: re.Match) -> str:
        kind, name = match[1], match[2]
        before = path[: match.start()].rstrip("/").rsplit("/", 1)[-1]
        if kind == "drf_format_suffix":
            return ".json"
        if name == "number":
            if before in ("entries", "entry"):
                return str(ids["entry_number"])
            if before == "rules":
                return str(ids["rule_number"])
            return str(ids["table"])
        return str(ids[ADMIN.get(name, name)])

    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", group, pattern)
    path = re.sub(r"<(?:(\w+):)?(\w+)>", converter, path)
    return "/" + path.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "")


class AnyId(dict):
    """Ids for walking the patterns without a world: 1 for everything."""

    def __missing__(self, key):
        return 1


def routes(ids: dict | None = None) -> list[Route]:
    """Every URL pattern of the project, with a path that reaches it (`ids`: a world's)."""
    ids = AnyId() if ids is None else ids
    return [Route(name or pattern, pattern, fill(pattern, ids)) for name, pattern, _ in walk()]


def walk(patterns=None, prefix: str = "", namespace: str = "", kwargs=()) -> list:
    """(name, whole pattern, kwarg names) of every URL pattern, depth first."""
    found = []
    for item in get_resolver().url_patterns if patterns is None else patterns:
        here = prefix + str(item.pattern)
        names = [*kwargs, *_kwargs_of(item.pattern)]
        if isinstance(item, URLResolver):
            inner = namespace + (f"{item.namespace}:" if item.namespace else "")
            found += walk(item.url_patterns, here, inner, names)
        else:
            assert isinstance(item, URLPattern)
            found.append((namespace + item.name if item.name else "", here, names))
    return found
