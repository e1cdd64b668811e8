"""Seating rules as pure functions: the draw, late seats, balancing, halting, breaking;
the button and blinds in `seating.engine.blinds` (balancing moves the player due the big
blind next, TDA 11-A, and hands deals by the same rule).

No Django here. Tables are `TableView`s (seat numbers clockwise, who sits where) and
every random choice comes from the `random.Random` the caller passes in, seeded from
`secrets` and stored with the action, so a draw can be replayed.
"""

import heapq
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from seating.engine.blinds import big_blind_guess

SOURCE_MOST_PLAYERS = "most"
SOURCE_BREAK_ORDER = "break_order"
# The house setting "halting" (tournaments.house): which short tables stop dealing.
HALT_TDA = "tda"  # TDA 11-D: 3 or more short of the fullest table, once the blinds reach
HALT_BELOW_FOUR = "casino"  # casino §14: fewer than four, once registration has closed
HALT_SHORT_HANDED = "short_handed"  # TDA 11-D's 6-handed and turbo formats: 2 short
HALT_FREE_SEATS = "free_seats"  # the older German TDA, rule 25: three free seats
HALT_OFF = "off"  # TDA 11-D: the TD waives halting
HALT_CITES = {
    HALT_TDA: "TDA 11-D",
    HALT_BELOW_FOUR: "casino §14",
    HALT_SHORT_HANDED: "TDA 11-D",
    HALT_FREE_SEATS: "older TDA 25",
}
FINAL_RANDOM = "random"
FINAL_BY_POSITION = "position"
# The house setting "final_table": RP-9 or casino §30.
FINAL_TDA = "tda"
FINAL_CASINO = "casino"
CASINO_FINAL_TABLE = 10  # casino §30: the final table plays with eight to ten
# The house setting "table_minimum": the fewest players a table may deal to.
MINIMUM_TDA = "tda"  # no minimum: balancing and halting keep tables playable
MINIMUM_CASINO = "casino"  # casino §17: play at a table starts only with three
MIN_PLAYERS_TO_START = 3  # casino §17


@dataclass(frozen=True)
class TableView:
    number: int
    seats: tuple[int, ...]  # usable seats, clockwise (blocked seats left out)
    occupied: Mapping[int, int] = field(default_factory=dict)  # seat -> entry
    break_order: int = 0
    accessible: frozenset[int] = frozenset()

    @property
    def players(self) -> int:
        return len(self.occupied)

    @property
    def open_seats(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.occupied]


@dataclass(frozen=True)
class Assignment:
    entry: int
    table: int
    seat: int
    from_table: int | None = None
    from_seat: int | None = None


@dataclass(frozen=True)
class PlannedMove:
    entry: int | None  # None: the TD has not said who is big blind next at the source
    from_table: int
    from_seat: int | None
    to_table: int
    to_seat: int | None  # None: the TD has not said where the big blind is at the target
    reason: str


# The longest plan key a confirmation may echo back (`BalancePlan.key`,
# `breaking.BreakPlan.key`): far more than a break or a balancing ever needs.
PLAN_KEY_MAX = 4000


