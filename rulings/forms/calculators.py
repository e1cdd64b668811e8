"""Forms for the floor calculators page: what a floor person types on a phone at the
table ("50/100", "1000 500 500", one line per action or seat) turned into the body dicts
`rulings.calculators` takes. The forms only read the text, with the readers in
`rulings.engine.parsing`; whether the hand it describes is possible is the engines'
business, and their refusals come back onto these fields through each form's `FIELD_MAP`.
"""

from django import forms
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from rulings.calculators import MAX_SEATS
from rulings.engine.parsing import (
    MAX_LIST,
    Grouped,
    ParseError,
    actions_parse,
    amount_parse,
    amounts_parse,
    blinds_parse,
    contributions_parse,
    race_seats_parse,
    winners_parse,
)

LINE_TEXT = 4000

GAMES = [
    ("nlhe", _("No-limit hold'em")),
    ("plo", _("Pot-limit Omaha")),
    ("lhe", _("Limit hold'em")),
]
STREETS = [
    ("preflop", _("Pre-flop")),
    ("flop", _("Flop")),
    ("turn", _("Turn")),
    ("river", _("River")),
]
DECLARATIONS = [
    ("", _("Nothing said")),
    ("fold", _("Fold")),
    ("check", _("Check")),
    ("call", _("Call")),
    ("bet", _("Bet")),
    ("raise", _("Raise")),
    ("all-in", _("All-in")),
]


# --- Parsing errors --------------------------------------------------------------------------


def validation_error(error: ParseError) -> forms.ValidationError:
    """The ParseError as the form shows it, its template translated (the parsing module
    marks it for makemessages)."""
    params = None
    if error.params is not None:
        params = {key: _shown(value) for key, value in error.params.items()}
    return forms.ValidationError(gettext_lazy(error.template), code=error.code, params=params)


def _shown(value):
    if isinstance(value, ParseError):
        return " ".join(validation_error(value).messages)
    if isinstance(value, Grouped):
        return number_format(value.value, force_grouping=True)
    return value


# --- Fields ----------------------------------------------------------------------------------


class _ParsedField(forms.Field):
    """Text read by `parse`; the typed text is what the form shows again."""

    max_length = 200

    def __init__(self, parse=None, *, placeholder: str = "", numeric: bool = False, **kwargs):
        self._parse = parse
        attrs = {"autocomplete": "off", "maxlength": self.max_length}
        if placeholder:
            attrs["placeholder"] = placeholder
        if numeric:
            attrs["inputmode"] = "numeric"
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)

    def parse(self, text: str):
        return self._parse(text)

    def to_python(self, value):
        text = "" if value is None else str(value).strip()
        if not text:
            return None
        if len(text) > self.max_length:
            raise forms.ValidationError(
                _("At most %(most)s characters."),
                code="max_length",
                params={"most": self.max_length},
            )
        try:
            return self.parse(text)
        except ParseError as error:
            raise validation_error(error) from None


class ChipsField(_ParsedField):
    """One amount of chips."""

    max_length = 30

    def __init__(self, *, minimum: int = 0, **kwargs):
        self.minimum = minimum
        kwargs.setdefault("numeric", True)
        super().__init__(**kwargs)

    def parse(self, text: str) -> int:
        return amount_parse(text, minimum=self.minimum)


class ChipListField(_ParsedField):
    """Several amounts: "1000 500 500"."""

    def __init__(self, *, most: int = MAX_LIST, **kwargs):
        self.most = most
        super().__init__(**kwargs)

    def parse(self, text: str) -> list[int]:
        return amounts_parse(text, most=self.most)


class BlindsField(_ParsedField):
    max_length = 40

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Blinds"))
        kwargs.setdefault("placeholder", "50/100")
        super().__init__(**kwargs)

    def parse(self, text: str) -> list[int]:
        return blinds_parse(text)


