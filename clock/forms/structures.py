"""Forms of the chip set and blind structure pages.

They check the shape of the input (whole numbers, lengths, one row per chip); the rules
of a structure are `clock.transfer.steps_check`'s, whose messages are put back on the
rows and fields they concern. Chip amounts may be typed with thousands separators
("25,000", "25.000", "25 000").
"""

import re
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from clock import engine
from clock.engine import generator
from clock.models import AnteType, ChipSet, StepKind, Structure
from clock.transfer import (
    MAX_AMOUNT,
    MAX_GAME,
    MAX_LABEL,
    MAX_MINUTES,
    MAX_STEPS,
    MAX_TEXT_BYTES,
    StructureError,
    name_check,
)
from tournaments.forms import PageForm
from tournaments.models import Game

MAX_CHIPS_IN_SET = 20
# "25000", or groups of three digits after a separator: "25,000", "25.000", "25 000".
_AMOUNT = re.compile(r"[0-9]{1,3}(?:[ ,.'’\u00a0\u202f][0-9]{3})+|[0-9]+")
_SEPARATORS = re.compile(r"[ ,.'’\u00a0\u202f]")
_COLOR_UP_TOKENS = re.compile(r"[\s,;+/]+")

# The games a level of a mixed event may name (the tournament's own game when blank).
LEVEL_GAMES = [(code, label) for code, label in Game.choices if code != Game.MIXED]


def _number_input() -> forms.TextInput:
    return forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"})


class ChipAmountField(forms.IntegerField):
    """A whole number of chips, as people type them: "25000", "25,000" or "25.000"."""

    def __init__(self, *, min_value: int = 0, max_value: int = MAX_AMOUNT, **kwargs):
        kwargs.setdefault("widget", _number_input())
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            text = value.strip()
            if _AMOUNT.fullmatch(text):
                value = _SEPARATORS.sub("", text)
        return super().to_python(value)


def minutes_field(label, *, required: bool = True, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=1,
        max_value=MAX_MINUTES,
        widget=_number_input(),
        **kwargs,
    )


# --- Chip sets -------------------------------------------------------------------------

# Suggested colour names (casinos name chips freely; these are only offered).
CHIP_COLOURS = (
    _("white"),
    _("red"),
    _("green"),
    _("black"),
    _("purple"),
    _("yellow"),
    _("orange"),
    _("grey"),
    _("blue"),
    _("pink"),
    _("brown"),
)


class ChipSetForm(PageForm):
    name = forms.CharField(label=_("Name"), max_length=120)

    def __init__(self, *args, chip_set_id: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.chip_set_id = chip_set_id

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        taken = ChipSet.objects.filter(name=name).exclude(pk=self.chip_set_id).exists()
        if taken:
            raise forms.ValidationError(_("A chip set with this name exists already."))
        return name


class ChipRowForm(forms.Form):
    """One denomination; a row left blank is no chip."""

    value = ChipAmountField(label=_("Value"), required=False, min_value=1)
    color = forms.CharField(
        label=_("Colour"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"list": "chip-colours", "autocomplete": "off"}),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        value, color = data.get("value"), data.get("color", "")
        if value is None and color and "value" not in self.errors:
            self.add_error("value", _("Give the value of this chip."))
        if value is not None and not color and "color" not in self.errors:
            self.add_error("color", _("Name the colour of this chip, e.g. green."))
        return data

    @property
    def is_blank(self) -> bool:
        return not self.errors and self.cleaned_data.get("value") is None


class BaseChipFormSet(forms.BaseFormSet):
    def clean(self):
        if any(self.errors):
            return
        seen: set[int] = set()
        for form in self.forms:
            if form.is_blank:
                continue
            value = form.cleaned_data["value"]
            if value in seen:
                form.add_error("value", _("Each value only once in a chip set."))
            seen.add(value)
        if not seen:
            raise forms.ValidationError(_("A chip set needs at least one chip."))

    def chips(self) -> list[tuple[int, str]]:
        """(value, colour) of every filled-in row, smallest first."""
        rows = [(f.cleaned_data.get("value"), f.cleaned_data.get("color")) for f in self.forms]
        return sorted(row for row in rows if row[0] is not None)

    def raw_rows(self) -> list[dict]:
        """What was typed, row by row: to show the rows again with more blank ones."""
        return [{"value": f["value"].value(), "color": f["color"].value()} for f in self.forms]


ChipFormSet = forms.formset_factory(
    ChipRowForm,
    formset=BaseChipFormSet,
    extra=0,
    max_num=MAX_CHIPS_IN_SET,
    validate_max=True,
    absolute_max=MAX_CHIPS_IN_SET + 10,
)


def chips_of(chip_set: ChipSet | None) -> dict[int, str]:
    """{value: colour} of a chip set, smallest first; {} without one."""
    if chip_set is None:
        return {}
    return dict(chip_set.chips.order_by("value").values_list("value", "color"))


# --- Blind structures ------------------------------------------------------------------


def chip_set_field(*, required: bool = False) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        label=_("Chip set"),
        queryset=ChipSet.objects.all(),
        required=required,
        empty_label=None if required else _("No chip set"),
        help_text=_("The denominations that breaks colour up (TDA 24)."),
    )


