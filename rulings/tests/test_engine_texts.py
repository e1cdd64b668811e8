"""The floor calculators' texts are translatable: every note and every BadQuestion
carries an English template, marked for makemessages, with named placeholders only,
and the values to fill in. The engines themselves stay free of Django.

Each sample question is asked twice, once with all amounts three times as large: the
same templates must come back with other values, so no amount was baked into a text.
"""

import ast
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from rulings.engine import (
    bets,
    chiprace,
    errors,
    found_chips,
    late_errors,
    potlimit,
    pots,
    showdown_rights,
    wrong_seat,
)
from rulings.engine.bets import BetQuestion, PriorAction, checks, outcomes, replay
from rulings.engine.chiprace import ChipRaceQuestion, RaceSeat
from rulings.engine.errors import BadQuestion, Note, _
from rulings.engine.pots import Contribution, PotsQuestion

ENGINES = (
    bets,
    potlimit,
    pots,
    chiprace,
    errors,  # the checks they share
    showdown_rights,
    found_chips,
    late_errors,
    wrong_seat,
)
# A package (bets) counts with all its modules.
SOURCES = [
    path
    for module in ENGINES
    for path in (
        sorted(Path(module.__file__).parent.glob("*.py"))
        if module.__file__.endswith("__init__.py")
        else [Path(module.__file__)]
    )
]
PLACEHOLDER = re.compile(r"%%|%\(\w+\)s")
THOUSANDS = re.compile(r"\d,\d{3}")