class LinesField(_ParsedField):
    """A text area read line by line."""

    max_length = LINE_TEXT

    def __init__(self, parse, *, rows: int = 4, placeholder: str = "", **kwargs):
        attrs = {"rows": rows, "autocomplete": "off", "spellcheck": "false"}
        if placeholder:
            attrs["placeholder"] = placeholder
        kwargs.setdefault("widget", forms.Textarea(attrs=attrs))
        super().__init__(parse, **kwargs)


def _seat_number(**kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        min_value=1,
        max_value=MAX_SEATS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": MAX_SEATS}),
        **kwargs,
    )


# --- The four calculators ---------------------------------------------------------------------


class CalculatorForm(forms.Form):
    """A calculator's inputs. `FIELD_MAP` renames the body's fields, as the calculators
    name them in their refusals, to this form's fields."""

    FIELD_MAP: dict[str, str] = {}

    def __init__(self, *args, name: str, **kwargs):
        kwargs.setdefault("auto_id", f"{name}_%s")
        super().__init__(*args, **kwargs)

    def form_field(self, body_field: str) -> str | None:
        """The field of this form to show a refusal of `body_field` on (None: the form's)."""
        name = self.FIELD_MAP.get(body_field, body_field)
        return name if name in self.fields else None

    def body(self) -> dict:
        raise NotImplementedError


class BetForm(CalculatorForm):
    """How the floor reads a bet (TDA 40-57)."""

    game = forms.ChoiceField(label=_("Game"), choices=GAMES, initial="nlhe")
    blinds = BlindsField()
    street = forms.ChoiceField(label=_("Street"), choices=STREETS, initial="flop")
    actions = LinesField(
        actions_parse,
        label=_("Actions so far on this street"),
        required=False,
        placeholder="A bet 1000\nB raise 3000\nC call\nD fold",
        help_text=_(
            "One a line: player, action, amount (the total on this street) — e.g. "
            "“A bet 1000”, “B raise 3000”, “C call”, “D fold”, “E all-in 2500”. "
            "Pre-flop the blinds count as posted."
        ),
    )
    player = forms.CharField(
        label=_("Acting player"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "B"}),
    )
    stack = ChipsField(label=_("Stack behind"), help_text=_("Not counting the chips in front."))
    in_front = ChipsField(label=_("Chips already in front on this street"), required=False)
    declaration = forms.ChoiceField(
        label=_("Declared (TDA 40)"), choices=DECLARATIONS, required=False
    )
    declared_amount = ChipsField(
        label=_("Amount said, as a total (TDA 40-C, 43-B)"), required=False
    )
    chips = ChipListField(
        label=_("Chips pushed (TDA 44, 45)"),
        required=False,
        placeholder="1000 500 500",
        help_text=_("Each chip's value, e.g. “1000 500 500” or “1000, 500”."),
    )
    pot = ChipsField(
        label=_("Pot before this street (TDA 54, 57)"),
        required=False,
        help_text=_("Needed for pot limit and for unclear amounts."),
    )
    readings = ChipListField(
        label=_("Unclear amount: what it can mean (TDA 57)"),
        required=False,
        most=4,
        placeholder="250 2050",
        help_text=_("E.g. “two-fifty” over a bet of 200: “250 2050”."),
    )

    pulled_back = forms.ChoiceField(
        label=_("Prior-bet chips in front (TDA 46)"),
        choices=[
            ("", _("Left alone")),
            ("all", _("All pulled back")),
            ("part", _("Partly pulled back")),
        ],
        required=False,
    )
    prior_chips = ChipListField(
        label=_("Prior-bet chips on the table now (TDA 46-C)"),
        required=False,
        placeholder="25 25",
        help_text=_("E.g. “25 25” for a big blind of two 25s, “1000” for one 1k chip."),
    )

    FIELD_MAP = {"declared_readings": "readings"}

    def clean(self):
        data = super().clean()
        if data.get("player") and data.get("actions"):
            # "b" for the player who is "B" in the actions: the same player.
            named = {player.casefold(): player for player, _action, _to in data["actions"]}
            data["player"] = named.get(data["player"].casefold(), data["player"])
        if data.get("blinds") and data.get("street") and data.get("actions"):
            try:
                data["actions"] = _calls_filled(data["actions"], data["blinds"], data["street"])
            except forms.ValidationError as error:
                self.add_error("actions", error)
        return data

    def body(self) -> dict:
        data = self.cleaned_data
        return {
            "game": data["game"],
            "blinds": data["blinds"],
            "street": data["street"],
            "actions": data["actions"] or [],
            "player": data["player"],
            "stack": data["stack"],
            "in_front": data["in_front"] or 0,
            "declaration": data["declaration"] or None,
            "declared_amount": data["declared_amount"],
            "chips": data["chips"] or [],
            "pot": data["pot"],
            "declared_readings": data["readings"] or [],
            "pulled_back": data["pulled_back"] or "",
            "prior_chips": data["prior_chips"] or [],
        }


