"""Day 2 of a multi-flight event (issue 17) as pure functions: which bag each survivor
plays Day 2 with, and whether a late entry straight into Day 2 is sold.

No Django here. A bag is a `BagView`; flights are ordered by `flight_order` (the earlier
flight first). The house setting `keeps` says what a player who survived two or more
flights keeps: the larger stack, the first flight's, or the bag they chose.
"""

from dataclasses import dataclass, field

LARGER = "larger"
FIRST = "first"
CHOOSE = "choose"


@dataclass(frozen=True)
class BagView:
    bag: int
    player: int
    chips: int
    flight_order: int  # 0 for the first flight of the event, 1 for the next, ...


@dataclass(frozen=True)
class Forfeit:
    """A bag that does not go on to Day 2: `kept` is the bag the player plays instead,
    `why` the house rule that decided it (LARGER, FIRST or CHOOSE)."""

    bag: int
    kept: int
    why: str


@dataclass(frozen=True)
class Outcome:
    carried: tuple[int, ...]  # bag ids that go on to Day 2
    forfeits: tuple[Forfeit, ...] = ()
    # Players who survived two flights and must still choose (house: CHOOSE).
    choosing: tuple[int, ...] = ()
    doubles: dict[int, tuple[int, ...]] = field(default_factory=dict)  # player -> bags

    @property
    def ready(self) -> bool:
        return not self.choosing


def _kept(bags: list[BagView], keeps: str) -> BagView | None:
    """The one bag a double survivor plays Day 2 with, or None while they must choose."""
    first = min(bags, key=lambda b: (b.flight_order, b.bag))
    if keeps == FIRST:
        return first
    if keeps == LARGER:
        # The larger stack; equal stacks: the first flight's.
        return max(bags, key=lambda b: (b.chips, -b.flight_order, -b.bag))
    return None  # CHOOSE: the player's word (bag_choose forfeits the others at once)


def survivors(bags: list[BagView], keeps: str) -> Outcome:
    """The survivor rule (issue 17, item 4): every player plays Day 2 with one bag.

    `bags` are the bags still sealed (not forfeited). A player with one bag carries it;
    a player with several keeps one by the house rule `keeps` and forfeits the others;
    under CHOOSE a player still holding several must choose first (`choosing`)."""
    by_player: dict[int, list[BagView]] = {}
    for bag in bags:
        by_player.setdefault(bag.player, []).append(bag)
    carried: list[int] = []
    forfeits: list[Forfeit] = []
    choosing: list[int] = []
    doubles: dict[int, tuple[int, ...]] = {}
    for player, own in by_player.items():
        if len(own) == 1:
            carried.append(own[0].bag)
            continue
        doubles[player] = tuple(b.bag for b in sorted(own, key=lambda b: (b.flight_order, b.bag)))
        kept = _kept(own, keeps)
        if kept is None:
            choosing.append(player)
            continue
        carried.append(kept.bag)
        forfeits.extend(Forfeit(b.bag, kept.bag, keeps) for b in own if b.bag != kept.bag)
    return Outcome(
        carried=tuple(sorted(carried)),
        forfeits=tuple(sorted(forfeits, key=lambda f: f.bag)),
        choosing=tuple(sorted(choosing)),
        doubles=doubles,
    )


def late_entry_refusal(*, has_flights: bool, allowed: bool, started: bool) -> str | None:
    """A sale at the desk of an event with flights is a late entry straight into Day 2
    (TDA 8-A): only where the house allows it, and once Day 2 has begun. Flights sell
    their own entries; an event without flights is not concerned."""
    if not has_flights:
        return None
    if not allowed:
        return "day2_late_entry_not_allowed"
    if not started:
        return "day2_not_started"
    return None


@dataclass(frozen=True)
class FlightReady:
    """A flight as Day 2's start sees it."""

    name: str
    cancelled: bool
    stopped: bool  # play stopped for the day (FlightEnd)
    confirmed: bool  # its bags counted and confirmed by the director


def clock_level(resume_levels: list[int]) -> int | None:
    """The level Day 2's clock starts at: the highest of the flights' resume levels
    (no player plays a level again that another flight's players left behind); None
    while no flight has stopped."""
    return max(resume_levels, default=None)


def start_refusal(
    flights: list[FlightReady], outcome: Outcome, *, started: bool, closed: bool
) -> tuple[str, dict] | None:
    """Why Day 2 cannot start yet, as a refusal code and its details; None once it can:
    every flight has stopped and its bags are confirmed, nobody must still choose
    between two bags, and there is a bag to carry."""
    if closed:
        return "tournament_closed", {}
    if started:
        return "day2_started", {}
    playing = [f for f in flights if not f.cancelled]
    if not playing:
        return "no_flights", {}
    waiting = [f.name for f in playing if not f.stopped]
    if waiting:
        return "flights_not_stopped", {"flights": ", ".join(waiting)}
    unconfirmed = [f.name for f in playing if not f.confirmed]
    if unconfirmed:
        return "bags_not_confirmed", {"flights": ", ".join(unconfirmed)}
    if outcome.choosing:
        return "bag_choice_missing", {"players": len(outcome.choosing)}
    if not outcome.carried:
        return "no_bags", {}
    return None
