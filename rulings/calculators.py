"""The floor calculators between a request body and the rulings engines: the body is
checked for shape (DRF serializers), the engine answers or names the inconsistent field,
and the answer comes back with its rules and a translated explanation. Stateless: they
record nothing. The API and the floor's page both call these."""

import re
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from floorman.api import valid_data
from floorman.errors import Invalid
from hands.engine import betting
from hands.engine.limits import STREETS
from rulings.engine import (
    bets,
    chiprace,
    found_chips,
    late_errors,
    potlimit,
    showdown_rights,
    wrong_seat,
)
from rulings.engine import pots as pot_engine
from rulings.engine.bets.question import ACTIONS as PRIOR_ACTIONS
from rulings.engine.errors import BadQuestion
from rulings.engine.parsing import MAX_ACTIONS, MAX_SEATS
from tournaments import house
from tournaments.engine.removals import REASONS as REMOVAL_REASONS
from tournaments.models import MAX_CHIPS, Tournament
from tournaments.selectors import house_settings


def _chips(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, **kwargs)


def _blinds() -> serializers.ListField:
    return serializers.ListField(child=_chips(), min_length=2, max_length=2)


# The engines write amounts with English grouping ("1,000"); shown as the language does.
GROUPED = re.compile(r"\b\d{1,3}(?:,\d{3})+\b")


def _localized(params: dict) -> dict:
    def regroup(match) -> str:
        amount = int(match.group(0).replace(",", ""))
        return number_format(amount, use_l10n=True, force_grouping=True)

    return {
        key: GROUPED.sub(regroup, value) if isinstance(value, str) else value
        for key, value in params.items()
    }


def translated(template: str, params: dict) -> str:
    """An engine text in the request's language, its amounts grouped as that language
    groups them."""
    return gettext(template) % _localized(params)


def explained(answer) -> str:
    return " ".join(translated(note.template, note.params) for note in answer.notes)


def rule_codes(rules) -> list[str]:
    """TDA rules as the API names them ("45-B", "RP-8"); other sources keep their name
    ("IFP 4.17", "casino §18")."""
    return [rule.removeprefix("TDA ") for rule in rules]


def _refused(error: BadQuestion) -> Invalid:
    return Invalid({error.field: translated(error.template, error.params)})


def _ask(engine_call, question):
    try:
        return engine_call(question)
    except BadQuestion as error:
        raise _refused(error) from None


# --- Bet interpretation (TDA 40-57) --------------------------------------------------------


class PriorActionInput(serializers.Serializer):
    player = serializers.CharField(max_length=20)
    action = serializers.ChoiceField(choices=PRIOR_ACTIONS)
    to = _chips(required=False, default=0)


class BetInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=["nlhe", "plo", "lhe"])
    blinds = _blinds()
    street = serializers.ChoiceField(choices=STREETS)
    actions = serializers.ListField(child=PriorActionInput(), max_length=MAX_ACTIONS, default=list)
    player = serializers.CharField(max_length=20)
    stack = _chips()
    in_front = _chips(required=False, default=0)
    declaration = serializers.ChoiceField(
        # The tablet's actions (fold, check, call, bet, raise, all-in) and "pot", which the
        # engine reads as TDA 54 says: a pot-sized wager in pot limit (52-B where the count
        # was wrong), a binding valid bet in no-limit (54-D), the fixed bet in limit (40-B).
        choices=[*betting.KINDS, bets.POT],
        allow_null=True,
        required=False,
        default=None,
        help_text=_(
            'What the player said: fold, check, call, bet, raise, all-in, or "pot" ("I bet '
            'the pot": TDA 54-D in no-limit, the full pot in pot limit, TDA 52-B).'
        ),
    )
    declared_amount = _chips(allow_null=True, required=False, default=None)
    declared_readings = serializers.ListField(
        child=_chips(),
        max_length=4,
        required=False,
        default=list,
        help_text=_("The amounts an unclear phrase can mean, e.g. [250, 2050] (TDA 57)."),
    )
    chips = serializers.ListField(child=_chips(), max_length=200, required=False, default=list)
    pot = _chips(allow_null=True, required=False, default=None)
    ambiguous = serializers.ChoiceField(choices=["tda", "ifp"], required=False)
    undercall = serializers.ChoiceField(
        choices=list(house.BY_KEY["undercall"].values),
        required=False,
        help_text=_("An undercall; left out, the house setting (TDA 51-B, casino §37)."),
    )
    pulled_back = serializers.ChoiceField(
        choices=["all", "part"],
        allow_blank=True,
        required=False,
        default="",
        help_text=_(
            "Prior-bet chips in front pulled back: all or part; blank: left alone (TDA 46)."
        ),
    )
    prior_chips = serializers.ListField(
        child=_chips(),
        max_length=200,
        required=False,
        default=list,
        help_text=_("The prior-bet chips on the table now, e.g. [25] or [1000] (TDA 46-C)."),
    )
    substantial_action = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "Whether substantial action (TDA 36: two actions in turn putting chips in, or "
            "three actions) followed a pot-limit bet made on a wrong count: a low count then "
            "stands, an overbet is cut all the same (TDA 52-B)."
        ),
    )