def _calls_filled(actions, blinds: list[int], street: str) -> list[dict]:
    """The actions as the calculator takes them, a call without an amount made a call
    to the bet it faces: pre-flop the big blind, then the largest wager so far."""
    current = blinds[1] if street == "preflop" else 0
    filled = []
    for player, action, amount in actions:
        if action == "call" and amount is None:
            if not current:
                raise forms.ValidationError(
                    _("%(player)s calls, but nobody has bet yet."),
                    code="call",
                    params={"player": player},
                )
            amount = current
        if action in ("bet", "raise", "all-in"):
            current = max(current, amount)
        filled.append({"player": player, "action": action, "to": amount or 0})
    return filled


class PotLimitForm(CalculatorForm):
    """The largest pot-limit bet or raise (TDA 54)."""

    blinds = BlindsField()
    posted = ChipListField(
        label=_("Blinds posted, if short (TDA 54-B)"),
        required=False,
        most=2,
        placeholder="0/200",
        help_text=_("Small and big blind as posted, e.g. “0/200” for a dead small blind."),
    )
    street = forms.ChoiceField(label=_("Street"), choices=STREETS, initial="preflop")
    pot = ChipsField(
        label=_("Pot before this street"),
        required=False,
        help_text=_("Pre-flop: antes only."),
    )
    bets = ChipListField(
        label=_("Other players' bets on this street"),
        required=False,
        most=MAX_SEATS,
        placeholder="200 600",
        help_text=_("Each player's total in front, blinds included, e.g. “200 600”."),
    )
    in_front = ChipsField(label=_("Own bet in front"), required=False)

    def body(self) -> dict:
        data = self.cleaned_data
        return {
            "blinds": data["blinds"],
            "posted": data["posted"] or [],
            "street": data["street"],
            "pot": data["pot"] or 0,
            "bets": data["bets"] or [],
            "in_front": data["in_front"] or 0,
        }


class PotsForm(CalculatorForm):
    """Main and side pots and who takes how much (TDA 20, 21)."""

    contributions = LinesField(
        contributions_parse,
        label=_("What each seat put in this hand"),
        placeholder="1 500\n2 1000 folded\n4 1000",
        help_text=_("One seat a line: seat, total, “folded” if the player folded."),
    )
    winners = _ParsedField(
        winners_parse,
        label=_("Winners (TDA 20, 21)"),
        required=False,
        placeholder="1 | 2 4",
        help_text=_("Main pot first, then each side pot, separated by |: “1 | 2 4”."),
    )
    button = _seat_number(
        label=_("Button seat"), required=False, help_text=_("Needed for an odd chip (TDA 20-A).")
    )
    smallest_chip = ChipsField(label=_("Smallest chip in play"), required=False, minimum=1)
    seats = forms.IntegerField(
        label=_("Seats at the table"),
        min_value=2,
        max_value=MAX_SEATS,
        required=False,
        initial=9,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 2, "max": MAX_SEATS}),
    )
    dead = ChipsField(label=_("Dead money, e.g. a big blind ante (RP-11)"), required=False)

    def body(self) -> dict:
        data = self.cleaned_data
        body = {
            "contributions": data["contributions"],
            "winners": data["winners"] or [],
            "smallest_chip": data["smallest_chip"] or 1,
            "seats": data["seats"] or MAX_SEATS,
            "dead": data["dead"] or 0,
        }
        if data["button"] is not None:
            body["button"] = data["button"]
        return body


