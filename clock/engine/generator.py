"""Blind structures generated from a few numbers: pure Python, no Django.

`generate` turns a starting stack, a chip set and the clock's shape (level length and
either a target duration or a number of levels) into the steps `clock.engine` plays:

- The big blind rises 20-35 % a level. Preferred amounts come from a "nice" ladder,
  1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten, whose neighbours are 20-33 %
  apart. Every amount is a multiple of the smallest chip still in play, so it can
  always be paid; when no multiple fits the 20-35 % window, see `_next_big_blind`.
- The small blind is half the big blind, or the closest multiple of the chip below half.
- Antes begin at a chosen level. The default is the big-blind ante (RP-11): the big
  blind pays one ante for the table, equal to the big blind, before the blinds. A
  traditional ante is about an eighth of the big blind from every player.
- A break follows every N levels (never the last). At a break the smallest chip is
  raced off once the blinds no longer need it (TDA 24), see `_race_off`.

Bad input raises ValueError with a message meant for the tournament director.
`template_steps` builds the three structures the product ships.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

from clock.engine import (
    ANTE_BIG_BLIND,
    ANTE_NONE,
    ANTE_TRADITIONAL,
    ANTE_TYPES,
    BREAK,
    LEVEL,
    MAX_SECONDS,
    Step,
)

MIN_RAISE = Fraction(6, 5)  # a level's big blind is at least 20 % above the last ...
MAX_RAISE = Fraction(27, 20)  # ... and at most 35 % when the chips allow it
# The ladder's mantissas in tenths: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8.
LADDER_TENTHS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
START_DEPTH = 100  # the default first big blind: about 1/100 of the starting stack
START_SLACK = Fraction(115, 100)  # ... within 15 %, so that it can be a nice amount
MIN_DEPTH = 10  # a starting stack of fewer big blinds is no structure to play
COLOR_UP_DEPTH = 20  # race a chip off once the big blind is 20 of the next chip
TRADITIONAL_ANTE_SHARE = 8  # a traditional ante is about 1/8 of the big blind
MAX_LEVELS = 100  # far beyond any real event; keeps a typo from building thousands
MAX_MINUTES = MAX_SECONDS // 60  # the engine refuses steps longer than a day


@dataclass(frozen=True, kw_only=True)
class GeneratorInput:
    """What the director chooses; checked on creation (ValueError when it makes no sense).

    Give exactly one of `target_minutes` (the whole event, breaks included) and `levels`
    (the number of play levels). `ante_from_level=None` means no antes.
    `start_big_blind=None` means about 1/100 of the starting stack.
    """

    starting_stack: int
    denominations: tuple[int, ...]
    level_minutes: int
    target_minutes: int | None = None
    levels: int | None = None
    ante_from_level: int | None = None
    ante_type: str = ANTE_BIG_BLIND
    break_every: int | None = None
    break_minutes: int = 15
    start_big_blind: int | None = None

    def __post_init__(self) -> None:
        _check_chips(self.denominations)
        # Keep the chip set smallest first, without repeats, whatever order it came in.
        object.__setattr__(self, "denominations", tuple(sorted(set(self.denominations))))
        _check_amounts(self)
        _check_duration(self)
        _check_antes(self)
        _check_breaks(self)
        _check_depth(self)

    @property
    def smallest_chip(self) -> int:
        return self.denominations[0]

    @property
    def first_big_blind(self) -> int:
        if self.start_big_blind is not None:
            return self.start_big_blind
        return _default_start(self.starting_stack, self.smallest_chip)

    @property
    def level_count(self) -> int:
        if self.levels is not None:
            return self.levels
        return _levels_within(self)


def generate(spec: GeneratorInput) -> list[Step]:
    """The structure: levels with a break after every `break_every` levels."""
    chips = spec.denominations  # still in play, smallest first
    count = spec.level_count
    big = spec.first_big_blind
    steps: list[Step] = []
    for number in range(1, count + 1):
        if number > 1:
            big = _next_big_blind(big, chips[0])
        steps.append(_level(spec, number, big, chips[0]))
        if _break_after(spec, number, count):
            raced = _race_off(chips, big)
            chips = chips[len(raced) :]
            steps.append(Step(BREAK, spec.break_minutes, color_up=raced))
    return steps


# -- One level ---------------------------------------------------------------------------


def _level(spec: GeneratorInput, number: int, big: int, unit: int) -> Step:
    ante_type, ante = _ante(spec, number, big, unit)
    return Step(
        LEVEL,
        spec.level_minutes,
        small_blind=_small_blind(big, unit),
        big_blind=big,
        ante=ante,
        ante_type=ante_type,
    )


def _small_blind(big: int, unit: int) -> int:
    """Half the big blind, else the closest multiple of the chip below half.

    Never 0: every big blind is at least two chips.
    """
    return big // (2 * unit) * unit


def _ante(spec: GeneratorInput, number: int, big: int, unit: int) -> tuple[str, int]:
    """The ante type and amount of level `number`.

    RP-11 big-blind ante: one ante of a big blind, paid by the big blind.
    Traditional: about 1/8 of the big blind from every player, at least one chip.
    """
    if spec.ante_from_level is None or number < spec.ante_from_level:
        return ANTE_NONE, 0
    if spec.ante_type == ANTE_BIG_BLIND:
        return ANTE_BIG_BLIND, big
    return ANTE_TRADITIONAL, max(unit, _round_to(Fraction(big, TRADITIONAL_ANTE_SHARE), unit))


# -- Big blinds --------------------------------------------------------------------------


def _next_big_blind(big: int, unit: int) -> int:
    """The big blind after `big`: 20-35 % higher and a multiple of `unit`.

    A nice ladder amount when one fits, else the roundest multiple of the chip in the
    window (most trailing zeros, then the smallest).

    The unit-forced case: while the big blind is below about seven chips, the 20-35 %
    window is narrower than one chip and may hold no multiple of it (2 chips: the window
    is 2.4-2.7 chips). Then the smallest multiple of the chip at least 20 % higher is
    taken (3 chips, +50 %): the smallest step the chips allow that is still a real raise.
    """
    low = math.ceil(big * MIN_RAISE)
    high = math.floor(big * MAX_RAISE)
    return _nicest(low, high, unit) or _ceil_to(low, unit)


def _default_start(stack: int, unit: int) -> int:
    """About 1/100 of the stack: a nice amount within 15 %, at least two chips.

    Two chips is the least big blind whose small blind is a chip.
    """
    target = Fraction(stack, START_DEPTH)
    if target <= 2 * unit:
        return 2 * unit
    low = math.ceil(target / START_SLACK)
    high = math.floor(target * START_SLACK)
    return _nicest(low, high, unit) or max(2 * unit, _round_to(target, unit))


def _nicest(low: int, high: int, unit: int) -> int | None:
    """The nicest multiple of `unit` in [low, high]: the ladder first, then the roundest."""
    return _ladder_multiple(low, high, unit) or _roundest_multiple(low, high, unit)


def _ladder_multiple(low: int, high: int, unit: int) -> int | None:
    for value in _ladder_from(low):
        if value > high:
            return None
        if value % unit == 0:
            return value
    return None  # not reached: the ladder has no end


def _ladder_from(low: int):
    """The whole-number ladder amounts >= low, in increasing order."""
    # Amounts at scale 10**k lie in [10**(k-1), 8 * 10**(k-1)]: smaller scales are < low.
    scale = max(0, len(str(low)) - 1)
    while True:
        for tenths in LADDER_TENTHS:
            value, rest = divmod(tenths * 10**scale, 10)
            if rest == 0 and value >= low:
                yield value
        scale += 1


def _roundest_multiple(low: int, high: int, unit: int) -> int | None:
    """The multiple of `unit` in [low, high] with the most trailing zeros (the smallest)."""
    for zeros in range(len(str(high)), -1, -1):
        candidate = _ceil_to(low, math.lcm(unit, 10**zeros))
        if candidate <= high:
            return candidate
    return None  # no multiple of `unit` at all in the window


def _ceil_to(amount: int, unit: int) -> int:
    return -(-amount // unit) * unit


def _round_to(amount: Fraction, unit: int) -> int:
    """The nearest multiple of `unit` (halves round up)."""
    return math.floor(amount / unit + Fraction(1, 2)) * unit


# -- Breaks and colour-ups ---------------------------------------------------------------


def _break_after(spec: GeneratorInput, number: int, count: int) -> bool:
    every = spec.break_every
    return every is not None and number % every == 0 and number < count


def _race_off(chips: tuple[int, ...], big: int) -> tuple[int, ...]:
    """TDA 24: the chips raced off at a break that follows a level with big blind `big`.

    The smallest chip goes once the big blind is at least 20 of the next chip. Why 20:
    from then on the 20-35 % window (15 % of the big blind, at least 3 of the next chip)
    always holds multiples of the next chip, so steps stay smooth with the coarser unit;
    the small blind is at least 12 of them and a traditional ante at least 3, so no
    amount needs the smaller chip any more. Several chips may go at once, each checked
    against the chip after it; the largest chip always stays.
    """
    raced = 0
    while raced + 1 < len(chips) and big >= COLOR_UP_DEPTH * chips[raced + 1]:
        raced += 1
    return chips[:raced]


# -- Duration ----------------------------------------------------------------------------


def _minutes(spec: GeneratorInput, levels: int) -> int:
    """The length of `levels` levels with their breaks (none after the last level)."""
    breaks = (levels - 1) // spec.break_every if spec.break_every and levels else 0
    return levels * spec.level_minutes + breaks * spec.break_minutes


def _levels_within(spec: GeneratorInput) -> int:
    """The most levels that fit `target_minutes`, breaks included (at most MAX_LEVELS + 1)."""
    levels = 0
    while levels <= MAX_LEVELS and _minutes(spec, levels + 1) <= spec.target_minutes:
        levels += 1
    return levels


# -- Checks ------------------------------------------------------------------------------


def _whole(name: str, value, *, allow_none: bool = False) -> None:
    """A positive whole number (bool is no number here), or None when allowed."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}.")


