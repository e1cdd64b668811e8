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
            Reading(
                "ifp",
                _("One minute, then a 10-second countdown (70 s in all)"),
                "IFP 4.26, older TDA 5",
                _(
                    "A player on the clock has a full minute, and after it ten more seconds "
                    "counted down; the IFP and the older German TDA translation agree, and "
                    "neither has a shorter turbo clock."
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
                "casino §27, IFP 4.26, older TDA 5",
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
    Setting(
        "heads_up_level",
        _("The level length once two players are left"),
        (
            Reading(
                TDA,
                _("The levels stay as scheduled"),
                "TDA (no rule)",
                _(
                    "The TDA has no rule that shortens levels heads-up: they run as the "
                    "structure has them to the end."
                ),
            ),
            Reading(
                "casino",
                _("The levels last half as long"),
                "casino §31",
                _(
                    "As soon as only two players are left in the event, every level after the "
                    "one in play lasts half its scheduled time."
                ),
            ),
        ),
    ),
    Setting(
        "day_end_draw",
        _("How a day of play ends"),
        (
            Reading(
                TDA,
                _("When the day's last level ends"),
                "TDA (no rule)",
                _(
                    "The TDA draws no hands: play stops when the last level of the day on the "
                    "director's schedule runs out."
                ),
            ),
            Reading(
                "casino",
                _("A card drawn: 3 to 7 more hands at every table"),
                "casino §28",
                _(
                    "Five to fifteen minutes before the day's last level ends the director stops "
                    "the clock; a player draws a card from three to seven, and every table plays "
                    "that many more hands."
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
    Setting(
        "misdeal_until",
        _("A misdeal can be called"),
        (
            Reading(
                TDA,
                _("Until substantial action"),
                "TDA 35-D, 36",
                _(
                    "No misdeal once two actions in turn, one of them with chips, or any three "
                    "actions in turn have been made; the hand then plays on."
                ),
            ),
            Reading(
                "casino",
                _("Until two bets or raises"),
                "casino §34",
                _(
                    "A misdeal found after two or more bets or raises stands as a valid hand; "
                    "calls, checks and folds alone do not stop it."
                ),
            ),
        ),
    ),
    Setting(
        "chips_behind_all_in",
        _("Chips found behind an all-in"),
        (
            Reading(
                TDA,
                _("The TD decides whether they were part of the action"),
                "TDA 62",
                _(
                    "The TD rules whether the hidden chips belong to the accepted action; if "
                    "not, they win nothing for the all-in player, do not save a loser, and "
                    "may be given to the winning caller."
                ),
            ),
            Reading(
                "ifp",
                _("They count as bet and go into the pot"),
                "IFP 4.20",
                _("An all-in bets the whole stack: chips hidden or found later are in the pot."),
            ),
        ),
    ),
)

SETTINGS += (
    # Seating (issue 19): seating.engine takes these readings as plain arguments.
    Setting(
        "halting",
        _("Halting play at a short table"),
        (
            Reading(
                TDA,
                _("Three or more players short of the fullest table"),
                "TDA 11-D",
                _(
                    "A table three or more players shorter than the table with the most "
                    "players stops dealing once its big blind reaches an empty seat, until "
                    "it is balanced."
                ),
            ),
            Reading(
                "casino",
                _("Fewer than four players"),
                "casino §14",
                _(
                    "Once registration has closed, a table with fewer than four players stops "
                    "dealing while the floor balances players to it."
                ),
            ),
            Reading(
                "short_handed",
                _("Two or more players short (6-handed and turbo events)"),
                "TDA 11-D",
                _(
                    "The TDA leaves halting in 6-handed and turbo events to the director: a "
                    "table two or more players shorter than the fullest stops once its big "
                    "blind reaches an empty seat (two of six, as three of nine)."
                ),
            ),
            Reading(
                "free_seats",
                _("Three or more free seats"),
                "older TDA 25",
                _(
                    "A table with three or more empty seats stops dealing while another table "
                    "has more players, however full the fullest table is."
                ),
            ),
            Reading(
                "off",
                _("Play never halts"),
                "TDA 11-D",
                _("The director waives halting play; a waiver is not a misdeal."),
            ),
        ),
    ),
    Setting(
        "final_table",
        _("When the final table forms"),
        (
            Reading(
                TDA,
                _("At nine players (seven in 6- and 7-handed events)"),
                "TDA RP-9",
                _(
                    "Events of eight or nine a table combine from two tables of five to a final "
                    "table of nine; events of six or seven from two tables of four to seven."
                ),
            ),
            Reading(
                "casino",
                _("At ten players"),
                "casino §30",
                _(
                    "The final table plays with eight to ten players: full-ring events combine "
                    "to it as soon as ten are left; short-handed events follow RP-9."
                ),
            ),
        ),
    ),
    Setting(
        "table_minimum",
        _("The fewest players a table deals to"),
        (
            Reading(
                TDA,
                _("No minimum: balancing and halting decide"),
                "TDA 11",
                _(
                    "The TDA sets no minimum for a table; short tables are balanced and, when "
                    "short enough, halted."
                ),
            ),
            Reading(
                "casino",
                _("Three players"),
                "casino §17",
                _(
                    "Play at a table starts only with three players: a table with fewer may "
                    "not deal while other tables are in play."
                ),
            ),
        ),
    ),
    Setting(
        "killed_hand_refund",
        _("A killed hand's uncalled chips"),
        (
            Reading(
                TDA,
                _("An uncalled bet or raise goes back"),
                "TDA 65-A",
                _(
                    "A hand the dealer killed by mistake, or fouled beyond identification, "
                    "gets back a bet or raise nobody has called; what it called stays in "
                    "the pot."
                ),
            ),
            Reading(
                "raise",
                _("Only an uncalled raise goes back"),
                "IFP 4.8",
                _(
                    "Only a raise nobody has called comes back to a hand the dealer killed; "
                    "an opening bet stays in the pot like the calls. The older German TDA "
                    "translation (§28) reads the same."
                ),
            ),
        ),
    ),
)

SETTINGS += (
    # Issue 19: a player who dodges the blinds (rulings.services.blinds_dodged_rule; the dead
    # money is posted by the deal, hands.services.dead_blinds).
    Setting(
        "dodged_blinds",
        _("A player who dodges the blinds"),
        (
            Reading(
                TDA,
                _("A penalty"),
                "TDA 33, 71-B, casino §22",
                _(
                    "Avoiding a blind on purpose is penalised; the blinds are not made up. "
                    "The casino likewise penalises a big blind missed on purpose after a "
                    "change of seat."
                ),
            ),
            Reading(
                "make_up",
                _("The blinds made up as dead money; a penalty stays possible"),
                "older TDA 22",
                _(
                    "Blinds avoided on purpose when moving or when a table breaks are owed: "
                    "the player puts them into the next pot as dead money, and may be "
                    "penalised as well."
                ),
            ),
        ),
    ),
)

BY_KEY = {setting.key: setting for setting in SETTINGS}
KEYS = tuple(BY_KEY)


@dataclass(frozen=True)
class Agreement:
    """A point a house might expect to choose, where the rule books do not disagree:
    not a setting, listed on the directors' page with the rules that settle it."""

    key: str
    label: str
    rules: str
    summary: str  # what the books say, in our own words


AGREED: tuple[Agreement, ...] = (
    Agreement(
        "chip_race_rounding",
        _("Chip race: how many new chips are raced"),
        "TDA 24-A, 24-C; casino §18",
        _(
            "The odd chips of the whole table are counted together and raced off as chips "
            "of the next denomination, half a chip or more making one more (the casino rounds "
            "half up; the TDA names no rounding and no book reads it otherwise). Whole sets "
            "are exchanged at equal value, nobody wins more than one chip and nobody is raced "
            "out."
        ),
    ),
    Agreement(
        "suit_order",
        _("Suit order"),
        "IFP 2.1; older TDA 3",
        _(
            "Spades, hearts, diamonds, clubs, from the highest: for the button draw, the chip "
            "race, the stud bring-in and the stud odd chip alike. The TDA ranks by suit "
            "(TDA 20-B, RP-10 D, E) without naming an order of its own, and no book names "
            "another."
        ),
    ),
)


@dataclass(frozen=True)
class HouseSettings:
    """An event's readings: one attribute per setting key, each a reading's value."""

    values: dict[str, str]

    def __getattr__(self, key: str) -> str:
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(key) from None


def offered(choices: dict | None) -> dict[str, str]:
    """The choices a house still can make: a setting or reading no longer offered is
    left out (an old template, a stored choice from before a reading was dropped)."""
    return {
        key: value
        for key, value in (choices or {}).items()
        if key in BY_KEY and value in BY_KEY[key].values
    }


def resolve(*layers: dict | None) -> HouseSettings:
    """The readings: the TDA defaults, then each layer's choices over them (the venue's,
    then the event's). A value no longer offered falls back to the TDA."""
    values = {setting.key: setting.default for setting in SETTINGS}
    for layer in layers:
        values.update(offered(layer))
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
