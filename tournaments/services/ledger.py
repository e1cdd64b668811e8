"""The one writer of ledger lines (issue 20): every line goes in through `ledger_line_add`,
which adds it to the running totals of its tournament and, for a flight's line, of the
flight's event, in the same transaction (`tournaments.models.LedgerTotals`). Nothing
else creates a `Transaction`: a line written past it would leave the totals behind
the ledger (`tournaments.selectors.ledger_totals_check` finds it)."""

from django.db import connection

from tournaments.engine import ledger as ledger_engine
from tournaments.models import LedgerTotals, Tournament, Transaction
from tournaments.selectors import ledger_recount

_COLUMNS = ledger_engine.FIELDS

# One statement for the line's tournament and its event, whether or not their rows are
# there yet (an event's first line makes its row): INSERT ... ON CONFLICT, which
# PostgreSQL and SQLite read alike. The row of the event counts the line as a flight's.
_UPSERT_SQL = """
INSERT INTO {totals} (tournament_id, {columns})
SELECT t.id, {values}
FROM {tournaments} t
WHERE t.id = %(line_tournament)s
   OR t.id = (SELECT parent_id FROM {tournaments} WHERE id = %(line_tournament)s)
ON CONFLICT (tournament_id) DO UPDATE SET {sums}
"""


def _upsert_sql() -> str:
    totals = LedgerTotals._meta.db_table
    values = ", ".join(
        "CASE WHEN t.id = %(line_tournament)s THEN 0 ELSE 1 END"
        if name == "flight_lines"
        else f"%({name})s"
        for name in _COLUMNS
    )
    sums = ", ".join(f"{name} = {totals}.{name} + excluded.{name}" for name in _COLUMNS)
    return _UPSERT_SQL.format(
        totals=totals,
        tournaments=Tournament._meta.db_table,
        columns=", ".join(_COLUMNS),
        values=values,
        sums=sums,
    )


def ledger_line_add(*, reverses: Transaction | None = None, **fields) -> Transaction:
    """Write one ledger line (the fields of `Transaction`) and add it to the running
    totals, under the caller's transaction and lock. `reverses`: the line it takes back,
    whose counts no longer count from now on (its money stays: the reversal's is the
    opposite). Two statements."""
    line = Transaction.objects.create(reverses=reverses, **fields)
    delta = ledger_engine.line_delta(
        kind=line.kind,
        amount=line.amount,
        prize_share=line.prize_share,
        fee_share=line.fee_share,
        bounty_share=line.bounty_share,
        reverses_kind=reverses.kind if reverses is not None else None,
        reverses_is_reversal=reverses is not None and reverses.reverses_id is not None,
    )
    delta.pop("flight_lines")  # per row: 1 in the event's row for a flight's line
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(), {**delta, "line_tournament": line.tournament_id})
    return line


def ledger_totals_recount(*, tournament: Tournament) -> None:
    """Store the fresh sums over the ledger as `tournament`'s running totals: for lines
    loaded in bulk past `ledger_line_add` (a benchmark's or a test's field of 10,000), and
    to set right totals that `ledger_totals_check` found wrong. One flight's totals do
    not change its event's: recount the event too."""
    figures = ledger_recount(tournament)
    LedgerTotals.objects.update_or_create(tournament=tournament, defaults=figures)
