"""Reads for the prize money: whether the payout table may still change, the chips in
play, the results and what each entry is due. The payout table itself is read from
`payouts.selectors`. And an event's setup, for its copy or a saved event template.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, Q, Sum

from clock.selectors import clock_setup
from hands.engine.places import Place, prize_shares
from hands.selectors import (
    bounties_won,
    finishing_places,
    h4h_setup,
    knockouts_standing,
    places_window,
)
from payouts.selectors import PayoutTable, payout_setup, payout_table
from prizes.models import Deal, Payment, PlaceEntered
from seating.selectors import seating_setup
from tournaments.models import Entry, EntryStatus, Ticket, Tournament, TournamentStatus
from tournaments.selectors import (
    player_public,
    tournament_setup,
)

# --- An event's setup -----------------------------------------------------------------


def event_setup(tournament: Tournament) -> dict:
    """What a copy of the event or a saved event template takes of it, each app's part
    as that app reads it, in plain values (JSON): the event's settings (money, stack,
    deadlines, re-entries, rebuys, add-on), the clock's settings and the steps of its
    blind structure, the payout settings, the seating settings and tables, and
    hand-for-hand's settings. Never its name or start, its entries, players, hands,
    payments or results."""
    return {
        "event": tournament_setup(tournament),
        "clock": clock_setup(tournament),
        "payouts": payout_setup(tournament),
        "seating": seating_setup(tournament.pk),
        "hand_for_hand": h4h_setup(tournament.pk),
    }


# --- Paid and dealt ---------------------------------------------------------------------


def payouts_final(tournament: Tournament) -> str | None:
    """Why the payout table can no longer change (a prize paid from it, a deal made),
    as a refusal code; None while it can."""
    if Payment.objects.filter(entry__tournament=tournament).exists():
        return "payouts_paid"
    if Deal.objects.filter(tournament=tournament).exists():
        return "payouts_dealt"
    return None


def deal_refusal(tournament: Tournament) -> str | None:
    """Why no deal can be recorded now (casino §6: while the tournament runs, once), as a
    refusal code; None while one can."""
    if tournament.status != TournamentStatus.RUNNING:
        return "deal_not_running"
    if Deal.objects.filter(tournament=tournament).exists():
        return "deal_exists"
    return None


def unpaid_prizes(table: PayoutTable, players_left: int) -> list[int]:
    """The prizes the players left still play for: places 1 to `players_left`."""
    amounts = list(table.amounts[:players_left])
    return amounts + [0] * (players_left - len(amounts))


# --- Results ----------------------------------------------------------------------------


@dataclass
class Result:
    entry_id: int
    number: int  # the entry's number
    place: int
    shared: tuple[int, int]
    entry: Entry | None = None  # with its player; see `results`
    prize: int = 0  # what the entry is due: its share of the table, or its deal
    deal_amount: int | None = None
    paid: int | None = None  # what the cashier paid, if paid
    conflict: bool = False  # another result claims one of these places
    entered: bool = False  # the TD typed the place in (no bust-out gave it)
    seat: bool = False  # won a seat in a satellite's target (issue 17): not ranked
    # Issue 18: the bounty cash the entry's knockouts that stand won (in a PKO the
    # winner's own bounty too); apart from the prize.
    bounties: int = 0

    @property
    def paid_differs(self) -> bool:
        """Paid, but not what is due now (the table or a place changed since)."""
        return self.paid is not None and self.paid != self.prize

    @property
    def tied(self) -> bool:
        return self.shared[0] != self.shared[1]

    @property
    def payable(self) -> bool:
        return self.paid is None and self.prize > 0 and not self.conflict


@dataclass
class Results:
    rows: list[Result]
    table: PayoutTable
    deal: Deal | None
    playing: int  # entries still in play, not yet placed
    conflicts: list[int] = field(default_factory=list)  # places claimed twice
    playing_ids: list[int] = field(default_factory=list)  # those entries, by number

    def for_entry(self, entry_id: int) -> Result | None:
        return next((row for row in self.rows if row.entry_id == entry_id), None)


def _entered_places(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Places the TD typed in: entries given the same place share it and those after."""
    groups: dict[int, list[int]] = defaultdict(list)
    for entry_id, place in PlaceEntered.objects.filter(tournament=tournament).values_list(
        "entry_id", "place"
    ):
        groups[place].append(entry_id)
    return {
        entry_id: (place, place + len(entries) - 1)
        for place, entries in groups.items()
        for entry_id in entries
    }


