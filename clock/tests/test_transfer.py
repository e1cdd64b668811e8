"""Blind structure import/export and the structure rules, as pure functions (no database)."""

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clock import transfer
from clock.engine import ANTE_BIG_BLIND, ANTE_NONE, ANTE_TRADITIONAL, ANTE_TYPES, BREAK, LEVEL, Step
from clock.transfer import (
    MAX_AMOUNT,
    MAX_STEPS,
    StructureError,
    name_check,
    steps_check,
    structure_from_csv,
    structure_from_json,
    structure_to_csv,
    structure_to_json,
)

L1 = Step(LEVEL, 20, 100, 200, 200, ANTE_BIG_BLIND)
BREAK1 = Step(BREAK, 15, label="Break", color_up=(25,))
L2 = Step(LEVEL, 20, 200, 400, 400, ANTE_BIG_BLIND)
BASE = [L1, BREAK1, L2]

HEADER = ",".join(transfer.CSV_COLUMNS)


def errors_of(call, *args) -> dict[str, list[str]]:
    with pytest.raises(StructureError) as info:
        call(*args)
    assert info.value.errors, "a StructureError always says where"
    for location, messages in info.value.errors.items():
        assert isinstance(location, str) and messages
        assert all(isinstance(message, str) and message for message in messages)
    return info.value.errors


# --- strategies: every structure the rules accept ---------------------------------------


def plain_text(max_size: int, min_size: int = 0, formula_ok: bool = False):
    chars = st.characters(exclude_categories=("Cc", "Cs"))
    text = st.text(chars, min_size=min_size, max_size=max_size).map(str.strip)
    if min_size:
        text = text.filter(bool)
    if not formula_ok:
        text = text.filter(lambda value: not value.startswith(("=", "+", "-", "@")))
    return text


amounts = st.integers(1, MAX_AMOUNT)


@st.composite
def levels(draw, small_blind: int, big_blind: int) -> Step:
    ante_type = draw(st.sampled_from(ANTE_TYPES))
    ante = 0 if ante_type == ANTE_NONE else draw(amounts)
    small_bet = big_bet = bring_in = 0
    if draw(st.booleans()):
        small_bet = draw(amounts)
        big_bet = draw(st.integers(small_bet, MAX_AMOUNT))
        bring_in = draw(st.integers(0, small_bet))  # stud, RP-10 E: 0 = none set
    return Step(
        LEVEL,
        draw(st.integers(1, 600)),
        small_blind,
        big_blind,
        ante,
        ante_type,
        small_bet,
        big_bet,
        bring_in=bring_in,
        game=draw(plain_text(transfer.MAX_GAME)),
    )


breaks = st.builds(
    Step,
    kind=st.just(BREAK),
    minutes=st.integers(1, 600),
    label=plain_text(transfer.MAX_LABEL),
    color_up=st.lists(amounts, unique=True, max_size=5).map(tuple),
    addon=st.booleans(),
)


@st.composite
def structures(draw) -> list[Step]:
    count = draw(st.integers(1, 12))
    # Two sorted lists and their element-wise minimum: blinds that never go down, sb <= bb.
    smalls = sorted(draw(st.lists(amounts, min_size=count, max_size=count)))
    bigs = sorted(draw(st.lists(amounts, min_size=count, max_size=count)))
    steps = []
    for small, big in zip(smalls, bigs, strict=True):
        if draw(st.booleans()):
            steps.append(draw(breaks))
        steps.append(draw(levels(min(small, big), big)))
    if draw(st.booleans()):
        steps.append(draw(breaks))
    return steps


names = plain_text(120, min_size=1, formula_ok=True)


# --- round trips -------------------------------------------------------------------------


@settings(max_examples=200)
@given(names, structures())
def test_json_round_trip(name, steps):
    steps_check(steps)
    assert structure_from_json(structure_to_json(name, steps)) == (name, steps)


@settings(max_examples=200)
@given(structures(), st.sampled_from([",", ";"]))
def test_csv_round_trip(steps, delimiter):
    text = structure_to_csv(steps, delimiter=delimiter)
    assert structure_from_csv(text) == steps
    assert structure_from_csv(text.encode("utf-8-sig")) == steps  # as Excel wants it