class ChipRaceForm(CalculatorForm):
    """The chip race at a colour-up (TDA 24)."""

    removed = ChipsField(label=_("Chip coming off"), minimum=1, placeholder="25")
    next_chip = ChipsField(label=_("Next chip in play"), minimum=1, placeholder="100")
    seats = LinesField(
        race_seats_parse,
        label=_("Seats (TDA 24-A)"),
        placeholder="1 3 As Kd 2c\n2 1 Ah",
        help_text=_(
            "One seat a line: seat, chips of the colour coming off, one card per odd "
            "chip, and if the player has other chips their value — e.g. “1 3 As Kd 2c”, "
            "“2 1 Ah 5000”."
        ),
    )

    FIELD_MAP = {"chips": "seats", "cards": "seats", "stack_other": "seats"}

    def body(self) -> dict:
        data = self.cleaned_data
        return {"removed": data["removed"], "next_chip": data["next_chip"], "seats": data["seats"]}


# --- Floor situations: showdown rights, chips found, errors found late ---------------------

CARD_WORDS = {"tabled": "tabled", "held": "held", "pushed": "pushed", "mucked": "mucked"}
RIVER_WORDS = ("check", "bet", "raise", "call", "fold")


def _showdown_players(text: str) -> list[dict]:
    """One player a line: name, what they did with their cards, "all-in" if all-in:
    "A tabled", "B pushed", "C held all-in"."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        if (
            len(words) not in (2, 3)
            or words[1].lower() not in CARD_WORDS
            or (len(words) == 3 and words[2].lower() != "all-in")
        ):
            raise forms.ValidationError(
                _("Line %(line)s: name, then tabled, held, pushed or mucked, then all-in if so."),
                code="player",
                params={"line": number},
            )
        if len(words[0]) > 20:
            raise forms.ValidationError(
                _("Line %(line)s: a name of at most 20 characters."),
                code="player",
                params={"line": number},
            )
        rows.append({"name": words[0], "cards": words[1].lower(), "all_in": len(words) == 3})
    if len(rows) > MAX_SEATS:
        raise forms.ValidationError(
            _("At most %(most)s players."), code="players", params={"most": MAX_SEATS}
        )
    return rows


def _river_actions(text: str) -> list[dict]:
    """One action a line: "A bet", "B call"."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        if len(words) != 2 or words[1].lower() not in RIVER_WORDS or len(words[0]) > 20:
            raise forms.ValidationError(
                _("Line %(line)s: name, then check, bet, raise, call or fold."),
                code="river",
                params={"line": number},
            )
        rows.append({"player": words[0], "action": words[1].lower()})
    if len(rows) > MAX_LIST:
        raise forms.ValidationError(
            _("At most %(most)s actions."), code="river", params={"most": MAX_LIST}
        )
    return rows


def _name(label) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class ShowdownRightsForm(CalculatorForm):
    """May this player have that hand tabled? (TDA 16, 17-B, 18)"""

    players = LinesField(
        _showdown_players,
        label=_("Players in the hand at showdown"),
        placeholder="A held\nB tabled\nC pushed\nD mucked",
        help_text=_(
            "One a line: name and cards: tabled, held (kept), pushed (forward face down, not "
            "yet killed), mucked (killed); add all-in for an all-in player."
        ),
    )
    river = LinesField(
        _river_actions,
        label=_("River betting, in order"),
        required=False,
        placeholder="A bet\nB call\nC raise\nD call",
    )
    asker = _name(_("Who asks"))
    target = _name(_("To see whose hand"))

    def body(self) -> dict:
        data = self.cleaned_data
        return {
            "players": data["players"],
            "river": data["river"] or [],
            "asker": data["asker"],
            "target": data["target"],
        }


