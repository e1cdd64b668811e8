"""Forms of the tournament pages. They check the shape of the input; the rules are the
services' business. Money is typed in major units ("100.00") and leaves as cents."""

import re
from decimal import Decimal, InvalidOperation

from babel.numbers import get_currency_precision, is_currency
from django import forms
from django.core.validators import RegexValidator
from django.utils import timezone
from django.utils.formats import localize_input, sanitize_separators
from django.utils.translation import gettext_lazy as _

from floorman.names import validate_visible_name
from tournaments import house
from tournaments.models import (
    MAX_CHIPS,
    MAX_MONEY,
    BountyFormat,
    EntryStatus,
    Game,
    MysteryStart,
    NonBettingItems,
    SatelliteRemainder,
    SurvivorKeeps,
    Tournament,
    TournamentStatus,
    Venue,
    birth_year_not_future,
    start_at_plausible,
)

MAX_ID = 2**63 - 1
MAX_LEVEL = 1000
COUNTRY = RegexValidator(r"^[A-Za-z]{2}$", _("Two letters, e.g. AT or DE."))

MONEY_FIELDS = (
    "buy_in",
    "fee",
    "rebuy_price",
    "rebuy_fee",
    "addon_price",
    "addon_fee",
    "guarantee",
    "bounty",
)
# A line of the mystery bounty list: "500 × 10" (amount in the currency's units, count).
MYSTERY_LINE = re.compile(
    r"^\s*(?P<amount>[0-9][0-9.,' \u00a0]*?)\s*[×xX*]\s*(?P<count>[0-9]+)\s*$"
)


def money_field(label, *, required: bool = False, help_text: str = "") -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        required=required,
        min_value=0,
        localize=True,
        help_text=help_text,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )


def money_cents(value: Decimal, currency: str) -> int:
    """What a money field holds, in major units, as cents; refusing what the currency
    cannot hold or the ledger store."""
    if value < 0:
        raise forms.ValidationError(_("An amount cannot be negative."), code="negative")
    if value > MAX_MONEY:  # before scaling: a huge exponent would overflow the context
        raise forms.ValidationError(_("This amount is too large."), code="too_large")
    cents = value.scaleb(get_currency_precision(currency))
    if cents != cents.to_integral_value():
        raise forms.ValidationError(
            _("Too many decimal places for this currency."), code="precision"
        )
    if cents > MAX_MONEY:
        raise forms.ValidationError(_("This amount is too large."), code="too_large")
    return int(cents)


def level_field(label, *, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=required, min_value=1, max_value=MAX_LEVEL)


def chips_field(label, *, required: bool = False, min_value: int = 0) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=required, min_value=min_value, max_value=MAX_CHIPS
    )


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format="%Y-%m-%dT%H:%M")