def test_json_shape():
    document = json.loads(structure_to_json("Deep Stack", BASE))
    assert document == {
        "name": "Deep Stack",
        "steps": [
            {
                "kind": "level",
                "minutes": 20,
                "small_blind": 100,
                "big_blind": 200,
                "ante": 200,
                "ante_type": "bba",
                "small_bet": 0,
                "big_bet": 0,
                "game": "",
            },
            {"kind": "break", "minutes": 15, "label": "Break", "color_up": [25], "addon": False},
            {
                "kind": "level",
                "minutes": 20,
                "small_blind": 200,
                "big_blind": 400,
                "ante": 400,
                "ante_type": "bba",
                "small_bet": 0,
                "big_bet": 0,
                "game": "",
            },
        ],
    }


def test_json_import_fills_in_defaults_and_tidies_text():
    text = json.dumps(
        {
            "name": "  Sunday Special ",
            "steps": [
                {"kind": "Level", "minutes": 30, "small_blind": 25, "big_blind": 50},
                {"kind": "break", "minutes": 10, "game": None, "label": " Dinner "},
                {"kind": "level", "minutes": 30, "small_blind": 50, "big_blind": 100},
            ],
        }
    )
    assert structure_from_json(text) == (
        "Sunday Special",
        [
            Step(LEVEL, 30, 25, 50),
            Step(BREAK, 10, label="Dinner"),
            Step(LEVEL, 30, 50, 100),
        ],
    )


def test_json_keeps_unicode_readable():
    text = structure_to_json("Großes Turnier", [L1, replace(BREAK1, label="Pause für Essen")])
    assert "Großes Turnier" in text and "Pause für Essen" in text


def test_csv_export():
    limit = Step(LEVEL, 15, 100, 200, small_bet=200, big_bet=400, game="LHE, 8-max")
    color = Step(BREAK, 10, label="Color-up", color_up=(25, 100), addon=True)
    assert structure_to_csv([L1, color, replace(limit, small_blind=200, big_blind=400)]) == (
        HEADER + "\r\n"
        "level,20,100,200,200,bba,0,0,,,,\r\n"
        "break,10,,,,,,,,Color-up,25 100,yes\r\n"
        'level,15,200,400,0,none,200,400,"LHE, 8-max",,,\r\n'
    )


GERMAN_CSV = (
    "\ufeffkind;minutes;small_blind;big_blind;ante;ante_type;small_bet;big_bet;game;label;color_up;addon\r\n"
    "level;20;100;200;200;bba;0;0;;;;\r\n"
    "Break;15;;;;;;;;Pause für Essen;25 100;JA\r\n"
    "LEVEL;20;200;400;400;BBA;;;NLHE,9-max;;;\r\n"
    ";;;;;;;;;;;\r\n"
)
GERMAN_STEPS = [
    L1,
    Step(BREAK, 15, label="Pause für Essen", color_up=(25, 100), addon=True),
    replace(L2, game="NLHE,9-max"),
]


def test_german_excel_csv_with_bom_and_semicolons():
    assert structure_from_csv(GERMAN_CSV) == GERMAN_STEPS


def test_german_excel_csv_as_bytes_utf8_and_windows_1252():
    assert structure_from_csv(GERMAN_CSV.encode("utf-8")) == GERMAN_STEPS
    # Excel's plain "CSV (Trennzeichen-getrennt)" writes the Windows code page, no BOM.
    assert structure_from_csv(GERMAN_CSV[1:].encode("cp1252")) == GERMAN_STEPS


def test_german_export_reads_back():
    text = structure_to_csv(GERMAN_STEPS, delimiter=";")
    assert text.splitlines()[0] == HEADER.replace(",", ";")
    assert "NLHE,9-max" in text  # the comma needs no quoting with semicolons
    assert structure_from_csv(text) == GERMAN_STEPS


def test_csv_columns_in_any_order_and_optional_ones_left_out():
    text = (
        "\n\nMinutes , Kind,big_blind,small_blind,label,addon\n"
        "20,level,200,100,,\n"
        "5,break,,,Pause,true\n"
    )
    assert structure_from_csv(text) == [
        Step(LEVEL, 20, 100, 200),
        Step(BREAK, 5, label="Pause", addon=True),
    ]


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("yes", True),
        ("Yes", True),
        ("TRUE", True),
        ("1", True),
        ("no", False),
        ("False", False),
        ("0", False),
        ("", False),
    ],
)
def test_csv_addon_spellings(cell, expected):
    text = f"kind,minutes,small_blind,big_blind,addon\nbreak,5,,,{cell}\nlevel,20,100,200,\n"
    assert structure_from_csv(text)[0].addon is expected


