"""The director's pages for chip sets and blind structures.

Lists, the editable table of steps, copy, delete, JSON and CSV export and import, the
generator, and a tournament's own structure. Thin: forms check the input,
`clock.transfer.steps_check` the rules of a structure, and one service, called through
`floorman.pages.service_call`, writes. htmx only enhances: every form also works as a
plain POST (the row buttons of the editor re-render the table without saving).
"""

import re
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import FieldDoesNotExist
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.db.models import Count, Prefetch, Q, Sum
from django.forms import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from clock import engine, services
from clock.forms.structures import (
    CHIP_COLOURS,
    LEVEL_GAMES,
    ChipFormSet,
    ChipSetForm,
    CopyForm,
    GeneratorForm,
    ImportForm,
    StepFormSet,
    StructureForm,
    TournamentStructureForm,
    chips_of,
    color_up_parse,
    step_initial,
)
from clock.models import AnteType, ChipSet, Clock, Structure, StructureStep
from clock.selectors import clock_of, structure_steps
from clock.transfer import (
    MAX_STEPS,
    StructureError,
    steps_check,
    structure_from_csv,
    structure_from_json,
    structure_to_csv,
    structure_to_json,
)
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from tournaments.models import Game, Tournament
from tournaments.templatetags.floorman_format import chips as chips_text

PER_PAGE = 50
BLANK_CHIP_ROWS = 4
NEW_STRUCTURE = [engine.Step(engine.LEVEL, 20, 100, 200)]
# The editor's row buttons: "up-3", "down-3", "delete-3", "level-3" / "break-3" (insert
# after row 3); "add-level" and "add-break" append.
ROW_OP = re.compile(r"(up|down|delete|level|break)-([0-9]{1,3})")
STEP_AT = re.compile(r"steps\[([0-9]+)\](?:\.(\w+))?")
ROW_AT = re.compile(r"row ([0-9]+)(?:: (\w+))?")
ANTE_LABELS = dict(AnteType.choices)


def _structure(structure_id: int) -> Structure:
    return get_object_or_404(Structure.objects.select_related("chip_set"), pk=structure_id)


