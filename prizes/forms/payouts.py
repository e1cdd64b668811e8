"""Forms of the payouts page. They check the shape of the input; the rules between the
settings and the table's sum are the services' business (prizes.services).

Money is typed in major units ("1.00") and leaves as cents; a house table's shares are
typed as percentages per place ("50, 30, 20") and leave as basis points (1/100 %)."""

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.formats import get_format
from django.utils.translation import gettext_lazy as _

from payouts.models import PayoutTemplate, PlacesMode
from tournaments.forms import PageForm, money_cents, money_field
from tournaments.templatetags.floorman_format import minor_to_major

MAX_PLACES = 10_000  # more places than any field pays; a form this long is already absurd
MAX_UNIT = 2**31 - 1  # the rounding unit's column is a 32-bit integer on PostgreSQL
BASIS_POINTS = 10_000  # 100 %
LINE_PREFIX = "place_"
EXTRA_LINES = 2  # blank rows under the table: pay more places than the generator did


def percent_field(label, *, required: bool, help_text="") -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        required=required,
        max_digits=5,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=Decimal(100),
        localize=True,
        help_text=help_text,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )


def shares_parse(text: str) -> list[int]:
    """ "50, 30, 20" → [5000, 3000, 2000] basis points, best place first.

    Places are separated by semicolons, line breaks, spaces or a comma followed by a
    space; a comma between digits is a decimal comma where the language writes one
    ("12,5" in German), else a separator too. A "%" after a figure is allowed."""
    decimal_comma = get_format("DECIMAL_SEPARATOR") == ","
    tokens = [t for t in re.split(r"[;\s]+|,(?=\s)", text.replace("%", " ")) if t]
    figures = []
    for token in tokens:
        if decimal_comma:
            figures.append(token.replace(",", "."))
        else:
            figures.extend(part for part in token.split(",") if part)
    if len(figures) > MAX_PLACES:
        raise forms.ValidationError(_("At most %(max)s places can be paid.") % {"max": MAX_PLACES})
    shares = []
    for place, figure in enumerate(figures, start=1):
        try:
            value = Decimal(figure)
        except InvalidOperation:
            value = None
        if value is None or not value.is_finite():
            raise forms.ValidationError(
                _("Place %(place)s: “%(text)s” is not a percentage.")
                % {"place": place, "text": figure[:20]}
            )
        # The range first: a figure like 1e999999 must not reach the multiplication.
        in_range = 0 < value <= 100
        basis_points = value * 100 if in_range else value
        if not in_range or basis_points != basis_points.to_integral_value():
            raise forms.ValidationError(
                _(
                    "Place %(place)s: give a percentage above 0 and up to 100, "
                    "with at most two decimals."
                )
                % {"place": place}
            )
        shares.append(int(basis_points))
    return shares


def shares_text(shares: list[int] | None) -> str:
    """Basis points back to what the director types: [5000, 3000, 2000] → "50, 30, 20"."""
    if not shares:
        return ""
    figures = [f"{Decimal(share).scaleb(-2).normalize():f}" for share in shares]
    if get_format("DECIMAL_SEPARATOR") == ",":  # "50,5; 29,5; 20" in German
        return "; ".join(figure.replace(".", ",") for figure in figures)
    return ", ".join(figures)