def test_csv_spreadsheet_leftovers_are_ignored():
    # Trailing empty columns and blank rows, as spreadsheets leave them behind.
    text = HEADER + ",,\nlevel,20,100,200,0,none,0,0,,,,,,\n,,,,,,,,,,,,,\n"
    assert structure_from_csv(text) == [Step(LEVEL, 20, 100, 200)]


# --- the rules, with where they point ------------------------------------------------------


def test_base_structure_is_valid():
    steps_check(BASE)
    steps_check(tuple(BASE))
    steps_check([BREAK1, L1])  # a break before the first level is fine


def test_limit_and_mixed_game_levels_are_valid():
    steps_check(
        [
            Step(LEVEL, 20, 50, 100, small_bet=100, big_bet=200, game="LHE"),
            Step(LEVEL, 20, 100, 200, 25, ANTE_TRADITIONAL, 200, 400, game="Stud"),
            Step(LEVEL, 20, 100, 200, game="PLO"),
        ]
    )


RULES = [
    # kind and minutes
    (0, {"kind": "pause"}, "steps[0].kind", "Must be “level” or “break”."),
    (0, {"kind": 1}, "steps[0].kind", "Must be “level” or “break”."),
    (0, {"minutes": 0}, "steps[0].minutes", "Must be at least 1."),
    (1, {"minutes": -15}, "steps[1].minutes", "Must be at least 1."),
    (0, {"minutes": 601}, "steps[0].minutes", "Must be at most 600."),
    (0, {"minutes": 1.5}, "steps[0].minutes", "Must be a whole number."),
    (0, {"minutes": "20"}, "steps[0].minutes", "Must be a whole number."),
    (0, {"minutes": True}, "steps[0].minutes", "Must be a whole number."),
    # blinds
    (0, {"big_blind": 0}, "steps[0].big_blind", "Must be more than 0."),
    (0, {"small_blind": 0}, "steps[0].small_blind", "Must be more than 0."),
    (0, {"small_blind": -100}, "steps[0].small_blind", "Must be more than 0."),
    (
        0,
        {"small_blind": 300},
        "steps[0].small_blind",
        "The small blind must not be more than the big blind.",
    ),
    (2, {"big_blind": MAX_AMOUNT + 1}, "steps[2].big_blind", "Must be at most 1 000 000 000 000."),
    (0, {"big_blind": "200"}, "steps[0].big_blind", "Must be a whole number."),
    # a structure only goes up
    (2, {"small_blind": 50}, "steps[2].small_blind", "Must not be lower than in the level before"),
    (2, {"big_blind": 150}, "steps[2].big_blind", "Must not be lower than in the level before"),
    # antes
    (0, {"ante": -1}, "steps[0].ante", "Must not be negative."),
    (0, {"ante_type": "straddle"}, "steps[0].ante_type", "Must be one of: none, ante, bba."),
    (0, {"ante_type": ANTE_NONE}, "steps[0].ante", "Must be 0 when the ante type is “none”."),
    (0, {"ante": 0}, "steps[0].ante", "Must be more than 0 with ante type “bba”."),
    (0, {"ante": MAX_AMOUNT + 1}, "steps[0].ante", "Must be at most"),
    # limit bets
    (0, {"small_bet": -1}, "steps[0].small_bet", "Must not be negative."),
    (0, {"small_bet": 200}, "steps[0].big_bet", "needs both a small bet and a big bet"),
    (0, {"big_bet": 400}, "steps[0].small_bet", "needs both a small bet and a big bet"),
    (
        0,
        {"small_bet": 400, "big_bet": 200},
        "steps[0].big_bet",
        "The big bet must not be less than the small bet.",
    ),
    (0, {"big_bet": 10**13, "small_bet": 1}, "steps[0].big_bet", "Must be at most"),
    # text
    (0, {"game": "x" * 11}, "steps[0].game", "At most 10 characters."),
    (0, {"game": " NLHE"}, "steps[0].game", "Must not begin or end with a space."),
    (0, {"game": 5}, "steps[0].game", "Must be text."),
    (1, {"label": "x" * 61}, "steps[1].label", "At most 60 characters."),
    (1, {"label": "Dinner\nbreak"}, "steps[1].label", "line breaks or control characters"),
    (1, {"label": "Dinner\x00"}, "steps[1].label", "line breaks or control characters"),
    (1, {"label": "\ud800"}, "steps[1].label", "line breaks or control characters"),
    (1, {"label": '=HYPERLINK("http://x")'}, "steps[1].label", "formula"),
    (1, {"label": "@SUM(1)"}, "steps[1].label", "formula"),
    # levels have no break fields
    (0, {"label": "Level"}, "steps[0].label", "Only a break has a label."),
    (0, {"color_up": (25,)}, "steps[0].color_up", "Only a break has a color-up."),
    (0, {"addon": True}, "steps[0].addon", "Only a break has an add-on."),
    (0, {"addon": 1}, "steps[0].addon", "Must be yes or no."),
    # breaks have no level fields
    (1, {"small_blind": 100}, "steps[1].small_blind", "A break has no blinds, antes or bets."),
    (1, {"big_blind": 200}, "steps[1].big_blind", "A break has no blinds, antes or bets."),
    (1, {"ante": 25}, "steps[1].ante", "A break has no blinds, antes or bets."),
    (1, {"big_bet": 25}, "steps[1].big_bet", "A break has no blinds, antes or bets."),
    (1, {"ante_type": ANTE_TRADITIONAL}, "steps[1].ante_type", "A break has no ante type."),
    (1, {"game": "PLO"}, "steps[1].game", "A break has no game."),
    # color-up and add-on
    (1, {"color_up": (0,)}, "steps[1].color_up", "whole numbers from 1 to"),
    (1, {"color_up": (-25,)}, "steps[1].color_up", "whole numbers from 1 to"),
    (1, {"color_up": (25.0,)}, "steps[1].color_up", "whole numbers from 1 to"),
    (1, {"color_up": (True,)}, "steps[1].color_up", "whole numbers from 1 to"),
    (1, {"color_up": (MAX_AMOUNT + 1,)}, "steps[1].color_up", "whole numbers from 1 to"),
    (1, {"color_up": (25, 25)}, "steps[1].color_up", "Each denomination only once."),
    (1, {"color_up": [25]}, "steps[1].color_up", "Must be a list of chip denominations."),
    (1, {"addon": "yes"}, "steps[1].addon", "Must be yes or no."),
]