def _done(request, url: str):
    """After a successful POST: a plain redirect, or a full page load for htmx."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


# --- Showing steps ----------------------------------------------------------------------


@dataclass(frozen=True)
class StepView:
    position: int
    number: int | None  # the level's number; None for a break
    step: engine.Step
    color_up: list[str]  # "25 (green)"
    game: str
    locked: bool = False


def _chip_label(value: int, chips: dict[int, str]) -> str:
    if value in chips:
        return _("%(value)s (%(color)s)") % {"value": chips_text(value), "color": chips[value]}
    return chips_text(value)


def _game_label(code: str) -> str:
    return str(Game(code).label) if code in Game.values else code


def step_views(steps: list[engine.Step], chips: dict[int, str], locked: int = 0):
    views, number = [], 0
    for position, step in enumerate(steps, start=1):
        if not step.is_break:
            number += 1
        views.append(
            StepView(
                position=position,
                number=None if step.is_break else number,
                step=step,
                color_up=[_chip_label(value, chips) for value in step.color_up],
                game=_game_label(step.game),
                locked=position <= locked,
            )
        )
    return views


def duration(minutes: int | None) -> str:
    hours, rest = divmod(minutes or 0, 60)
    return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": f"{rest:02d}"}


def _location(where: str) -> str:
    """A StructureError location in words: "steps[3].big_blind" → "Step 4, big blind"."""
    fixed = {"file": _("File"), "header": _("Header row"), "name": _("Name"), "steps": _("Steps")}
    if where in fixed:
        return fixed[where]
    for pattern, whole, part, offset in (
        (STEP_AT, _("Step %(number)s"), _("Step %(number)s, %(field)s"), 1),
        (ROW_AT, _("Row %(number)s"), _("Row %(number)s, %(field)s"), 0),
    ):
        if match := pattern.fullmatch(where):
            number = int(match[1]) + offset
            if match[2] is None:
                return whole % {"number": number}
            return part % {"number": number, "field": _field_label(match[2])}
    return where


def _field_label(name: str) -> str:
    try:
        return str(StructureStep._meta.get_field(name).verbose_name)
    except FieldDoesNotExist:
        return name


def _problems(errors: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    return [(_location(where), [str(m) for m in messages_]) for where, messages_ in errors.items()]


def _locked(structure: Structure | None, steps: list[engine.Step]) -> tuple[int, list[Clock]]:
    """How many steps are played or in play, as structure_update decides, and the clocks."""
    if structure is None:
        return 0, []
    clocks = list(Clock.objects.filter(structure=structure).select_related("tournament"))
    now = timezone.now()
    locked = 0
    for clock in clocks:
        if clock.status != engine.NOT_STARTED and steps:
            locked = max(locked, engine.read(clock.as_state(), steps, now).position)
    return locked, clocks


# --- Chip sets --------------------------------------------------------------------------


@role_required(MANAGE_TOURNAMENTS)
def chip_set_list(request):
    chip_sets = (
        ChipSet.objects.prefetch_related("chips")
        .annotate(structures=Count("structure"))
        .order_by("name", "id")
    )
    return render(request, "clock/structures/chipsets.html", {"chip_sets": chip_sets})


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def chip_set_create(request):
    return _chip_set_page(request, None)


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def chip_set_edit(request, chip_set_id: int):
    return _chip_set_page(request, get_object_or_404(ChipSet, pk=chip_set_id))


def _chip_set_page(request, chip_set: ChipSet | None):
    chip_set_id = chip_set.pk if chip_set else None
    if request.method == "GET":
        form = ChipSetForm(initial={"name": chip_set.name} if chip_set else None)
        rows = [{"value": v, "color": c} for v, c in chips_of(chip_set).items()]
        chips = ChipFormSet(prefix="chips", initial=rows + [{}] * BLANK_CHIP_ROWS)
        return _chip_set_render(request, chip_set, form, chips)
    form = ChipSetForm(request.POST, chip_set_id=chip_set_id)
    chips = ChipFormSet(request.POST, prefix="chips")
    if "more" in request.POST:
        # "More rows": the same rows again with blank ones below, nothing checked yet.
        rows = chips.raw_rows() + [{}] * BLANK_CHIP_ROWS
        form = ChipSetForm(initial={"name": request.POST.get("name", "")})
        chips = ChipFormSet(prefix="chips", initial=rows[: ChipFormSet.max_num])
        return _chip_set_render(request, chip_set, form, chips)
    if form.is_valid() & chips.is_valid():
        try:
            outcome = service_call(
                request,
                services.chip_set_save,
                form=form,
                chip_set_id=chip_set_id,
                name=form.cleaned_data["name"],
                chips=chips.chips(),
            )
        except IntegrityError:  # the same name saved by someone else just now
            form.add_error("name", _("A chip set with this name exists already."))
        else:
            if outcome.ok:
                messages.success(request, _("Chip set saved."))
                return redirect("structures:chipset-list")
    return _chip_set_render(request, chip_set, form, chips)


def _chip_set_render(request, chip_set, form, chips):
    return render(
        request,
        "clock/structures/chipset_form.html",
        {
            "chip_set": chip_set,
            "form": form,
            "chips": chips,
            "colours": CHIP_COLOURS,
            "here": "chipsets",
        },
    )


# --- Structure list ---------------------------------------------------------------------


@role_required(MANAGE_TOURNAMENTS)
def structure_list(request):
    """Templates first, then the tournaments' copies with the tournament using each."""
    structures = (
        Structure.objects.select_related("chip_set")
        .annotate(
            levels=Count("steps", filter=Q(steps__kind=engine.LEVEL)),
            breaks=Count("steps", filter=Q(steps__kind=engine.BREAK)),
            minutes=Sum("steps__minutes"),
        )
        .prefetch_related(Prefetch("clocks", queryset=Clock.objects.select_related("tournament")))
        .order_by("name", "id")
    )
    templates = list(structures.filter(is_template=True))
    copies = Paginator(structures.filter(is_template=False), PER_PAGE).get_page(
        request.GET.get("page")
    )
    for structure in [*templates, *copies]:
        structure.duration = duration(structure.minutes)
    return render(
        request,
        "clock/structures/list.html",
        {"templates": templates, "page": copies, "here": "structures"},
    )


