"""What the floor is told when a seating action is refused."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

REFUSALS = {
    # A count's noun agrees with it (issue 16): the form is chosen by data["tables"].
    "not_enough_seats": ngettext_lazy(
        "Not enough open seats: %(missing)s more needed, that is %(tables)s more table.",
        "Not enough open seats: %(missing)s more needed, that is %(tables)s more tables.",
        "tables",
    ),
    "nobody_to_seat": _("Every active entry already has a seat."),
    "table_in_use": _("Table %(number)s is in play in another tournament."),
    "tables_in_use": _(
        "Tables %(numbers)s are in play in another tournament: leave the tables out, or "
        "add them once that tournament is over."
    ),
    "table_number_taken": _("This tournament already has a table %(number)s."),
    "table_not_empty": _("Table %(number)s still has players; break it instead."),
    "table_broken": _("Table %(number)s has been broken: it can no longer be changed."),
    "seat_taken": _("Seat %(table)s-%(seat)s is taken."),
    "seat_blocked": _("Seat %(table)s-%(seat)s is blocked."),
    "same_seat": _("The player already sits there."),
    "not_seated": _("This entry has no seat."),
    "entry_not_active": _("Only active entries can be seated."),
    "balanced": _("The tables are balanced: nothing to move."),
    "last_table": _("The last table in play cannot be broken."),
    # The form is chosen by data["players"]; the open seats are a figure after a colon.
    "break_no_room": ngettext_lazy(
        "The %(players)s player of table %(number)s does not fit at the other tables "
        "(open seats in play: %(free)s) and no empty table can open. Add a table first.",
        "The %(players)s players of table %(number)s do not fit at the other tables "
        "(open seats in play: %(free)s) and no empty table can open. Add a table first.",
        "players",
    ),
    "break_opens_table": ngettext_lazy(
        "The %(players)s player of table %(number)s does not fit at the tables in play "
        "(open seats: %(free)s): breaking it opens table %(tables)s. Confirm that plan to "
        "break it.",
        "The %(players)s players of table %(number)s do not fit at the tables in play "
        "(open seats: %(free)s): breaking it opens table %(tables)s. Confirm that plan to "
        "break it.",
        "players",
    ),
    "break_plan_changed": _(
        "The tables have changed since the break of table %(number)s was shown: it was not "
        "broken. Look at what it would do now."
    ),
    "balance_plan_changed": _(
        "The tables have changed since these moves were shown (a hand was dealt, or a "
        "player busted or sat down): nobody was moved. Look at the moves needed now."
    ),
    "nothing_to_undo": _("There is no seating action to undo."),
    "undo_after_hand": _(
        "That seating action cannot be undone any more: a hand has been dealt since at "
        "a table it changed."
    ),
    "undo_done": _("That seating action has already been undone: nothing was changed."),
    "undo_not_last": _(
        "That is no longer the last seating action: another came after it. Nothing was "
        "changed; look at the table map for what can be undone now."
    ),
    "undo_stale": _(
        "That seating action cannot be undone any more: players have moved or busted since."
    ),
    "final_too_many": _("%(players)s players are left: more than the final table's %(size)s."),
    "final_table_small": _("Table %(number)s has fewer seats than the final table needs."),
    "one_table_left": _("Only one table is in play already."),
    # Chip counts during play (issue 18).
    "counts_over": _("This event is over: there are no stacks left to count."),
    "count_not_active": _("Only a player still in the event can be counted."),
    "sweep_open": _("A count sweep is open already: close it before starting another."),
    "no_sweep": _("No count sweep is open."),
}


def refusal_message(code: str, **data) -> str:
    # `%` on the lazy text: a plural one picks its form by the count in `data`.
    return REFUSALS[code] % data if data else str(REFUSALS[code])


# --- What an undo will do, and did (seating.selectors.undo_plan) ---------------------------

UNDO_ONE = {
    "draw": _("draw of %(name)s (#%(number)s) to table %(to_table)s, seat %(to_seat)s"),
    "late": _("late seat of %(name)s (#%(number)s) at table %(to_table)s, seat %(to_seat)s"),
    "move": _(
        "move of %(name)s (#%(number)s) from table %(from_table)s, seat %(from_seat)s to "
        "table %(to_table)s, seat %(to_seat)s"
    ),
    "balance": _(
        "balancing move of %(name)s (#%(number)s) from table %(from_table)s, seat "
        "%(from_seat)s to table %(to_table)s, seat %(to_seat)s"
    ),
    "break": _(
        "break of table %(from_table)s: %(name)s (#%(number)s) to table %(to_table)s, seat "
        "%(to_seat)s"
    ),
    "final": _(
        "final table draw: %(name)s (#%(number)s) from table %(from_table)s, seat "
        "%(from_seat)s to table %(to_table)s, seat %(to_seat)s"
    ),
}
UNDO_MANY = {
    "draw": _("draw of %(count)s players to tables %(tables)s"),
    "late": _("late seats of %(count)s players at tables %(tables)s"),
    "move": _("move of %(count)s players to tables %(tables)s"),
    "balance": _("balancing of %(count)s players to tables %(tables)s"),
    "break": _("break of table %(broken)s: %(count)s players to tables %(tables)s"),
    "final": _("final table draw of %(count)s players at table %(tables)s"),
}
UNDO_NOBODY = _("%(kind)s without players")
UNDO_BACK = _(
    "%(name)s (#%(number)s): from table %(to_table)s, seat %(to_seat)s back to table "
    "%(from_table)s, seat %(from_seat)s"
)
UNDO_NO_SEAT = _(
    "%(name)s (#%(number)s): leaves table %(to_table)s, seat %(to_seat)s and has no seat "
    "until seated again"
)
UNDONE_BACK = _("%(name)s (#%(number)s) sits at table %(from_table)s, seat %(from_seat)s again.")
UNDONE_NO_SEAT = _(
    "%(name)s (#%(number)s) has no seat now (was at table %(to_table)s, seat %(to_seat)s)."
)
UNDONE_MANY = _("%(count)s players were moved back: the table map shows where each sits now.")
UNDONE_LINES_MAX = 10  # players named one by one after an undo; more are summed up


def _words(move) -> dict:
    return {
        "name": move.name,
        "number": move.number,
        "from_table": move.from_table,
        "from_seat": move.from_seat,
        "to_table": move.to_table,
        "to_seat": move.to_seat,
    }


def undo_summary(action, moves) -> str:
    """The undo in a few words: "move of Anna Berg (#12) from table 3, seat 2 to table 5,
    seat 7"; for several players, the count and the tables."""
    if len(moves) == 1:
        return str(UNDO_ONE[action.kind]) % _words(moves[0])
    if not moves:
        return str(UNDO_NOBODY) % {"kind": action.get_kind_display()}
    tables = sorted({m.to_table for m in moves})
    broken = action.params.get("table", "") if action.kind == "break" else ""
    return str(UNDO_MANY[action.kind]) % {
        "count": len(moves),
        "tables": ", ".join(map(str, tables)),
        "broken": broken,
    }


def undo_line(move) -> str:
    """Where one player goes when the action is undone."""
    return str(UNDO_NO_SEAT if move.from_table is None else UNDO_BACK) % _words(move)


def undone_lines(moves) -> list[str]:
    """Where the players sit after the undo: each by name, or a count for many."""
    if len(moves) > UNDONE_LINES_MAX:
        return [str(UNDONE_MANY) % {"count": len(moves)}]
    return [str(UNDONE_NO_SEAT if m.from_table is None else UNDONE_BACK) % _words(m) for m in moves]