@pytest.mark.parametrize(("index", "changes", "location", "message"), RULES)
def test_rule(index, changes, location, message):
    steps = list(BASE)
    steps[index] = replace(steps[index], **changes)
    errors = errors_of(steps_check, steps)
    assert location in errors, errors
    assert any(message in text for text in errors[location]), errors[location]


def test_rule_broken_in_a_csv_file_points_at_the_row():
    text = HEADER + "\nlevel,20,100,200,200,bba,0,0,,,,\nbreak,15,,,,,,,,Break,25,no\n"
    text += "level,20,200,100,200,bba,0,0,,,,\n"
    errors = errors_of(structure_from_csv, text)
    assert errors == {
        "row 4: small_blind": ["The small blind must not be more than the big blind."],
        "row 4: big_blind": ["Must not be lower than in the level before (200)."],
    }


def test_rule_broken_in_a_json_file_points_at_the_step():
    document = json.loads(structure_to_json("x", BASE))
    document["steps"][2]["big_blind"] = 0
    errors = errors_of(structure_from_json, json.dumps(document))
    assert errors["steps[2].big_blind"] == ["Must be more than 0."]


def test_all_problems_are_reported_at_once():
    steps = [replace(L1, minutes=0, big_blind=0), replace(BREAK1, addon=None)]
    assert set(errors_of(steps_check, steps)) == {
        "steps[0].minutes",
        "steps[0].big_blind",
        "steps[1].addon",
    }


@pytest.mark.parametrize(
    ("steps", "location", "message"),
    [
        ([], "steps", "The structure needs at least one level."),
        ([BREAK1], "steps", "The structure needs at least one level."),
        ([L1] * (MAX_STEPS + 1), "steps", "At most 200 steps."),
        ([L1, "level"], "steps[1]", "Not a level or break."),
        ([L1, None], "steps[1]", "Not a level or break."),
        (None, "steps", "Must be a list of steps."),
        ("level", "steps", "Must be a list of steps."),
    ],
)
def test_structure_rules(steps, location, message):
    assert errors_of(steps_check, steps) == {location: [message]}