# --- The editor -------------------------------------------------------------------------


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def structure_create(request):
    return _editor(request, None)


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def structure_detail(request, structure_id: int):
    return _editor(request, _structure(structure_id))


def _editor(request, structure: Structure | None):
    """The structure as an editable table; row buttons re-render it, Save stores it all.

    While a tournament's clock runs on the structure, the steps played or in play are
    shown read-only; structure_update refuses to change them (the clock may have moved
    on since the page was shown) and its message appears above the table.
    """
    steps = structure_steps(structure.pk) if structure else NEW_STRUCTURE
    locked, clocks = _locked(structure, steps)
    if request.method == "GET":
        initial = {"is_template": True}
        if structure:
            initial = {
                "name": structure.name,
                "is_template": structure.is_template,
                "chip_set": structure.chip_set_id,
            }
        meta = StructureForm(initial=initial)
        rows = StepFormSet(prefix="steps", initial=[step_initial(s) for s in steps])
        return _editor_render(request, structure, meta, rows, locked, clocks)

    op = request.POST.get("op", "save")
    if op != "save":
        meta = StructureForm(
            initial={
                "name": request.POST.get("name", ""),
                "is_template": bool(request.POST.get("is_template")),
                "chip_set": request.POST.get("chip_set", ""),
            }
        )
        posted = StepFormSet(request.POST, prefix="steps")
        raw = [{name: form[name].value() for name in form.fields} for form in posted.forms]
        rows = StepFormSet(prefix="steps", initial=rows_apply(raw, op, locked=locked))
        return _editor_render(request, structure, meta, rows, locked, clocks)

    meta = StructureForm(request.POST)
    rows = StepFormSet(request.POST, prefix="steps")
    new_steps = _steps_from(meta, rows)
    if new_steps is not None:
        values = {
            "name": meta.cleaned_data["name"],
            "steps": new_steps,
            "is_template": meta.cleaned_data["is_template"],
            "chip_set_id": meta.cleaned_data["chip_set"].pk
            if meta.cleaned_data["chip_set"]
            else None,
        }
        if structure:
            outcome = service_call(
                request, services.structure_update, form=meta, structure_id=structure.pk, **values
            )
        else:
            outcome = service_call(request, services.structure_create, form=meta, **values)
        if outcome.ok:
            messages.success(request, _("Structure saved."))
            return _done(request, reverse("structures:detail", args=[outcome.value.pk]))
    return _editor_render(request, structure, meta, rows, locked, clocks)


def rows_apply(rows: list[dict], op: str, *, locked: int) -> list[dict]:
    """The rows after one row button; rows up to `locked` stay where they are."""
    rows = list(rows)
    if op in ("add-level", "add-break"):
        return _row_insert(rows, len(rows), is_break=op == "add-break")
    match = ROW_OP.fullmatch(op)
    if not match:
        return rows
    action, index = match[1], int(match[2]) - 1
    if action in ("level", "break"):
        if locked - 1 <= index < len(rows):
            return _row_insert(rows, index + 1, is_break=action == "break")
        return rows
    if not locked <= index < len(rows):
        return rows
    if action == "delete":
        del rows[index]
    elif action == "up" and index - 1 >= locked:
        rows[index - 1], rows[index] = rows[index], rows[index - 1]
    elif action == "down" and index + 1 < len(rows):
        rows[index], rows[index + 1] = rows[index + 1], rows[index]
    return rows


