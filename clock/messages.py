"""What the TD is told when the clock refuses an action (codes from clock.engine)."""

from django.utils.translation import gettext_lazy as _

REFUSALS = {
    "no_structure": _("The tournament has no blind structure yet."),
    "finished": _("The clock has finished."),
    "already_started": _("The clock has already been started."),
    "not_started": _("The clock has not been started yet."),
    "not_running": _("The clock is not running."),
    "already_running": _("The clock is already running."),
    "last_level": _("This is the last level of the structure."),
    "first_level": _("This is the first level."),
    "no_such_level": _("The structure has no such level."),
    "negative_time": _("The time left cannot be negative."),
    "too_much_time": _("The time left cannot exceed 24 hours."),
    "unknown_action": _("Unknown clock action."),
    "clock_started": _("The structure cannot be replaced once the clock has started."),
    "step_locked": _("Levels already played or in play cannot be changed (level %(level)s)."),
    "structure_in_use": _("The structure is used by a tournament."),
    "player_clock_running": _("That seat is already on the clock."),
    "player_clock_stopped": _("That player clock has already stopped."),
    "day_end_drawn": _("The hands for the end of the day have already been drawn."),
    "day_end_not_drawn": _(
        "This event follows the TDA: the day ends when its last level ends, with no draw "
        "of the hands left (the house setting for casino §28 is off)."
    ),
}


def refusal_message(code: str, **data) -> str:
    return str(REFUSALS[code]) % data if data else str(REFUSALS[code])