@dataclass(frozen=True)
class BalancePlan:
    moves: tuple[PlannedMove, ...]
    needs_big_blind: tuple[int, ...]  # tables whose next big blind seat is needed
    # The seat due the big blind next at each table the moves touch, where it was given.
    big_blind_next: Mapping[int, int] = field(default_factory=dict)
    # For each table in `needs_big_blind`: a guess to show the floor, marked as one.
    guesses: Mapping[int, int] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The exact moves in a few characters, for a confirmation to echo back (issue
        16, as `BreakPlan.key`): who moves from which seat to which, and the seats due
        the big blind next the plan used, e.g. "17@1-4>2-4|1:4,2:5" (entry 17 from
        table 1 seat 4 to table 2 seat 4; big blind next at 1-4 and 2-5)."""

        def part(value) -> str:
            return "?" if value is None else str(value)

        moves = ",".join(
            f"{part(m.entry)}@{m.from_table}-{part(m.from_seat)}>{m.to_table}-{part(m.to_seat)}"
            for m in self.moves
        )
        blinds = ",".join(f"{n}:{seat}" for n, seat in sorted(self.big_blind_next.items()))
        return f"{moves}|{blinds}"


# --- Counting --------------------------------------------------------------------------


def tables_needed(players: int, table_size: int, *, keep_free: int = 0) -> int:
    """The fewest tables that fit the field plus the seats kept free (TDA 7, casino §8a)."""
    return math.ceil((players + keep_free) / table_size) if players + keep_free > 0 else 0


def spread(tables: Iterable[TableView]) -> int:
    counts = [table.players for table in tables]
    return max(counts) - min(counts) if counts else 0


def _fill_counts(tables: list[TableView], players: int, rng: random.Random) -> dict[int, int]:
    """How many new players each table gets so the shortest tables fill first.

    Water-filling: raise every table to a common level; the few left over go to tables
    drawn at random among those that can take one more, so sizes differ by at most one
    wherever seats allow.
    """
    counts, takers, rest = _fill_levels(tables, players)
    for number in rng.sample(takers, rest):
        counts[number] += 1
    return counts


def fill_range(tables: list[TableView], players: int) -> dict[int, tuple[int, int]]:
    """How many of `players` each table takes in a draw of seats (TDA 7, 10-B): the
    fewest and the most, by table number. Known before the draw: only the few players
    left over by water-filling go to tables drawn at random."""
    counts, takers, rest = _fill_levels(tables, players)
    sure = rest == len(takers)  # every table that can take one more gets one
    may_take = set(takers) if rest else set()
    ranges = {}
    for number, count in counts.items():
        extra = 1 if number in may_take else 0
        ranges[number] = (count + extra if sure else count, count + extra)
    return ranges


def _fill_levels(tables: list[TableView], players: int) -> tuple[dict[int, int], list[int], int]:
    """Water-filling without the random part: each table's count at the common level,
    the tables that could take one more, and how many players are left for them."""
    free = {t.number: len(t.open_seats) for t in tables}
    if players > sum(free.values()):
        raise ValueError("not enough open seats")

    def fill(level: int) -> dict[int, int]:
        return {t.number: min(max(level - t.players, 0), free[t.number]) for t in tables}

    level = 0
    while sum(fill(level + 1).values()) <= players and level < 1000:
        level += 1
        if all(t.players + free[t.number] <= level for t in tables):
            break
    counts = fill(level)
    rest = players - sum(counts.values())
    takers = [
        t.number
        for t in tables
        if t.players + counts[t.number] == level and counts[t.number] < free[t.number]
    ]
    return counts, takers, rest


def draw_seats(
    tables: list[TableView],
    entries: list[int],
    rng: random.Random,
    *,
    needs_access: frozenset[int] = frozenset(),
    avoid: Mapping[int, tuple[int, int]] | None = None,
) -> list[Assignment]:
    """TDA 7, 8-A: every entry gets a uniformly random open seat, tables kept balanced.

    Entries that need an accessible seat (TDA 9) get one where the chosen tables have
    it; `avoid` maps an entry to a seat it should not get when another is possible
    (casino §12: a re-entry gets a new seat).
    """
    avoid = avoid or {}
    counts = _fill_counts(tables, len(entries), rng)
    needing = len(needs_access & set(entries))
    chosen: list[tuple[int, int]] = []
    for table in tables:
        seats, needing = _table_seats(table, counts[table.number], needing, rng)
        chosen.extend((table.number, seat) for seat in seats)
    rng.shuffle(chosen)
    by_number = {t.number: t for t in tables}
    order = sorted(entries, key=lambda e: e not in needs_access)  # they choose first
    result: dict[int, tuple[int, int]] = {}
    unused = {(t.number, s) for t in tables for s in t.open_seats} - set(chosen)
    for entry in order:
        if entry in needs_access or entry in avoid:
            pick = _pick(chosen, entry, by_number, needs_access, avoid)
            chosen.remove(pick)
        else:
            pick = chosen.pop()  # the list is shuffled: the last seat is as random as any
        if avoid.get(entry) == pick:
            pick = _other_seat_same_table(pick, unused, rng)
        result[entry] = pick
    return [Assignment(entry, *result[entry]) for entry in entries]


def _table_seats(table: TableView, count: int, needing: int, rng: random.Random):
    """`count` random open seats of one table, accessible ones first while needed."""
    open_seats = table.open_seats
    accessible = [s for s in open_seats if s in table.accessible]
    reserved = rng.sample(accessible, min(needing, count, len(accessible)))
    others = [s for s in open_seats if s not in reserved]
    return reserved + rng.sample(others, count - len(reserved)), needing - len(reserved)


def _other_seat_same_table(pick, unused: set, rng: random.Random) -> tuple[int, int]:
    """Swap an avoided seat for another open one at the same table, keeping the counts."""
    spare = sorted(s for s in unused if s[0] == pick[0])
    if not spare:
        return pick
    other = rng.choice(spare)
    unused.discard(other)
    unused.add(pick)
    return other


def _pick(chosen, entry, by_number, needs_access, avoid) -> tuple[int, int]:
    wants = chosen
    if entry in needs_access:
        wants = [s for s in chosen if s[1] in by_number[s[0]].accessible] or chosen
    if entry in avoid:
        wants = [s for s in wants if s != avoid[entry]] or wants
    return wants[0]


# --- Positions ---------------------------------------------------------------------------


def _clockwise_from(table: TableView, seat: int) -> list[int]:
    """The table's seats clockwise, starting just after `seat`."""
    seats = list(table.seats)
    if seat not in seats:
        seats = sorted(set(seats) | {seat})
    i = seats.index(seat)
    return [s for s in seats[i + 1 :] + seats[: i + 1] if s in table.seats]