def _row_insert(rows: list[dict], at: int, *, is_break: bool) -> list[dict]:
    """A new row at `at`: a copy of the level before it, or a break as long as the last."""
    if len(rows) >= MAX_STEPS:
        return rows
    kind = engine.BREAK if is_break else engine.LEVEL
    before = [row for row in rows[:at] if row.get("kind") == kind]
    if is_break:
        new = {"kind": kind, "minutes": before[-1].get("minutes") if before else 15}
    elif before:
        new = dict(before[-1])
    else:
        new = {"kind": kind, "minutes": 20, "ante_type": engine.ANTE_NONE}
    rows.insert(at, new)
    return rows


def _steps_from(meta: StructureForm, rows) -> list[engine.Step] | None:
    """The steps typed into the table, or None with every problem put on its row."""
    meta_ok, rows_ok = meta.is_valid(), rows.is_valid()
    chips = chips_of(meta.cleaned_data.get("chip_set")) if meta_ok else {}
    color_ups = []
    for form in rows.forms:
        try:
            color_ups.append(color_up_parse(form.cleaned_data.get("color_up", ""), chips))
        except ValidationError as error:
            form.add_error("color_up", error)
            color_ups.append(())
    if not rows_ok or any(form.errors for form in rows.forms):
        return None
    steps = [form.step(color_up) for form, color_up in zip(rows.forms, color_ups, strict=True)]
    try:
        steps_check(steps)
    except StructureError as error:
        _errors_onto_rows(error.errors, meta, rows.forms)
        return None
    return steps if meta_ok else None


def _errors_onto_rows(errors: dict[str, list[str]], meta, forms) -> None:
    for where, messages_ in errors.items():
        match = STEP_AT.fullmatch(where)
        if not match or int(match[1]) >= len(forms):
            meta.add_error(None, [str(m) for m in messages_])
            continue
        form, field = forms[int(match[1])], match[2]
        shown = form.BREAK_FIELDS if form.is_break else form.LEVEL_FIELDS + form.LIMIT_FIELDS
        if field in shown:
            form.add_error(field, [str(m) for m in messages_])
        elif field:
            label = _field_label(field)
            form.add_error(None, [f"{label}: {m}" for m in messages_])
        else:
            form.add_error(None, [str(m) for m in messages_])


@dataclass(frozen=True)
class RowView:
    form: object
    position: int
    number: int | None
    locked: bool
    first_open: bool  # the first row after the locked ones: it cannot move up
    ante_label: str  # shown on locked rows


def _row_views(rows, locked: int) -> list[RowView]:
    views, number = [], 0
    for position, form in enumerate(rows.forms, start=1):
        if not form.is_break:
            number += 1
        views.append(
            RowView(
                form=form,
                position=position,
                number=None if form.is_break else number,
                locked=position <= locked,
                first_open=position == locked + 1,
                ante_label=ANTE_LABELS.get(form["ante_type"].value() or "", ""),
            )
        )
    return views


def _chosen_chip_set(meta: StructureForm) -> ChipSet | None:
    value = meta["chip_set"].value()
    if isinstance(value, ChipSet):
        return value
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit() and len(value) < 19):
        return ChipSet.objects.filter(pk=int(value)).first()
    return None


def _editor_render(request, structure, meta, rows, locked: int, clocks: list[Clock]):
    chips = chips_of(_chosen_chip_set(meta))
    context = {
        "structure": structure,
        "meta": meta,
        "formset": rows,
        "rows": _row_views(rows, locked),
        "locked": locked,
        "clocks": clocks,
        "chips": list(chips.items()),
        "games": LEVEL_GAMES,
        "can_add": rows.total_form_count() < MAX_STEPS,
        "here": "structures",
    }
    template = "clock/structures/_editor.html" if request.htmx else "clock/structures/editor.html"
    return render(request, template, context)