def _deal_places(deal: Deal) -> dict[int, tuple[int, int]]:
    """A deal that ends the tournament places its players by their chips (equal stacks
    share)."""
    shares = list(deal.shares.all())
    places = {}
    for share in shares:
        better = sum(1 for other in shares if other.chips > share.chips)
        same = sum(1 for other in shares if other.chips == share.chips)
        places[share.entry_id] = (better + 1, better + same)
    return places


def seat_winners(tournament: Tournament) -> list[int]:
    """The entries that won a seat when the satellite's play stopped (issue 17): they
    share the seat places, none ranked above another. No query for other events; the
    tickets exist only once play stopped (undoing that bust takes them back)."""
    if not tournament.satellite_target_id:
        return []
    return list(
        Ticket.objects.filter(satellite=tournament, won_by__isnull=False)
        .order_by("won_by_id")
        .values_list("won_by_id", flat=True)
    )


def _place_ranges(
    tournament: Tournament,
    deal: Deal | None,
    entered: dict[int, tuple[int, int]],
    seats: list[int] = (),
    busted: dict[int, Place] | None = None,
) -> dict[int, tuple[int, int]]:
    """Each entry's place range: the bust-outs' (`busted`, hands.selectors), then a deal
    that ends the event, the seats won, and last the places the TD typed in."""
    if tournament.is_flight:
        return {}  # issue 17: places run over the whole event; Day 1 busts have none
    ranges = {entry: place.shared for entry, place in (busted or {}).items()}
    if deal is not None and deal.ends_tournament:
        ranges.update(_deal_places(deal))
    ranges.update({entry: (1, len(seats)) for entry in seats})
    ranges.update(entered)
    return ranges


def _conflicts(ranges: dict[int, tuple[int, int]]) -> set[int]:
    """Places claimed by two different groups of entries."""
    claims: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for shared in ranges.values():
        for place in range(shared[0], shared[1] + 1):
            claims[place].add(shared)
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for shared in ranges.values():
        counts[shared] += 1
    bad = {place for place, groups in claims.items() if len(groups) > 1}
    # A shared range needs exactly as many entries as places.
    for (first, last), count in counts.items():
        if count != last - first + 1:
            bad.update(range(first, last + 1))
    return bad


def _shares_of(ranges: dict[int, tuple[int, int]], prizes: dict[int, int]) -> dict[int, int]:
    """RP-8 A: tied entries pool the prizes of the places they share and split them
    evenly; a cent that does not split goes to the lowest entry first."""
    ordered = {entry: Place(entry, ranges[entry][0], ranges[entry]) for entry in sorted(ranges)}
    return prize_shares(ordered, prizes)


def _deal(tournament: Tournament) -> Deal | None:
    return Deal.objects.filter(tournament=tournament).prefetch_related("shares").first()


def _rows(
    tournament: Tournament,
    table: PayoutTable,
    deal: Deal | None,
    ranges: dict[int, tuple[int, int]],
    entered: dict[int, tuple[int, int]],
    seats: list[int],
    numbers: dict[int, int],
    paid: dict[int, int],
) -> tuple[list[Result], set[int]]:
    """The result lines of the entries in `ranges`, best place first, and the places in
    conflict. Exact for every entry whose range meets no other range left out of
    `ranges` (all of them for the whole field; see `results_for_entry`)."""
    conflicts = _conflicts(ranges)
    deal_amounts = {share.entry_id: share.amount for share in deal.shares.all()} if deal else {}
    # Places the deal shared out are paid by the deal, not by the table.
    dealt = len(deal_amounts)
    prizes = {p: a for p, a in table.by_place().items() if p > dealt}
    due = _shares_of({e: r for e, r in ranges.items() if e not in deal_amounts}, prizes)
    won = {}
    if tournament.bounty_format:
        won = bounties_won(tournament, None if len(ranges) == len(numbers) else list(ranges))
    rows = []
    for entry_id, shared in ranges.items():
        row = Result(
            entry_id=entry_id,
            number=numbers[entry_id],
            place=shared[0],
            shared=shared,
            entered=entry_id in entered,
            seat=entry_id in seats,
            bounties=won.get(entry_id, 0),
        )
        if entry_id in deal_amounts:
            row.deal_amount = deal_amounts[entry_id]
            winner = shared == (1, 1) and not deal.ends_tournament
            row.prize = row.deal_amount + (deal.left_to_play if winner else 0)
        else:
            row.prize = due.get(entry_id, 0)
        row.paid = -paid[entry_id] if entry_id in paid else None
        row.conflict = any(p in conflicts for p in range(shared[0], shared[1] + 1))
        rows.append(row)
    rows.sort(key=lambda row: (row.place, row.number))
    return rows, conflicts