def next_big_blind(table: TableView, after_seat: int) -> int | None:
    """The next occupied seat clockwise after `after_seat`: who will be big blind next."""
    for seat in _clockwise_from(table, after_seat):
        if seat in table.occupied:
            return seat
    return None


def worst_seat(
    table: TableView, big_blind_next: int, dead_small_blind: int | None = None
) -> int | None:
    """TDA 11-A: the open seat that pays the big blind soonest, never the small blind.

    `big_blind_next` is the seat due the big blind on the next hand. An open seat
    between the current big blind and that seat would take the big blind at once
    (a single big blind, even if that player paid it at the old table); otherwise the
    first open seat after it. `dead_small_blind` is an open seat that would post next
    hand's small blind (last hand's big blind busted there): chosen only when no other
    seat is open.
    """
    open_seats = set(table.open_seats) - {dead_small_blind}
    if not open_seats:  # the dead small blind's seat is the only one left: it is taken
        return dead_small_blind if dead_small_blind in table.open_seats else None
    if big_blind_next in open_seats:
        return big_blind_next
    # The last big blind: where it busted (the dead small blind's seat), else the player
    # before the next big blind.
    current = dead_small_blind or _previous_occupied(table, big_blind_next)
    for seat in _clockwise_from(table, current):
        if seat in open_seats:
            return seat
    return None


def _previous_occupied(table: TableView, seat: int) -> int:
    for candidate in reversed(_clockwise_from(table, seat)[:-1]):
        if candidate in table.occupied:
            return candidate
    return seat


# --- Balancing --------------------------------------------------------------------------


def _source(tables: list[TableView], shortest: int, rule: str) -> TableView:
    """TDA 11-C: the table a player comes from, by the procedure set before play."""
    if rule == SOURCE_BREAK_ORDER:
        candidates = [t for t in tables if t.players >= shortest + 2]
        return min(candidates, key=lambda t: t.break_order)
    most = max(t.players for t in tables)
    return min((t for t in tables if t.players == most), key=lambda t: t.break_order)