class PageForm(forms.Form):
    """Labels without a trailing colon: they sit above their fields."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class TournamentForm(PageForm):
    """A tournament's setup. Times are in the venue's time zone."""

    name = forms.CharField(label=_("Name"), max_length=120, validators=[validate_visible_name])
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, initial=Game.NLHE)
    currency = forms.CharField(
        label=_("Currency"),
        max_length=3,
        initial="EUR",
        help_text=_("ISO code, e.g. EUR."),
    )
    start_at = forms.DateTimeField(
        label=_("Start time"),
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        validators=[start_at_plausible],
    )
    buy_in = money_field(_("Buy-in (prize pool)"), required=True)
    fee = money_field(_("Fee"), help_text=_("Kept by the house; not prize money."))
    guarantee = money_field(_("Guarantee"))
    starting_stack = chips_field(_("Starting stack"), required=True, min_value=1)
    table_size = forms.IntegerField(
        label=_("Players per table"), min_value=2, max_value=10, initial=9
    )
    capacity = forms.IntegerField(
        label=_("Capacity"),
        required=False,
        min_value=1,
        max_value=1_000_000,
        help_text=_("Empty: no limit."),
    )
    current_level = level_field(_("Current level"), required=True)
    late_reg_until_level = level_field(_("Late registration until end of level"))
    reentry_allowed = forms.BooleanField(label=_("Re-entries allowed"), required=False)
    reentry_max = forms.IntegerField(
        label=_("Max re-entries per player"), required=False, min_value=1, max_value=1000
    )
    reentry_until_level = level_field(_("Re-entry until end of level"))
    rebuy_until_level = level_field(_("Rebuys until end of level"))
    rebuy_max = forms.IntegerField(
        label=_("Max rebuys per entry"), required=False, min_value=1, max_value=1000
    )
    rebuy_price = money_field(_("Rebuy price"), help_text=_("Goes into the prize pool."))
    rebuy_fee = money_field(_("Rebuy fee"), help_text=_("Kept by the house."))
    rebuy_chips = chips_field(_("Rebuy chips"))
    addon_at_break_after_level = level_field(_("Add-on at the break after level"))
    addon_price = money_field(_("Add-on price"), help_text=_("Goes into the prize pool."))
    addon_fee = money_field(_("Add-on fee"), help_text=_("Kept by the house."))
    addon_chips = chips_field(_("Add-on chips"))
    # Festivals (issue 17)
    format = forms.CharField(
        label=_("Format"),
        max_length=60,
        required=False,
        help_text=_("Shown on the schedule: freezeout, re-entry, turbo, …"),
    )
    flight_end_level = level_field(_("Flights stop after level"))
    flight_end_percent = forms.IntegerField(
        label=_("Flights stop when this share of entries is left (%)"),
        required=False,
        min_value=1,
        max_value=99,
    )
    flight_reentry = forms.BooleanField(
        label=_("A player may enter a later flight"), required=False, initial=True
    )
    survivor_keeps = forms.ChoiceField(
        label=_("A player surviving two flights keeps"),
        choices=SurvivorKeeps.choices,
        initial=SurvivorKeeps.LARGER,
        required=False,
    )
    day2_late_entry = forms.BooleanField(label=_("Late entry into Day 2"), required=False)
    day2_late_stack = forms.IntegerField(
        label=_("Day 2 late entry stack"),
        required=False,
        min_value=1,
        max_value=MAX_CHIPS,
        help_text=_("Empty: the starting stack."),
    )
    day2_spread_big_stacks = forms.BooleanField(
        label=_("Spread the big stacks over the Day 2 tables"), required=False
    )
    satellite_target_id = forms.ModelChoiceField(
        label=_("Satellite for"),
        queryset=Tournament.objects.none(),
        required=False,
        help_text=_("Empty: no satellite. Its prize pool then buys seats (tickets) in this event."),
    )
    satellite_remainder = forms.ChoiceField(
        label=_("A satellite's money left after the seats"),
        choices=SatelliteRemainder.choices,
        initial=SatelliteRemainder.NEXT_PLACE,
        required=False,
    )
    tickets_transferable = forms.BooleanField(
        label=_("Tickets may go to another player"), required=False
    )
    tickets_refundable = forms.BooleanField(
        label=_("Tickets may be refunded as cash"), required=False
    )
    # Bounties (issue 18): sold with each buy-in and re-entry, kept apart from the pool.
    bounty_format = forms.ChoiceField(
        label=_("Bounties"), choices=BountyFormat.choices, required=False
    )
    bounty = money_field(
        _("Bounty"),
        help_text=_(
            "Paid with each buy-in and re-entry on top of the buy-in and kept apart from the "
            "prize pool; rebuys and add-ons carry no bounty. For mystery bounties it funds "
            "the list of prizes."
        ),
    )
    bounty_cash_percent = forms.IntegerField(
        label=_("Progressive knockout: share paid in cash (%)"),
        required=False,
        min_value=0,
        max_value=100,
        initial=50,
        help_text=_("Progressive knockout only: the rest goes onto the eliminator's own bounty."),
    )
    mystery_start = forms.ChoiceField(
        label=_("Mystery bounties are drawn"),
        choices=MysteryStart.choices,
        initial=MysteryStart.MONEY,
        required=False,
    )
    mystery_prizes = forms.CharField(
        label=_("Mystery bounty prizes"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One line per prize: amount × count, e.g. 500 × 10."),
    )
    non_betting_items = forms.ChoiceField(
        label=_("A bet with a bounty chip or token counts as (RP-22)"),
        choices=NonBettingItems.choices,
        initial=NonBettingItems.FLOOR,
        required=False,
    )
    chip_counts_public = forms.BooleanField(
        label=_("Publish chip counts"), required=False, initial=True
    )

    def __init__(self, *args, money_locked: bool = False, editing: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        # A satellite's target: an event still to be played that is no satellite itself.
        self.fields["satellite_target_id"].queryset = (
            Tournament.objects.filter(satellite_target__isnull=True)
            .exclude(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
            .order_by("start_at", "id")
        )
        if not editing:
            del self.fields["current_level"]
        if money_locked:
            # Money has been taken: buy-in, fee and currency stay as they are.
            # So do the bounty format and the bounty (issue 18).
            for name in ("buy_in", "fee", "currency", "bounty_format", "bounty"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed once money has been taken.")

    @classmethod
    def initial_from(cls, tournament) -> dict:
        """The form's initial values for an existing tournament (cents → major units)."""
        initial = {name: getattr(tournament, name) for name in cls.base_fields}
        precision = get_currency_precision(tournament.currency)
        for name in MONEY_FIELDS:
            initial[name] = Decimal(initial[name]).scaleb(-precision)
        initial["start_at"] = timezone.localtime(tournament.start_at)
        initial["mystery_prizes"] = mystery_prizes_text(
            tournament.mystery_prizes, tournament.currency
        )
        return initial

    def clean_currency(self) -> str:
        currency = self.cleaned_data["currency"].strip().upper()
        if not is_currency(currency):
            raise forms.ValidationError(_("Unknown currency code."))
        return currency

    def clean(self):
        data = super().clean()
        currency = data.get("currency")
        if currency:
            for name in MONEY_FIELDS:
                value = data.get(name)
                try:
                    data[name] = 0 if value is None else money_cents(value, currency)
                except forms.ValidationError as error:
                    self.add_error(name, error)
        for name in ("rebuy_chips", "addon_chips"):
            if data.get(name) is None and name not in self.errors:
                data[name] = 0
        # A form from before the festival settings keeps the house defaults.
        data["survivor_keeps"] = data.get("survivor_keeps") or SurvivorKeeps.LARGER
        target = data.get("satellite_target_id")
        data["satellite_target_id"] = target.pk if target is not None else None
        data["satellite_remainder"] = (
            data.get("satellite_remainder") or SatelliteRemainder.NEXT_PLACE
        )
        # Issue 18: a form from before the bounty settings keeps the house defaults.
        if data.get("bounty_cash_percent") is None and "bounty_cash_percent" not in self.errors:
            data["bounty_cash_percent"] = 50
        data["mystery_start"] = data.get("mystery_start") or MysteryStart.MONEY
        data["non_betting_items"] = data.get("non_betting_items") or NonBettingItems.FLOOR
        if currency and "mystery_prizes" not in self.errors:
            try:
                data["mystery_prizes"] = mystery_prizes_parse(
                    data.get("mystery_prizes") or "", currency
                )
            except forms.ValidationError as error:
                self.add_error("mystery_prizes", error)
        return data