def results(
    tournament: Tournament, table: PayoutTable | None = None, *, entries: bool = True
) -> Results:
    """Every placed entry's place, prize and payment, best place first.

    `entries=False` leaves each row's entry (and player) unread: the places and prizes
    come from plain numbers, and a caller that shows a few rows reads theirs with
    `results_entries` (a page of the results, the one entry paid). At 1,000 entries
    reading them all was half the time of paying a prize (issue 16)."""
    table = table or payout_table(tournament)
    deal = _deal(tournament)
    entered = _entered_places(tournament)
    seats = seat_winners(tournament)
    busted = {} if tournament.is_flight else finishing_places(tournament.pk)
    ranges = _place_ranges(tournament, deal, entered, seats, busted)
    # By tournament, not by a list of ids: at 10,000 entries a list that long costs more
    # to send and parse than the rows themselves.
    field = {
        pk: (number, status)
        for pk, number, status in Entry.objects.filter(tournament=tournament).values_list(
            "pk", "number", "status"
        )
    }
    paid = dict(
        Payment.objects.filter(entry__tournament=tournament).values_list("entry_id", "line__amount")
    )
    numbers = {pk: number for pk, (number, _status) in field.items()}
    rows, conflicts = _rows(tournament, table, deal, ranges, entered, seats, numbers, paid)
    playing = sorted(
        (
            pk
            for pk, (_n, status) in field.items()
            if status == EntryStatus.ACTIVE and pk not in ranges
        ),
        key=lambda pk: field[pk][0],
    )
    if entries:
        results_entries(tournament, rows)
    return Results(
        rows=rows,
        table=table,
        deal=deal,
        playing=len(playing),
        conflicts=sorted(conflicts),
        playing_ids=playing,
    )


def results_for_entry(
    tournament: Tournament, entry_id: int | None, table: PayoutTable | None = None
) -> Results:
    """`results` for one entry: its line (none if it has no place), the same in every
    figure as on the results page, and the summary (the table, the deal, how many play
    on), in the same few queries at 300 entries as at 10,000 (issue 20: what paying a
    prize needs, not the whole field). None for `entry_id`: the summary alone.

    Its line depends only on the entries whose place ranges meet its own (a conflict, a
    shared prize): the places typed in, the seats won and the deal's (a few rows each),
    and the bust-outs of the hands placed there (hands.selectors.places_window)."""
    table = table or payout_table(tournament)
    deal = _deal(tournament)
    entered = _entered_places(tournament)
    seats = seat_winners(tournament)
    others = _place_ranges(tournament, deal, entered, seats)
    if entry_id is None or tournament.is_flight:
        window = places_window(tournament.pk)
    elif entry_id in others:
        first, last = others[entry_id]
        window = places_window(tournament.pk, first=first, last=last)
    else:
        window = places_window(tournament.pk, entry_id=entry_id)
    ranges = _place_ranges(tournament, deal, entered, seats, window.places)
    rows = []
    if entry_id in ranges:
        numbers = dict(
            Entry.objects.filter(tournament=tournament, pk__in=list(ranges)).values_list(
                "pk", "number"
            )
        )
        paid = dict(
            Payment.objects.filter(entry__in=list(ranges)).values_list("entry_id", "line__amount")
        )
        found, _conflicts_found = _rows(
            tournament, table, deal, ranges, entered, seats, numbers, paid
        )
        rows = [row for row in found if row.entry_id == entry_id]
    return Results(rows=rows, table=table, deal=deal, playing=_playing(tournament, others, window))


