"""Which audit entries become which webhook events (issue 22, item 1).

Every service writes one audit entry per intention (floorman.audit); the webhooks follow
the log, not the screens' live events, because the log names the intention (a balance,
a table broken) where a screen's `seating.updated` only says who sits where. One
audit action may become a finer type, decided from the entry's own data (a clock moved
to a break step is `break.started`, not `level.started`).
"""

from dataclasses import dataclass

ENTRY_REGISTERED = "entry.registered"
ENTRY_REENTERED = "entry.reentered"
SEAT_ASSIGNED = "seat.assigned"
SEAT_MOVED = "seat.moved"
TABLE_BROKEN = "table.broken"
TABLES_BALANCED = "tables.balanced"
LEVEL_STARTED = "level.started"
BREAK_STARTED = "break.started"
CLOCK_STARTED = "clock.started"
CLOCK_PAUSED = "clock.paused"
CLOCK_RESUMED = "clock.resumed"
H4H_STARTED = "hand_for_hand.started"
H4H_ROUND = "hand_for_hand.round"
H4H_STOPPED = "hand_for_hand.stopped"
ENTRY_BUSTED = "entry.busted"
PRIZE_PAID = "prize.paid"
BOUNTY_PAID = "bounty.paid"
DEAL_MADE = "deal.made"
RESULTS_FINAL = "results.final"
CHIPS_COUNTED = "chips.counted"
TEST = "webhook.test"  # "send a test event": never from the log, only from the page or API

# The types a director may choose, in the order the form lists them.
EVENT_TYPES = (
    ENTRY_REGISTERED,
    ENTRY_REENTERED,
    SEAT_ASSIGNED,
    SEAT_MOVED,
    TABLE_BROKEN,
    TABLES_BALANCED,
    LEVEL_STARTED,
    BREAK_STARTED,
    CLOCK_STARTED,
    CLOCK_PAUSED,
    CLOCK_RESUMED,
    H4H_STARTED,
    H4H_ROUND,
    H4H_STOPPED,
    ENTRY_BUSTED,
    PRIZE_PAID,
    BOUNTY_PAID,
    DEAL_MADE,
    RESULTS_FINAL,
    CHIPS_COUNTED,
)

# One audit action, one type.
_PLAIN = {
    "entry.register": ENTRY_REGISTERED,
    "entry.reenter": ENTRY_REENTERED,
    "seating.draw": SEAT_ASSIGNED,  # the first draw, and Day 2's redraw
    "seating.late": SEAT_ASSIGNED,  # TDA 8-A: a late entry's seat
    "seating.final": SEAT_ASSIGNED,  # the final table drawn
    "seating.move": SEAT_MOVED,
    "seating.break": TABLE_BROKEN,
    "seating.balance": TABLES_BALANCED,
    "clock.start": CLOCK_STARTED,
    "clock.pause": CLOCK_PAUSED,
    "clock.resume": CLOCK_RESUMED,
    "h4h.start": H4H_STARTED,
    "h4h.stop": H4H_STOPPED,
    # RP-8: each new round takes one hand's time off the clock (hands.services.hand_for_hand)
    "clock.hand_for_hand": H4H_ROUND,
    "entry.bust": ENTRY_BUSTED,
    "prize.pay": PRIZE_PAID,
    "bounty.pay": BOUNTY_PAID,
    "bounty.pay_all": BOUNTY_PAID,
    "deal.record": DEAL_MADE,
    "tournament.finished": RESULTS_FINAL,
    "counts.table": CHIPS_COUNTED,
    "count.entry": CHIPS_COUNTED,
    "counts.sweep_close": CHIPS_COUNTED,
}
# The clock moves, by the director's hand or by its own time (`clock.level`): a new level
# or a break, when its position changed.
_CLOCK_MOVES = frozenset({"clock.next", "clock.previous", "clock.jump", "clock.set", "clock.level"})
MAPPED_ACTIONS = frozenset(_PLAIN) | _CLOCK_MOVES


@dataclass(frozen=True)
class Change:
    """An audit entry as the map reads it: its action and its before and after."""

    action: str
    before: dict | None = None
    after: dict | None = None


def event_type(change: Change, *, is_break=None) -> str | None:
    """The webhook type of an audit entry, or None when webhooks carry nothing of it.

    `is_break(position)`: whether the clock's step at `position` is a break (asked only
    for the clock's moves)."""
    if change.action in _PLAIN:
        return _PLAIN[change.action]
    if change.action not in _CLOCK_MOVES:
        return None
    position = (change.after or {}).get("position")
    if position is None or position == (change.before or {}).get("position"):
        return None  # the time set within the same level: no new level began
    if is_break is not None and is_break(position):
        return BREAK_STARTED
    return LEVEL_STARTED


def could_be_event(action: str) -> bool:
    """Whether an audit action may become a webhook event at all: the cheap test made
    before anything is read."""
    return action in MAPPED_ACTIONS


def types_clean(types) -> tuple[list[str], list[str]]:
    """The chosen types in the form's order, and the unknown ones."""
    chosen = set(types or ())
    unknown = sorted(str(t) for t in chosen if t not in EVENT_TYPES)
    return [t for t in EVENT_TYPES if t in chosen], unknown
