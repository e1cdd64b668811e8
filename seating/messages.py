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
    "break_no_room": _("The players of table %(number)s do not fit at the other tables."),
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
    # `%` on the lazy text: a plural one picks its form by the count in `data`.
    return REFUSALS[code] % data if data else str(REFUSALS[code])