def template_field(*, initial: bool = False) -> forms.BooleanField:
    return forms.BooleanField(
        label=_("Template"),
        required=False,
        initial=initial,
        help_text=_("Templates are offered to every tournament, which gets its own copy."),
    )


class StructureNameMixin:
    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        try:
            name_check(name)
        except StructureError as error:
            raise forms.ValidationError(error.errors["name"]) from None
        return name


class StructureForm(StructureNameMixin, PageForm):
    """Name, template flag and chip set of a structure; its steps are the rows below."""

    name = forms.CharField(label=_("Name"), max_length=120)
    is_template = template_field()
    chip_set = chip_set_field()


class StepForm(forms.Form):
    """One row of the structure table: a level or a break (the kind never changes)."""

    kind = forms.ChoiceField(choices=StepKind.choices, widget=forms.HiddenInput)
    minutes = minutes_field(_("Minutes"))
    small_blind = ChipAmountField(label=_("Small blind"), required=False)
    big_blind = ChipAmountField(label=_("Big blind"), required=False)
    ante = ChipAmountField(label=_("Ante"), required=False)
    # RP-11 recommends the big blind ante (the table's header and hint say so).
    ante_type = forms.ChoiceField(label=_("Ante type"), choices=AnteType.choices, required=False)
    small_bet = ChipAmountField(label=_("Small bet"), required=False)
    big_bet = ChipAmountField(label=_("Big bet"), required=False)
    # Stud (RP-10 E, TDA 30); empty: the bring-in is the small blind column.
    bring_in = ChipAmountField(label=_("Bring-in"), required=False)
    game = forms.CharField(
        label=_("Game"),
        max_length=MAX_GAME,
        required=False,
        widget=forms.TextInput(attrs={"list": "level-games", "autocomplete": "off"}),
    )
    label = forms.CharField(label=_("Label"), max_length=MAX_LABEL, required=False)
    color_up = forms.CharField(
        label=_("Colour-up"),
        max_length=200,
        required=False,
        # TDA 24: the chips raced off at this break (explained below the table).
        widget=forms.TextInput(attrs={"placeholder": _("e.g. 25 100"), "autocomplete": "off"}),
    )
    addon = forms.BooleanField(label=_("Add-on"), required=False)

    LEVEL_FIELDS = ("minutes", "small_blind", "big_blind", "ante", "ante_type")
    LIMIT_FIELDS = ("small_bet", "big_bet", "bring_in", "game")
    BREAK_FIELDS = ("minutes", "label", "color_up", "addon")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    @property
    def is_break(self) -> bool:
        return self["kind"].value() == engine.BREAK

    def step(self, color_up: tuple[int, ...]) -> engine.Step:
        data = self.cleaned_data
        return engine.Step(
            kind=data["kind"],
            minutes=data["minutes"],
            small_blind=data["small_blind"] or 0,
            big_blind=data["big_blind"] or 0,
            ante=data["ante"] or 0,
            ante_type=data["ante_type"] or engine.ANTE_NONE,
            small_bet=data["small_bet"] or 0,
            big_bet=data["big_bet"] or 0,
            bring_in=data["bring_in"] or 0,
            game=data["game"],
            label=data["label"],
            color_up=color_up,
            addon=data["addon"],
        )


StepFormSet = forms.formset_factory(
    StepForm, extra=0, max_num=MAX_STEPS, validate_max=True, absolute_max=MAX_STEPS + 10
)


def step_initial(step: engine.Step) -> dict:
    """A stored step as the values of a row."""
    return {
        "kind": step.kind,
        "minutes": step.minutes,
        "small_blind": step.small_blind or "",
        "big_blind": step.big_blind or "",
        "ante": step.ante or "",
        "ante_type": step.ante_type,
        "small_bet": step.small_bet or "",
        "big_bet": step.big_bet or "",
        "bring_in": step.bring_in or "",
        "game": step.game,
        "label": step.label,
        "color_up": " ".join(str(chip) for chip in step.color_up),
        "addon": step.addon,
    }


