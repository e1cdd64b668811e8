"""What a lobby page says before its script runs (the first paint), and every text
static/js/clock.js shows, translated once per language and process."""

from decimal import Decimal

from babel.numbers import format_decimal
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from tournaments.templatetags.floorman_format import babel_locale, chips
from web.screens.numbers import OVER

_strings_of: dict[str, dict[str, str]] = {}  # language -> screen_strings


def screen_strings() -> dict[str, str]:
    """Every text clock.js shows, translated; %(name)s placeholders filled in there.
    Translated once per language and process (a lobby page asks at every request)."""
    language = get_language()
    strings = _strings_of.get(language)
    if strings is None:
        strings = _strings_of[language] = _screen_strings()
    return strings


def _screen_strings() -> dict[str, str]:
    return {
        "level": _("Level %(number)s"),
        "break": _("Break"),
        "bets": _("Bets %(small)s / %(big)s"),
        "ante": _("Ante %(ante)s"),
        "big_blind_ante": _("Big blind ante %(ante)s"),
        "minutes": _("%(minutes)s min"),
        "no_structure": _("No blind structure yet"),
        "status_not_started": _("Starts soon"),
        "status_paused": _("Clock paused"),
        "status_finished": _("Tournament finished"),
        "players": _("%(active)s left of %(entries)s"),
        "average": _("%(chips)s · %(big_blinds)s BB"),
        "rotation": _("%(index)s of %(count)s"),
        "new_level": _("New level: the new blinds apply from the next hand (TDA 23)"),
        "hold_push": _("Dealers: hold the push, the level changes soon (RP-7)"),
        "hold_push_break": _("Dealers: hold the push, the break starts soon (RP-7)"),
        "break_ending": _("Play resumes soon: please return to your seats"),
        "chip_race": _(
            "Colour-up (TDA 24): the %(chips)s chips come off. Odd chips are raced off "
            "with cards dealt from seat 1; nobody wins more than one chip, and nobody is "
            "raced out of the tournament."
        ),
        "addon": _("Add-ons are on sale during this break"),
        # JS picks the form by number; these two cover English and German.
        "day_end_one": ngettext(
            "End of the day (casino §28): %(hands)s hand remains at every table",
            "End of the day (casino §28): %(hands)s hands remain at every table",
            1,
        ),
        "day_end_other": ngettext(
            "End of the day (casino §28): %(hands)s hand remains at every table",
            "End of the day (casino §28): %(hands)s hands remain at every table",
            2,
        ),
        "last_level": _("Last level"),
        "places_paid": _("Places paid: %(count)s"),
        # The stage of play and the end (issue 16).
        "status_cancelled": _("Tournament cancelled"),
        "status_h4h": _("Hand-for-hand"),
        "final_table": _("Final table"),
        "h4h_round_zero": _("Finishing the hand in play (RP-8 A)"),
        "h4h_hand": _("Hand-for-hand hand %(number)s"),
        "h4h_playing": _("Tables still playing the hand: %(tables)s"),
        "h4h_held": _("All-in, waiting to show down: %(tables)s (RP-8 F)"),
        "h4h_bubble": _("The bubble: %(left)s players left, %(paid)s places paid"),
        "winner": _("Winner: %(name)s"),
        "deal_end": _("The last %(count)s players made a deal (casino §6)."),
    }