def mystery_prizes_parse(text: str, currency: str) -> list[dict]:
    """The mystery bounty list as typed, one "amount × count" a line, as the model keeps
    it: [{"amount": cents, "count": n}]. Blank lines are skipped."""
    prizes = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        found = MYSTERY_LINE.match(line)
        amount = None
        if found:
            try:
                typed = re.sub(r"[ \u00a0']", "", found["amount"])
                amount = Decimal(sanitize_separators(typed))
            except InvalidOperation:
                amount = None
        if amount is None:
            raise forms.ValidationError(
                _("Line %(line)s: write amount × count, e.g. 500 × 10.") % {"line": number},
                code="format",
            )
        cents = money_cents(amount, currency)
        count = int(found["count"])
        if cents <= 0:
            raise forms.ValidationError(
                _("Line %(line)s: a prize needs an amount above zero.") % {"line": number},
                code="amount",
            )
        if count > 100_000:
            raise forms.ValidationError(
                _("Line %(line)s: too many prizes of one amount.") % {"line": number},
                code="count",
            )
        prizes.append({"amount": cents, "count": count})
    return prizes


def mystery_prizes_text(prizes: list[dict], currency: str) -> str:
    """The mystery bounty list as the form shows it: "500 × 10" a line."""
    precision = get_currency_precision(currency)
    lines = []
    for prize in prizes or []:
        amount = Decimal(int(prize["amount"])).scaleb(-precision)
        if amount == amount.to_integral_value():
            amount = amount.quantize(Decimal(1))
        lines.append(f"{localize_input(amount)} × {int(prize['count'])}")
    return "\n".join(lines)


