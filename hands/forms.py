"""Forms of the dealer's tablet and the floor's hand-for-hand page.

They check only the shape of the input (whole numbers, seat numbers from 1 to 10, chip
counts in range); whether a seat is in play, dealt in or may bust is the services'
call, so the page and the API refuse alike.
"""

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from hands.engine import betting, items, killed
from hands.engine import out_of_turn as oot
from hands.engine.handforhand import MAX_SECONDS_PER_HAND
from seating.models import MAX_SEATS
from tournaments.models import MAX_CHIPS

MAX_HAND = 10**6
SEAT_NUMBERS = range(1, MAX_SEATS + 1)

TABLET_ACTIONS = (
    "draw",
    "button",
    "start",
    "finish",
    "hold",
    "misdeal",
    "bust",
    "undo_bust",
    "bag",
    "item",
    "item_ruling",
    "oot",
    "oot_ruling",
    "count",
    "upcards",
    "start_mark",  # TDA 23; casino §25, §32
    "start_unmark",
    "button_error",  # TDA 34-A; casino §16 c
    "level_error",  # TDA 23
    "kill",  # TDA 65-A, 66: a hand killed during play
    "dodged_blinds",  # TDA 33, 71-B; older TDA 22 (web.tablet: the floor's ruling)
)


def seat_chips_fields(form: forms.Form, prefix: str) -> None:
    """One optional chips field per seat ("<prefix>_<seat>"): a hand's stacks, a count."""
    for seat in SEAT_NUMBERS:
        form.fields[f"{prefix}_{seat}"] = forms.IntegerField(
            label=_("Chips in seat %(seat)s") % {"seat": seat},
            min_value=0,
            max_value=MAX_CHIPS,
            required=False,
            error_messages={
                "invalid": _("Chips are a whole number."),
                "min_value": _("Chips cannot be negative."),
                "max_value": _("That is more chips than a tournament has."),
            },
        )


def seat_chips(data: dict, prefix: str) -> dict[int, int]:
    """The seats given chips in `seat_chips_fields`, a blank seat left out."""
    return {
        seat: data[f"{prefix}_{seat}"]
        for seat in SEAT_NUMBERS
        if data.get(f"{prefix}_{seat}") is not None
    }


def _interpolate(text, values: dict) -> str:
    return str(text) % values


# Error messages are made once, at import: translate them when shown, not then.
interpolate_lazy = lazy(_interpolate, str)


def _seat_errors() -> dict:
    wrong = interpolate_lazy(_("Seats are numbered from 1 to %(max)s."), {"max": MAX_SEATS})
    return {
        "invalid": interpolate_lazy(_("A seat is a number from 1 to %(max)s."), {"max": MAX_SEATS}),
        "min_value": wrong,
        "max_value": wrong,
        "invalid_choice": wrong,
    }


def seat_field(**kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        min_value=1, max_value=MAX_SEATS, error_messages=_seat_errors(), **kwargs
    )


def seats_field(*, error_messages: dict | None = None, **kwargs):
    """Several seat numbers (checkboxes); anything but 1 to 10 is refused."""
    return forms.TypedMultipleChoiceField(
        choices=[(str(n), str(n)) for n in SEAT_NUMBERS],
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={**_seat_errors(), **(error_messages or {})},
        **kwargs,
    )


class TabletActionForm(forms.Form):
    """Which of the tablet's buttons was pressed."""

    action = forms.ChoiceField(
        choices=[(a, a) for a in TABLET_ACTIONS],
        error_messages={"invalid_choice": _("Unknown action."), "required": _("Unknown action.")},
    )


class UndoBustForm(forms.Form):
    """The bust-out the tablet showed as its last: only that one is taken back."""

    entry = forms.IntegerField(label=_("Entry"), min_value=1, max_value=2**63 - 1)


class ButtonForm(forms.Form):
    """Set the button where it is at the table; with last hand's big blind the next hand
    moves on from it (TDA 32)."""

    button = seat_field(label=_("Button"))
    big_blind = seat_field(label=_("Last hand's big blind"), required=False)


class HandForm(forms.Form):
    """The hand the dealer sees: acting on another (a second tablet finished it
    meanwhile) is refused by the service."""

    hand = forms.IntegerField(
        label=_("Hand"),
        min_value=1,
        max_value=MAX_HAND,
        error_messages={
            "required": _("Which hand? Reload the page."),
            "invalid": _("Which hand? Reload the page."),
            "min_value": _("Which hand? Reload the page."),
            "max_value": _("Which hand? Reload the page."),
        },
    )