def _check_chips(denominations) -> None:
    if not isinstance(denominations, tuple | list | set | frozenset) or not denominations:
        raise ValueError(f"denominations must list at least one chip value, not {denominations!r}.")
    for chip in denominations:
        _whole("Every chip value", chip)


def _check_amounts(spec: GeneratorInput) -> None:
    _whole("starting_stack", spec.starting_stack)
    unit = spec.smallest_chip
    if spec.starting_stack % unit:
        raise ValueError(
            f"starting_stack {spec.starting_stack} must be a multiple of the smallest "
            f"chip ({unit})."
        )
    _whole("start_big_blind", spec.start_big_blind, allow_none=True)
    start = spec.start_big_blind
    if start is not None and (start % unit or start < 2 * unit):
        raise ValueError(
            f"start_big_blind {start} must be a multiple of the smallest chip ({unit}) "
            f"and at least two of them, so that the small blind is a chip."
        )


def _check_duration(spec: GeneratorInput) -> None:
    _whole("level_minutes", spec.level_minutes)
    if spec.level_minutes > MAX_MINUTES:
        raise ValueError(f"level_minutes must be at most {MAX_MINUTES} (a day).")
    if (spec.target_minutes is None) == (spec.levels is None):
        raise ValueError("Give exactly one of target_minutes and levels.")
    _whole("target_minutes", spec.target_minutes, allow_none=True)
    _whole("levels", spec.levels, allow_none=True)
    if spec.levels is not None and spec.levels > MAX_LEVELS:
        raise ValueError(f"levels must be at most {MAX_LEVELS}, not {spec.levels}.")