def bet(body, *, ambiguous: str = "tda", undercall: str = "tda") -> dict:
    data = valid_data(BetInput, body)
    question = bets.BetQuestion(
        game=data["game"],
        blinds=tuple(data["blinds"]),
        street=data["street"],
        actions=tuple(
            bets.PriorAction(player=a["player"], action=a["action"], to=a["to"])
            for a in data["actions"]
        ),
        player=data["player"],
        stack=data["stack"],
        in_front=data["in_front"],
        declaration=data["declaration"],
        declared_amount=data["declared_amount"],
        chips=tuple(data["chips"]),
        pot=data["pot"],
        ambiguous=data.get("ambiguous") or ambiguous,
        undercall=data.get("undercall") or undercall,
        declared_readings=tuple(data["declared_readings"]),
        pulled_back=data["pulled_back"],
        prior_chips=tuple(data["prior_chips"]),
        substantial_action=data["substantial_action"],
    )
    ruling = _ask(bets.interpret, question)
    return {
        "action": ruling.action,
        "to": ruling.to,
        "min_raise_to": ruling.min_raise_to,
        "reopened": ruling.reopened,
        "rules": rule_codes(ruling.rules),
        "explanation": explained(ruling),
    }


# --- Pot limit (TDA 54) ------------------------------------------------------------------------


class PotLimitInput(serializers.Serializer):
    blinds = _blinds()
    posted = serializers.ListField(child=_chips(), max_length=2, required=False, default=list)
    street = serializers.ChoiceField(choices=STREETS, required=False, default="preflop")
    pot = _chips(required=False, default=0)
    bets = serializers.ListField(child=_chips(), max_length=MAX_SEATS, required=False, default=list)
    in_front = _chips(required=False, default=0)


def pot_limit(body) -> dict:
    data = valid_data(PotLimitInput, body)
    answer = _ask(
        potlimit.pot_limit,
        potlimit.PotLimitQuestion(
            blinds=tuple(data["blinds"]),
            posted=tuple(data["posted"]),
            street=data["street"],
            pot=data["pot"],
            bets=tuple(data["bets"]),
            in_front=data["in_front"],
        ),
    )
    return {
        "max_to": answer.max_to,
        "to_call": answer.to_call,
        "pot_after_call": answer.pot_after_call,
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
    }


# --- Pots and odd chips (TDA 20, 21) -----------------------------------------------------------


def _seat() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_SEATS)


class ContributionInput(serializers.Serializer):
    seat = _seat()
    total = _chips()
    folded = serializers.BooleanField(required=False, default=False)


class PotsInput(serializers.Serializer):
    contributions = serializers.ListField(
        child=ContributionInput(), min_length=1, max_length=MAX_SEATS
    )
    winners = serializers.ListField(
        child=serializers.ListField(child=_seat(), min_length=1, max_length=MAX_SEATS),
        max_length=MAX_SEATS,
        required=False,
        default=list,
    )
    button = serializers.IntegerField(
        min_value=1, max_value=MAX_SEATS, required=False, allow_null=True
    )
    smallest_chip = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS, default=1)
    seats = serializers.IntegerField(min_value=2, max_value=MAX_SEATS, default=MAX_SEATS)
    dead = _chips(required=False, default=0)
    odd_chips = serializers.ChoiceField(
        choices=list(house.BY_KEY["odd_chips"].values),
        required=False,
        help_text=_("More than one odd chip; left out, the house setting (TDA 20-A, casino §20)."),
    )


