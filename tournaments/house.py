"""The house settings: every point where the rule books disagree, with the TDA as the default.

Each setting names the readings a house may choose, the first being the TDA 2024 reading,
and cites the rule each reading follows. A venue keeps its choices; an event may choose
otherwise; what neither chose is the TDA. `tournaments.selectors.house_settings` gives an
event's readings; the rules themselves stay in the engines, which take the reading as a
plain argument.

This registry is the one home of the settings: the settings page, the API's schema and
the directors' page that lists each reading with its rule are all built from it.
"""

from dataclasses import dataclass
from types import SimpleNamespace

from django.utils.translation import gettext_lazy as _

TDA = "tda"


@dataclass(frozen=True)
class Reading:
    value: str
    label: str
    rule: str  # the rule it follows: "TDA 29", "casino §27", "IFP 4.17"
    summary: str  # what the rule says, in our own words


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    readings: tuple[Reading, ...]

    @property
    def default(self) -> str:
        return self.readings[0].value

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(reading.value for reading in self.readings)

    def reading(self, value: str) -> Reading:
        return next(reading for reading in self.readings if reading.value == value)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "unclear_amount",
        _("An unclear amount"),
        (
            Reading(
                TDA,
                _("The highest reasonable amount"),
                "TDA 57",
                _(
                    "A declared bet that could mean several amounts is the highest reasonable "
                    "one that does not exceed the pot."
                ),
            ),
            Reading(
                "ifp",
                _("The lowest amount"),
                "IFP 4.17",
                _("A declared bet that could mean several amounts is the lowest of them."),
            ),
        ),
    ),
    Setting(
        "player_clock",
        _("The player clock"),
        (
            Reading(
                TDA,
                _("25 seconds and a 5-second countdown"),
                "TDA 29",
                _("A player on the clock has 25 seconds, then a 5-second countdown."),
            ),
            Reading(
                "casino",
                _("One minute, the last 10 seconds counted down (turbo: 30 s with 5)"),
                "casino §27",
                _(
                    "A player on the clock has one more minute, the last ten seconds counted "
                    "aloud; in turbo events 30 seconds with a five-second countdown."
                ),
            ),
        ),
    ),
    Setting(
        "clock_expired_no_bet",
        _("The clock runs out with no bet to face"),
        (
            Reading(
                TDA,
                _("The hand is checked"),
                "TDA 29",
                _("Facing a bet the hand is dead; with no bet to face it is checked."),
            ),
            Reading(
                "dead",
                _("The hand is dead"),
                "casino §27",
                _("Whenever the time runs out, the hand is dead."),
            ),
        ),
    ),
    Setting(
        "show_order",
        _("Who shows first"),
        (
            Reading(
                TDA,
                _("The last aggressor on the final betting round"),
                "TDA 17-A",
                _(
                    "The last player to bet or raise on the final round shows first; with no "
                    "bet on that round, the first player to act on it."
                ),
            ),
            Reading(
                "any_round",
                _("The last aggressor on any round"),
                "casino §42",
                _("The last player who bet or raised in the hand, on any round, shows first."),
            ),
        ),
    ),
    Setting(
        "button_error",
        _("A button in the wrong place"),
        (
            Reading(
                TDA,
                _("Corrected before substantial action, then the hand stands"),
                "TDA 34-A, 36",
                _(
                    "Found before substantial action the button is put right; after it the hand "
                    "plays on and the button moves on so that every player gets each position."
                ),
            ),
            Reading(
                "casino",
                _("The hand is void until two chip actions"),
                "casino §16 c",
                _(
                    "Found before two actions that put chips in, the hand is void and the button "
                    "put right; after them play goes on and the button moves on clockwise."
                ),
            ),
        ),
    ),
    Setting(
        "hand_starts",
        _("What starts a hand"),
        (
            Reading(
                TDA,
                _("The first riffle, the shuffler's button, or the dealer push"),
                "TDA 23",
                _(
                    "A hand begins with the first riffle, the push of the shuffling machine's "
                    "button, or the dealer push."
                ),
            ),
            Reading(
                "cut",
                _("The cut of the cards"),
                "casino §25, §32",
                _("A hand begins when the cards are cut."),
            ),
        ),
    ),
    Setting(
        "limit_cap_heads_up",
        _("The limit raise cap lifts"),
        (
            Reading(
                TDA,
                _("When the event is down to two players"),
                "TDA 48",
                _("In limit the raises stay capped, even heads-up, until two players are left."),
            ),
            Reading(
                "hand",
                _("When only two players are left in the hand"),
                "casino §38",
                _(
                    "Three raises a round; once only two players are in the hand before the "
                    "third raise, the raises are no longer capped."
                ),
            ),
        ),
    ),
    Setting(
        "stud_open_pair",
        _("An open pair on fourth street (stud)"),
        (
            Reading(
                TDA,
                _("Bets are not doubled"),
                "TDA RP-10 F",
                _("A pair showing on fourth street does not allow the bigger bet."),
            ),
            Reading(
                "upper_limit",
                _("The bigger bet is allowed"),
                "casino §38",
                _(
                    "With a pair showing on fourth street a player may bet the upper limit; "
                    "after an opening at the lower limit, a raise may be of the upper limit."
                ),
            ),
        ),
    ),
)

