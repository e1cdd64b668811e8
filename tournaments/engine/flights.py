"""The rules of a multi-flight event's first days (issue 17) as pure functions.

A flight is a tournament of its own whose survivors bag their chips and play Day 2 of
the parent event. These functions decide: whether a flight may be added, whether a
player may enter a later flight, when a flight's day is over (a set level, a set share
of its entries left), and whether bags can be recorded and confirmed. Each check returns
None when the action is allowed, or a refusal code (tournaments.messages says it).
"""

from dataclasses import dataclass

RUNNING = "running"
FINISHED = "finished"
LEVEL = "level"  # FlightEnd.Reason.LEVEL: the last level of the day was played


# --- Adding a flight ---------------------------------------------------------------------


def flight_add_refusal(
    *, parent_is_flight: bool, parent_is_satellite: bool, name_taken: bool
) -> str | None:
    """A flight belongs to an event that is neither a flight itself (no flight of a
    flight) nor a satellite (a satellite wins seats, it has no Day 2); its name is its own
    among the event's flights ("Day 1A" once)."""
    if parent_is_flight:
        return "flight_of_flight"
    if parent_is_satellite:
        return "flight_of_satellite"
    if name_taken:
        return "flight_name_taken"
    return None


def flight_title(event_name: str, flight_name: str) -> str:
    """The flight's name on lists and screens: the event's, then the flight's."""
    return f"{event_name} – {flight_name}"


# --- Entering a later flight (house setting) -----------------------------------------------


def later_flight_refusal(*, reentry_allowed: bool, entered_in: list[str]) -> str | None:
    """A player already entered in another flight of the same event (`entered_in`: those
    flights' names) may enter this one only where the event allows it."""
    if entered_in and not reentry_allowed:
        return "flight_entered"
    return None


# --- The end of a flight's day ---------------------------------------------------------------


def level_ends_flight(level: int, *, end_level: int | None) -> bool:
    """The flight stops when the level after its last one would begin."""
    return end_level is not None and level > end_level


def share_ends_flight(*, active: int, entries: int, percent: int | None) -> bool:
    """The flight stops once `percent` % of its entries or fewer are still playing."""
    if percent is None or entries <= 0 or active <= 0:
        return False
    return active * 100 <= entries * percent


def resume_level(*, reason: str, level: int, end_level: int | None) -> int:
    """The level Day 2 resumes at for a flight that stopped at `level` (the level the
    clock read then): after the last level of the day once it was played (the clock
    already reads the next), else the level being played (a share reached, the
    director's stop)."""
    if reason == LEVEL and end_level is not None:
        return end_level + 1
    return max(level, 1)


def flight_stop_refusal(*, is_flight: bool, status: str, stopped: bool) -> str | None:
    """Only a flight stops this way, once, while it runs (play has begun)."""
    if not is_flight:
        return "not_a_flight"
    if stopped:
        return "flight_stopped"
    if status != RUNNING:
        return "flight_not_running"
    return None


def play_refusal(*, is_flight: bool, status: str) -> str | None:
    """A flight that has stopped takes no more busts, hands or registrations."""
    if is_flight and status == FINISHED:
        return "flight_stopped"
    return None


def chips_sold(
    *,
    starting_stack: int,
    buy_ins: int,
    rebuy_chips: int,
    rebuys: int,
    addon_chips: int,
    addons: int,
) -> int:
    """Every chip the ledger sold: a full stack per buy-in (TDA 8-A, re-entries too), the
    rebuys' and add-ons' chips."""
    return starting_stack * buy_ins + rebuy_chips * rebuys + addon_chips * addons


# --- Bags ------------------------------------------------------------------------------------


def bag_refusal(*, stopped: bool, confirmed: bool, survivor: bool, chips: int) -> str | None:
    """A bag is counted for a survivor of a stopped flight, with chips in it, until the
    director has confirmed the flight's bags."""
    if not stopped:
        return "flight_not_stopped"
    if confirmed:
        return "bags_confirmed"
    if not survivor:
        return "not_a_survivor"
    if chips <= 0:
        return "bag_empty"
    return None


def bag_number_next(numbers: list[int]) -> int:
    """The next bag number of the flight: one more than the highest given out."""
    return max(numbers, default=0) + 1


@dataclass(frozen=True)
class BagCheck:
    """The flight's bags against its chips in play."""

    expected: int  # the chips in play when the flight stopped (sold less removed)
    bagged: int
    missing: int  # survivors without a bag

    @property
    def difference(self) -> int:
        """What the bags hold more (positive) or less (negative) than expected."""
        return self.bagged - self.expected


def bags_confirm_refusal(
    check: BagCheck, *, stopped: bool, confirmed: bool, accept_difference: bool, note: str
) -> str | None:
    """The director confirms the bags once every survivor has one; a difference must be
    accepted knowingly, with a note that says why."""
    if not stopped:
        return "flight_not_stopped"
    if confirmed:
        return "bags_confirmed"
    if check.missing:
        return "bags_missing"
    if check.difference and not accept_difference:
        return "bags_differ"
    if check.difference and not note.strip():
        return "bags_note_needed"
    return None