class _Queue:
    """Tables by player count while moves are planned: the fullest (breaking first among
    equals) and the shortest (breaking last among equals) in O(log n) per move, so a
    plan for 1,000 tables stays fast. Outdated heap entries are skipped when met."""

    def __init__(self, tables: list[TableView]):
        self.count = {t.number: t.players for t in tables}
        self.order = {t.number: t.break_order for t in tables}
        self.full = [(-t.players, t.break_order, t.number) for t in tables]
        self.short = [(t.players, -t.break_order, t.number) for t in tables]
        heapq.heapify(self.full)
        heapq.heapify(self.short)

    def _top(self, heap: list, sign: int) -> int:
        while sign * heap[0][0] != self.count[heap[0][2]]:
            heapq.heappop(heap)
        return heap[0][2]

    def fullest(self) -> int:
        return self._top(self.full, -1)

    def shortest(self) -> int:
        return self._top(self.short, 1)

    def spread(self) -> int:
        return self.count[self.fullest()] - self.count[self.shortest()]

    def change(self, number: int, delta: int) -> None:
        count = self.count[number] = self.count[number] + delta
        heapq.heappush(self.full, (-count, self.order[number], number))
        heapq.heappush(self.short, (count, -self.order[number], number))


def balance_plan(
    tables: list[TableView],
    *,
    threshold: int = 2,
    source_rule: str = SOURCE_MOST_PLAYERS,
    big_blind_next: Mapping[int, int] | None = None,
    stud: bool = False,
    dead_small_blind: Mapping[int, int] | None = None,
) -> BalancePlan:
    """TDA 11-A: once the fullest table has `threshold` players more than the shortest,
    the moves that bring every table within one player of the others.

    From the source table moves the player due the big blind next, into the worst
    position of the short table. In stud (TDA 11-A) the seat filled is the last open
    seat and the player moved is the one in the highest occupied seat. Where the TD has
    not given a table's next big blind, the move names the tables only, and the plan
    offers a guess for it (`blinds.big_blind_guess`), never used unless the TD gives it.
    """
    known = dict(big_blind_next or {})  # brought forward move by move
    given = dict(known)
    state = {t.number: t for t in tables}
    if len(state) < 2 or spread(state.values()) < threshold:
        return BalancePlan((), ())
    queue = _Queue(tables)
    moves: list[PlannedMove] = []
    needs: list[int] = []
    while queue.spread() > 1:
        target = state[queue.shortest()]
        if source_rule == SOURCE_BREAK_ORDER:
            source = _source(list(state.values()), target.players, source_rule)
        else:
            source = state[queue.fullest()]
        from_seat = _mover_seat(source, known, stud, needs)
        to_seat = _target_seat(target, known, stud, needs, dead_small_blind or {})
        entry = source.occupied.get(from_seat) if from_seat is not None else None
        moves.append(
            PlannedMove(
                entry=entry,
                from_table=source.number,
                from_seat=from_seat,
                to_table=target.number,
                to_seat=to_seat,
                reason="TDA 11-A",
            )
        )
        state[source.number], state[target.number] = _apply_move(
            source, target, from_seat, to_seat, entry, known
        )
        queue.change(source.number, -1)
        queue.change(target.number, +1)
    touched = {m.from_table for m in moves} | {m.to_table for m in moves}
    needs = list(dict.fromkeys(needs))
    as_now = {t.number: t for t in tables}  # the guess is about the table as it is now
    return BalancePlan(
        tuple(moves),
        tuple(needs),
        big_blind_next={
            n: seat for n, seat in sorted(given.items()) if n in touched and n not in needs
        },
        guesses={n: big_blind_guess(as_now[n].seats, as_now[n].occupied) for n in needs},
    )


def _mover_seat(source: TableView, known: dict, stud: bool, needs: list) -> int | None:
    if stud:
        return max(source.occupied)
    seat = known.get(source.number)
    if seat is None or seat not in source.occupied:
        needs.append(source.number)
        return None
    return seat


def _target_seat(
    target: TableView, known: dict, stud: bool, needs: list, dead: Mapping
) -> int | None:
    if stud:
        return target.open_seats[-1]
    seat = known.get(target.number)
    if seat is None or seat not in target.seats:
        needs.append(target.number)
        return None
    return worst_seat(target, seat, dead.get(target.number))