# --- Copy, delete -------------------------------------------------------------------------


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def structure_copy(request, structure_id: int):
    """A new structure (by default a template) with the same steps as any structure."""
    source = _structure(structure_id)
    name = (_("%(name)s (copy)") % {"name": source.name})[:120]
    form = CopyForm(request.POST or None, initial={"name": name, "is_template": True})
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.structure_create,
            form=form,
            name=form.cleaned_data["name"],
            steps=structure_steps(source.pk),
            is_template=form.cleaned_data["is_template"],
            chip_set_id=source.chip_set_id,
        )
        if outcome.ok:
            messages.success(request, _("Copy saved. You can edit it now."))
            return redirect("structures:detail", outcome.value.pk)
    return render(
        request,
        "clock/structures/copy.html",
        {"source": source, "form": form, "here": "structures"},
    )


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def structure_delete(request, structure_id: int):
    structure = _structure(structure_id)
    error = ""
    if request.method == "POST":
        outcome = service_call(
            request, services.structure_delete, flash=False, structure_id=structure.pk
        )
        if outcome.ok:
            messages.success(request, _("Structure “%(name)s” deleted.") % {"name": structure})
            return redirect("structures:list")
        error = outcome.error.message
    clocks = Clock.objects.filter(structure=structure).select_related("tournament")
    return render(
        request,
        "clock/structures/delete.html",
        {
            "structure": structure,
            "tournaments": [clock.tournament for clock in clocks],
            "error": error,
            "here": "structures",
        },
    )


# --- Export and import ----------------------------------------------------------------------


def _download(content: bytes, content_type: str, structure: Structure, extension: str):
    stem = slugify(structure.name) or f"structure-{structure.pk}"
    filename = f"{stem}.{extension}"
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def _export_refused(request, structure: Structure, error: StructureError):
    problems = "; ".join(f"{where}: {' '.join(msgs)}" for where, msgs in _problems(error.errors))
    messages.error(
        request,
        _("This structure breaks the rules and cannot be exported: %(problems)s")
        % {"problems": problems},
    )
    return redirect("structures:detail", structure.pk)


@role_required(MANAGE_TOURNAMENTS)
@require_GET
def structure_export_json(request, structure_id: int):
    structure = _structure(structure_id)
    try:
        text = structure_to_json(structure.name, structure_steps(structure.pk))
    except StructureError as error:
        return _export_refused(request, structure, error)
    return _download(text.encode("utf-8"), "application/json; charset=utf-8", structure, "json")


@role_required(MANAGE_TOURNAMENTS)
@require_GET
def structure_export_csv(request, structure_id: int):
    """CSV with a BOM so that Excel reads umlauts; ?delimiter=semicolon for German Excel."""
    structure = _structure(structure_id)
    delimiter = ";" if request.GET.get("delimiter") == "semicolon" else ","
    try:
        text = structure_to_csv(structure_steps(structure.pk), delimiter=delimiter)
    except StructureError as error:
        return _export_refused(request, structure, error)
    return _download(text.encode("utf-8-sig"), "text/csv; charset=utf-8", structure, "csv")


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def structure_import(request):
    """A structure from a JSON or CSV file; every problem is listed, nothing is saved."""
    form = ImportForm(request.POST or None, request.FILES or None)
    problems: list[tuple[str, list[str]]] = []
    if request.method == "POST" and form.is_valid():
        kind, content = form.content()
        chip_set = form.cleaned_data["chip_set"]
        try:
            if kind == "json":
                name, steps = structure_from_json(content)
            else:
                name, steps = "", structure_from_csv(content)
            _chips_check(steps, chips_of(chip_set))
        except StructureError as error:
            problems = _problems(error.errors)
            form.add_error(None, _("Nothing was saved: the file has the problems listed below."))
        else:
            name = form.cleaned_data["name"] or name
            if not name:
                form.add_error("name", _("Name the structure: a CSV file has no name."))
            else:
                outcome = service_call(
                    request,
                    services.structure_create,
                    form=form,
                    name=name,
                    steps=steps,
                    is_template=form.cleaned_data["is_template"],
                    chip_set_id=chip_set.pk if chip_set else None,
                )
                if outcome.ok:
                    messages.success(
                        request,
                        _("Structure imported with %(count)s steps.") % {"count": len(steps)},
                    )
                    return redirect("structures:detail", outcome.value.pk)
    return render(
        request,
        "clock/structures/import.html",
        {"form": form, "problems": problems, "here": "import"},
    )


