"""Forms of the results and deal pages. They check the shape of the input; the rules
(places, payments, what a deal must add up to) are the services' business.

Money is typed in major units ("1234.50") and leaves as cents. The deal forms carry one
chip field per player still in, named after the entry's id: a POST naming other entries
is simply not read, and one missing a player left is refused on that player's field.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from prizes.models import DealMethod
from tournaments.forms import PageForm, chips_field, money_cents, money_field
from tournaments.models import MAX_CHIPS, MAX_MONEY, Entry
from tournaments.templatetags.floorman_format import money

MAX_PLACE = 1_000_000
# The figures shown side by side, in this order (casino §6).
FIGURE_METHODS = (DealMethod.ICM, DealMethod.CHIP_CHOP, DealMethod.SAVE)


# --- Results --------------------------------------------------------------------------


class PayForm(forms.Form):
    """The amount on the cashier's button, in cents: paid only if it is still what is due."""

    amount = forms.IntegerField(min_value=0, max_value=MAX_MONEY)


class PlaceForm(PageForm):
    """The director's finishing place for one entry; `clear` goes back to the bust-outs."""

    place = forms.IntegerField(label=_("Place"), min_value=1, max_value=MAX_PLACE, required=False)
    clear = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if not data.get("clear") and data.get("place") is None and "place" not in self.errors:
            self.add_error("place", _("Give the place, or clear it."))
        return data

    @property
    def place_or_none(self) -> int | None:
        return None if self.cleaned_data.get("clear") else self.cleaned_data["place"]


# --- Deals (casino §6) ------------------------------------------------------------------


def chips_name(entry: Entry) -> str:
    return f"chips_{entry.pk}"


def amount_name(entry: Entry) -> str:
    return f"amount_{entry.pk}"


class DealChipsForm(PageForm):
    """The chips each player left holds, and what they may leave for the winner."""

    save_limited = True  # checked as typed; the record form checks it for the save method

    def __init__(
        self,
        *args,
        entries: list[Entry],
        currency: str,
        save_most: int,
        chips_widget: type[forms.Widget] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.entries = entries
        self.currency = currency
        self.save_most = save_most
        for entry in entries:
            field = chips_field(
                _("Chips of entry #%(number)s") % {"number": entry.number},
                required=True,
                min_value=1,
            )
            if chips_widget is not None:
                field.widget = chips_widget()
            else:
                field.widget.attrs.update(inputmode="numeric", autocomplete="off")
            self.fields[chips_name(entry)] = field
        self.fields["save"] = money_field(
            _("Leave for the winner"),
            help_text=_("Optional: taken off first prize and played for; the rest by ICM."),
        )

    def clean_save(self) -> int:
        value = self.cleaned_data.get("save")
        cents = 0 if value is None else money_cents(value, self.currency)
        if self.save_limited:
            self.save_check(cents)
        return cents

    def save_check(self, cents: int) -> None:
        """Casino §6: what is left comes off first prize, and first prize may then pay
        no less than second (the engine's rule for a save deal)."""
        if cents > self.save_most:
            raise forms.ValidationError(
                _("At most %(most)s can be left for the winner: what first prize pays over second.")
                % {"most": money(self.save_most, self.currency)}
            )

    def chip_fields(self) -> list[tuple[Entry, forms.BoundField]]:
        return [(entry, self[chips_name(entry)]) for entry in self.entries]

    def chips(self) -> list[int]:
        """The counts in the players' order (valid forms only)."""
        return [self.cleaned_data[chips_name(entry)] for entry in self.entries]

    def counted(self) -> int | None:
        """The chips typed so far, for the total shown against the chips in play; None
        while a count is not a number a stack can hold."""
        counts = [_chip_count(self[chips_name(entry)].value()) for entry in self.entries]
        return None if None in counts else sum(counts)


def _chip_count(value) -> int | None:
    try:
        count = int(value)
    except (TypeError, ValueError):
        return None
    return count if 0 <= count <= MAX_CHIPS else None


class DealRecordForm(DealChipsForm):
    """The deal the players agreed to: the director's record, amounts in major units.
    Agreed amounts may leave any sum to play for; a save deal no more than its rule."""

    save_limited = False

    method = forms.ChoiceField(label=_("Method"), choices=DealMethod.choices)
    continue_play = forms.BooleanField(
        label=_("Play continues for the amount left"),
        required=False,
        help_text=_("Unticked, the deal ends the tournament."),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("chips_widget", forms.HiddenInput)
        kwargs.setdefault("auto_id", "record_%s")
        super().__init__(*args, **kwargs)
        save = self.fields.pop("save")
        save.label = _("Left to play for")
        save.help_text = _("What the winner gets on top, when play continues.")
        self.fields["save"] = save
        for entry in self.entries:
            self.fields[amount_name(entry)] = money_field(
                _("Amount for entry #%(number)s") % {"number": entry.number}, required=True
            )
        # Method, then what is left and whether play goes on, after the amounts.
        for name in ("method", "save", "continue_play"):
            self.fields[name] = self.fields.pop(name)

    def clean(self):
        data = super().clean()
        for entry in self.entries:
            name = amount_name(entry)
            value = data.get(name)
            if value is None:
                continue
            try:
                data[name] = money_cents(value, self.currency)
            except forms.ValidationError as error:
                self.add_error(name, error)
        if data.get("method") == DealMethod.SAVE and "save" not in self.errors:
            if not data.get("save"):
                self.add_error("save", _("Give the amount left for the winner."))
            else:
                try:
                    self.save_check(data["save"])
                except forms.ValidationError as error:
                    self.add_error("save", error)
        return data

    def amount_fields(self) -> list[tuple[Entry, forms.BoundField, forms.BoundField, int | None]]:
        """Per player: the entry, its (hidden) chips, its amount, and the chips to show."""
        rows = []
        for entry in self.entries:
            chips = self[chips_name(entry)]
            # Garbage posted shows as nothing: the field's error says what is wrong.
            shown = _chip_count(chips.value())
            rows.append((entry, chips, self[amount_name(entry)], shown))
        return rows

    def players(self) -> list[dict]:
        return [
            {
                "entry": entry.pk,
                "chips": self.cleaned_data[chips_name(entry)],
                "amount": self.cleaned_data[amount_name(entry)],
            }
            for entry in self.entries
        ]