def _apply_move(source, target, from_seat, to_seat, entry, known):
    """The two tables after one move, with their next big blind brought forward."""
    placeholder = -(len(target.occupied) + 1)  # stands in for a seat the TD has not named
    src_occupied = dict(source.occupied)
    if from_seat is not None:
        src_occupied.pop(from_seat)
    else:
        src_occupied.pop(next(reversed(src_occupied)))
    dst_occupied = dict(target.occupied)
    if to_seat is not None:
        dst_occupied[to_seat] = entry if entry is not None else placeholder
    else:
        free = [s for s in target.seats if s not in dst_occupied]
        dst_occupied[free[-1]] = placeholder
    new_source = TableView(
        source.number, source.seats, src_occupied, source.break_order, source.accessible
    )
    new_target = TableView(
        target.number, target.seats, dst_occupied, target.break_order, target.accessible
    )
    if from_seat is not None and source.number in known:
        nxt = next_big_blind(new_source, from_seat)
        if nxt is not None:
            known[source.number] = nxt
    if to_seat is not None and target.number in known:
        known[target.number] = to_seat  # the newcomer is due the big blind first
    return new_source, new_target


# --- Halting, breaking, the final table ---------------------------------------------------


def halted_tables(
    tables: list[TableView],
    *,
    rule: str = HALT_TDA,
    registration_closed: bool = True,
    waived: Iterable[int] = (),
    at_open_seat: Mapping[int, bool] | None = None,
) -> list[tuple[int, str]]:
    """Tables that halt, with the rule cited; `rule` is the house setting "halting":

    - HALT_TDA (TDA 11-D): three or more players shorter than the fullest table, once its
      big blind reaches an open seat (Illustration Addendum: 5 against 8 halts).
    - HALT_SHORT_HANDED: TDA 11-D leaves 6-handed and turbo events to the TD; this
      reading halts two or more short, once the big blind reaches an open seat. Two of
      six is the third of the table that three of nine is, and in a turbo a table two
      short already plays many hands shorthanded before the floor can move a player.
    - HALT_BELOW_FOUR (casino §14): fewer than four players once registration has closed.
    - HALT_FREE_SEATS (older German TDA, 25): three or more free seats at the table (its
      usable seats, whatever the fullest table has), while another table has players to
      give; the rule names no blinds condition.
    - HALT_OFF: never (TDA 11-D: the TD may waive halting).

    The floor may waive it for a table (`waived`). `at_open_seat` says per table whether
    its blinds have reached an open seat; a table it does not name counts as having
    reached one (where hands are not logged, the TD is shown the table as halting). The
    one place halting is decided: the TD's screens and the hands app's refusal to deal
    both ask here."""
    if len(tables) < 2 or rule not in HALT_CITES:
        return []
    waived = set(waived)
    cite = HALT_CITES[rule]
    most = max(t.players for t in tables)
    if rule == HALT_BELOW_FOUR:
        if not registration_closed:
            return []
        short = [t for t in tables if t.players < 4]
    elif rule == HALT_FREE_SEATS:
        short = [t for t in tables if len(t.open_seats) >= 3 and t.players < most]
    else:
        reached = at_open_seat or {}
        gap = 2 if rule == HALT_SHORT_HANDED else 3
        short = [t for t in tables if most - t.players >= gap and reached.get(t.number, True)]
    return [(t.number, cite) for t in short if t.number not in waived]


def table_to_break(tables: list[TableView], *, headroom: int = 0) -> TableView | None:
    """TDA 10-B, casino §8: the next table in the break order, once its players fit into
    the open seats of the others with `headroom` seats to spare."""
    if len(tables) < 2:
        return None
    candidate = min(tables, key=lambda t: t.break_order)
    others = [t for t in tables if t.number != candidate.number]
    free = sum(len(t.open_seats) for t in others)
    return candidate if candidate.players + headroom <= free else None