def test_two_hundred_steps_are_allowed():
    steps_check([L1] * MAX_STEPS)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "The name is required."),
        ("   ", "The name is required."),
        ("x" * 121, "At most 120 characters."),
        (" Sunday", "Must not begin or end with a space."),
        ("Sunday\nSpecial", "Must not contain line breaks or control characters."),
        (None, "Must be text."),
    ],
)
def test_name_rules(name, message):
    assert errors_of(name_check, name) == {"name": [message]}
    assert errors_of(structure_to_json, name, BASE) == {"name": [message]}


def test_names_up_to_120_characters():
    name_check("x")
    name_check("x" * 120)
    name_check("=Sunday")  # the name never goes into a CSV cell


def test_export_refuses_what_import_would_refuse():
    bad = [replace(L1, big_blind=0)]
    assert "steps[0].big_blind" in errors_of(structure_to_json, "x", bad)
    assert "steps[0].big_blind" in errors_of(structure_to_csv, bad)


def test_structure_error_reads_well():
    error = StructureError({"steps[0].minutes": ["Must be at least 1."]})
    assert str(error) == "steps[0].minutes: Must be at least 1."
    assert error.errors == {"steps[0].minutes": ["Must be at least 1."]}


# --- malformed input never gets past as anything but StructureError -------------------------


def json_doc(step: dict | None = None, **top) -> str:
    document = {"name": "x", "steps": [step if step is not None else {}]}
    document.update(top)
    return json.dumps(document)


def json_step(**changes) -> str:
    step = {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200}
    step.update(changes)
    return json_doc({key: value for key, value in step.items() if value != "DROP"})


def raw_step(field: str, literal: str) -> str:
    """A document with a JSON literal that json.dumps would not write."""
    return json_step(**{field: 12345}).replace("12345", literal)


MALFORMED_JSON = [
    ("", "file"),
    ("   \n", "file"),
    ("\ufeff", "file"),
    ("not json", "file"),
    ("{", "file"),
    ('{"name": "x", "steps": []', "file"),
    ("[]", "file"),
    ("null", "file"),
    ('"x"', "file"),
    ("42", "file"),
    ("[" * 100_000, "file"),
    ("[" * 100_000 + "]" * 100_000, "file"),
    ('{"name": "x", "name": "y", "steps": []}', "file"),
    (json_doc(extra=1), "file"),
    ('{"steps": [{"kind": "level", "minutes": 20, "small_blind": 1, "big_blind": 2}]}', "name"),
    (json_doc(name=5), "name"),
    (json_doc(name=""), "name"),
    (json_doc(name="x" * 121), "name"),
    (json_doc(name="a\u0000b"), "name"),
    ('{"name": "x"}', "steps"),
    (json_doc(steps="abc"), "steps"),
    (json_doc(steps={}), "steps"),
    (json_doc(steps=[]), "steps"),
    (
        json_doc(steps=[{"kind": "level", "minutes": 1, "big_blind": 2, "small_blind": 1}] * 201),
        "steps",
    ),
    (json_doc(steps=[5]), "steps[0]"),
    (json_doc(steps=[[]]), "steps[0]"),
    (json_step(bigblind=200), "steps[0]"),
    (json_step(kind="DROP"), "steps[0].kind"),
    (json_step(kind=None), "steps[0].kind"),
    (json_step(kind=5), "steps[0].kind"),
    (json_step(kind="pause"), "steps[0].kind"),
    (json_step(minutes="DROP"), "steps[0].minutes"),
    (json_step(minutes="20"), "steps[0].minutes"),
    (json_step(minutes=20.0), "steps[0].minutes"),
    (json_step(minutes=1.5), "steps[0].minutes"),
    (json_step(minutes=True), "steps[0].minutes"),
    (json_step(minutes=-5), "steps[0].minutes"),
    (json_step(minutes=[20]), "steps[0].minutes"),
    (json_step(big_blind=10**12 + 1), "steps[0].big_blind"),
    (raw_step("big_blind", "9" * 30), "steps[0].big_blind"),
    (raw_step("big_blind", "-" + "9" * 5000), "steps[0].big_blind"),
    (raw_step("big_blind", "1e400"), "steps[0].big_blind"),
    (raw_step("big_blind", "NaN"), "file"),
    (raw_step("big_blind", "-Infinity"), "file"),
    (json_step(small_blind=False), "steps[0].small_blind"),
    (json_step(ante_type=1), "steps[0].ante_type"),
    (json_step(addon=1), "steps[0].addon"),
    (json_step(addon="no"), "steps[0].addon"),
    (json_step(color_up="25"), "steps[0].color_up"),
    (json_step(kind="break", small_blind=0, big_blind=0, color_up=[25.0]), "steps[0].color_up"),
    (json_step(kind="break", small_blind=0, big_blind=0, color_up=[True]), "steps[0].color_up"),
    (raw_step("color_up", "[" + "9" * 40 + "]"), "steps[0].color_up"),
    (json_step(label={"text": "x"}), "steps[0].label"),
    (json_step(game="\ud800"), "steps[0].game"),
    (
        json_doc(step={"kind": "level", "minutes": 1, "small_blind": 1, "big_blind": 2}) + "x",
        "file",
    ),
    ('{"name": "x", "steps": [' + " " * (1024 * 1024) + "]}", "file"),
    (b"\xff\xfe{}", "file"),
    (None, "file"),
    (42, "file"),
]