def _check_antes(spec: GeneratorInput) -> None:
    if spec.ante_type not in ANTE_TYPES:
        raise ValueError(
            f"ante_type must be one of {', '.join(ANTE_TYPES)}, not {spec.ante_type!r}."
        )
    _whole("ante_from_level", spec.ante_from_level, allow_none=True)
    if spec.ante_type == ANTE_NONE and spec.ante_from_level is not None:
        raise ValueError("ante_type 'none' contradicts ante_from_level: drop one of them.")


def _check_breaks(spec: GeneratorInput) -> None:
    _whole("break_every", spec.break_every, allow_none=True)
    if spec.break_every is not None:
        _whole("break_minutes", spec.break_minutes)
        if spec.break_minutes > MAX_MINUTES:
            raise ValueError(f"break_minutes must be at most {MAX_MINUTES} (a day).")


def _check_depth(spec: GeneratorInput) -> None:
    """Enough big blinds to play, and a level count that fits."""
    first = spec.first_big_blind
    if spec.starting_stack < MIN_DEPTH * first:
        raise ValueError(
            f"starting_stack {spec.starting_stack} is fewer than {MIN_DEPTH} big blinds "
            f"of {first}: raise the stack or lower the first big blind."
        )
    count = spec.level_count
    if count == 0:
        raise ValueError(
            f"target_minutes {spec.target_minutes} is shorter than one level "
            f"({spec.level_minutes} minutes)."
        )
    if count > MAX_LEVELS:
        raise ValueError(
            f"target_minutes {spec.target_minutes} makes more than {MAX_LEVELS} levels of "
            f"{spec.level_minutes} minutes: use longer levels."
        )


# -- Templates ---------------------------------------------------------------------------

STANDARD_CHIPS = (25, 100, 500, 1000, 5000, 25000)


@dataclass(frozen=True)
class Template:
    title: str
    spec: GeneratorInput


TEMPLATES = {
    # 50 big blinds, 15-minute levels, about four hours.
    "turbo": Template(
        "Turbo",
        GeneratorInput(
            starting_stack=10_000,
            denominations=STANDARD_CHIPS,
            start_big_blind=200,
            level_minutes=15,
            target_minutes=4 * 60,
            ante_from_level=3,
            break_every=8,
            break_minutes=10,
        ),
    ),
    # 100 big blinds, 20-minute levels, a break every two hours, about six hours.
    "regular": Template(
        "Regular",
        GeneratorInput(
            starting_stack=20_000,
            denominations=STANDARD_CHIPS,
            level_minutes=20,
            target_minutes=6 * 60,
            ante_from_level=4,
            break_every=6,
            break_minutes=10,
        ),
    ),
    # 250 big blinds, 40-minute levels, a break every two hours, about ten hours.
    "deep": Template(
        "Deep stack",
        GeneratorInput(
            starting_stack=50_000,
            denominations=STANDARD_CHIPS,
            start_big_blind=200,
            level_minutes=40,
            target_minutes=10 * 60,
            ante_from_level=6,
            break_every=3,
            break_minutes=15,
        ),
    ),
}


def template_steps(name: str) -> tuple[str, list[Step]]:
    """The title and steps of a shipped template: "turbo", "regular" or "deep"."""
    template = TEMPLATES.get(name)
    if template is None:
        raise ValueError(f"Unknown template {name!r}: choose one of {', '.join(TEMPLATES)}.")
    return template.title, generate(template.spec)