SETTINGS += (
    Setting(
        "undercall",
        _("An undercall"),
        (
            Reading(
                TDA,
                _("A full call heads-up or facing the opening bet; otherwise the TD decides"),
                "TDA 51-B",
                _(
                    "Less than the call without saying call is a full call when heads-up or "
                    "facing the round's opening bet; in other spots the TD may let the player "
                    "forfeit the chips put out and fold."
                ),
            ),
            Reading(
                "casino",
                _("Complete the call or forfeit and fold"),
                "casino §37",
                _(
                    "A player who calls short, having missed a raise, completes the call or "
                    "gives up the chips put in and the pot; a raise is no longer allowed."
                ),
            ),
        ),
    ),
    Setting(
        "odd_chips",
        _("More than one odd chip"),
        (
            Reading(
                TDA,
                _("One each, from the first winner left of the button"),
                "TDA 20-A, IFP 3.6",
                _(
                    "Broken down to the smallest chip, the odd chips go one at a time to the "
                    "tied winners, starting with the first left of the button."
                ),
            ),
            Reading(
                "worst_position",
                _("All to the winner in the worst position"),
                "casino §20",
                _(
                    "The tied winner in the worse position, the first left of the button, "
                    "takes every odd chip."
                ),
            ),
        ),
    ),
    Setting(
        "same_hand_busts",
        _("Players out in the same hand"),
        (
            Reading(
                TDA,
                _("Bigger starting stack first at one table; at different tables they share"),
                "TDA RP-8 A, casino §29 b-c",
                _(
                    "At one table the player who started the hand with more chips finishes "
                    "higher (equal stacks share); players out in the same hand-for-hand hand "
                    "at different tables share the place."
                ),
            ),
            Reading(
                "stack",
                _("Bigger starting stack first, at any table"),
                "IFP 4.27",
                _(
                    "Whoever started the hand with more chips finishes higher, wherever they "
                    "sat; equal stacks share the place."
                ),
            ),
            Reading(
                "share",
                _("Everyone out in the same hand shares the place"),
                "TDA RP-8 A",
                _(
                    "All players out in the same hand share the places they cover and split "
                    "their prizes, whatever their stacks."
                ),
            ),
        ),
    ),
)

BY_KEY = {setting.key: setting for setting in SETTINGS}
KEYS = tuple(BY_KEY)


@dataclass(frozen=True)
class HouseSettings:
    """An event's readings: one attribute per setting key, each a reading's value."""

    values: dict[str, str]

    def __getattr__(self, key: str) -> str:
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(key) from None


def resolve(*layers: dict | None) -> HouseSettings:
    """The readings: the TDA defaults, then each layer's choices over them (the venue's,
    then the event's). A value no longer offered falls back to the TDA."""
    values = {setting.key: setting.default for setting in SETTINGS}
    for layer in layers:
        for key, value in (layer or {}).items():
            if key in BY_KEY and value in BY_KEY[key].values:
                values[key] = value
    return HouseSettings(values)


def schema_enums() -> dict[str, list[str]]:
    """The API schema's names for the sets of readings (settings that offer the same
    readings share one enum): "ReadingTdaCasinoEnum" and so on."""
    names: dict[str, list[str]] = {}
    for setting in SETTINGS:
        name = "Reading" + "".join(value.title().replace("_", "") for value in setting.values)
        names[name + "Enum"] = list(setting.values)
    return names


SCHEMA_ENUMS = SimpleNamespace(**schema_enums())