def _chips_check(steps: list[engine.Step], chips: dict[int, str]) -> None:
    """With a chip set chosen, every colour-up names one of its chips."""
    if not chips:
        return
    errors = {}
    for index, step in enumerate(steps):
        missing = [value for value in step.color_up if value not in chips]
        if missing:
            errors[f"steps[{index}].color_up"] = [
                _("The chip set has no %(value)s chip.") % {"value": value} for value in missing
            ]
    if errors:
        raise StructureError(errors)


# --- Generator ----------------------------------------------------------------------------


def _generator_initial() -> dict:
    chip_set = ChipSet.objects.filter(name="Standard").first() or ChipSet.objects.first()
    return {
        "chip_set": chip_set.pk if chip_set else None,
        "starting_stack": 20000,
        "level_minutes": 20,
        "target_hours": 6,
        "ante_from_level": 4,
        "break_every": 6,
        "break_minutes": 15,
    }


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def structure_generate(request):
    """Stack, chips and clock shape → a preview of the steps → a new structure.

    htmx swaps only the preview (form errors are listed there too); without JavaScript
    the whole page comes back. Saving generates again from the same numbers.
    """
    saving = request.POST.get("op") == "save"
    form = GeneratorForm(request.POST or None, initial=_generator_initial(), saving=saving)
    preview, problems = [], []
    if request.method == "POST" and form.is_valid():
        chip_set = form.cleaned_data["chip_set"]
        try:
            steps_check(form.steps)
        except StructureError as error:
            problems = _problems(error.errors)
        else:
            if saving:
                outcome = service_call(
                    request,
                    services.structure_create,
                    form=form,
                    name=form.cleaned_data["name"],
                    steps=form.steps,
                    is_template=form.cleaned_data["is_template"],
                    chip_set_id=chip_set.pk,
                )
                if outcome.ok:
                    messages.success(request, _("Structure saved. Edit any level here."))
                    return _done(request, reverse("structures:detail", args=[outcome.value.pk]))
            preview = step_views(form.steps, chips_of(chip_set))
    context = {
        "form": form,
        "preview": preview,
        "problems": problems,
        "total": duration(sum(view.step.minutes for view in preview)),
        "levels": sum(1 for view in preview if view.number),
        "here": "generate",
    }
    template = (
        "clock/structures/_preview.html" if request.htmx else "clock/structures/generate.html"
    )
    return render(request, template, context)


# --- A tournament's structure -----------------------------------------------------------------


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def tournament_structure(request, tournament_id: int):
    """Pick a template (or any structure) to copy into the tournament; see its structure."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    clock = clock_of(tournament)
    form = TournamentStructureForm(request.POST or None, current_id=clock.structure_id)
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.clock_structure_set,
            form=form,
            tournament_id=tournament.pk,
            structure_id=form.cleaned_data["structure"].pk,
        )
        if outcome.ok:
            messages.success(
                request,
                _("The tournament now plays a copy of “%(name)s”.")
                % {"name": form.cleaned_data["structure"].name},
            )
            return redirect("structures:tournament", tournament.pk)
    structure = clock.structure if clock.structure_id else None
    steps = structure_steps(clock.structure_id)
    locked, _clocks = _locked(structure, steps)
    return render(
        request,
        "clock/structures/tournament.html",
        {
            "tournament": tournament,
            "clock": clock,
            "structure": structure,
            "steps": step_views(steps, chips_of(structure and structure.chip_set), locked),
            "total": duration(sum(step.minutes for step in steps)),
            "started": clock.status != engine.NOT_STARTED,
            "form": form,
            "here": "structure",
        },
    )