def _playing(tournament: Tournament, others: dict[int, tuple[int, int]], window) -> int:
    """`Results.playing` counted by the database: entries in play that have no place, not
    from a bust-out (an entry with one is out), the winner's or any other."""
    found = Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
    if tournament.is_flight:
        return found.count()
    placed = {*others, *([window.winner] if window.winner else [])}
    if 0 < window.busts < window.field:
        found = found.filter(elimination__isnull=True)
    return found.exclude(pk__in=placed).count()


def results_entries(tournament: Tournament, rows: list[Result]) -> None:
    """Read the entries (and players) of `rows` into them, in one query: every entry of
    the tournament when the rows are most of them, else those of the rows."""
    missing = [row for row in rows if row.entry is None]
    if not missing:
        return
    found = Entry.objects.filter(tournament=tournament).select_related("player")
    if len(missing) <= RESULTS_BY_ID:
        found = found.filter(pk__in=[row.entry_id for row in missing])
    entries = {entry.pk: entry for entry in found}
    for row in missing:
        row.entry = entries[row.entry_id]


RESULTS_BY_ID = 500  # up to this many rows, read by their ids; more: the whole field


# --- Public shapes ----------------------------------------------------------------------


def settings_public(structure) -> dict:
    def text(value):
        return None if value is None else str(value)

    return {
        "places_mode": structure.places_mode,
        "places_percent": text(structure.places_percent),
        "places_fixed": structure.places_fixed,
        "winner_share": text(structure.winner_share),
        "min_cash_multiple": text(structure.min_cash_multiple),
        "unit": structure.unit,
        "shares": structure.shares,
    }


def payouts_public(tournament: Tournament, table: PayoutTable) -> dict:
    """The payout table as the API, the lobby and the live event show it."""
    pool = table.pool
    return {
        "currency": tournament.currency,
        "prize_pool": {
            "total": pool.total,
            "collected": pool.collected,
            "guarantee": pool.guarantee,
            "overlay": pool.overlay,
            "paid_out": pool.paid_out,
            "remaining": pool.remaining,
        },
        "settings": settings_public(table.structure),
        "lock": table.structure.lock,
        "locked": table.locked,
        "locked_reason": table.locked_reason,
        "edited": table.structure.edited,
        "places_paid": table.places_paid,
        # A satellite (issue 17): places 1 to `seats` each win a seat of `seat_value`;
        # the lines are the cash on top.
        "seats": table.seats,
        "seat_value": table.seat_value,
        "lines": [{"place": p, "amount": a} for p, a in enumerate(table.amounts, start=1)],
        "adjustments": list(table.adjustments),
        "balanced": table.balanced,
        "difference": table.difference,
    }


def result_public(row: Result) -> dict:
    """A line of the public results: no contact data."""
    entry = row.entry
    return {
        "place": row.place,
        "place_shared": list(row.shared) if row.tied else None,
        "entry": {"id": entry.pk, "number": entry.number},
        "player": player_public(entry.player),
        "prize": row.prize,
        "deal": row.deal_amount,
        "paid": row.paid is not None,
        "seat_won": row.seat,
        "bounties": row.bounties,
    }


def results_public(tournament: Tournament, found: Results) -> dict:
    return {
        **_results_summary(tournament, found),
        "results": [result_public(row) for row in found.rows],
    }


def results_event(tournament: Tournament, found: Results, changed: set[int] | None) -> dict:
    """The live event's data: the summary and the lines of the entries in `changed`;
    None means many lines may have changed, to be fetched again. Never the whole list:
    at 10,000 entries that is megabytes, for every screen on every prize paid."""
    lines = None
    if changed is not None:
        rows = [row for row in found.rows if row.entry_id in changed]
        results_entries(tournament, rows)
        lines = [result_public(row) for row in rows]
    return {**_results_summary(tournament, found), "changed": lines}


def _results_summary(tournament: Tournament, found: Results) -> dict:
    return {
        "currency": tournament.currency,
        "status": tournament.status,
        "bounty_format": tournament.bounty_format,
        "prize_pool": found.table.pool.total,
        "places_paid": found.table.places_paid,
        "playing": found.playing,
        "deal": (
            {
                "method": found.deal.method,
                "left_to_play": found.deal.left_to_play,
                "ends_tournament": found.deal.ends_tournament,
            }
            if found.deal
            else None
        ),
    }


# --- Bounties (issue 18) ----------------------------------------------------------------