FOUND_SITUATIONS = [
    ("after_race", _("Removed colour found after the chip race (TDA 24-C)")),
    ("behind_all_in", _("Chips found behind an all-in (TDA 62)")),
    ("out_of_view", _("Chips held or carried out of view (TDA 63)")),
    ("lost_and_found", _("Lost and found chips (TDA 64)")),
    ("reentry_forfeit", _("Chips given up for a new stack (TDA 8-B)")),
]
YES_NO = [("", _("—")), ("yes", _("Yes")), ("no", _("No"))]


class ChipsFoundForm(CalculatorForm):
    """Chips the floor is called to (TDA 24-C, 62, 63, 64, 8-B)."""

    situation = forms.ChoiceField(label=_("Situation"), choices=FOUND_SITUATIONS)
    value = ChipsField(label=_("Value of the chips"), required=False)
    chips = ChipsField(label=_("After the race: chips of the removed colour"), required=False)
    removed = ChipsField(label=_("After the race: the removed colour"), required=False)
    smallest = ChipsField(label=_("After the race: the smallest chip in play"), required=False)
    accepted_action = forms.BooleanField(
        label=_("Behind an all-in: the TD rules them part of the action called (TDA 49)"),
        required=False,
    )
    all_in_won = forms.ChoiceField(
        label=_("Behind an all-in: did the all-in player win?"), choices=YES_NO, required=False
    )
    reading = forms.ChoiceField(
        label=_("Behind an all-in: the house reading"),
        choices=[("tda", _("TDA 62")), ("ifp", _("IFP 4.20: they are in the pot"))],
        required=False,
    )
    owner_known = forms.BooleanField(label=_("Lost and found: the owner is known"), required=False)

    def body(self) -> dict:
        data = self.cleaned_data
        won = {"yes": True, "no": False}.get(data["all_in_won"])
        return {
            "situation": data["situation"],
            "value": data["value"] or 0,
            "chips": data["chips"] or 0,
            "removed": data["removed"] or 0,
            "smallest": data["smallest"] or 0,
            "accepted_action": data["accepted_action"],
            "all_in_won": won,
            "reading": data["reading"] or "tda",
            "owner_known": data["owner_known"],
        }


LATE_ERRORS = [
    ("underraise", _("A bet or raise below the minimum (TDA 52-A)")),
    ("pot_high", _("Pot limit: a pot bet on a count too high (TDA 52-B)")),
    ("pot_low", _("Pot limit: a pot bet on a count too low (TDA 52-B)")),
]
FOUND_WHEN = [
    ("this_street", _("On the same street (river: before the showdown)")),
    ("later", _("After the next card (river: once the showdown began)")),
]


class LateErrorForm(CalculatorForm):
    """A wrong bet noticed late: corrected or does it stand? (TDA 52-A, 52-B)"""

    error = forms.ChoiceField(label=_("The error"), choices=LATE_ERRORS)
    made = ChipsField(label=_("The bet as made (total)"))
    correct = ChipsField(label=_("What it should have been: the minimum, or the pot"))
    found = forms.ChoiceField(label=_("Noticed"), choices=FOUND_WHEN)
    substantial_action = forms.BooleanField(
        label=_("Substantial action after the bet (TDA 36)"), required=False
    )

    def body(self) -> dict:
        return dict(self.cleaned_data)


class WrongSeatForm(CalculatorForm):
    """A player found in the wrong seat (TDA 7)."""

    stack_wrong = forms.BooleanField(
        label=_("The player also started with a wrong stack"), required=False
    )
    in_hand = forms.BooleanField(label=_("Found while playing a hand"), required=False)

    FIELD_MAP = {"stack_correct": "stack_wrong"}

    def body(self) -> dict:
        data = self.cleaned_data
        return {"stack_correct": not data["stack_wrong"], "in_hand": data["in_hand"]}
