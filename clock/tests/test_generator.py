"""The blind structure generator, tested as pure functions (no database).

Each test names the rule it checks; the property tests check the same rules over random
stacks, chip sets, level lengths, durations, antes and breaks.
"""

import ast
import inspect
import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clock.engine import ANTE_BIG_BLIND, ANTE_NONE, ANTE_TRADITIONAL, BREAK, LEVEL, Step, generator
from clock.engine.generator import (
    STANDARD_CHIPS,
    TEMPLATES,
    GeneratorInput,
    generate,
    template_steps,
)

REGULAR = GeneratorInput(
    starting_stack=20_000,
    denominations=STANDARD_CHIPS,
    level_minutes=20,
    levels=20,
    ante_from_level=4,
    break_every=6,
    break_minutes=10,
)


# -- Reading a structure -----------------------------------------------------------------


def levels_of(steps: list[Step]) -> list[Step]:
    return [step for step in steps if step.kind == LEVEL]


def big_blinds(steps: list[Step]) -> list[int]:
    return [step.big_blind for step in levels_of(steps)]


def with_chips(spec: GeneratorInput, steps: list[Step]) -> list[tuple[Step, tuple[int, ...]]]:
    """Each step with the chips in play during it, following the colour-ups."""
    chips = spec.denominations
    seen = []
    for step in steps:
        seen.append((step, chips))
        if step.kind == BREAK:
            assert chips[: len(step.color_up)] == step.color_up, "races off the smallest first"
            chips = chips[len(step.color_up) :]
    return seen


def consecutive_levels(spec: GeneratorInput, steps: list[Step]):
    """Each level after the first, with the level before it and its own chips in play."""
    played = levels_with_chips(spec, steps)
    return [(before, after) for (before, _), after in zip(played, played[1:], strict=False)]


def levels_with_chips(spec: GeneratorInput, steps: list[Step]) -> list[tuple[Step, tuple]]:
    return [(step, chips) for step, chips in with_chips(spec, steps) if step.kind == LEVEL]


def breaks_with_level_before(steps: list[Step]) -> list[tuple[Step, Step]]:
    return [(steps[i - 1], step) for i, step in enumerate(steps) if step.kind == BREAK]


def breaks_with_chips(spec: GeneratorInput, steps: list[Step]):
    """Each break with the level before it and the chips in play when the break begins."""
    seen = with_chips(spec, steps)
    return [(seen[i - 1][0], step, chips) for i, (step, chips) in enumerate(seen) if step.is_break]


def level_number_at(steps: list[Step], index: int) -> int:
    """The number of levels played before steps[index]."""
    return sum(1 for step in steps[:index] if not step.is_break)


