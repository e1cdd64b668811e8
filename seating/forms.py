"""Forms of the TD's seating pages. They check the shape of the input; the seating rules
are the services' business."""

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from seating.models import MAX_SEATS, MIN_SEATS, Seating

MAX_TABLE_NUMBER = 9999
MAX_TABLES_AT_ONCE = 100


class PageForm(forms.Form):
    """Labels without a trailing colon: they sit above their fields."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


def parse_seat_numbers(text: str, seats: int) -> list[int]:
    """ "1, 9" → [1, 9]; ValueError when a number is not a seat of the table."""
    numbers = set()
    for part in (text or "").replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or not 1 <= int(part) <= seats:
            raise ValueError(part)
        numbers.add(int(part))
    return sorted(numbers)


class TableAddForm(PageForm):
    """One table, or a run of them ("from 1 to 12"), all of one size."""

    first = forms.IntegerField(label=_("Table number"), min_value=1, max_value=MAX_TABLE_NUMBER)
    last = forms.IntegerField(
        label=_("to table number"),
        min_value=1,
        max_value=MAX_TABLE_NUMBER,
        required=False,
        help_text=_("Optional: add every table from the first number to this one."),
    )
    seats = forms.IntegerField(
        label=_("Seats"),
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        required=False,
        help_text=_("Empty: the venue table's seats, else the event's players per table."),
    )
    accessible = forms.CharField(
        label=_("Accessible seats"),
        max_length=40,
        required=False,
        help_text=_("Seat numbers a wheelchair can reach, e.g. “1,9” (TDA 9)."),
    )

    def __init__(self, *args, table_size: int = 9, **kwargs):
        super().__init__(*args, **kwargs)
        self.table_size = table_size
        self.fields["seats"].widget.attrs["placeholder"] = str(table_size)

    def clean(self):
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first is not None and last is not None:
            if last < first:
                self.add_error("last", _("The last number must not be below the first."))
            elif last - first + 1 > MAX_TABLES_AT_ONCE:
                self.add_error(
                    "last",
                    _("At most %(count)s tables at once.") % {"count": MAX_TABLES_AT_ONCE},
                )
        seats = data.get("seats") or self.table_size
        if "accessible" in data:
            try:
                parse_seat_numbers(data["accessible"], seats)
            except ValueError:
                self.add_error(
                    "accessible",
                    _("Seat numbers run from 1 to %(seats)s.") % {"seats": seats},
                )
        return data

    def numbers(self) -> list[int]:
        first = self.cleaned_data["first"]
        last = self.cleaned_data.get("last") or first
        return list(range(first, last + 1))


class SeatSetForm(forms.Form):
    """One switch of a seat: blocked, accessible (TDA 9), dealt in after the button (TDA 8-A)."""

    FIELDS = ("blocked", "accessible", "wait_for_button")

    field = forms.ChoiceField(choices=[(name, name) for name in FIELDS])
    value = forms.BooleanField(required=False)


class HaltWaiveForm(forms.Form):
    waived = forms.BooleanField(required=False)


class BreakOrderForm(PageForm):
    """One position per table: 1 breaks first (TDA 11-C, casino §8)."""

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.table_numbers = [t.number for t in tables]
        count = len(self.table_numbers)
        for table in tables:
            self.fields[f"t{table.number}"] = forms.IntegerField(
                label=_("Table %(number)s") % {"number": table.number},
                min_value=1,
                max_value=count,
                initial=table.break_order,
            )

    def clean(self):
        data = super().clean()
        positions = [data.get(f"t{n}") for n in self.table_numbers]
        if None not in positions and len(set(positions)) != len(positions):
            raise forms.ValidationError(_("Give every table its own position."))
        return data

    def order(self) -> list[int]:
        """Table numbers from the first to break to the last."""
        return sorted(self.table_numbers, key=lambda n: self.cleaned_data[f"t{n}"])


class DrawForm(PageForm):
    tables = forms.IntegerField(
        label=_("Tables to use"),
        min_value=1,
        max_value=500,
        required=False,
        help_text=_("Empty: the fewest tables that seat the field (TDA 7). More spreads it out."),
    )
    keep_free = forms.IntegerField(
        label=_("Seats to keep free for late arrivals"),
        min_value=0,
        max_value=5000,
        initial=0,
        required=False,
        help_text=_("Casino §8a: in an event that is not sold out, hold seats for latecomers."),
    )


class MoveForm(PageForm):
    """TDA 7: a player found in a wrong seat, or any manual move, with the stack."""

    entry = forms.TypedChoiceField(label=_("Player"), coerce=int)
    target = forms.ChoiceField(label=_("To seat"))
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        required=False,
        help_text=_("Empty: “TDA 7”, a player moved to the correct seat."),
    )

    def __init__(self, *args, entries, open_seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—")] + entries
        self.fields["target"].choices = [("", "—")] + open_seats

    def clean_target(self) -> tuple[int, int]:
        table, _sep, seat = self.cleaned_data["target"].partition("-")
        return int(table), int(seat)

    def clean_reason(self) -> str:
        return self.cleaned_data["reason"].replace("\x00", "").strip()


class BalanceForm(PageForm):
    """TDA 11-A: which seat is big blind next at each table the plan touches whose tablet
    has logged neither a button nor a hand. Each field starts at the plan's guess
    (`guesses`), marked as a guess, for the floor to check at the table."""

    def __init__(
        self,
        *args,
        tables: dict[int, list[tuple[int, str]]],
        guesses: dict[int, int] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.table_numbers = list(tables)
        guesses = guesses or {}
        for number, seats in tables.items():
            field = forms.TypedChoiceField(
                label=_("Table %(number)s: big blind next at seat") % {"number": number},
                choices=[("", "—")] + [(str(s), label) for s, label in seats],
                coerce=int,
            )
            guess = guesses.get(number)
            if guess in {s for s, _label in seats}:
                field.initial = guess
                field.help_text = _(
                    "A guess: this table's tablet has logged no button and no hand. Check "
                    "the seat at the table."
                )
                field.widget.attrs["data-guess"] = str(guess)
            self.fields[f"bb_{number}"] = field

    def big_blind_next(self) -> dict[int, int]:
        return {n: self.cleaned_data[f"bb_{n}"] for n in self.table_numbers}


class FinalTableForm(PageForm):
    """RP-9: the table the final table plays at; casino §30: who would have had the big
    blind, the button and the small blind next at the last tables."""

    POSITIONS = ("big_blind", "button", "small_blind")

    table = forms.TypedChoiceField(label=_("Final table"), coerce=int)
    big_blind = forms.TypedMultipleChoiceField(
        label=_("Big blind next"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("They draw from seat cards 2 and 3."),
    )
    button = forms.TypedMultipleChoiceField(
        label=_("Button next"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("They draw from the two highest seat cards."),
    )
    small_blind = forms.TypedMultipleChoiceField(
        label=_("Small blind next"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("They draw from seat cards 1 and 7."),
    )

    def __init__(self, *args, tables, players, by_position: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_position = by_position
        self.fields["table"].choices = tables
        if tables:
            self.fields["table"].initial = tables[0][0]
        self.most = max(len(tables), 1)  # one of each position per table in play
        for name in self.POSITIONS:
            if by_position:
                self.fields[name].choices = players
            else:
                del self.fields[name]

    def clean(self):
        data = super().clean()
        if not self.by_position:
            return data
        seen: set[int] = set()
        for name in self.POSITIONS:
            chosen = data.get(name) or []
            if len(chosen) > self.most:
                self.add_error(
                    name,
                    _("At most %(count)s: one from each table.") % {"count": self.most},
                )
            if seen.intersection(chosen):
                self.add_error(name, _("A player can hold only one position."))
            seen.update(chosen)
        return data

    def positions(self) -> dict[str, list[int]] | None:
        if not self.by_position:
            return None
        return {name: list(self.cleaned_data.get(name) or []) for name in self.POSITIONS}


class SeatingSettingsForm(forms.ModelForm):
    balance_threshold = forms.IntegerField(
        label=capfirst(Seating._meta.get_field("balance_threshold").verbose_name),
        help_text=Seating._meta.get_field("balance_threshold").help_text,
        min_value=1,
        max_value=5,
    )
    break_headroom = forms.IntegerField(
        label=capfirst(Seating._meta.get_field("break_headroom").verbose_name),
        help_text=Seating._meta.get_field("break_headroom").help_text,
        min_value=0,
        max_value=50,
    )
    final_table_size = forms.IntegerField(
        label=capfirst(Seating._meta.get_field("final_table_size").verbose_name),
        help_text=Seating._meta.get_field("final_table_size").help_text,
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        required=False,
    )

    class Meta:
        model = Seating
        fields = [
            "balance_threshold",
            "source_rule",
            "break_headroom",
            "final_table_size",
            "final_draw",
            "stud_positions",
            "draw_starts",
        ]
        widgets = {
            "source_rule": forms.RadioSelect,
            "final_draw": forms.RadioSelect,
        }

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class UndoForm(forms.Form):
    """The seating action the TD was shown and confirmed: only that one is undone."""

    action = forms.IntegerField(min_value=1, max_value=2**63 - 1)
