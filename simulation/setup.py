"""Setting the event up as a director would: the tournament, its blind structure, the
house settings for seating and hand-for-hand, and the venue's tables."""

import math
import random
from contextlib import contextmanager
from unittest import mock

from django.utils import timezone

from clock import services as clock_services
from clock.engine.generator import STANDARD_CHIPS, GeneratorInput, generate
from hands import services as hands_services
from hands.services import tables as hands_tables
from seating import services as seating_services
from seating.models import Table
from seating.services import desk as desk_intentions
from tournaments import services as desk_services

LEVELS = 60  # more than any simulated event plays; the last level would go on anyway
SPARE_TABLES = 2  # besides one per 400 places: late entries open them when the rest are full


class SeededSecrets:
    """Stands in for the `secrets` module in the services that draw seats and buttons.

    DESIGN: every draw takes a fresh seed from `secrets` and stores it. The simulation
    hands the services seeds from its own generator instead, so that a run repeats
    with its --seed; the draws themselves are the services' own, seed stored as ever.
    """

    def __init__(self, rng: random.Random):
        self._rng = rng

    def token_hex(self, nbytes: int = 32) -> str:
        return self._rng.randbytes(nbytes).hex()

    def randbits(self, k: int) -> int:
        return self._rng.getrandbits(k)


@contextmanager
def seeded_draws(seed: int):
    source = SeededSecrets(random.Random(f"floorman-draws-{seed}"))
    with (
        mock.patch.object(seating_services, "secrets", source),
        mock.patch.object(hands_tables, "secrets", source),
    ):
        yield


FIRST = (
    "Anna", "Ben", "Clara", "David", "Elif", "Felix", "Greta", "Hannes", "Ida", "Jonas",
    "Katarina", "Lukas", "Marta", "Noah", "Olga", "Paul", "Quentin", "Rosa", "Stefan",
    "Tereza", "Uwe", "Vera", "Wojciech", "Xenia", "Yusuf", "Zoë", "Åsa", "Jörg", "Ilse",
)  # fmt: skip
LAST = (
    "Müller", "Novak", "García", "Schmidt", "Horvat", "Kowalski", "Nagy", "Dubois",
    "Rossi", "Jensen", "Öztürk", "Weiß", "Svoboda", "Popescu", "Berger", "Fischer",
    "Ivanova", "Larsen", "Moreau", "Kovač", "Brandt", "Hofer", "Lindqvist", "Costa",
)  # fmt: skip


def player_names(rng: random.Random):
    """Endless names, some of them alike as in any big field (each a new player)."""
    while True:
        yield f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def tournament_create(
    sim, *, name: str = "", settings: dict | None = None, status: str | None = "registering"
):
    """The event, its structure and house settings, open for registration (`status`;
    None: left planned). `settings`: more of the event's own (a festival's house
    settings for flights and Day 2, a satellite's target)."""
    config = sim.config
    data = {
        "name": name or f"Simulated event (seed {config.seed})",
        "buy_in": config.buy_in,
        "fee": config.fee,
        "currency": "EUR",
        "starting_stack": config.starting_stack,
        "table_size": config.table_size,
        "capacity": config.capacity,
        "start_at": timezone.now(),
        "late_reg_until_level": config.late_until_level,
        "reentry_allowed": True,
        "reentry_max": config.reentry_max,
        "reentry_until_level": config.late_until_level,
        **(_bounty_settings(config) if config.bounty_format else {}),
        **(settings or {}),
    }
    tournament = sim.timings.call(
        "tournament_create", desk_services.tournament_create, actor=None, data=data
    )
    sim.tournament = tournament
    steps = generate(
        GeneratorInput(
            starting_stack=config.starting_stack,
            denominations=STANDARD_CHIPS,
            level_minutes=config.level_minutes,
            levels=LEVELS,
            ante_from_level=3,
            break_every=4,
            break_minutes=15,
        )
    )
    source = clock_services.structure_create(
        actor=None, name=data["name"], steps=steps, is_template=False, chip_set_id=None
    )
    sim.service("clock_structure_set", clock_services.clock_structure_set, structure_id=source.pk)
    clock_services.structure_delete(actor=None, structure_id=source.pk)  # the clock has a copy
    sim.service(
        "seating settings_update",
        seating_services.settings_update,
        data={
            "balance_threshold": 2,  # TDA 11-A
            "source_rule": "most",
            "break_headroom": 0,
            "final_draw": "random",
        },
    )
    sim.service(
        "h4h_settings_update",
        hands_services.h4h_settings_update,
        data={"seconds_per_hand": config.seconds_per_round},
    )
    if status is not None:
        sim.service("tournament_status_set", desk_intentions.tournament_status_set, status=status)
    return tournament


def _bounty_settings(config) -> dict:
    return {
        "bounty_format": config.bounty_format,
        "bounty": config.bounty,
        "bounty_cash_percent": config.bounty_cash_percent,
    }


def tables_add(sim, places: int | None = None) -> int:
    """Enough of the venue's tables for a sold-out field (or `places` players), and a
    few spare ones. Numbers still in use by another tournament (the last table of an
    earlier run) are skipped."""
    config = sim.config
    places = config.capacity if places is None else places
    wanted = math.ceil(places / config.table_size) + SPARE_TABLES
    wanted += places // 400
    in_use = set(
        Table.objects.filter(broken_at__isnull=True, venue_table__isnull=False).values_list(
            "venue_table__number", flat=True
        )
    )
    numbers = [number for number in range(1, 10_000) if number not in in_use][:wanted]
    if len(numbers) < wanted:
        raise ValueError(f"The venue has no {wanted} free table numbers.")
    for number in numbers:
        sim.service("table_add", seating_services.table_add, number=number, seats=config.table_size)
    return len(numbers)