class PayoutSettingsForm(PageForm):
    """How the payout table is made; every field is sent to the service at once."""

    places_mode = forms.ChoiceField(
        label=_("Places paid"),
        choices=PlacesMode.choices,
        widget=forms.RadioSelect,
        help_text=_("A share of the entries (rounded up), or a fixed number of places."),
    )
    places_percent = percent_field(
        _("Places paid (percent of the entries)"),
        required=True,
        help_text=_("E.g. 15: with 101 entries, 16 places are paid."),
    )
    places_fixed = forms.IntegerField(
        label=_("Places paid, fixed number"),
        required=False,
        min_value=1,
        max_value=MAX_PLACES,
        help_text=_("Used when the places paid are a fixed number; never more than entries."),
    )
    winner_share = percent_field(
        _("Winner’s share (percent of the pool)"),
        required=False,
        help_text=_("Empty: chosen by the number of places paid."),
    )
    min_cash_multiple = forms.DecimalField(
        label=_("Min-cash, times the buy-in"),
        max_digits=5,
        decimal_places=2,
        min_value=Decimal(0),
        max_value=Decimal(100),
        localize=True,
        help_text=_("The last paid place gets at least this many buy-ins (with the fee)."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    unit = money_field(
        _("Rounding unit"),
        required=True,
        help_text=_("Amounts are rounded down to this, e.g. 1.00 for whole units, 5.00."),
    )
    shares = forms.CharField(
        label=_("House table: % per place"),
        required=False,
        max_length=MAX_PLACES * 8,
        widget=forms.Textarea(attrs={"rows": 2, "autocomplete": "off", "spellcheck": "false"}),
        help_text=_(
            "Optional: each place's share of the pool, best first, e.g. “50, 30, 20”. "
            "They must add up to 100. Empty: the table is worked out from the settings above."
        ),
    )

    def __init__(self, *args, currency: str, disabled: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.currency = currency
        if disabled:
            for field in self.fields.values():
                field.disabled = True

    @classmethod
    def initial_from(cls, structure, currency: str) -> dict:
        return {
            "places_mode": structure.places_mode,
            "places_percent": structure.places_percent,
            "places_fixed": structure.places_fixed,
            "winner_share": structure.winner_share,
            "min_cash_multiple": structure.min_cash_multiple,
            "unit": minor_to_major(structure.unit, currency),
            "shares": shares_text(structure.shares),
        }

    def clean_unit(self) -> int:
        unit = money_cents(self.cleaned_data["unit"], self.currency)
        if unit < 1:
            raise forms.ValidationError(_("The rounding unit is at least one cent."))
        if unit > MAX_UNIT:
            raise forms.ValidationError(_("This amount is too large."))
        return unit

    def clean_shares(self) -> list[int] | None:
        shares = shares_parse(self.cleaned_data["shares"])
        if not shares:
            return None
        total = sum(shares)
        if total != BASIS_POINTS:
            raise forms.ValidationError(
                _("The shares add up to %(sum)s %%; they must add up to 100 %%.")
                % {"sum": f"{Decimal(total).scaleb(-2).normalize():f}"}
            )
        return shares

    def clean(self):
        data = super().clean()
        if data.get("places_mode") == PlacesMode.FIXED and not data.get("places_fixed"):
            if "places_fixed" not in self.errors:
                self.add_error("places_fixed", _("Give the number of places paid."))
        return data


class PayoutLinesForm(PageForm):
    """The table typed by hand: one amount per place, best first, in major units.

    A blank row pays nothing; blank or zero rows at the end are dropped, so the director
    pays fewer places by clearing the last ones and more by filling the blank rows. No
    more rows than `most` (one place per entry): a posted row beyond it is an error."""

    def __init__(
        self, *args, currency: str, places: int, most: int, disabled: bool = False, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.currency = currency
        self.most = min(most, MAX_PLACES)
        for place in range(1, min(places, self.most) + 1):
            field = money_field(_("Place %(place)s") % {"place": place})
            field.widget.attrs["data-line"] = ""
            field.disabled = disabled
            self.fields[f"{LINE_PREFIX}{place}"] = field

    @staticmethod
    def _place_of(key: str) -> int | None:
        number = key[len(LINE_PREFIX) :]
        if key.startswith(LINE_PREFIX) and number.isdigit() and len(number) <= 6:
            return int(number)
        return None

    @classmethod
    def places_posted(cls, data) -> int:
        """How many rows the page sent (it may be older than the table now in force)."""
        return max((cls._place_of(key) or 0 for key in data), default=0)

    @classmethod
    def initial_from(cls, amounts, currency: str) -> dict:
        return {
            f"{LINE_PREFIX}{place}": minor_to_major(amount, currency)
            for place, amount in enumerate(amounts, start=1)
        }

    def line_fields(self):
        return [self[name] for name in self.fields]

    def clean(self):
        data = super().clean()
        beyond = any(
            (self._place_of(key) or 0) > self.most and str(value).strip()
            for key, value in self.data.items()
        )
        if beyond:
            self.add_error(
                None,
                _("At most %(most)s places can be paid: one per entry.") % {"most": self.most},
            )
        lines = []
        for name in self.fields:
            if name in self.errors:
                continue
            try:
                value = data.get(name)
                lines.append(0 if value is None else money_cents(value, self.currency))
            except forms.ValidationError as error:
                self.add_error(name, error)
        while lines and lines[-1] == 0:
            lines.pop()
        if not self.errors and not lines:
            raise forms.ValidationError(_("Type the amount of at least one place."))
        data["lines"] = lines
        return data


class TemplateSaveForm(PageForm):
    name = forms.CharField(
        label=_("Template name"),
        max_length=80,
        help_text=_("A template of the same name is replaced."),
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].replace("\x00", "").strip()
        if not name:
            raise forms.ValidationError(_("Give the template a name."))
        return name


class TemplateApplyForm(PageForm):
    template = forms.TypedChoiceField(
        label=_("Saved template"),
        coerce=int,
        help_text=_("Its settings replace the settings above."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Choices, not a database lookup: any posted value outside them is a form error.
        self.fields["template"].choices = [("", "—")] + list(
            PayoutTemplate.objects.values_list("pk", "name")
        )


class LockForm(PageForm):
    action = forms.ChoiceField(
        choices=[("lock", _("Lock")), ("unlock", _("Unlock"))], widget=forms.HiddenInput
    )