def eliminator_field() -> forms.IntegerField:
    """Issue 18: in a bounty event, the seat of the player who won the pot the busted
    players lost; empty: not named yet (the floor names them later at the desk)."""
    return seat_field(label=_("Eliminated by"), required=False)


class FinishForm(HandForm):
    """Hand done: who busted (places: IFP 4.27) and, if counted, chips per seat."""

    busts = seats_field(label=_("Busted"), required=False)
    eliminator = eliminator_field()

    def eliminators(self) -> list[int] | None:
        seat = self.cleaned_data.get("eliminator")
        return None if seat is None else [seat]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seat_chips_fields(self, "stack")

    def stacks(self) -> dict[int, int]:
        return seat_chips(self.cleaned_data, "stack")


class ItemForm(HandForm):
    """RP-22: the player in turn (the seat the tablet showed) bet with an item of no value."""

    seat = seat_field(label=_("Seat"))
    item = forms.ChoiceField(
        label=_("Item"),
        choices=[(item, item) for item in items.ITEMS],
        error_messages={
            "required": _("Choose the item: a bounty chip, a clock token or other."),
            "invalid_choice": _("Choose the item: a bounty chip, a clock token or other."),
        },
    )


class ItemRulingForm(HandForm):
    """RP-22, TDA 1: the floor rules the item a call or all-in."""

    ruling = forms.ChoiceField(
        label=_("Ruling"),
        choices=[(ruling, ruling) for ruling in items.RULINGS],
        error_messages={
            "required": _("Rule the item a call or all-in."),
            "invalid_choice": _("Rule the item a call or all-in."),
        },
    )


class OutOfTurnForm(HandForm):
    """TDA 53-A: a player acted out of turn; the action is recorded and held."""

    seat = forms.IntegerField(
        label=_("Seat"),
        min_value=1,
        max_value=MAX_SEATS,
        error_messages={**_seat_errors(), "required": _("Which seat acted?")},
    )
    kind = forms.ChoiceField(
        label=_("Action"),
        choices=[(kind, kind) for kind in betting.KINDS],
        error_messages={
            "required": _("Choose the action: fold, check, call, bet, raise or all-in."),
            "invalid_choice": _("Choose the action: fold, check, call, bet, raise or all-in."),
        },
    )
    amount = forms.IntegerField(
        label=_("Amount"),
        min_value=1,
        max_value=MAX_CHIPS,
        required=False,
        error_messages={
            "invalid": _("Chips are a whole number."),
            "min_value": _("A bet or raise is at least one chip."),
            "max_value": _("That is more chips than a tournament has."),
        },
    )

    def clean(self):
        data = super().clean()
        if data.get("kind") in (betting.BET, betting.RAISE) and data.get("amount") is None:
            self.add_error("amount", _("A bet or raise needs an amount."))
        return data


class SkippedRulingForm(HandForm):
    """TDA 53-B: the floor rules on a skipped seat's hand."""

    seat = seat_field(label=_("Seat"))
    ruling = forms.ChoiceField(
        label=_("Ruling"),
        choices=[(ruling, ruling) for ruling in oot.RULINGS],
        error_messages={
            "required": _("Rule the skipped hand dead, or check, call or fold only."),
            "invalid_choice": _("Rule the skipped hand dead, or check, call or fold only."),
        },
    )


class KillForm(HandForm):
    """TDA 65-A, 66: a seat's hand killed during play, and why; fouled but identifiable
    (TDA 65-B) is answered, never recorded."""

    seat = forms.IntegerField(
        label=_("Seat"),
        min_value=1,
        max_value=MAX_SEATS,
        error_messages={**_seat_errors(), "required": _("Whose hand is dead?")},
    )
    reason = forms.ChoiceField(
        label=_("Why"),
        choices=[(reason, reason) for reason in killed.ASKED],
        error_messages={
            "required": _("Say why the hand is dead (TDA 65-A, 66)."),
            "invalid_choice": _("Say why the hand is dead (TDA 65-A, 66)."),
        },
    )


class BustForm(forms.Form):
    """Players out of chips outside the hand's result (table_busts_record)."""

    seats = seats_field(
        label=_("Busted"),
        error_messages={"required": _("Tick the seats of the busted players.")},
    )
    eliminator = eliminator_field()

    def eliminators(self) -> list[int] | None:
        seat = self.cleaned_data.get("eliminator")
        return None if seat is None else [seat]


