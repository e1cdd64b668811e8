"""Plain factories for tests: no surprises, every value visible at the call site."""

import itertools
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.utils import timezone

from hands.services import busts as bust_services
from seating.services import desk as desk_intentions
from tournaments.models import Tournament

_counter = itertools.count(1)
STAFF_PASSWORD = "pw-Floorman-2026"  # every account `staff` makes
_staff_password_hashes: dict[tuple[str, ...], str] = {}


def staff_password_hash() -> str:
    """STAFF_PASSWORD hashed once per hasher setting, not once per account: the real
    hasher (browser and fault tests, whose servers check it) costs ~0.7 s a hash. The
    server still checks every login against it with the real hasher; only the salt is
    shared between the accounts of a run."""
    hashers = tuple(settings.PASSWORD_HASHERS)
    if hashers not in _staff_password_hashes:
        _staff_password_hashes[hashers] = make_password(STAFF_PASSWORD)
    return _staff_password_hashes[hashers]


def staff(role: str, username: str | None = None) -> User:
    """A user holding one role: director, floor, cashier or dealer."""
    user = User.objects.create(
        username=User.normalize_username(username or f"{role}{next(_counter)}"),
        password=staff_password_hash(),
    )
    # get_or_create: transactional tests flush the groups the migration made.
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def tournament(**overrides) -> Tournament:
    """A €100 + €10 no-limit hold'em event with 20,000 chips, open for registration."""
    data = {
        "name": "Sunday Main Event",
        "buy_in": 10000,
        "fee": 1000,
        "currency": "EUR",
        "starting_stack": 20000,
        "table_size": 9,
        "start_at": timezone.now() + timedelta(hours=1),
    }
    status = overrides.pop("status", "registering")
    data.update(overrides)
    created = Tournament.objects.create(**data)
    if status != "planned":
        Tournament.objects.filter(pk=created.pk).update(status=status)
        created.refresh_from_db()
    return created


def register(tournament: Tournament, name: str, *, actor=None, reentry: bool = False, **player):
    return desk_intentions.entry_register(
        actor=actor,
        tournament_id=tournament.pk,
        player_data={"name": name, **player},
        reentry=reentry,
    )


def field(event: Tournament, count: int, **player) -> list:
    """`count` players registered, named "Player 1" and on."""
    return [register(event, f"Player {n}", **player).entry for n in range(1, count + 1)]


def registration_closed(event: Tournament) -> Tournament:
    """Play in level 2 with late registration over at the end of level 1: no more money
    comes in, so the payout table holds."""
    Tournament.objects.filter(pk=event.pk).update(
        status="running", late_reg_until_level=1, current_level=2
    )
    event.refresh_from_db()
    return event


def bust_in_order(event: Tournament, *entries) -> None:
    """The floor busts the entries one by one, as their places are called."""
    floor = staff("floor")
    for entry in entries:
        bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk)


def signed_in(user):
    """A browser signed in through the login form, as a person does, reaching the app
    through the TLS proxy (production settings redirect plain HTTP)."""
    from django.test import Client
    from django.urls import reverse

    client = Client(HTTP_X_FORWARDED_PROTO="https")
    response = client.post(
        reverse("login"), {"username": user.username, "password": STAFF_PASSWORD}
    )
    assert response.status_code == 302, "the login form refused the account"
    return client


def api(user=None):
    """An API client as the TLS proxy forwards requests (production settings redirect
    plain HTTP), signed in as `user` if given."""
    from rest_framework.test import APIClient

    client = APIClient(HTTP_X_FORWARDED_PROTO="https")
    if user is not None:
        client.force_authenticate(user)
    return client