def _marked(path: Path) -> list[str]:
    """The literal strings the module marks with _("...")."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
            assert len(node.args) == 1 and not node.keywords, ast.unparse(node)
            (arg,) = node.args
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                f"{path.name}:{node.lineno}: _() takes a plain string literal, not "
                f"{ast.unparse(arg)}"
            )
            found.append(arg.value)
    return found


MARKED = {template for path in SOURCES for template in _marked(path)}


def check_template(template: str, params: dict) -> str:
    assert template in MARKED, f"not marked for translation: {template!r}"
    assert "%" not in PLACEHOLDER.sub("", template), f"only %(name)s placeholders: {template!r}"
    assert not THOUSANDS.search(template), f"an amount baked into {template!r}"
    assert template == template.strip() and template
    return template % params  # every placeholder has its value


def check_notes(answer) -> tuple[str, ...]:
    assert isinstance(answer.notes, tuple) and answer.notes
    for note in answer.notes:
        assert isinstance(note, Note)
        assert note.text == check_template(note.template, note.params)
    assert answer.explanation == " ".join(note.text for note in answer.notes)
    return tuple(note.template for note in answer.notes)


# --- Sample questions, each a function of a scale factor k ------------------------------------


def _bet(k, actions=(), *, game="nlhe", stack=10_000, in_front=0, says=None, amount=None, **kw):
    return BetQuestion(
        game=game,
        blinds=(50 * k, 100 * k),
        street=kw.pop("street", "flop"),
        actions=tuple(PriorAction(p, a, to * k) for p, a, to in actions),
        player=kw.pop("player", "X"),
        stack=stack * k,
        in_front=in_front * k,
        declaration=says,
        declared_amount=None if amount is None else amount * k,
        chips=tuple(c * k for c in kw.pop("chips", ())),
        pot=None if kw.get("pot") is None else kw.pop("pot") * k,
        declared_readings=tuple(r * k for r in kw.pop("readings", ())),
        **kw,
    )


A_BET = (("A", "bet", 1000),)

BET_QUESTIONS = {
    "chips raise (45-B, 43-A)": lambda k: _bet(k, A_BET, chips=(1000, 1000, 500)),
    "chips call (45-A)": lambda k: _bet(k, A_BET, chips=(600, 500)),
    "half a raise short (43-A)": lambda k: _bet(k, A_BET, chips=(1000, 200)),
    "one oversized chip (44)": lambda k: _bet(k, A_BET, chips=(5000,)),
    "undercall multi-way (51-B)": lambda k: _bet(
        k, (("A", "bet", 1000), ("B", "raise", 3000)), chips=(1000,)
    ),
    "undercall facing the opener (51-B)": lambda k: _bet(k, A_BET, chips=(500,)),
    "undercall, the house reads casino §37": lambda k: _bet(
        k, A_BET, chips=(500,), undercall="casino"
    ),
    "raise with an amount (43-B)": lambda k: _bet(k, A_BET, says="raise", amount=2500),
    "raise without an amount (51-A)": lambda k: _bet(k, A_BET, says="raise"),
    "raise under the minimum": lambda k: _bet(k, A_BET, says="raise", amount=1500),
    "bet then one chip": lambda k: _bet(k, says="bet", chips=(500,)),
    "call with extra chips (51-A)": lambda k: _bet(k, A_BET, says="call", chips=(2000,)),
    "check facing a bet (55)": lambda k: _bet(k, A_BET, says="check"),
    "fold": lambda k: _bet(k, A_BET, says="fold"),
    "short all-in (47-A)": lambda k: _bet(
        k, (("A", "bet", 1000), ("B", "call", 1000)), stack=1200, says="all-in"
    ),
    "not reopened (47-A)": lambda k: _bet(
        k, (("X", "bet", 1000), ("A", "all-in", 1400)), in_front=1000, says="raise"
    ),
    "only the chips to call": lambda k: _bet(k, A_BET, stack=1000, says="raise"),
    "capped (48)": lambda k: _bet(
        k,
        (("A", "bet", 100), ("B", "raise", 200), ("C", "raise", 300), ("D", "raise", 400)),
        game="lhe",
        says="raise",
    ),
    "amount said alone (40-C)": lambda k: _bet(k, A_BET, amount=3000),
    "unclear amount (57)": lambda k: _bet(k, readings=(500, 5000), pot=4000),
    "unclear amount (IFP 4.17)": lambda k: _bet(k, readings=(500, 5000), ambiguous="ifp"),
    "pot (PLO)": lambda k: _bet(k, A_BET, game="plo", pot=2000, says="pot"),
    "pot overbet (52-B)": lambda k: _bet(
        k, A_BET, game="plo", pot=2000, says="pot", chips=(5000, 5000)
    ),
    "pot in no-limit (54-D)": lambda k: _bet(k, A_BET, says="pot"),
    "pre-flop big blind's option": lambda k: _bet(
        k,
        (("A", "post", 50), ("X", "post", 100), ("B", "call", 100), ("A", "call", 100)),
        street="preflop",
        in_front=100,
        chips=(20,),
    ),
}

BAD_BET_QUESTIONS = {
    "declared_amount": lambda k: _bet(k, A_BET, stack=1000, says="raise", amount=5000),
    "chips": lambda k: _bet(k, A_BET, stack=1000, chips=(1000, 1000)),
    "actions": lambda k: _bet(k, (("A", "bet", 1000), ("B", "raise", 1500)), chips=(5000,)),
    "in_front": lambda k: _bet(
        k, (("X", "bet", 1000), ("A", "raise", 3000)), in_front=500, chips=(2500,)
    ),
}


def _pl(k, *, blinds=(100, 200), posted=(), street="preflop", pot=0, bets=(), in_front=0):
    return potlimit.PotLimitQuestion(
        blinds=(blinds[0] * k, blinds[1] * k),
        posted=tuple(p * k for p in posted),
        street=street,
        pot=pot * k,
        bets=tuple(b * k for b in bets),
        in_front=in_front * k,
    )


POT_LIMIT_QUESTIONS = {
    "full blinds": lambda k: _pl(k, bets=(100, 200)),
    "dead small, short big blind (54-B)": lambda k: _pl(k, posted=(0, 100), bets=(100,)),
    "short small blind (54-B)": lambda k: _pl(k, posted=(50, 200), bets=(50, 200)),
    "nobody bet (54-C)": lambda k: _pl(k, street="flop", pot=1000),
    "a tiny pot": lambda k: _pl(k, street="flop", pot=100),
    "facing a bet (54-C)": lambda k: _pl(k, street="flop", pot=1000, bets=(500,)),
}

BAD_POT_LIMIT_QUESTIONS = {
    "posted": lambda k: _pl(k, posted=(300, 200), bets=(300, 200)),
    "in_front": lambda k: _pl(k, street="flop", bets=(300,), in_front=600),
    "bets": lambda k: _pl(k, bets=(700,)),
}


def _pots(k, *contributions, smallest_chip=1, dead=0, **kw):
    return PotsQuestion(
        contributions=tuple(
            Contribution(seat, total * k, *rest) for seat, total, *rest in contributions
        ),
        smallest_chip=smallest_chip * k,
        dead=dead * k,
        **kw,
    )


POTS_QUESTIONS = {
    "one pot": lambda k: _pots(k, (1, 500), (2, 500), winners=((2,),)),
    "side pots, folded money, dead money": lambda k: _pots(
        k,
        (1, 500),
        (2, 1500),
        (3, 4000),
        (4, 4000),
        (5, 300, True),
        dead=200,
        winners=((1,), (2, 3), (3, 4)),
        button=4,
        smallest_chip=25,
    ),
    "one odd chip (20-A)": lambda k: _pots(
        k, (3, 500), (5, 25, True), (7, 500), winners=((3, 7),), button=5, smallest_chip=25
    ),
    "two odd chips (20-A)": lambda k: _pots(
        k,
        (1, 35),
        (2, 35),
        (3, 35),
        (4, 10, True),
        winners=((1, 2, 3),),
        button=2,
        seats=4,
        smallest_chip=5,
    ),
    "two odd chips, the house reads casino §20": lambda k: _pots(
        k,
        (1, 35),
        (2, 35),
        (3, 35),
        (4, 10, True),
        winners=((1, 2, 3),),
        button=2,
        seats=4,
        smallest_chip=5,
        odd_chips="worst_position",
    ),
    "pots only": lambda k: _pots(k, (1, 500), (2, 1500), (3, 1500)),
}

BAD_POTS_QUESTIONS = {
    "dead": lambda k: _pots(k, (1, 500), (2, 500), dead=10, smallest_chip=25),
    "button": lambda k: _pots(k, (1, 5, True), (2, 500), (3, 500), winners=((2, 3),)),
    "contributions": lambda k: _pots(k, (1, 510), (2, 500), smallest_chip=25),
}


def _race(k, *seats, removed=25, next_chip=100):
    return ChipRaceQuestion(
        removed=removed * k,
        next_chip=next_chip * k,
        seats=tuple(RaceSeat(seat, chips, cards, other * k) for seat, chips, cards, other in seats),
    )


CHIP_RACE_QUESTIONS = {
    "a race with a tie on rank": lambda k: _race(
        k, (1, 3, ("Kh", "4c", "9d"), 5000), (2, 2, ("2d", "Ks"), 3000), (3, 1, ("Qc",), 800)
    ),
    "exchange and protection": lambda k: _race(
        k, (1, 5, ("As",), 100), (2, 3, ("Kd", "2c", "3c"), 0), (3, 1, ("Qs",), 0)
    ),
    "rounds to none": lambda k: _race(k, (1, 1, ("As",), 1000), (2, 4, (), 1000)),
    "nothing to race": lambda k: _race(k, (1, 4, (), 1000), (2, 8, (), 0)),
}

BAD_CHIP_RACE_QUESTIONS = {
    "next_chip": lambda k: _race(k, (1, 1, ("As",), 0), next_chip=110),
}

# Bad questions whose message holds no amount: the template is checked, not its values.
AMOUNTLESS = [
    (bets.interpret, "player", _bet(1, (("X", "fold", 0),), chips=(100,))),
    (bets.interpret, "declared_amount", _bet(1, A_BET, says="check", amount=2000)),
    (potlimit.pot_limit, "posted", _pl(1, street="flop", posted=(100, 200))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 1500), (3, 1500), winners=((2, 3), (1,)))),
    (pots.pots, "contributions", _pots(1, (1, 500), (1, 500))),
    (pots.pots, "odd_chips", _pots(1, (1, 500), (2, 500), odd_chips="all")),
    (chiprace.chip_race, "cards", _race(1, (1, 2, ("As",), 100))),
    (chiprace.chip_race, "cards", _race(1, (1, 1, ("Zs",), 100))),
    (chiprace.chip_race, "cards", _race(1, (1, 1, ("As",), 100), (2, 1, ("As",), 100))),
]

# More questions, asked once, so that the samples reach every template the engines mark.
# TDA 46: X bet 1,000, A raised to 3,000; X's 1,000 is still in front.
X_FACES_A_RAISE = (("X", "bet", 1000), ("A", "raise", 3000))


def _prior(pulled_back="", prior=(), **kw):
    return _bet(1, X_FACES_A_RAISE, in_front=1000, pulled_back=pulled_back, prior_chips=prior, **kw)


PRIOR_CHIPS = [
    (bets.interpret, None, _prior("all", says="fold")),
    (bets.interpret, None, _prior("part", (500,), chips=(5000,))),
    (bets.interpret, None, _prior("", (5000,), chips=(1000,))),
    (bets.interpret, None, _prior("all", chips=(5000,))),
    (bets.interpret, None, _prior("", (1000,), chips=(5000,))),
    (bets.interpret, "pulled_back", _prior("some", chips=(5000,))),
    (bets.interpret, "pulled_back", _bet(1, A_BET, pulled_back="all", chips=(5000,))),
    (bets.interpret, "prior_chips", _prior("all", (500,), chips=(5000,))),
    (bets.interpret, "prior_chips", _prior("part", (1000,), chips=(5000,))),
    (bets.interpret, "prior_chips", _prior("", (500,), chips=(5000,))),
    (bets.interpret, "chips", _prior("all", chips=(500,))),
]
X_RAISED_A_SHORT = (("X", "bet", 1000), ("A", "all-in", 1400))
MORE = [
    (bets.interpret, None, _bet(1, says="check")),
    (bets.interpret, None, _bet(1, says="fold")),
    (bets.interpret, None, _bet(1, says="bet", amount=50)),
    (bets.interpret, None, _bet(1, stack=60, says="bet", amount=50)),
    (bets.interpret, None, _bet(1, says="call")),
    (bets.interpret, None, _bet(1, says="raise")),
    (bets.interpret, None, _bet(1, chips=(500,))),
    (bets.interpret, None, _bet(1, chips=(500, 100))),
    (bets.interpret, None, _bet(1, A_BET, stack=1000, chips=(500, 500))),
    (bets.interpret, None, _bet(1, A_BET, stack=900, chips=(500, 400))),
    (bets.interpret, None, _bet(1, A_BET, stack=5000, chips=(1000, 1000, 1000, 2000))),
    (bets.interpret, None, _bet(1, A_BET, chips=(1000,))),
    (bets.interpret, None, _bet(1, A_BET, stack=500, says="call")),
    (bets.interpret, None, _bet(1, A_BET, stack=800, says="all-in")),
    (bets.interpret, None, _bet(1, A_BET, stack=50_000, says="all-in")),
    (bets.interpret, None, _bet(1, A_BET, says="bet", chips=(1000, 1000, 500))),
    (bets.interpret, None, _bet(1, A_BET, says="bet", chips=(5000,))),
    (bets.interpret, None, _bet(1, A_BET, says="pot", stack=1000)),
    (bets.interpret, None, _bet(1, (("A", "bet", 100),), game="lhe", says="pot")),
    (bets.interpret, None, _bet(1, (("A", "bet", 100),), game="lhe", says="raise", amount=900)),
    (bets.interpret, None, _bet(1, A_BET, game="plo", pot=2000, says="raise", amount=9000)),
    (bets.interpret, None, _bet(1, A_BET, game="plo", pot=2000, says="pot", chips=(2000,))),
    (
        bets.interpret,
        None,
        _bet(1, A_BET, game="plo", pot=2000, says="pot", chips=(2000,), substantial_action=True),
    ),
    (bets.interpret, None, _bet(1, readings=(500, 5000), pot=100)),
    (bets.interpret, None, _bet(1, X_RAISED_A_SHORT, in_front=1000, says="all-in")),
    (bets.interpret, None, _bet(1, X_RAISED_A_SHORT, in_front=1000, chips=(1000, 1000))),
    (bets.interpret, None, _bet(1, X_RAISED_A_SHORT, player="B", stack=100_000, chips=(5000,))),
    (
        bets.interpret,
        None,
        _bet(
            1,
            (("A", "bet", 1000), ("B", "call", 1000), ("C", "all-in", 1600)),
            stack=1400,
            says="all-in",
        ),
    ),
    (bets.interpret, None, _bet(1, (("A", "bet", 1000), ("B", "raise", 3000)), chips=(2500,))),
    (bets.interpret, None, _bet(1, (("A", "bet", 1000), ("B", "fold", 0)), chips=(500,))),
    (
        bets.interpret,
        "player",
        _bet(1, (("X", "bet", 1000), ("A", "call", 1000)), in_front=1000, chips=(100,)),
    ),
    (
        bets.interpret,
        "player",
        _bet(1, (("A", "bet", 1000), ("X", "all-in", 500)), in_front=500, chips=(100,)),
    ),
    (bets.interpret, "stack", _bet(1, stack=0, chips=(100,))),
    (bets.interpret, "stack", _bet(1, stack=-1, chips=(100,))),
    (bets.interpret, "in_front", _bet(1, in_front=-1, chips=(100,))),
    (bets.interpret, "in_front", _bet(1, in_front=500, chips=(100,))),
    (bets.interpret, "pot", _bet(1, pot=-1, chips=(100,))),
    (bets.interpret, "pot", _bet(1, readings=(500, 5000))),
    (bets.interpret, "pot", _bet(1, game="plo", says="pot")),
    (bets.interpret, "game", _bet(1, game="stud", chips=(100,))),
    (bets.interpret, "street", _bet(1, street="showdown", chips=(100,))),
    (bets.interpret, "blinds", replace(_bet(1, chips=(100,)), blinds=(200, 100))),
    (bets.interpret, "ambiguous", _bet(1, chips=(100,), ambiguous="lowest")),
    (bets.interpret, "undercall", _bet(1, chips=(100,), undercall="loudest")),
    (bets.interpret, "chips", _bet(1, chips=(100, 0))),
    (bets.interpret, "declared_amount", _bet(1, says="fold", amount=2000)),
    (bets.interpret, "declared_amount", _bet(1, amount=0)),
    (bets.interpret, "declared_amount", _bet(1, X_RAISED_A_SHORT, in_front=1000, amount=1000)),
    (bets.interpret, "declared_readings", _bet(1, says="check", readings=(500, 5000))),
    (bets.interpret, "declared_readings", _bet(1, amount=500, readings=(500, 5000))),
    (
        bets.interpret,
        "declared_readings",
        _bet(1, X_RAISED_A_SHORT, in_front=1000, readings=(5, 9)),
    ),
    (bets.interpret, "declared_readings", _bet(1, stack=100, readings=(500, 5000))),
    (bets.interpret, "declaration", _bet(1, says="shove")),
    (bets.interpret, "declaration", _bet(1)),
    *(
        (bets.interpret, "actions", _bet(1, actions, chips=(100,), **kw))
        for actions, kw in [
            ((("A", "shove", 100),), {}),
            ((("A", "bet", -100),), {}),
            ((("A", "bet", 1000), ("A", "fold", 0), ("A", "call", 1000)), {}),
            ((("A", "all-in", 1000), ("A", "call", 1000)), {}),
            ((("A", "post", 100),), {}),
            ((("A", "post", 500),), {"street": "preflop"}),
            ((("A", "check", 100),), {}),
            ((("A", "bet", 1000), ("B", "fold", 100)), {}),
            ((("A", "bet", 1000), ("B", "check", 0)), {}),
            ((("A", "bet", 1000), ("B", "raise", 3000), ("A", "call", 800)), {}),
            ((("A", "bet", 1000), ("B", "call", 2000)), {}),
            ((("A", "bet", 1000), ("B", "call", 0)), {}),
            ((("A", "bet", 1000), ("B", "bet", 1000)), {}),
            ((("A", "bet", 1000), ("B", "raise", 1000)), {}),
            ((("A", "bet", 1000), ("B", "all-in", 1400), ("A", "raise", 2400)), {}),
            ((("A", "bet", 1000), ("B", "raise", 1500)), {}),
            ((("A", "bet", 300),), {"game": "lhe"}),
            ((("A", "bet", 5000),), {"game": "plo", "pot": 1000}),
            (
                (
                    ("A", "bet", 100),
                    ("B", "raise", 200),
                    ("C", "raise", 300),
                    ("D", "raise", 400),
                    ("E", "raise", 500),
                ),
                {"game": "lhe"},
            ),
        ]
    ),
    (
        bets.interpret,
        None,
        _bet(1, (("A", "bet", 1000), ("B", "raise", 3000), ("A", "fold", 0)), chips=(1000, 1000)),
    ),
    (bets.interpret, None, _bet(1, says="bet")),
    (bets.interpret, None, _bet(1, A_BET, says="check", chips=(1000,))),
    (bets.interpret, None, _bet(1, A_BET, says="raise", chips=(1000, 1000, 500))),
    (bets.interpret, None, _bet(1, A_BET, says="raise", chips=(5000,))),
    (
        bets.interpret,
        None,
        _bet(1, (("A", "bet", 1000), ("B", "all-in", 1500)), stack=2000, says="all-in"),
    ),
    (bets.interpret, None, _bet(1, A_BET, stack=1000, says="bet")),
    (bets.interpret, None, _bet(1, A_BET, stack=1500, says="raise", amount=1200)),
    (bets.interpret, None, _bet(1, A_BET, game="plo", pot=20_000, stack=3000, says="pot")),
    (potlimit.pot_limit, None, _pl(1, posted=(100, 0), bets=(100,))),
    (potlimit.pot_limit, "posted", _pl(1, posted=(100, 300), bets=(100, 300))),
    (pots.pots, None, _pots(1, (1, 500), (2, 1500), (3, 1500), winners=((1,), (2, 3)))),
    (pots.pots, None, _pots(1, (1, 500), (2, 1500), (3, 1500), (4, 100, True), (5, 200, True))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 500), (3, 500, True), winners=((3,),))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 500), winners=((),))),
    (potlimit.pot_limit, "bets", _pl(1, posted=(0, 200))),
    (potlimit.pot_limit, "street", _pl(1, street="showdown")),
    (potlimit.pot_limit, "blinds", _pl(1, blinds=(200, 100))),
    (potlimit.pot_limit, "posted", _pl(1, posted=(100,), bets=(100, 200))),
    (potlimit.pot_limit, "pot", _pl(1, pot=-1, bets=(100, 200))),
    (potlimit.pot_limit, "bets", _pl(1, bets=(100, 200, -5))),
    (potlimit.pot_limit, "in_front", _pl(1, bets=(100, 200), in_front=-5)),
    (pots.pots, None, _pots(1, (1, 500), (2, 1000, True), (3, 1000), winners=((1, 3),))),
    (pots.pots, None, _pots(1, (1, 1000), (2, 500, True))),
    (pots.pots, None, _pots(1, (1, 500), (2, 500), (3, 500, True), (4, 500, True))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 500), winners=((1,), (2,)))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 1500), (3, 1500), winners=((1,), (2, 2)))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 1500), (3, 1500), winners=((1,), ()))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 500), winners=((), ()))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 500), winners=((1, 1),))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 500), winners=((7,),))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 1500), (3, 1500), winners=((1,),))),
    (pots.pots, "winners", _pots(1, (1, 500), (2, 1500), (3, 1500), winners=((3,), (1,)))),
    (
        pots.pots,
        "button",
        _pots(1, (1, 500), (2, 505), (3, 505), (4, 503, True), winners=((1,), (2, 3))),
    ),
    (pots.pots, "button", _pots(1, (1, 500), (2, 500), button=11)),
    (pots.pots, "seats", _pots(1, (1, 500), seats=1)),
    (pots.pots, "smallest_chip", _pots(1, (1, 500), smallest_chip=0)),
    (pots.pots, "contributions", _pots(1)),
    (pots.pots, "contributions", _pots(1, (11, 500))),
    (pots.pots, "contributions", _pots(1, (1, -500))),
    (pots.pots, "contributions", _pots(1, (1, 500, True))),
    (pots.pots, "dead", _pots(1, (1, 500), dead=-1)),
    (chiprace.chip_race, "removed", _race(1, (1, 1, ("As",), 0), removed=0)),
    (chiprace.chip_race, "next_chip", _race(1, (1, 1, ("As",), 0), next_chip=25)),
    (chiprace.chip_race, "seats", _race(1)),
    (chiprace.chip_race, "seats", _race(1, (0, 1, ("As",), 0))),
    (chiprace.chip_race, "chips", _race(1, (1, -1, (), 0))),
    (chiprace.chip_race, "chips", _race(1, (1, 0, (), 0))),
    (chiprace.chip_race, "stack_other", _race(1, (1, 1, ("As",), -5))),
    (chiprace.chip_race, "cards", _race(1, (1, 5, ("As", "Ks"), 0))),
]

ASKED = [
    (bets.interpret, BET_QUESTIONS),
    (potlimit.pot_limit, POT_LIMIT_QUESTIONS),
    (pots.pots, POTS_QUESTIONS),
    (chiprace.chip_race, CHIP_RACE_QUESTIONS),
]
REFUSED = [
    (bets.interpret, BAD_BET_QUESTIONS),
    (potlimit.pot_limit, BAD_POT_LIMIT_QUESTIONS),
    (pots.pots, BAD_POTS_QUESTIONS),
    (chiprace.chip_race, BAD_CHIP_RACE_QUESTIONS),
]


@pytest.mark.parametrize(
    ("engine", "make"),
    [pytest.param(engine, make, id=name) for engine, made in ASKED for name, make in made.items()],
)
def test_answers_explain_themselves_in_templates(engine, make):
    small, large = engine(make(1)), engine(make(3))
    assert check_notes(small) == check_notes(large)
    if any(note.params for note in small.notes):
        assert small.explanation != large.explanation  # the amounts are values, not text


@pytest.mark.parametrize(
    ("engine", "make", "field"),
    [
        pytest.param(engine, make, field, id=f"{engine.__module__}-{field}")
        for engine, made in REFUSED
        for field, make in made.items()
    ],
)
def test_bad_questions_come_as_templates(engine, make, field):
    errors = []
    for k in (1, 3):
        with pytest.raises(BadQuestion) as caught:
            engine(make(k))
        error = caught.value
        assert error.field == field
        assert error.message == check_template(error.template, error.params)
        assert error.message in str(error)
        errors.append(error)
    assert errors[0].template == errors[1].template
    assert errors[0].message != errors[1].message


def ask(engine, field, question) -> tuple[str, ...]:
    """The templates of the answer, or of the BadQuestion naming `field`, checked."""
    if field is None:
        return check_notes(engine(question))
    with pytest.raises(BadQuestion) as caught:
        engine(question)
    error = caught.value
    assert error.field == field, error.message
    assert error.message == check_template(error.template, error.params)
    return (error.template,)


# The floor's situations: showdown rights (TDA 16, 17-B, 18), chips found (24-C, 62-64,
# 8-B), errors found late (52-A, 52-B).
SD = showdown_rights


def _sd(cards: dict, river=(), asker="A", target="B", all_in=()):
    return SD.ShowdownRightsQuestion(
        players=tuple(SD.ShowdownPlayer(n, c, n in all_in) for n, c in cards.items()),
        river=tuple(SD.RiverAction(p, a) for p, a in river),
        asker=asker,
        target=target,
    )


BET_CALL = (("B", "bet"), ("A", "call"))
FC = found_chips.FoundChipsQuestion
LE = late_errors.LateErrorQuestion
SITUATIONS = [
    (SD.showdown_rights, None, _sd({"A": "held", "B": "held"}, all_in=("A",))),
    (SD.showdown_rights, None, _sd({"A": "held", "B": "mucked"})),
    (SD.showdown_rights, None, _sd({"A": "pushed", "B": "held"})),
    (SD.showdown_rights, None, _sd({"A": "pushed", "B": "held", "C": "held"})),
    (SD.showdown_rights, None, _sd({"A": "held", "B": "held"})),
    (SD.showdown_rights, None, _sd({"A": "held", "B": "held"}, BET_CALL)),
    (SD.showdown_rights, None, _sd({"A": "held", "B": "held", "C": "held"}, BET_CALL, "C")),
    (SD.showdown_rights, "players", _sd({"A": "held"})),
    (SD.showdown_rights, "players", _sd({"A": "lost", "B": "held"})),
    (
        SD.showdown_rights,
        "players",
        SD.ShowdownRightsQuestion(
            (SD.ShowdownPlayer("A", "held"), SD.ShowdownPlayer("A", "held")), (), "A", "B"
        ),
    ),
    (SD.showdown_rights, "asker", _sd({"A": "held", "B": "held"}, asker="Z")),
    (SD.showdown_rights, "target", _sd({"A": "held", "B": "held"}, target="A")),
    (SD.showdown_rights, "river", _sd({"A": "held", "B": "held"}, (("Z", "bet"),))),
    (SD.showdown_rights, "river", _sd({"A": "held", "B": "held"}, (("A", "shove"),))),
    (found_chips.found_chips, None, FC("after_race", chips=5, removed=25, smallest=100)),
    (found_chips.found_chips, None, FC("behind_all_in", 500, reading="ifp")),
    (found_chips.found_chips, None, FC("behind_all_in", 500, accepted_action=True)),
    (found_chips.found_chips, None, FC("behind_all_in", 500, all_in_won=True)),
    (found_chips.found_chips, None, FC("behind_all_in", 500, all_in_won=False)),
    (found_chips.found_chips, None, FC("out_of_view", 500)),
    (found_chips.found_chips, None, FC("lost_and_found", 500)),
    (found_chips.found_chips, None, FC("lost_and_found", 500, owner_known=True)),
    (found_chips.found_chips, None, FC("reentry_forfeit", 500)),
    (found_chips.found_chips, "situation", FC("lost")),
    (found_chips.found_chips, "chips", FC("after_race", removed=25, smallest=100)),
    (found_chips.found_chips, "removed", FC("after_race", chips=1, smallest=100)),
    (found_chips.found_chips, "smallest", FC("after_race", chips=1, removed=25, smallest=25)),
    (found_chips.found_chips, "value", FC("out_of_view")),
    (found_chips.found_chips, "reading", FC("behind_all_in", 500, reading="x")),
    (found_chips.found_chips, "all_in_won", FC("behind_all_in", 500)),
    (late_errors.late_error, None, LE("underraise", 1000, 1200, "this_street")),
    (late_errors.late_error, None, LE("underraise", 1000, 1200, "later")),
    (late_errors.late_error, None, LE("pot_high", 11500, 10500, "this_street")),
    (late_errors.late_error, None, LE("pot_high", 11500, 10500, "later")),
    (late_errors.late_error, None, LE("pot_low", 9500, 10500, "this_street")),
    (late_errors.late_error, None, LE("pot_low", 9500, 10500, "this_street", True)),
    (late_errors.late_error, None, LE("pot_low", 9500, 10500, "later")),
    (late_errors.late_error, "error", LE("typo", 1, 2, "later")),
    (late_errors.late_error, "found", LE("pot_low", 1, 2, "soon")),
    (late_errors.late_error, "made", LE("pot_low", 0, 2, "later")),
    (late_errors.late_error, "correct", LE("pot_high", 1, 2, "later")),
    (late_errors.late_error, "correct", LE("pot_low", 2, 2, "later")),
    (wrong_seat.wrong_seat, None, wrong_seat.WrongSeatQuestion(True, True)),
    (wrong_seat.wrong_seat, None, wrong_seat.WrongSeatQuestion(False, False)),
]


@pytest.mark.parametrize(("engine", "field", "question"), [*AMOUNTLESS, *MORE, *SITUATIONS])
def test_more_questions_come_as_templates(engine, field, question):
    ask(engine, field, question)


def unexpected_blocks() -> list[str]:
    """TDA 16 (everyone else all-in) never blocks here, but a block is still a template."""
    question = _bet(1, A_BET, chips=(1000,))
    spot = replay._replay(question, checks._check_question(question))
    note = outcomes._block_reason(spot, "TDA 16", "no one is left to call a raise")
    assert (
        note.text
        == check_template(note.template, note.params)
        == ("The player may not raise (TDA 16).")
    )
    bad = replay._complaint(0, PriorAction("A", "raise", 500))
    error = replay._prior_block(bad, ("TDA 16", "no one left"), None, None, None)
    assert error.message == check_template(error.template, error.params)
    assert error.message == "action 1 (A raise): the player may not raise here (TDA 16)"
    return [note.template, error.template]


def test_blocks_the_replay_does_not_expect_still_come_as_templates():
    assert len(unexpected_blocks()) == 2


def test_the_samples_reach_every_template():
    """Every marked template is checked by a sample above, so none has a placeholder
    without its value in a branch no test reaches."""
    reached = set(unexpected_blocks())
    for engine, made in ASKED:
        for make in made.values():
            reached.update(ask(engine, None, make(1)))
    for engine, made in REFUSED:
        for field, make in made.items():
            reached.update(ask(engine, field, make(1)))
    for engine, field, question in [*AMOUNTLESS, *MORE, *PRIOR_CHIPS, *SITUATIONS]:
        reached.update(ask(engine, field, question))
    assert sorted(MARKED - reached) == []


def test_every_template_is_marked_with_named_placeholders():
    for template in MARKED:
        assert "%" not in PLACEHOLDER.sub("", template), template
        assert not THOUSANDS.search(template), template


def test_notes_and_errors_are_built_from_templates_not_formatted_text():
    """No f-string or %-formatting goes into a Note or a BadQuestion."""
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "Note",
                "BadQuestion",
                "bad",
            ):
                for arg in node.args:
                    for inner in ast.walk(arg):
                        assert not isinstance(inner, ast.JoinedStr), ast.unparse(node)
                        assert not (
                            isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Mod)
                        ), ast.unparse(node)


def test_engines_import_no_django():
    for path in [*SOURCES, Path(bets.__file__).parent.with_name("errors.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [alias.name for alias in node.names]
                module = getattr(node, "module", None) or ""
                assert not any(n.startswith("django") for n in [module, *names]), path.name


def test_the_marker_leaves_english_and_bad_question_keeps_its_message():
    assert _("%(count)s chips") == "%(count)s chips"
    error = BadQuestion("pot", _("the pot of %(pot)s is 100%% of it"), pot="1,000")
    assert (error.field, error.template, error.params) == (
        "pot",
        "the pot of %(pot)s is 100%% of it",
        {"pot": "1,000"},
    )
    assert error.message == "the pot of 1,000 is 100% of it"
    assert Note("Seat %(seat)s gets %(amount)s.", {"seat": 3, "amount": "500"}).text == (
        "Seat 3 gets 500."
    )


@pytest.mark.skipif(not shutil.which("xgettext"), reason="needs GNU gettext's xgettext")
def test_makemessages_finds_every_template(tmp_path):
    """xgettext, which makemessages runs, extracts the same strings the engines use."""
    pot = tmp_path / "engine.pot"
    subprocess.run(
        ["xgettext", "--language=Python", "--from-code=UTF-8", "-o", str(pot), *SOURCES],
        check=True,
    )
    extracted = set()
    msgid = None
    for line in pot.read_text().splitlines():
        if line.startswith("msgid "):
            msgid = ast.literal_eval(line.removeprefix("msgid "))
        elif line.startswith('"') and msgid is not None:
            msgid += ast.literal_eval(line)
        else:
            if msgid:
                extracted.add(msgid)
            msgid = None
    assert MARKED <= extracted
    assert "python-format" in pot.read_text()