def _duration(ms: int) -> str:
    """As clock.js formatDuration: whole seconds rounded up, "09:59" or "1:05:00"."""
    seconds = max(0, -(-ms // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes:02d}:{seconds:02d}"


def _blinds(step: dict | None, strings: dict) -> str:
    if not step or step["is_break"]:
        return ""
    if step["small_bet"] or step["big_bet"]:
        return strings["bets"] % {"small": chips(step["small_bet"]), "big": chips(step["big_bet"])}
    return f"{chips(step['small_blind'])} / {chips(step['big_blind'])}"


def _ante(step: dict | None, strings: dict) -> str:
    if not step or step["is_break"]:
        return ""
    if step["big_blind_ante"]:
        return strings["big_blind_ante"] % {"ante": chips(step["big_blind_ante"])}
    if step["ante"]:
        return strings["ante"] % {"ante": chips(step["ante"])}
    return ""


def _title(step: dict | None, strings: dict) -> str:
    if not step:
        return strings["no_structure"]
    if step["is_break"]:
        return step["label"] or strings["break"]
    title = strings["level"] % {"number": step["number"]}
    return f"{title} · {step['game']}" if step["game"] else title


def _notices(clock: dict, strings: dict) -> list[str]:
    """The notices that follow from the state alone; clock.js adds the timed ones
    (RP-7 hold the push, TDA 23 new level) as they happen."""
    step = clock["level"]
    notices = []
    if not step:
        return notices
    if step["is_break"] and step["color_up"]:
        denominations = ", ".join(chips(c) for c in step["color_up"])
        notices.append(strings["chip_race"] % {"chips": denominations})  # TDA 24
    if step["is_break"] and step["addon"]:
        notices.append(strings["addon"])
    hands = clock["day_end_hands"]
    if hands:
        key = "day_end_one" if hands == 1 else "day_end_other"
        notices.append(strings[key] % {"hands": hands})  # casino §28
    if clock["last_level"] and not step["is_break"] and clock["status"] != "finished":
        notices.append(strings["last_level"])
    return notices


def _places(line: dict) -> str:
    """As clock.js placesText: "1", or "10–12" for places that pay the same."""
    if line["first"] == line["last"]:
        return chips(line["first"])
    return f"{chips(line['first'])}–{chips(line['last'])}"


def _tables(numbers) -> str:
    return ", ".join(chips(number) for number in numbers)


def stage_texts(lobby: dict, strings: dict) -> dict:
    """As clock.js stageFields: hand-for-hand's panel (RP-8), the final table (RP-9),
    and at the end the winner and results in place of the clock and the numbers."""
    over = lobby["status"] in OVER
    h4h = None if over else lobby.get("hand_for_hand")
    end = lobby.get("end") or {}
    if h4h is None:
        hand = playing = held = bubble = ""
    else:
        hand = (
            strings["h4h_round_zero"]
            if h4h["round"] == 0
            else strings["h4h_hand"] % {"number": chips(h4h["round"])}
        )
        playing = strings["h4h_playing"] % {"tables": _tables(h4h["playing"])}
        held = strings["h4h_held"] % {"tables": _tables(h4h["held"])} if h4h["held"] else ""
        bubble = strings["h4h_bubble"] % {
            "left": chips(h4h["players_left"]),
            "paid": chips(h4h["places_paid"]),
        }
    return {
        "over": over,
        "end": over,  # the panel with the winner and results
        "stage": strings["final_table"] if lobby.get("final_table") and not over else "",
        "h4h": h4h is not None,
        "h4h_hand": hand,
        "h4h_playing": playing if h4h and h4h["playing"] else "",
        "h4h_held": held,
        "h4h_bubble": bubble,
        "winner": strings["winner"] % {"name": end["winner"]} if end.get("winner") else "",
        "end_note": strings["deal_end"] % {"count": end["deal"]} if end.get("deal") else "",
        "results": [(row["place"], row["name"], row["prize"]) for row in end.get("results", [])],
    }


def moment_texts(clock: dict) -> dict:
    """The texts that change with every second: the time left and the time to the break."""
    to_break = clock["seconds_to_break"]
    return {
        "clock": _duration(clock["ms_left"]) if clock["level"] else "",
        "to_break": "—" if to_break is None else _duration(to_break * 1000),
    }


def first_paint(board: dict, strings: dict) -> dict:
    """The texts of the first board, so the page reads right before clock.js runs."""
    clock, lobby = board["clock"], board["lobby"]
    step, upcoming = clock["level"], clock["next_level"]
    average = lobby["average_stack"]
    if upcoming and upcoming["is_break"]:
        minutes = strings["minutes"] % {"minutes": upcoming["minutes"]}
        next_text = f"{upcoming['label'] or strings['break']} · {minutes}"
    elif upcoming:
        ante = _ante(upcoming, strings)
        next_text = _blinds(upcoming, strings) + (f" · {ante}" if ante else "")
    else:
        next_text = strings["last_level"] if step else "—"
    if average["big_blinds"] is None:
        average_text = average["text"]
    else:
        average_text = strings["average"] % {
            "chips": average["text"],
            "big_blinds": format_decimal(
                Decimal(str(average["big_blinds"])), locale=babel_locale()
            ),
        }
    payouts = lobby["payouts"]
    paid = payouts["places_paid"] if payouts else 0
    stage = stage_texts(lobby, strings)
    if stage["over"]:
        status = strings[f"status_{lobby['status']}"]
    elif stage["h4h"]:
        status = strings["status_h4h"]  # its clock is paused: each hand takes its time off
    else:
        status = strings.get(f"status_{clock['status']}", "")
    return {
        **stage,
        "status": status,
        "level_title": _title(step, strings),
        **moment_texts(clock),
        "blinds": _blinds(step, strings),
        "ante": _ante(step, strings),
        "next": next_text,
        "players": strings["players"]
        % {"active": chips(lobby["active"]), "entries": chips(lobby["entries"])},
        "average": average_text,
        "notices": _notices(clock, strings),
        "places_paid": chips(paid) if paid else "",
        "payouts_places": strings["places_paid"] % {"count": chips(paid)} if paid else "",
        "payouts_lines": [(_places(line), line["text"]) for line in payouts["lines"]]
        if payouts
        else [],
    }