def pots(body, *, odd_chips: str = "tda") -> dict:
    data = valid_data(PotsInput, body)
    answer = _ask(
        pot_engine.pots,
        pot_engine.PotsQuestion(
            contributions=tuple(pot_engine.Contribution(**c) for c in data["contributions"]),
            winners=tuple(tuple(w) for w in data["winners"]),
            button=data.get("button"),
            smallest_chip=data["smallest_chip"],
            seats=data["seats"],
            dead=data["dead"],
            odd_chips=data.get("odd_chips") or odd_chips,
        ),
    )
    return {
        "pots": [
            {
                "pot": share.pot,
                "amount": share.amount,
                "eligible": list(share.eligible),
                "awards": {str(seat): chips for seat, chips in share.awards.items()},
            }
            for share in answer.pots
        ],
        "totals": {str(seat): chips for seat, chips in answer.totals.items()},
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
    }


# --- Chip race (TDA 24) --------------------------------------------------------------------------


class RaceSeatInput(serializers.Serializer):
    seat = _seat()
    chips = serializers.IntegerField(min_value=0, max_value=1000)
    cards = serializers.ListField(
        child=serializers.CharField(max_length=3), max_length=1000, required=False, default=list
    )
    stack_other = _chips(required=False, default=0)


class ChipRaceInput(serializers.Serializer):
    removed = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    next_chip = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    seats = serializers.ListField(child=RaceSeatInput(), min_length=1, max_length=MAX_SEATS)


def chip_race(body) -> dict:
    data = valid_data(ChipRaceInput, body)
    answer = _ask(
        chiprace.chip_race,
        chiprace.ChipRaceQuestion(
            removed=data["removed"],
            next_chip=data["next_chip"],
            seats=tuple(
                chiprace.RaceSeat(
                    seat=s["seat"],
                    chips=s["chips"],
                    cards=tuple(s["cards"]),
                    stack_other=s["stack_other"],
                )
                for s in data["seats"]
            ),
        ),
    )
    return {
        "results": [
            {
                "seat": r.seat,
                "exchanged": r.exchanged,
                "won": r.won,
                "protected": r.protected,
                "value_before": r.value_before,
                "value_after": r.value_after,
            }
            for r in answer.results
        ],
        "chips_to_race": answer.chips_to_race,
        "new_chips_raced": answer.new_chips_raced,
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
    }


# --- Floor situations: showdown rights, chips found, errors found late -------------------------

MAX_ID = 2**63 - 1


def _tournament_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text=_("The event whose house settings apply; none: the TDA's reading."),
    )


def _house_reading(data: dict, key: str) -> str:
    """The reading of house setting `key`: the body's `reading` if given, else the event's
    (`tournament`), else the TDA's."""
    if data.get("reading"):
        return data["reading"]
    if data.get("tournament") is None:
        return "tda"
    event = Tournament.objects.filter(pk=data["tournament"]).first()
    if event is None:
        raise Invalid({"tournament": gettext("No such tournament.")})
    return getattr(house_settings(event), key)


class ShowdownPlayerInput(serializers.Serializer):
    name = serializers.CharField(max_length=20)
    cards = serializers.ChoiceField(
        choices=showdown_rights.CARDS,
        help_text=_(
            "tabled: face up; held: kept in hand; pushed: pushed forward face down, not yet "
            "killed; mucked: killed into the muck."
        ),
    )
    all_in = serializers.BooleanField(required=False, default=False)


class RiverActionInput(serializers.Serializer):
    player = serializers.CharField(max_length=20)
    action = serializers.ChoiceField(choices=showdown_rights.RIVER_ACTIONS)


class ShowdownRightsInput(serializers.Serializer):
    players = serializers.ListField(child=ShowdownPlayerInput(), min_length=2, max_length=MAX_SEATS)
    river = serializers.ListField(
        child=RiverActionInput(),
        max_length=MAX_ACTIONS,
        required=False,
        default=list,
        help_text=_("The final betting round's actions, in order."),
    )
    asker = serializers.CharField(max_length=20)
    target = serializers.CharField(max_length=20)


def showdown(body) -> dict:
    data = valid_data(ShowdownRightsInput, body)
    answer = _ask(
        showdown_rights.showdown_rights,
        showdown_rights.ShowdownRightsQuestion(
            players=tuple(showdown_rights.ShowdownPlayer(**p) for p in data["players"]),
            river=tuple(showdown_rights.RiverAction(**a) for a in data["river"]),
            asker=data["asker"],
            target=data["target"],
        ),
    )
    return {
        "answer": answer.answer,
        "must_table": answer.must_table,
        "last_aggressor": answer.last_aggressor,
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
    }