def color_up_parse(text: str, chips: dict[int, str]) -> tuple[int, ...]:
    """The denominations of a colour-up as typed: "25 100", "25, 100" or "green black".

    With a chip set, every denomination must be one of its chips.
    """
    by_color = {color.casefold(): value for value, color in chips.items()}
    values = []
    for token in _COLOR_UP_TOKENS.split(text.strip()):
        if not token:
            continue
        if _AMOUNT.fullmatch(token):
            value = int(_SEPARATORS.sub("", token))
        elif token.casefold() in by_color:
            value = by_color[token.casefold()]
        else:
            raise forms.ValidationError(
                _("“%(chip)s” is no chip: give its value or its colour.") % {"chip": token[:40]}
            )
        if chips and value not in chips:
            raise forms.ValidationError(_("The chip set has no %(value)s chip.") % {"value": value})
        values.append(value)
    return tuple(values)


# --- Copy and import -------------------------------------------------------------------


class CopyForm(StructureNameMixin, PageForm):
    name = forms.CharField(label=_("Name of the copy"), max_length=120)
    is_template = template_field(initial=True)


class ImportForm(StructureNameMixin, PageForm):
    """A JSON or CSV file, uploaded or pasted; nothing is saved while it has errors."""

    file = forms.FileField(
        label=_("File"),
        required=False,
        help_text=_("A .json or .csv file, at most 1 MB."),
    )
    text = forms.CharField(
        label=_("… or paste the text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        required=False,
        help_text=_("Required for CSV; for JSON, blank keeps the name in the file."),
    )
    is_template = template_field(initial=True)
    chip_set = chip_set_field()

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload and upload.size > MAX_TEXT_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return upload

    def clean_name(self) -> str:
        return super().clean_name() if self.cleaned_data["name"] else ""

    def clean(self):
        data = super().clean()
        upload, text = data.get("file"), data.get("text", "")
        if "file" in self.errors:
            return data
        if upload and text.strip():
            self.add_error("text", _("Upload a file or paste text, not both."))
        elif not upload and not text.strip():
            self.add_error("file", _("Upload a file or paste its text."))
        return data

    def content(self) -> tuple[str, bytes | str]:
        """("json" or "csv", the file's bytes or the pasted text)."""
        upload = self.cleaned_data.get("file")
        if upload:
            raw = upload.read(MAX_TEXT_BYTES + 1)
            name = (upload.name or "").lower()
            if name.endswith(".json"):
                return "json", raw
            if name.endswith(".csv"):
                return "csv", raw
            return _sniff(raw), raw
        text = self.cleaned_data["text"]
        return _sniff(text), text


def _sniff(content: bytes | str) -> str:
    """JSON when the first thing in it is "{" or "[", else CSV."""
    head = content[:64]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    return "json" if head.lstrip("\ufeff \t\r\n").startswith(("{", "[")) else "csv"


# --- Generator -------------------------------------------------------------------------


class GeneratorForm(StructureNameMixin, PageForm):
    """What the generator needs (clock.engine.generator.GeneratorInput) and where to save it."""

    chip_set = chip_set_field(required=True)
    starting_stack = ChipAmountField(label=_("Starting stack"), min_value=1)
    start_big_blind = ChipAmountField(
        label=_("First big blind"),
        required=False,
        min_value=1,
        help_text=_("Blank: about 1/100 of the starting stack."),
    )
    level_minutes = minutes_field(_("Level length (minutes)"))
    target_hours = forms.DecimalField(
        label=_("Target duration (hours)"),
        required=False,
        min_value=Decimal("0.25"),
        max_value=Decimal(1000),
        decimal_places=2,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        help_text=_("Breaks included, e.g. 6 or 5.5."),
    )
    levels = forms.IntegerField(
        label=_("… or number of levels"),
        required=False,
        min_value=1,
        max_value=generator.MAX_LEVELS,
        widget=_number_input(),
    )
    ante_from_level = forms.IntegerField(
        label=_("Antes from level"),
        required=False,
        min_value=1,
        max_value=generator.MAX_LEVELS,
        widget=_number_input(),
        help_text=_("Blank: no antes."),
    )
    ante_type = forms.ChoiceField(
        label=_("Ante"),
        choices=[
            (engine.ANTE_BIG_BLIND, _("Big blind ante, big blind first (RP-11)")),
            (engine.ANTE_TRADITIONAL, _("Ante from every player")),
        ],
        initial=engine.ANTE_BIG_BLIND,
    )
    break_every = forms.IntegerField(
        label=_("A break every … levels"),
        required=False,
        min_value=1,
        max_value=generator.MAX_LEVELS,
        widget=_number_input(),
        help_text=_("Blank: no breaks. Chips no longer needed are coloured up (TDA 24)."),
    )
    break_minutes = minutes_field(_("Break length (minutes)"), initial=15)
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    is_template = template_field(initial=True)

    def __init__(self, *args, saving: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.saving = saving
        self.steps: list[engine.Step] = []

    def clean_name(self) -> str:
        if not self.cleaned_data["name"]:
            if self.saving:
                raise forms.ValidationError(_("Name the structure to save it."))
            return ""
        return super().clean_name()

    def _minutes(self, levels: int) -> int:
        """How long `levels` levels last with their breaks (none after the last one)."""
        data = self.cleaned_data
        every = data["break_every"]
        breaks = (levels - 1) // every if every else 0
        return levels * data["level_minutes"] + breaks * data["break_minutes"]

    @staticmethod
    def _target(data) -> int | None:
        hours = data["target_hours"]
        return None if hours is None else int(hours * 60)

    def _problems(self, data, smallest: int):
        """(field, message) for the mistakes the generator would refuse, in words."""
        stack, start, target = data["starting_stack"], data["start_big_blind"], self._target(data)
        if stack % smallest:
            yield (
                "starting_stack",
                _("Must be a multiple of the smallest chip (%(chip)s).") % {"chip": smallest},
            )
        if start is not None and (start % smallest or start < 2 * smallest):
            yield (
                "start_big_blind",
                _("Must be a multiple of the smallest chip (%(chip)s), at least two of them.")
                % {"chip": smallest},
            )
        elif start is not None and stack < generator.MIN_DEPTH * start:
            yield (
                "start_big_blind",
                _("The starting stack must be at least %(depth)s big blinds.")
                % {"depth": generator.MIN_DEPTH},
            )
        elif start is None and stack < generator.MIN_DEPTH * 2 * smallest:
            # The first big blind is at least two of the smallest chip.
            yield (
                "starting_stack",
                _("At least %(chips)s with these chips, for %(depth)s big blinds.")
                % {"chips": generator.MIN_DEPTH * 2 * smallest, "depth": generator.MIN_DEPTH},
            )
        if target is not None and target < data["level_minutes"]:
            yield "target_hours", _("Shorter than one level.")
        elif target is not None and self._minutes(generator.MAX_LEVELS + 1) <= target:
            yield (
                "target_hours",
                _("That is more than %(levels)s levels: make the levels longer.")
                % {"levels": generator.MAX_LEVELS},
            )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if (data["target_hours"] is None) == (data["levels"] is None):
            self.add_error("levels", _("Give either the target duration or the number of levels."))
            return data
        chips = sorted(data["chip_set"].chips.values_list("value", flat=True))
        if not chips:
            self.add_error("chip_set", _("This chip set has no chips."))
            return data
        smallest = chips[0]
        for field, message in self._problems(data, smallest):
            self.add_error(field, message)
        if self.errors:
            return data
        try:
            spec = generator.GeneratorInput(
                starting_stack=data["starting_stack"],
                denominations=tuple(chips),
                level_minutes=data["level_minutes"],
                target_minutes=self._target(data),
                levels=data["levels"],
                ante_from_level=data["ante_from_level"],
                ante_type=data["ante_type"],
                break_every=data["break_every"],
                break_minutes=data["break_minutes"],
                start_big_blind=data["start_big_blind"],
            )
        except ValueError as error:
            # The generator's own wording; the usual mistakes are caught above.
            self.add_error(None, _("No structure fits these numbers: %(why)s") % {"why": error})
            return data
        self.steps = generator.generate(spec)
        return data


# --- A tournament's structure ----------------------------------------------------------


class StructureChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, structure: Structure) -> str:
        if structure.is_template:
            return _("%(name)s (template)") % {"name": structure.name}
        return str(structure.name)


class TournamentStructureForm(PageForm):
    structure = StructureChoiceField(
        label=_("Copy this structure into the tournament"),
        queryset=Structure.objects.none(),
        help_text=_("The tournament gets its own copy, which you can then edit."),
    )

    def __init__(self, *args, current_id: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["structure"].queryset = Structure.objects.exclude(pk=current_id)