def break_table(
    breaking: TableView, others: list[TableView], rng: random.Random
) -> list[Assignment]:
    """TDA 10-B, 2-step random: the open seats (shortest tables first) are shuffled, then
    handed out to the players in an order drawn at random. Any seat may come up,
    blinds and button included (TDA 10-A, casino §13)."""
    players = [breaking.occupied[s] for s in breaking.seats if s in breaking.occupied]
    counts = _fill_counts(others, len(players), rng)
    seats = [
        (table.number, seat)
        for table in others
        for seat in rng.sample(table.open_seats, counts[table.number])
    ]
    rng.shuffle(seats)  # step 1: the seat cards, scrambled face down
    order = list(players)
    rng.shuffle(order)  # step 2: the order in which players receive them
    from_seat = {entry: seat for seat, entry in breaking.occupied.items()}
    return [
        Assignment(entry, table, seat, breaking.number, from_seat[entry])
        for entry, (table, seat) in zip(order, seats, strict=True)
    ]


def final_table_size(table_size: int, setting: int | None = None, rule: str = FINAL_TDA) -> int:
    """The players at which the final table forms. `setting` is the event's own number
    (the TD's override); without it the house setting "final_table" (`rule`) decides:

    - FINAL_TDA (RP-9): 8- and 9-handed events combine to a final table of 9, 6- and
      7-handed to 7; other sizes keep the event's table size.
    - FINAL_CASINO (casino §30: the final table plays with eight to ten): full-ring
      events (8 to 10 handed) combine as soon as ten are left, the most §30 allows.
      Short-handed events (fewer than 8 a table) are not what §30 describes: RP-9."""
    if setting:
        return setting
    if rule == FINAL_CASINO and table_size >= 8:
        return CASINO_FINAL_TABLE
    if table_size in (8, 9):
        return 9
    if table_size in (6, 7):
        return 7
    return table_size


def final_table_due(tables: list[TableView], final_size: int) -> bool:
    return len(tables) > 1 and sum(t.players for t in tables) <= final_size


def final_table_draw(
    entries: list[int],
    seats: list[int],
    rng: random.Random,
    *,
    positions: Mapping[str, list[int]] | None = None,
) -> dict[int, int]:
    """RP-9: the final table seats, drawn at random.

    With `positions` (casino §30: "big_blind", "button", "small_blind" → the players
    who would have had that position at the last tables) those draw from their own
    seat cards: big blinds 2 and 3, buttons the two highest seats, small blinds 1 and 7;
    everyone else from the rest. The button starts on the last seat.
    """
    if len(entries) > len(seats):
        raise ValueError("more players than seats")
    seats = sorted(seats)
    remaining = list(seats)
    result: dict[int, int] = {}
    groups = _position_groups(seats, positions or {})
    for players, cards in groups:
        players = [p for p in players if p in entries and p not in result]
        cards = [c for c in cards if c in remaining]
        rng.shuffle(cards)
        for player, card in zip(players, cards, strict=False):
            result[player] = card
            remaining.remove(card)
    rest = [e for e in entries if e not in result]
    rng.shuffle(remaining)
    result.update(zip(rest, remaining, strict=False))
    return result


def _position_groups(seats: list[int], positions: Mapping[str, list[int]]):
    if not positions:
        return []
    high = seats[-2:]
    return [
        (positions.get("big_blind", []), [s for s in (2, 3) if s in seats]),
        (positions.get("button", []), high),
        (positions.get("small_blind", []), [s for s in (1, 7) if s in seats]),
    ]


def short_tables(tables: list[TableView], *, rule: str) -> list[int]:
    """The tables that may not deal, by the house setting "table_minimum" (`rule`):

    - MINIMUM_TDA: none; the TDA sets no minimum beyond balancing (11-A) and halting
      (11-D), which the floor sees on its own.
    - MINIMUM_CASINO (casino §17): play at a table starts only with three players, so a
      table with one or two may not deal while other tables are in play (the last table
      plays down to heads-up)."""
    if rule != MINIMUM_CASINO:
        return []
    playing = [t for t in tables if t.players]
    if len(playing) < 2:
        return []
    return [t.number for t in playing if t.players < MIN_PLAYERS_TO_START]
