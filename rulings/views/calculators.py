"""The floor calculators on one page, for a phone at the table: how a bet reads (TDA
40-57), the pot-limit maximum (54), main and side pots (20, 21), the chip race (24).

GET shows the four forms; a POST names its `calculator`, runs that one and shows the
page again with its answer, or with its refusals on the fields, what was typed kept.
With htmx only that calculator's card is swapped (the page marks it with hx-select);
without, the forms work as plain forms. Nothing is recorded: the calculators in
`rulings.calculators` are the ones the API answers with.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from rest_framework.exceptions import ValidationError

from floorman.errors import Invalid
from floorman.pages import role_required
from floorman.roles import ALL_ROLES
from rulings import calculators as calc
from rulings import selectors
from rulings.engine import rulebook
from rulings.forms.calculators import (
    BetForm,
    CalculatorForm,
    ChipRaceForm,
    PotLimitForm,
    PotsForm,
)
from tournaments import house as house_settings

# The codes the rule book knows ("45", "45-B", "RP-11"); "IFP 4.17" or "casino §18"
# come from other books and are shown as they are.
_TDA_CODE = re.compile(r"^(?:\d{1,2}(?:-[A-Z])?|RP-\d{1,2})$")

ACTIONS = {
    "fold": _("Fold"),
    "check": _("Check"),
    "call": _("Call"),
    "bet": _("Bet"),
    "raise": _("Raise"),
    "all-in": _("All-in"),
}
WITH_AMOUNT = ("call", "bet", "raise", "all-in")


@dataclass(frozen=True)
class CitedRule:
    """A rule an answer rests on, with the rule book's title and summary if it has one."""

    label: str  # "TDA 45-B", "IFP 4.17"
    number: str  # the rule book entry to link to ("45"), "" when there is none
    title: str = ""
    summary: str = ""


@dataclass(frozen=True)
class Calculator:
    name: str
    title: str
    rules: str  # the rules it answers by, for the card's heading
    form: type[CalculatorForm]
    run: Callable[..., dict]  # (body, *, house) -> answer


@dataclass
class Card:
    calculator: Calculator
    form: CalculatorForm
    result: dict | None = None
    open: bool = False


def _bet(body: dict, *, house) -> dict:
    # Unclear amounts and undercalls follow the house (TDA 57 or IFP 4.17, TDA 51-B or
    # casino §37), as in the API.
    return calc.bet(body, ambiguous=house.unclear_amount, undercall=house.undercall)


def _pot_limit(body: dict, *, house) -> dict:
    return calc.pot_limit(body)


def _pots(body: dict, *, house) -> dict:
    return calc.pots(body, odd_chips=house.odd_chips)


def _chip_race(body: dict, *, house) -> dict:
    return calc.chip_race(body)


CALCULATORS = {
    c.name: c
    for c in (
        Calculator("bet", _("Bet interpretation"), "TDA 40–57", BetForm, _bet),
        Calculator("pot_limit", _("Pot-limit maximum"), "TDA 54", PotLimitForm, _pot_limit),
        Calculator("pots", _("Main and side pots"), "TDA 20, 21", PotsForm, _pots),
        Calculator("chip_race", _("Chip race"), "TDA 24", ChipRaceForm, _chip_race),
    )
}


def cited_rules(codes: list[str], language: str) -> list[CitedRule]:
    """The cited codes with the rule book's title and summary in `language`; codes of one
    rule ("24-A", "24-C") share its line."""
    rows: list[CitedRule] = []
    for code in codes:
        entry = rulebook.entry(code) if _TDA_CODE.match(code) else None
        if entry is None:
            rows.append(CitedRule(label=code, number=""))
            continue
        same = next((i for i, row in enumerate(rows) if row.number == entry.number), None)
        if same is not None:
            row = rows[same]
            rows[same] = CitedRule(f"{row.label}, {code}", row.number, row.title, row.summary)
            continue
        rows.append(
            CitedRule(
                label=f"TDA {code}",
                number=entry.number,
                title=entry.title(language),
                summary=entry.summary(language),
            )
        )
    return rows


def _refusals(error: Exception) -> dict[str, list[str]]:
    """Field -> messages, from the engines' Invalid or the serializers' ValidationError."""
    if isinstance(error, Invalid):
        return {name: [str(m) for m in msgs] for name, msgs in error.fields.items()}
    detail = error.detail
    if isinstance(detail, dict):
        return {str(name): _flat(value) for name, value in detail.items()}
    return {"": _flat(detail)}


def _flat(detail) -> list[str]:
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _flat(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _flat(value)]
    return [str(detail)]


def _answer(card: Card, *, language: str, house) -> None:
    """Run the card's calculator on its valid form: the answer, or refusals on the form."""
    form = card.form
    try:
        answer = card.calculator.run(form.body(), house=house)
    except (Invalid, ValidationError) as error:
        for name, messages in _refusals(error).items():
            form.add_error(form.form_field(name), messages)
        return
    card.result = {**answer, "cited": cited_rules(answer["rules"], language)}
    card.result.update(_presented(card.calculator.name, answer, form.cleaned_data))


def _presented(name: str, answer: dict, data: dict) -> dict:
    """What the page shows beyond the answer's own figures."""
    if name == "bet":
        return {
            "action_label": ACTIONS.get(answer["action"], answer["action"]),
            "with_amount": answer["action"] in WITH_AMOUNT,
        }
    if name == "pots":
        return {
            "pot_rows": [
                {
                    "main": share["pot"] == 0,
                    "side": share["pot"],
                    "amount": share["amount"],
                    "eligible": share["eligible"],
                    "awards": sorted((int(s), c) for s, c in share["awards"].items()),
                }
                for share in answer["pots"]
            ],
            "won": sorted((int(s), c) for s, c in answer["totals"].items()),
        }
    if name == "chip_race":
        return {"removed": data["removed"], "next_chip": data["next_chip"]}
    return {}


@role_required(ALL_ROLES)
@require_http_methods(["GET", "POST"])
def calculators(request):
    """Every staff role may use them: the floor and the TD at the tables, dealers and
    cashiers to check a figure."""
    language = rulebook.language_of(get_language())
    used = request.POST.get("calculator", "") if request.method == "POST" else ""
    if request.method == "GET":
        wanted = request.GET.get("calculator", "")
        opened = wanted if wanted in CALCULATORS else "bet"
    else:
        opened = used
    cards = []
    for calculator in CALCULATORS.values():
        if calculator.name == used:
            form = calculator.form(request.POST, name=calculator.name)
        else:
            form = calculator.form(name=calculator.name)
        cards.append(Card(calculator, form, open=calculator.name == opened))
    house = selectors.house_readings()
    status = 200
    if request.method == "POST":
        card = next((c for c in cards if c.calculator.name == used), None)
        if card is not None and card.form.is_valid():
            _answer(card, language=language, house=house)
        if card is None or card.form.errors:
            status = 400
    return render(
        request,
        "rulings/calculators.html",
        {
            "cards": cards,
            "unknown": request.method == "POST" and used not in CALCULATORS,
            "house_reading": _reading_named(house.unclear_amount),
        },
        status=status,
    )


def _reading_named(value: str) -> str:
    reading = house_settings.BY_KEY["unclear_amount"].reading(value)
    return f"{reading.label} ({reading.rule})"