class FoundChipsInput(serializers.Serializer):
    situation = serializers.ChoiceField(choices=found_chips.SITUATIONS)
    value = _chips(required=False, default=0, help_text=_("The chips' value."))
    chips = serializers.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        default=0,
        help_text=_("After the race: how many chips of the removed colour (TDA 24-C)."),
    )
    removed = _chips(required=False, default=0, help_text=_("The removed colour's value."))
    smallest = _chips(required=False, default=0, help_text=_("The smallest chip in play."))
    accepted_action = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_("Behind an all-in: the TD rules the chips part of the action (TDA 49)."),
    )
    all_in_won = serializers.BooleanField(required=False, allow_null=True, default=None)
    owner_known = serializers.BooleanField(required=False, default=False)
    reading = serializers.ChoiceField(
        choices=found_chips.READINGS,
        required=False,
        help_text=_("Chips behind an all-in: TDA 62 or IFP 4.20; else the event's setting."),
    )
    tournament = _tournament_field()


def chips_found(body) -> dict:
    data = valid_data(FoundChipsInput, body)
    reading = "tda"
    if data["situation"] == found_chips.BEHIND_ALL_IN:
        reading = _house_reading(data, "chips_behind_all_in")
    answer = _ask(
        found_chips.found_chips,
        found_chips.FoundChipsQuestion(
            situation=data["situation"],
            value=data["value"],
            chips=data["chips"],
            removed=data["removed"],
            smallest=data["smallest"],
            accepted_action=data["accepted_action"],
            all_in_won=data["all_in_won"],
            reading=reading,
            owner_known=data["owner_known"],
        ),
    )
    return {
        "outcome": answer.outcome,
        "kept_value": answer.kept_value,
        "removed_value": answer.removed_value,
        "exchanged_chips": answer.exchanged_chips,
        "disqualification_possible": answer.disqualification_possible,
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
        "action": removal_action(data, answer),
    }


REMOVAL_API = "/api/v1/tournaments/{tournament_pk}/chips-removed/"


def removal_action(data: dict, answer) -> dict | None:
    """Where the floor records chips the answer takes out of play (TDA 8-B, 63, 64; the
    situations are named as the removal's reasons, `tournaments.engine.removals`): the
    API operation `api-chips-removed` with the body to send, and, for a named event
    (`tournament`), its path and its chip counts page with the form filled. None when
    nothing leaves play, or only what the chip race's rest leaves (TDA 24-C)."""
    if answer.outcome != found_chips.REMOVED or data["situation"] not in REMOVAL_REASONS:
        return None
    body = {"reason": data["situation"], "amount": answer.removed_value}
    action = {"name": "api-chips-removed", "method": "POST", "api": REMOVAL_API, "body": body}
    tournament_id = data.get("tournament")
    if tournament_id is None:
        return {**action, "page": None}
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise Invalid({"tournament": gettext("No such tournament.")})
    page = reverse("seating:counts", args=[tournament_id])
    return {
        **action,
        "api": reverse("api-chips-removed", kwargs={"tournament_pk": tournament_id}),
        "page": f"{page}?{urlencode(body)}#remove",
    }


class LateErrorInput(serializers.Serializer):
    error = serializers.ChoiceField(
        choices=late_errors.ERRORS,
        help_text=_(
            "underraise: below the minimum (TDA 52-A); pot_high / pot_low: a pot-limit pot "
            "bet on a count too high or too low (TDA 52-B)."
        ),
    )
    made = _chips(help_text=_("The bet as made, the total on the street."))
    correct = _chips(help_text=_("The bet it should have been: the minimum, or the pot."))
    found = serializers.ChoiceField(
        choices=late_errors.FOUND,
        help_text=_(
            "this_street: before the next card (on the river, before the showdown); later."
        ),
    )
    substantial_action = serializers.BooleanField(
        required=False, default=False, help_text=_("After the bet (TDA 36); pot_low only.")
    )


def late_error(body) -> dict:
    data = valid_data(LateErrorInput, body)
    answer = _ask(late_errors.late_error, late_errors.LateErrorQuestion(**data))
    return {
        "corrected": answer.corrected,
        "to": answer.to,
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
    }


class WrongSeatInput(serializers.Serializer):
    stack_correct = serializers.BooleanField(
        required=False, default=True, help_text=_("The player started with the right stack.")
    )
    in_hand = serializers.BooleanField(
        required=False, default=False, help_text=_("Found while playing a hand.")
    )


def seat_wrong(body) -> dict:
    data = valid_data(WrongSeatInput, body)
    answer = wrong_seat.wrong_seat(wrong_seat.WrongSeatQuestion(**data))
    return {
        "outcome": answer.outcome,
        "after_hand": answer.after_hand,
        "rules": rule_codes(answer.rules),
        "explanation": explained(answer),
    }