@pytest.mark.parametrize(("text", "location"), MALFORMED_JSON)
def test_malformed_json(text, location):
    errors = errors_of(structure_from_json, text)
    assert location in errors, errors


MALFORMED_CSV = [
    ("", "file"),
    ("\ufeff", "file"),
    ("\r\n\r\n", "file"),
    (HEADER, "steps"),
    (HEADER + "\nbreak,15,,,,,,,,Break,,no\n", "steps"),
    ("level,20,100,200,0,none,0,0,,,,\n", "header"),
    ("kind,minutes,big_blind,sb\nlevel,20,200,100\n", "header"),
    ("kind,minutes,minutes\nlevel,20,20\n", "header"),
    ("kind,small_blind,big_blind\nlevel,100,200\n", "header"),
    ("kind,,minutes\nlevel,,20\n", "header"),
    ("kind;minutes,small_blind;big_blind\nlevel;20,100;200\n", "header"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,,extra\n", "row 2"),
    (HEADER + "\nlevel,20,100,200\n", "row 2"),
    (HEADER + "\nlevel;20;100;200;0;none;0;0;;;;\n", "row 2"),
    (HEADER + "\n,20,100,200,0,none,0,0,,,,\n", "row 2: kind"),
    (HEADER + "\npause,20,100,200,0,none,0,0,,,,\n", "row 2: kind"),
    (HEADER + "\nlevel,,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,abc,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,1.5,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + '\nlevel,"20,5",100,200,0,none,0,0,,,,\n', "row 2: minutes"),
    (HEADER + "\nlevel,20.0,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,-5,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,601,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,1e3,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,²,100,200,0,none,0,0,,,,\n", "row 2: minutes"),
    (HEADER + "\nlevel,20,-100,200,0,none,0,0,,,,\n", "row 2: small_blind"),
    (HEADER + "\nlevel,20,100,1.000,0,none,0,0,,,,\n", "row 2: big_blind"),
    (HEADER + "\nlevel,20,100," + "9" * 30 + ",0,none,0,0,,,,\n", "row 2: big_blind"),
    (HEADER + "\nlevel,20,100," + "9" * 5000 + ",0,none,0,0,,,,\n", "row 2: big_blind"),
    (HEADER + "\nlevel,20,100,1000000000001,0,none,0,0,,,,\n", "row 2: big_blind"),
    (HEADER + "\nlevel,20,100,200,0,bring-in,0,0,,,,\n", "row 2: ante_type"),
    (HEADER + "\nlevel,20,100,200,25,,0,0,,,,\n", "row 2: ante"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,\nbreak,5,,,,,,,,x,,maybe\n", "row 3: addon"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,\nbreak,5,,,,,,,,x,25 x,no\n", "row 3: color_up"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,\nbreak,5,,,,,,,,x,1.5,no\n", "row 3: color_up"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,\nbreak,5,,,,,,,,=cmd(),,no\n", "row 3: label"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,\nbreak,5,,,,,,,,a\x00b,,no\n", "row 3: label"),
    (HEADER + '\nbreak,5,,,,,,,,"a\nb",,\nlevel,20,100,200,0,none,0,0,,,,\n', "row 2: label"),
    (HEADER + "\nlevel,20,100,200,0,none,0,0,,,,\nbreak,5,100,,,,,,,x,,no\n", "row 3: small_blind"),
    (HEADER + '\nlevel,20,100,200,0,none,0,0,"unterminated,,,\n', "file"),
    (HEADER + '\nlevel,20,"100"x,200,0,none,0,0,,,,\n', "file"),
    (HEADER + "\n" + "level,20,100,200,0,none,0,0,,,,\n" * 201, "steps"),
    (HEADER + "\n" + " " * (1024 * 1024), "file"),
    (b"\x81\x8d\x8f", "file"),
    (b"\x00\x01\x02\xff" * 100, "header"),
    (None, "file"),
    (["kind", "minutes"], "file"),
]


@pytest.mark.parametrize(("text", "location"), MALFORMED_CSV)
def test_malformed_csv(text, location):
    errors = errors_of(structure_from_csv, text)
    assert location in errors, errors


def test_csv_header_problems_are_named():
    errors = errors_of(structure_from_csv, "kind,minutes,bigblind,minutes\n")
    assert errors == {"header": ['Unknown column "bigblind".', "The column minutes appears twice."]}
    errors = errors_of(structure_from_csv, "kind,,minutes\nlevel,,20\n")
    assert errors == {"header": ["A column has no name."]}
    errors = errors_of(structure_from_csv, "level,20,100,200\n")
    assert errors["header"][0].startswith("The first row must name the columns: kind, minutes,")


def test_csv_rows_are_counted_as_a_spreadsheet_shows_them():
    text = HEADER + "\n\nlevel,20,100,200,0,none,0,0,,,,\n\nlevel,20,100,0,0,none,0,0,,,,\n"
    assert "row 5: big_blind" in errors_of(structure_from_csv, text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)
step_fields = st.sampled_from([*transfer.CSV_COLUMNS, "other"])


@settings(max_examples=300)
@given(st.dictionaries(step_fields, json_values | st.sampled_from(["level", "break", "bba"])))
def test_any_json_step_is_a_step_or_a_structure_error(step):
    text = json.dumps({"name": "x", "steps": [step]})
    try:
        name, steps = structure_from_json(text)
    except StructureError:
        return
    steps_check(steps)
    assert structure_from_json(structure_to_json(name, steps)) == (name, steps)


@settings(max_examples=300)
@given(st.one_of(st.text(), st.binary(), json_values.map(json.dumps)))
def test_any_input_is_a_structure_or_a_structure_error(data):
    for load in (structure_from_json, structure_from_csv):
        try:
            load(data)
        except StructureError:
            pass


cells = st.one_of(
    st.sampled_from(["", "level", "break", "20", "0", "-1", "yes", "bba", "25 100", "1.5"]),
    st.text(max_size=6),
)


@settings(max_examples=300)
@given(st.lists(st.lists(cells, min_size=10, max_size=14), max_size=4), st.sampled_from(",;"))
def test_any_csv_rows_are_steps_or_a_structure_error(rows, delimiter):
    lines = [delimiter.join(transfer.CSV_COLUMNS)]
    lines += [delimiter.join(row) for row in rows]
    try:
        steps = structure_from_csv("\n".join(lines))
    except StructureError:
        return
    steps_check(steps)
    assert structure_from_csv(structure_to_csv(steps)) == steps


# --- stud's bring-in (RP-10 E, TDA 30) ---------------------------------------------------


STUD = Step(LEVEL, 20, 100, 200, 50, "ante", 200, 400, bring_in=75, game="stud")


def test_a_stud_levels_bring_in_travels_in_both_files():
    csv_text = structure_to_csv([STUD])
    document = json.loads(structure_to_json("Stud", [STUD]))

    assert csv_text.splitlines()[0].endswith(",addon,bring_in")
    assert csv_text.splitlines()[1].endswith(",75")
    assert document["steps"][0]["bring_in"] == 75
    assert structure_from_csv(csv_text) == [STUD]
    assert structure_from_json(json.dumps(document)) == ("Stud", [STUD])


def test_without_a_bring_in_the_files_stay_as_before():
    assert "bring_in" not in structure_to_csv([L1])
    assert "bring_in" not in structure_to_json("Plain", [L1])


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (replace(STUD, bring_in=250), "not be more than the small bet (RP-10 E)"),
        (replace(STUD, small_bet=0, big_bet=0), "needs the level's small bet"),
        (replace(STUD, bring_in=-1), "Must not be negative."),
        (Step(BREAK, 10, bring_in=50), "A break has no blinds, antes or bets."),
    ],
)
def test_a_bring_in_above_the_small_bet_or_without_one_is_refused(step, message):
    errors = errors_of(steps_check, [step])

    assert any(message in m for messages in errors.values() for m in messages), errors