# The nice ladder: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten.
LADDER = sorted(
    Fraction(tenths, 10) * 10**k
    for tenths in (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
    for k in range(30)
)


def nice_in(low: Fraction, high: Fraction, unit: int) -> list[int]:
    """The ladder amounts in [low, high] that are multiples of `unit`."""
    return [int(n) for n in LADDER if low <= n <= high and n % unit == 0]


def least_multiple_from(low: Fraction, unit: int) -> int:
    return math.ceil(low / unit) * unit


# -- Random inputs -----------------------------------------------------------------------


@st.composite
def specs(draw, by_target: bool | None = None) -> GeneratorInput:
    """Random valid input; `by_target` True/False fixes how the duration is given."""
    chips = sorted(draw(st.lists(st.integers(1, 50_000), min_size=1, max_size=6, unique=True)))
    unit = chips[0]
    stack = unit * draw(st.integers(20, 20_000))  # at least 10 big blinds of 2 chips
    level_minutes = draw(st.integers(1, 90))
    use_target = draw(st.booleans()) if by_target is None else by_target
    if use_target:
        duration = {"target_minutes": draw(st.integers(level_minutes, level_minutes * 60))}
    else:
        duration = {"levels": draw(st.integers(1, 60))}
    start = draw(st.none() | st.integers(2, stack // (10 * unit)).map(lambda n: n * unit))
    return GeneratorInput(
        starting_stack=stack,
        denominations=tuple(draw(st.permutations(chips))),
        level_minutes=level_minutes,
        ante_from_level=draw(st.none() | st.integers(1, 30)),
        ante_type=draw(st.sampled_from([ANTE_BIG_BLIND, ANTE_TRADITIONAL])),
        break_every=draw(st.none() | st.integers(1, 10)),
        break_minutes=draw(st.integers(1, 30)),
        start_big_blind=start,
        **duration,
    )


# -- Big blinds --------------------------------------------------------------------------


def test_regular_structure_climbs_the_nice_ladder():
    assert big_blinds(generate(REGULAR))[:12] == [
        200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500,
    ]  # fmt: skip


def test_first_big_blind_is_about_a_hundredth_of_the_stack():
    for stack, first in [(10_000, 100), (20_000, 200), (30_000, 300), (15_000, 150)]:
        assert replace(REGULAR, starting_stack=stack).first_big_blind == first


def test_first_big_blind_is_at_least_two_chips():
    # 1/100 of 2,000 is 20, less than one 25 chip: the least playable big blind is 50.
    spec = replace(REGULAR, starting_stack=2_000)
    assert levels_of(generate(spec))[0].big_blind == 50
    assert levels_of(generate(spec))[0].small_blind == 25


def test_start_big_blind_can_be_chosen():
    steps = generate(replace(REGULAR, start_big_blind=500))
    assert big_blinds(steps)[:4] == [500, 600, 800, 1000]


@given(specs())
def test_big_blind_rises_20_to_35_percent_unless_the_chip_forbids_it(spec):
    """Forced case: no multiple of the chip lies in the window; take the least one above it."""
    for before, (after, chips) in consecutive_levels(spec, generate(spec)):
        low, high = before.big_blind * Fraction(6, 5), before.big_blind * Fraction(27, 20)
        if not low <= after.big_blind <= high:
            assert least_multiple_from(low, chips[0]) > high, "a multiple of the chip fits"
            assert after.big_blind == least_multiple_from(low, chips[0])
        assert after.big_blind > before.big_blind


def test_chip_forced_steps_take_the_least_raise_the_chip_allows():
    # From 50 with 25 chips the 20-35 % window is 60-67.5: no 25 fits, so 75 (+50 %).
    steps = generate(replace(REGULAR, starting_stack=5_000, start_big_blind=50, levels=6))
    assert big_blinds(steps) == [50, 75, 100, 125, 150, 200]


def test_big_blinds_of_a_few_chips_climb_chip_by_chip():
    spec = GeneratorInput(starting_stack=200, denominations=(1,), level_minutes=10, levels=10)
    assert big_blinds(generate(spec)) == [2, 3, 4, 5, 6, 8, 10, 12, 15, 20]


@given(specs())
def test_a_nice_amount_is_taken_when_one_fits(spec):
    for before, (after, chips) in consecutive_levels(spec, generate(spec)):
        window = (before.big_blind * Fraction(6, 5), before.big_blind * Fraction(27, 20))
        fitting = nice_in(*window, chips[0])
        if fitting:
            assert after.big_blind == fitting[0]


# -- Chips -------------------------------------------------------------------------------


@given(specs())
def test_every_amount_is_a_multiple_of_the_smallest_chip_in_play(spec):
    for step, chips in with_chips(spec, generate(spec)):
        for amount in (step.small_blind, step.big_blind, step.ante):
            assert amount % chips[0] == 0


@given(specs())
def test_small_blind_is_half_the_big_blind_or_the_chip_below_half(spec):
    for step, chips in levels_with_chips(spec, generate(spec)):
        unit = chips[0]
        assert 0 < step.small_blind <= Fraction(step.big_blind, 2)
        assert step.small_blind + unit > Fraction(step.big_blind, 2)  # the closest below


def test_small_blind_examples():
    spec = replace(REGULAR, starting_stack=5_000, start_big_blind=50, levels=6)
    assert [step.small_blind for step in levels_of(generate(spec))] == [25, 25, 50, 50, 75, 100]


# -- Breaks and colour-ups ---------------------------------------------------------------


@given(specs())
def test_a_break_follows_every_nth_level_but_not_the_last(spec):
    steps = generate(spec)
    count = len(levels_of(steps))
    expected = (
        [] if spec.break_every is None else list(range(spec.break_every, count, spec.break_every))
    )
    after_levels = [level_number_at(steps, i) for i, s in enumerate(steps) if s.is_break]
    assert after_levels == expected
    assert all(step.minutes == spec.break_minutes for step in steps if step.is_break)
    assert not steps[-1].is_break


def test_no_break_after_the_last_level():
    steps = generate(replace(REGULAR, levels=12))
    assert [i for i, step in enumerate(steps) if step.is_break] == [6]
    assert steps[-1].kind == LEVEL


@given(specs())
def test_a_chip_goes_at_the_first_break_where_it_is_no_longer_needed(spec):
    """TDA 24, needed = the big blind is below 20 of the next chip."""
    for level, pause, chips in breaks_with_chips(spec, generate(spec)):
        raced = len(pause.color_up)
        for i in range(raced):
            assert level.big_blind >= 20 * chips[i + 1], "raced off while still needed"
        left = chips[raced:]
        assert len(left) >= 1, "the largest chip stays"
        if len(left) > 1:
            assert level.big_blind < 20 * left[1], "kept though no longer needed"


@given(specs())
def test_chips_go_only_at_breaks_and_the_largest_never(spec):
    steps = generate(spec)
    assert all(step.color_up == () for step in levels_of(steps))
    raced = [chip for step in steps for chip in step.color_up]
    assert max(spec.denominations) not in raced


def test_regular_races_off_the_25s_then_the_100s():
    steps = generate(REGULAR)
    assert [(level.big_blind, b.color_up) for level, b in breaks_with_level_before(steps)] == [
        (600, ()),
        (2500, (25,)),
        (10_000, (100,)),  # 20 of the 500 chip; the 500s wait for 20 of the 1000 chip
    ]
    assert all(step.small_blind % 100 == 0 for step in levels_of(steps)[12:])
    assert all(step.small_blind % 500 == 0 for step in levels_of(steps)[18:])


def test_several_chips_can_go_at_one_break():
    spec = GeneratorInput(
        starting_stack=100_000,
        denominations=(1, 2, 5, 500),
        level_minutes=20,
        levels=4,
        start_big_blind=200,
        break_every=1,
    )
    # 200 >= 20 x 2 and 20 x 5, so the 1s and 2s go; 200 < 20 x 500, so the 5s stay.
    assert [step.color_up for step in generate(spec) if step.is_break][0] == (1, 2)


def test_the_largest_chip_stays_however_high_the_blinds():
    spec = GeneratorInput(
        starting_stack=10_000, denominations=(1, 5), level_minutes=5, levels=60, break_every=1
    )
    raced = [chip for step in generate(spec) for chip in step.color_up]
    assert raced == [1]


def test_without_breaks_nothing_is_raced_off():
    steps = generate(replace(REGULAR, break_every=None, levels=40))
    assert not any(step.is_break for step in steps)
    assert all(step.big_blind % 25 == 0 for step in steps)


# -- Antes -------------------------------------------------------------------------------


@given(specs())
def test_antes_start_at_the_chosen_level_and_not_before(spec):
    for number, step in enumerate(levels_of(generate(spec)), start=1):
        if spec.ante_from_level is None or number < spec.ante_from_level:
            assert (step.ante_type, step.ante) == (ANTE_NONE, 0)
        else:
            assert step.ante_type == spec.ante_type
            assert step.ante > 0


@given(specs())
def test_big_blind_ante_equals_the_big_blind(spec):
    """RP-11: the big blind pays one ante for the table, the size of the big blind."""
    for step in levels_of(generate(spec)):
        if step.ante_type == ANTE_BIG_BLIND:
            assert step.ante == step.big_blind


@given(specs())
def test_traditional_ante_is_an_eighth_of_the_big_blind_in_chips(spec):
    for step, chips in levels_with_chips(spec, generate(spec)):
        if step.ante_type == ANTE_TRADITIONAL:
            unit = chips[0]
            assert step.ante >= unit
            assert step.ante == unit or abs(step.ante - Fraction(step.big_blind, 8)) <= unit / 2


def test_big_blind_ante_is_the_default():
    level_4 = levels_of(generate(REGULAR))[3]
    assert (level_4.ante_type, level_4.ante) == (ANTE_BIG_BLIND, 400)


def test_traditional_ante_examples():
    spec = replace(REGULAR, ante_type=ANTE_TRADITIONAL, ante_from_level=1, levels=8)
    assert [step.ante for step in levels_of(generate(spec))] == [25, 25, 50, 50, 75, 75, 100, 125]


def test_no_antes_by_default():
    spec = replace(REGULAR, ante_from_level=None)
    assert all(step.ante_type == ANTE_NONE for step in generate(spec))


# -- Duration ----------------------------------------------------------------------------


def total_minutes(steps: list[Step]) -> int:
    return sum(step.minutes for step in steps)


@given(specs(by_target=True))
def test_target_duration_is_filled_with_whole_levels(spec):
    """Breaks count; one more level (with its break) would run past the target."""
    steps = generate(spec)
    assert total_minutes(steps) <= spec.target_minutes
    longer = replace(spec, target_minutes=None, levels=len(levels_of(steps)) + 1)
    assert total_minutes(generate(longer)) > spec.target_minutes


@given(specs(by_target=False))
def test_the_chosen_number_of_levels_of_the_chosen_minutes(spec):
    steps = generate(spec)
    assert len(levels_of(steps)) == spec.levels
    assert all(step.minutes == spec.level_minutes for step in levels_of(steps))


def test_six_hours_of_20_minute_levels_with_10_minute_breaks():
    spec = replace(REGULAR, levels=None, target_minutes=360)
    steps = generate(spec)
    assert len(levels_of(steps)) == 17  # 17 x 20 + 2 breaks x 10 = 360
    assert total_minutes(steps) == 360


# -- Bad input ---------------------------------------------------------------------------

GOOD = {
    "starting_stack": 20_000,
    "denominations": STANDARD_CHIPS,
    "level_minutes": 20,
    "levels": 10,
}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"starting_stack": 0}, "starting_stack must be a positive"),
        ({"starting_stack": -500}, "starting_stack must be a positive"),
        ({"starting_stack": 20_010}, "multiple of the smallest chip"),
        ({"starting_stack": 100}, "fewer than 10 big blinds"),
        ({"denominations": ()}, "at least one chip"),
        ({"denominations": 25}, "at least one chip"),
        ({"denominations": (25, 0, 100)}, "chip value must be a positive"),
        ({"denominations": (25, -100)}, "chip value must be a positive"),
        ({"denominations": (25, 2.5)}, "chip value must be a positive"),
        ({"level_minutes": 0}, "level_minutes must be a positive"),
        ({"level_minutes": 1.5}, "level_minutes must be a positive"),
        ({"level_minutes": 24 * 60 + 1}, "at most 1440"),
        ({"levels": None}, "exactly one of target_minutes and levels"),
        ({"target_minutes": 300}, "exactly one of target_minutes and levels"),
        ({"levels": 0}, "levels must be a positive"),
        ({"levels": True}, "levels must be a positive"),
        ({"levels": 101}, "at most 100"),
        ({"levels": None, "target_minutes": 15}, "shorter than one level"),
        ({"levels": None, "target_minutes": -60}, "target_minutes must be a positive"),
        ({"levels": None, "level_minutes": 1, "target_minutes": 1000}, "more than 100 levels"),
        ({"ante_type": "straddle"}, "ante_type must be one of"),
        ({"ante_from_level": 0}, "ante_from_level must be a positive"),
        ({"ante_type": ANTE_NONE, "ante_from_level": 3}, "contradicts"),
        ({"break_every": 0}, "break_every must be a positive"),
        ({"break_every": 4, "break_minutes": 0}, "break_minutes must be a positive"),
        ({"start_big_blind": 0}, "start_big_blind must be a positive"),
        ({"start_big_blind": 110}, "multiple of the smallest chip"),
        ({"start_big_blind": 25}, "at least two of them"),
        ({"start_big_blind": 5_000}, "fewer than 10 big blinds"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(changes, message):
    with pytest.raises(ValueError, match=message):
        GeneratorInput(**{**GOOD, **changes})


def test_good_input_is_accepted_in_any_chip_order():
    spec = GeneratorInput(**{**GOOD, "denominations": (100, 25, 5000, 25, 500)})
    assert spec.denominations == (25, 100, 500, 5000)


# -- Templates ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "title", "minutes"),
    [("turbo", "Turbo", range(10, 16)), ("regular", "Regular", range(20, 31)),
     ("deep", "Deep stack", range(40, 61))],
)  # fmt: skip
def test_templates_have_their_level_lengths(name, title, minutes):
    got_title, steps = template_steps(name)
    assert got_title == title
    assert all(step.minutes in minutes for step in levels_of(steps))
    assert steps == generate(TEMPLATES[name].spec)


def test_deep_starts_deeper_than_regular_and_regular_than_turbo():
    def depth(name: str) -> int:
        spec = TEMPLATES[name].spec
        return spec.starting_stack // levels_of(template_steps(name)[1])[0].big_blind

    assert depth("deep") > depth("regular") > depth("turbo")


def test_templates_use_the_standard_chip_set_and_big_blind_antes():
    for template in TEMPLATES.values():
        assert template.spec.denominations == (25, 100, 500, 1000, 5000, 25000)
        assert template.spec.ante_type == ANTE_BIG_BLIND


def test_regular_template_first_levels():
    _, steps = template_steps("regular")
    blinds = [(s.small_blind, s.big_blind, s.ante) for s in levels_of(steps)[:10]]
    assert blinds == [
        (100, 200, 0), (125, 250, 0), (150, 300, 0), (200, 400, 400), (250, 500, 500),
        (300, 600, 600), (400, 800, 800), (500, 1000, 1000), (600, 1200, 1200),
        (750, 1500, 1500),
    ]  # fmt: skip


def test_unknown_template_is_refused():
    with pytest.raises(ValueError, match="choose one of turbo, regular, deep"):
        template_steps("hyper")


# -- Purity ------------------------------------------------------------------------------


def test_the_generator_imports_no_django():
    tree = ast.parse(inspect.getsource(generator))
    imported = [
        name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in ([node.module] if isinstance(node, ast.ImportFrom) else
                     [alias.name for alias in node.names])
    ]  # fmt: skip
    assert not [name for name in imported if name and name.startswith("django")]
