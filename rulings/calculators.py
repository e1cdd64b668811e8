"""The floor calculators between a request body and the rulings engines: the body is
checked for shape (DRF serializers), the engine answers or names the inconsistent field,
and the answer comes back with its rules and a translated explanation. Stateless: they
record nothing. The API and the floor's page both call these."""

import re

from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from floorman.api import valid_data
from floorman.errors import Invalid
from hands.engine import betting
from hands.engine.limits import STREETS
from rulings.engine import bets, chiprace, potlimit
from rulings.engine import pots as pot_engine
from rulings.engine.bets.question import ACTIONS as PRIOR_ACTIONS
from rulings.engine.errors import BadQuestion
from rulings.engine.parsing import MAX_ACTIONS, MAX_SEATS
from tournaments import house
from tournaments.models import MAX_CHIPS


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
        choices=betting.KINDS,  # the tablet's actions: fold, check, call, bet, raise, all-in
        allow_null=True,
        required=False,
        default=None,
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
