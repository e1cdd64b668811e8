"""What one ledger line adds to an event's running totals (issue 20): pure figures.

The running totals (`tournaments.models.LedgerTotals`) are the sums and counts that
`tournaments.selectors.ledger_recount` takes over every line of an event, kept up to
date line by line so that reading them costs the same at 10,000 entries as at 300.
A line counts as an entry, a re-entry, a rebuy or an add-on while nobody has reversed
it; its money counts whatever happens to it later (the reversal's money is the opposite).
"""

# The kinds, as `tournaments.models.TransactionKind` stores them (no Django here).
BUY_IN = "buy_in"
REENTRY = "reentry"
REBUY = "rebuy"
ADDON = "addon"
PAYOUT = "payout"
TICKET = "ticket"
BOUNTY = "bounty"

FIELDS = (
    "entries",
    "tickets",
    "reentries",
    "rebuys",
    "addons",
    "collected",
    "paid_out",
    "fees",
    "bounty_in",
    "bounty_out",
    "flight_lines",
)


def line_counts(kind: str, *, is_reversal: bool) -> dict[str, int]:
    """The counts a line adds while nobody has reversed it. An entry paid with a ticket
    is a TICKET line that reverses nothing (the TICKET line that gives the ticket back
    reverses it, and counts nothing)."""
    ticket = kind == TICKET and not is_reversal
    return {
        "entries": int(kind == BUY_IN or ticket),
        "tickets": int(ticket),
        "reentries": int(kind == REENTRY),
        "rebuys": int(kind == REBUY),
        "addons": int(kind == ADDON),
    }


def line_delta(
    *,
    kind: str,
    amount: int,
    prize_share: int,
    fee_share: int,
    bounty_share: int,
    reverses_kind: str | None,
    reverses_is_reversal: bool = False,
    from_flight: bool = False,
) -> dict[str, int]:
    """What a new line adds to the totals of an event: its money, its counts, less the
    counts of the line it reverses (`reverses_kind`, None for none), which from now on
    no longer counts. `from_flight`: the line is a flight's, counted in its event's."""
    delta = line_counts(kind, is_reversal=reverses_kind is not None)
    if reverses_kind is not None:
        taken_back = line_counts(reverses_kind, is_reversal=reverses_is_reversal)
        delta = {name: delta[name] - taken_back[name] for name in delta}
    return {
        **delta,
        "collected": 0 if kind == PAYOUT else prize_share,
        "paid_out": amount if kind == PAYOUT else 0,
        "fees": fee_share,
        "bounty_in": 0 if kind == BOUNTY else bounty_share,
        "bounty_out": bounty_share if kind == BOUNTY else 0,
        "flight_lines": int(from_flight),
    }
