"""What the tablet shows of a hand's level and start (TDA 23; casino §25, §32) and of the
corrections the dealer may report during a hand (TDA 34-A, 36; casino §16 c).

Reads only; the tablet's views call the services (hands.services.levels, .corrections).
"""

from django.utils.translation import gettext as _

from hands.engine import corrections as rules
from hands.models import Hand, StartEvent
from hands.selectors import hand_readings
from hands.services.levels import start_event_labels, step_of_level
from tournaments import house
from tournaments.models import Tournament
from tournaments.selectors import house_settings


def _blinds_of_step(level: int, step) -> dict | None:
    if step is None:
        return None
    return {
        "level": level,
        "small_blind": step.small_blind,
        "big_blind": step.big_blind,
        "ante": step.ante,
        "ante_type": step.ante_type,
        "is_break": False,
    }


def levels_context(tournament: Tournament, hand: Hand | None, mark: dict | None) -> dict:
    """The start events the house offers, the next hand's mark and the blinds it keeps,
    the line that says which level the hand plays at and why, and the house's reading
    of a button in the wrong place. `mark`: the table's state's (hands.api.state_data)."""
    # A hand in play keeps the readings it was dealt under (Hand.house_settings); before
    # the deal, the event's.
    settings = hand_readings(hand) if hand is not None else house_settings(tournament)
    reading = settings.hand_starts
    rule = rules.START_RULES[reading]
    labels = dict(StartEvent.choices)
    mark = None if hand else mark
    blinds = None
    if hand is not None:
        if hand.start_event:
            note = _(
                "Level %(level)s: the level in play when the hand started (%(start)s, %(rule)s)."
            ) % {"level": hand.level, "start": labels[hand.start_event], "rule": rule}
        else:
            note = _("Level %(level)s: the level in play when the hand was dealt (TDA 23).") % {
                "level": hand.level
            }
    elif mark is not None:
        note = _(
            "The next hand has started (%(start)s, %(rule)s): it plays at level %(level)s, "
            "whatever the clock shows when the cards come."
        ) % {"start": labels[mark["event"]], "rule": rule, "level": mark["level"]}
        blinds = _blinds_of_step(mark["level"], step_of_level(tournament, mark["level"]))
    elif reading == rules.CUT:
        note = _(
            "A new level applies from the next hand, which starts with the cut of the cards "
            "(casino §25, §32): mark the cut."
        )
    else:
        note = _(
            "A new level applies from the next hand, which starts with the first riffle, the "
            "shuffler button or the dealer push (TDA 23): mark it."
        )
    button_reading = house.BY_KEY["button_error"].reading(settings.button_error)
    return {
        "events": start_event_labels(reading),
        "rule": rule,
        "mark": mark,
        "blinds": blinds,
        "note": note,
        "button_rule": button_reading.rule,
        "button_summary": button_reading.summary,
    }
