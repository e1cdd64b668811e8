"""Registration rules as pure functions: plain values in, plain values out.

The money rules live above: the exact splits and the payout table in `payouts.engine`,
the deals in `prizes.engine`.

No Django here, so the rules are tested without a database. Each check returns
None when the action is allowed, or a refusal code that the service turns into a
message for the desk. Levels are numbered from 1; "until level N" means until the
end of level N.
"""

from dataclasses import dataclass, replace

PLANNED = "planned"
REGISTERING = "registering"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"

# Status machine (casino §7: the house may cancel a tournament at any point before the end).
TRANSITIONS: dict[str, tuple[str, ...]] = {
    PLANNED: (REGISTERING, CANCELLED),
    REGISTERING: (RUNNING, CANCELLED),
    RUNNING: (FINISHED, CANCELLED),
    FINISHED: (),
    CANCELLED: (),
}


@dataclass(frozen=True)
class Rules:
    """The parts of a tournament's setup that registration depends on."""

    status: str
    current_level: int
    late_reg_until_level: int | None
    capacity: int | None
    reentry_allowed: bool
    reentry_max: int | None
    reentry_until_level: int | None
    rebuy_until_level: int | None
    rebuy_max: int | None
    addon_at_break_after_level: int | None


def transition_refusal(
    current: str, target: str, *, active_entries: int, flight_stop: bool = False
) -> str | None:
    """`flight_stop`: a flight's day ends (issue 17), and a flight may finish with players
    left: its survivors bag their chips for Day 2."""
    if target not in TRANSITIONS.get(current, ()):
        return "transition_not_allowed"
    if target == RUNNING and active_entries < 2:
        return "too_few_players"
    if target == FINISHED and active_entries > 1 and not flight_stop:
        return "players_remaining"
    return None


# --- Play decides the status (issue 16) ---------------------------------------------------


def play_begins(current: str, *, active_entries: int) -> bool:
    """Play has begun (the clock started; the seat draw, where the house says so): a
    registering event runs from now on, once it has the two players a start needs."""
    return (
        current == REGISTERING
        and transition_refusal(current, RUNNING, active_entries=active_entries) is None
    )


def play_decided(current: str, *, active_entries: int, registration_open: bool) -> bool:
    """The last bust left one player and no more can come (late registration over): the
    running event is finished, as a deal that ends it is (casino §6)."""
    return current == RUNNING and active_entries == 1 and not registration_open


def players_left(current: str, *, active_entries: int) -> int:
    """The players still playing: none once the event is over, whether play, a deal
    (its players stay entered, unbusted) or a cancellation ended it."""
    return 0 if current in (FINISHED, CANCELLED) else active_entries


def bust_undo_refusal(current: str, *, active_entries: int, left_at_end: int = 1) -> str | None:
    """Undoing a bust once the event is over: only the bust that decided it, with its
    winner the one player still in (a satellite: its seat winners, `left_at_end`); it
    then runs again. A deal (several players in) or a cancellation is final."""
    if current == CANCELLED or (current == FINISHED and active_entries != left_at_end):
        return "tournament_closed"
    return None


def within_level(current_level: int, until_level: int | None) -> bool:
    """True while play has not gone past the end of `until_level` (None: no limit)."""
    return until_level is None or current_level <= until_level


def registration_refusal(rules: Rules) -> str | None:
    """Is the desk open? Before the start while registering; after it during late reg."""
    if rules.status == REGISTERING:
        return None
    if rules.status == RUNNING:
        if rules.late_reg_until_level is None or rules.current_level > rules.late_reg_until_level:
            return "registration_closed"
        return None
    return "registration_closed"


def registration_closes(rules: Rules, *, level: int) -> bool:
    """Late registration (TDA 8-A) ends as play goes from `rules.current_level` on to
    `level`: open at the one, closed at the other."""
    return (
        registration_refusal(rules) is None
        and registration_refusal(replace(rules, current_level=level)) is not None
    )


def reentry_refusal(rules: Rules, *, previous_entries: int, in_the_money: bool) -> str | None:
    """May a player who already had `previous_entries` (all busted) buy in again? TDA 8-A.
    Casino §12: never once the field has reached the paid places (`in_the_money`, which
    the desk reads from the payout table: payouts.selectors.in_the_money)."""
    if not rules.reentry_allowed:
        return "reentry_not_allowed"
    if in_the_money:
        return "reentry_in_the_money"
    if not within_level(rules.current_level, rules.reentry_until_level):
        return "reentry_closed"
    if rules.reentry_max is not None and previous_entries > rules.reentry_max:
        return "reentry_limit"
    return None


def has_free_place(rules: Rules, *, active_entries: int, waiting_alternates: int) -> bool:
    """Casino §8b: once sold out, freed places go to the alternates in their order,
    so a walk-up player may not take a place while anyone is waiting for one."""
    if rules.capacity is None:
        return True
    return active_entries < rules.capacity and waiting_alternates == 0


def free_places(capacity: int | None, *, active_entries: int) -> int | None:
    if capacity is None:
        return None
    return max(0, capacity - active_entries)


def rebuy_refusal(rules: Rules, *, entry_active: bool, rebuys_taken: int) -> str | None:
    if rules.rebuy_until_level is None:
        return "rebuy_not_offered"
    if rules.status not in (REGISTERING, RUNNING):
        return "rebuy_closed"
    if not within_level(rules.current_level, rules.rebuy_until_level):
        return "rebuy_closed"
    if not entry_active:
        return "entry_not_active"
    if rules.rebuy_max is not None and rebuys_taken >= rules.rebuy_max:
        return "rebuy_limit"
    return None


def addon_refusal(rules: Rules, *, entry_active: bool, addon_taken: bool) -> str | None:
    """The add-on is sold once per entry, up to the break after its level."""
    if rules.addon_at_break_after_level is None:
        return "addon_not_offered"
    if rules.status not in (REGISTERING, RUNNING):
        return "addon_closed"
    if not within_level(rules.current_level, rules.addon_at_break_after_level):
        return "addon_closed"
    if not entry_active:
        return "entry_not_active"
    if addon_taken:
        return "addon_taken"
    return None


def money_open(rules: Rules) -> bool:
    """Can money still come into the prize pool: buy-ins, late entries, rebuys or the
    add-on? Until it cannot, the payout table follows the pool."""
    if rules.status in (PLANNED, REGISTERING):
        return True
    if rules.status != RUNNING:
        return False
    periods = (
        rules.late_reg_until_level,
        rules.rebuy_until_level,
        rules.addon_at_break_after_level,
    )
    return any(until is not None and rules.current_level <= until for until in periods)


@dataclass(frozen=True)
class PrizePool:
    collected: int  # prize shares paid in, less refunds
    guarantee: int
    paid_out: int

    @property
    def overlay(self) -> int:
        """What the house adds to reach the guarantee."""
        return max(0, self.guarantee - self.collected)

    @property
    def total(self) -> int:
        return self.collected + self.overlay

    @property
    def remaining(self) -> int:
        return self.total - self.paid_out