@dataclass
class BountyTotals:
    won: int = 0  # the cash of the knockouts that stand
    paid: int = 0  # of which the cashier paid
    count: int = 0  # knockouts that stand
    unpaid: int = 0  # of which not paid yet (and with cash to pay)

    @property
    def left(self) -> int:
        return self.won - self.paid


def bounty_knockouts(tournament: Tournament, *, winner_id: int | None = None):
    """The knockouts that stand, as the cashier pays them: who knocked out whom (with
    the players), the hand and its table, and the payment with its line. One query."""
    found = knockouts_standing(tournament).select_related(
        "busted__player", "winner__player", "hand__table", "payment__line"
    )
    if winner_id is not None:
        found = found.filter(winner_id=winner_id)
    return found.order_by("recorded_at", "id")


def bounty_totals_of(tournament: Tournament) -> BountyTotals:
    """The same totals as `bounty_totals`, counted by the database in one query however
    many knockouts there are: what a payment's live event carries."""
    paid = Q(payment__isnull=False)
    found = knockouts_standing(tournament).aggregate(
        count=Count("id"),
        won=Sum("cash", default=0),
        paid=Sum("payment__line__amount", default=0),
        unpaid=Count("id", filter=~paid & Q(cash__gt=0)),
    )
    return BountyTotals(
        won=found["won"], paid=-found["paid"], count=found["count"], unpaid=found["unpaid"]
    )


def knockout_paid(knockout) -> int | None:
    """What the cashier paid for a knockout read with its payment, None if unpaid."""
    try:
        return -knockout.payment.line.amount
    except ObjectDoesNotExist:
        return None


def bounty_totals(knockouts) -> BountyTotals:
    """The bounty money won, paid and left to pay, over knockouts read with their payment
    (`bounty_knockouts`)."""
    totals = BountyTotals()
    for knockout in knockouts:
        totals.count += 1
        totals.won += knockout.cash
        paid = knockout_paid(knockout)
        if paid is not None:
            totals.paid += paid
        elif knockout.cash > 0:
            totals.unpaid += 1
    return totals


def knockout_public(knockout) -> dict:
    """A knockout for the API and the live event: the entries and their players (no
    contact data), the cash paid at the cage, what it added to the eliminator's own
    bounty (PKO), the mystery draw, where it came from, and whether it is paid."""
    paid = knockout_paid(knockout)
    return {
        "id": knockout.pk,
        "busted": {
            "id": knockout.busted_id,
            "number": knockout.busted.number,
            "player": player_public(knockout.busted.player),
        },
        "winner": {
            "id": knockout.winner_id,
            "number": knockout.winner.number,
            "player": player_public(knockout.winner.player),
        },
        "hand": (
            {"number": knockout.hand.number, "table": knockout.hand.table.number}
            if knockout.hand_id
            else None
        ),
        "cash": knockout.cash,
        "added": knockout.added,
        "draw": knockout.draw,
        "source": knockout.source,
        "recorded_at": knockout.recorded_at,
        "paid": paid is not None,
    }


# --- A player's history (issue 22: imported events as well as Floorman's own) ----------


@dataclass(frozen=True)
class Played:
    """One event a player entered: how often, the best place of those entries (None while
    none has one) and what they were paid."""

    tournament: Tournament
    entries: int
    place: Result | None
    paid: int


def player_history(player_id: int, tournaments: list[Tournament]) -> list[Played]:
    """The player's part in each of `tournaments` (a page of them): their entries read in
    one query, each entry's place and payment as the results page gives them
    (`results_for_entry`, a few queries per entry whatever the field)."""
    mine: dict[int, list[int]] = defaultdict(list)
    for tournament_id, entry_id in Entry.objects.filter(
        player_id=player_id, tournament__in=tournaments
    ).values_list("tournament_id", "pk"):
        mine[tournament_id].append(entry_id)
    played = []
    for tournament in tournaments:
        entry_ids = mine.get(tournament.pk, [])
        table = payout_table(tournament) if entry_ids else None
        places = [
            row
            for entry_id in entry_ids
            for row in results_for_entry(tournament, entry_id, table).rows
        ]
        best = min(places, key=lambda row: row.place, default=None)
        paid = sum(row.paid or 0 for row in places)
        played.append(Played(tournament, len(entry_ids), best, paid))
    return played
