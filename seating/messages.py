"""What the floor is told when a seating action is refused."""

from django.utils.translation import gettext_lazy as _

REFUSALS = {
    "not_enough_seats": _(
        "Not enough open seats: %(missing)s more needed, that is %(tables)s more table(s)."
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
    "break_no_room": _(
        "The %(players)s player(s) of table %(number)s do not fit at the other tables: "
        "%(free)s open seat(s) in play and no empty table to open. Add a table first."
    ),
    "break_opens_table": _(
        "The %(players)s player(s) of table %(number)s do not fit at the tables in play "
        "(%(free)s open seat(s)): breaking it opens table %(tables)s. Confirm that plan to "
        "break it."
    ),
    "break_plan_changed": _(
        "The tables have changed since the break of table %(number)s was shown: it was not "
        "broken. Look at what it would do now."
    ),
    "nothing_to_undo": _("There is no seating action to undo."),
    "undo_after_hand": _(
        "That seating action cannot be undone any more: a hand has been dealt since at "
        "a table it changed."
    ),
    "undo_stale": _(
        "That seating action cannot be undone any more: players have moved or busted since."
    ),
    "final_too_many": _("%(players)s players are left: more than the final table's %(size)s."),
    "final_table_small": _("Table %(number)s has fewer seats than the final table needs."),
    "one_table_left": _("Only one table is in play already."),
}


def refusal_message(code: str, **data) -> str:
    return str(REFUSALS[code]) % data if data else str(REFUSALS[code])