class PlayerFieldsMixin:
    def clean_country(self) -> str:
        return self.cleaned_data["country"].upper()


class DeskForm(PlayerFieldsMixin, PageForm):
    """The registration desk: a player picked from the matches, or a new one by name."""

    name = forms.CharField(
        label=_("Player"), max_length=120, required=False, validators=[validate_visible_name]
    )
    birth_year = forms.IntegerField(
        label=_("Birth year"),
        required=False,
        min_value=1900,
        max_value=2100,
        validators=[birth_year_not_future],
    )
    email = forms.EmailField(label=_("Email"), required=False)
    country = forms.CharField(
        label=_("Country"), max_length=2, required=False, validators=[COUNTRY]
    )
    nickname = forms.CharField(
        label=_("Nickname"), max_length=60, required=False, validators=[validate_visible_name]
    )
    player_id = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    reentry = forms.BooleanField(required=False)
    # Entering with a ticket won in a satellite (issue 17): the ticket names its holder.
    ticket_id = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    PLAYER_FIELDS = ("name", "birth_year", "email", "country", "nickname")

    def clean(self):
        data = super().clean()
        named = data.get("player_id") is not None or data.get("ticket_id") is not None
        if not named and not (data.get("name") or "").strip():
            if not self.errors:
                self.add_error("name", _("Type the player's name, or pick a player."))
        return data

    def player_data(self) -> dict:
        data = {name: self.cleaned_data.get(name) for name in self.PLAYER_FIELDS}
        return {name: value for name, value in data.items() if value not in (None, "")}


class PlayerForm(PlayerFieldsMixin, PageForm):
    name = forms.CharField(label=_("Name"), max_length=120, validators=[validate_visible_name])
    nickname = forms.CharField(
        label=_("Nickname"), max_length=60, required=False, validators=[validate_visible_name]
    )
    country = forms.CharField(
        label=_("Country"), max_length=2, required=False, validators=[COUNTRY]
    )
    birth_year = forms.IntegerField(
        label=_("Birth year"),
        required=False,
        min_value=1900,
        max_value=2100,
        validators=[birth_year_not_future],
    )
    email = forms.EmailField(label=_("Email"), required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    # TDA 9: special needs are met where possible; the draw and late seats read this.
    accessible_seat = forms.BooleanField(
        label=_("Needs an accessible seat (TDA 9)"),
        required=False,
        help_text=_(
            "The draw and late seats give this player a wheelchair-accessible seat "
            "where a table has one."
        ),
    )


class EntryFilterForm(PageForm):
    q = forms.CharField(label=_("Search"), max_length=120, required=False)
    status = forms.ChoiceField(
        label=_("Status"),
        choices=[("", _("All"))] + list(EntryStatus.choices),
        required=False,
    )
    # The floor walks the room table by table: the list in that order (issue 16).
    sort = forms.ChoiceField(
        label=_("Order"),
        choices=[("", _("Entry number")), ("seat", _("Table and seat"))],
        required=False,
    )


class HouseSettingsForm(PageForm):
    """Every house setting (`tournaments.house`) as a choice of its readings, each named with
    the rule it follows. For an event, `inherited` (its venue's readings) adds a first choice
    that follows the venue."""

    def __init__(self, *args, inherited=None, **kwargs):
        super().__init__(*args, **kwargs)
        if inherited is not None:
            self.fields["venue"] = forms.ModelChoiceField(
                label=_("Venue"),
                queryset=Venue.objects.all(),
                required=False,
                empty_label=_("The default venue"),
                help_text=_("The event follows its venue's house settings unless it chooses."),
            )
        for setting in house.SETTINGS:
            choices = [(r.value, f"{r.label} ({r.rule})") for r in setting.readings]
            if inherited is not None:
                venue_reading = setting.reading(getattr(inherited, setting.key))
                follow = _("As the venue: %(reading)s") % {"reading": venue_reading.label}
                choices.insert(0, ("", follow))
            self.fields[setting.key] = forms.ChoiceField(
                label=setting.label,
                choices=choices,
                required=inherited is None,
                initial="" if inherited is not None else setting.default,
            )

    def changes(self) -> dict[str, str | None]:
        """The choice of every setting; for an event, None where it follows its venue."""
        return {key: self.cleaned_data[key] or None for key in house.KEYS}
