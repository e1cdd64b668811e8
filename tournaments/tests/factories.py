"""Plain factories for tests: no surprises, every value visible at the call site."""

import itertools
from datetime import timedelta

from django.contrib.auth.models import Group, User
from django.utils import timezone

from tournaments import services
from tournaments.models import Tournament

_counter = itertools.count(1)


def staff(role: str, username: str | None = None) -> User:
    """A user holding one role: director, floor, cashier or dealer."""
    user = User.objects.create_user(
        username or f"{role}{next(_counter)}", password="pw-Floorman-2026"
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
    return services.entry_register(
        actor=actor,
        tournament_id=tournament.pk,
        player_data={"name": name, **player},
        reentry=reentry,
    )