class KnockoutForm(forms.Form):
    """The desk names, or corrects, who eliminated a busted player (issue 18): the
    players who won the pot the player lost (several: a split pot)."""

    eliminators = forms.TypedMultipleChoiceField(
        label=_("Eliminated by"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": _("Name the player (or players) who won the pot."),
            "invalid_choice": _("That player cannot have eliminated them."),
        },
    )

    def __init__(self, *args, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["eliminators"].choices = list(candidates)


# --- Tablet links ----------------------------------------------------------------------


class LinkActionForm(forms.Form):
    action = forms.ChoiceField(choices=[("create", "create"), ("revoke", "revoke")])
    link = forms.IntegerField(min_value=1, max_value=10**18, required=False)

    def clean(self):
        data = super().clean()
        if data.get("action") == "revoke" and data.get("link") is None:
            raise forms.ValidationError(_("Which link?"))
        return data


# --- Hand-for-hand ----------------------------------------------------------------------


class HandForHandActionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("settings", "settings"), ("start", "start"), ("stop", "stop")],
        error_messages={"invalid_choice": _("Unknown action."), "required": _("Unknown action.")},
    )


class HandForHandSettingsForm(forms.Form):
    """House settings of hand-for-hand (RP-8 B, C)."""

    places_paid = forms.IntegerField(
        label=_("Places paid"),
        required=False,
        min_value=1,
        max_value=100_000,
        help_text=_(
            "Hand-for-hand plays the bubble: the last place before the money. "
            "Empty: as many as the payout table pays."
        ),
    )
    seconds_per_hand = forms.IntegerField(
        label=_("Seconds off the clock per hand"),
        min_value=0,
        max_value=MAX_SECONDS_PER_HAND,
        help_text=_("RP-8: two minutes a hand, at most three."),
        error_messages={"max_value": _("At most 180 seconds a hand (RP-8 B).")},
    )
    margin = forms.IntegerField(
        label=_("Suggest with this many players to the money"),
        min_value=1,
        max_value=1000,
    )
    alert_minutes = forms.IntegerField(
        label=_("Alert the floor after (minutes)"),
        min_value=1,
        max_value=60,
        help_text=_("A table that has not finished its hand by then is flagged."),
    )


class UpcardsForm(HandForm):
    """Stud: the upcards just dealt, one text field per seat ("card_<seat>", e.g. "Kh");
    a seat left blank gives none. Which seats need one is the service's call (RP-10)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEAT_NUMBERS:
            self.fields[f"card_{seat}"] = forms.CharField(
                label=_("Upcard in seat %(seat)s") % {"seat": seat},
                max_length=3,
                required=False,
                strip=True,
            )

    def cards(self) -> dict[int, str]:
        return {
            seat: self.cleaned_data[f"card_{seat}"]
            for seat in SEAT_NUMBERS
            if self.cleaned_data.get(f"card_{seat}")
        }


# --- Errors found during a hand; the start of the next (TDA 23, 34-A; casino §16 c) --------


class StartMarkForm(forms.Form):
    """What started the next hand; which events the house allows is the service's call."""

    event = forms.ChoiceField(
        label=_("Started by"),
        choices=[
            ("riffle", _("First riffle")),
            ("shuffler", _("Shuffler button")),
            ("push", _("Dealer push")),
            ("cut", _("Cut of the cards")),
        ],
        error_messages={"invalid_choice": _("Unknown start."), "required": _("Unknown start.")},
    )


class ActionsSoFarForm(forms.Form):
    """How far a hand whose actions are not logged has gone, as the dealer counts the
    actions in turn (the posted blinds are none, TDA 36): both blank, the log counts."""

    MAX_ACTIONS = 100

    hand = forms.IntegerField(min_value=1, max_value=MAX_HAND)
    chip_actions = forms.IntegerField(
        label=_("Bets, calls, raises and all-ins so far"),
        min_value=0,
        max_value=MAX_ACTIONS,
        required=False,
    )
    other_actions = forms.IntegerField(
        label=_("Checks and folds so far"), min_value=0, max_value=MAX_ACTIONS, required=False
    )

    def actions(self) -> list[str] | None:
        """The counts as actions for the rules (TDA 36, casino §16 c count them, whatever
        their order); None when neither was given."""
        chips, others = self.cleaned_data["chip_actions"], self.cleaned_data["other_actions"]
        if chips is None and others is None:
            return None
        return [betting.CALL] * (chips or 0) + [betting.FOLD] * (others or 0)


class ButtonErrorForm(ActionsSoFarForm):
    """TDA 34-A, casino §16 c: the seat the button should have been on for this hand."""

    button = seat_field(label=_("Right button"))


class LevelErrorForm(ActionsSoFarForm):
    """TDA 23: the level the hand in play should have been dealt at."""

    level = forms.IntegerField(label=_("Right level"), min_value=1, max_value=1000)
