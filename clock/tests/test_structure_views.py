"""The director's pages for chip sets and blind structures."""

import importlib
import json

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clock import engine, services
from clock.engine import BREAK, LEVEL, Step, generator
from clock.forms.structures import step_initial
from clock.models import ChipSet, Clock, Structure
from clock.selectors import structure_steps
from clock.tests.factories import STEPS, structure, with_structure
from floorman.models import AuditEntry
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TEMPLATE_NAMES = {"Turbo", "Regular", "Deep stack"}


@pytest.fixture
def director(client):
    client.force_login(staff("director"))
    return client


def _chip_set(name="House", chips=((25, "green"), (100, "black"), (500, "purple"))) -> ChipSet:
    return services.chip_set_save(actor=None, chip_set_id=None, name=name, chips=list(chips))


def _chip_data(name: str, rows: list[tuple[str, str]]) -> dict:
    data = {
        "name": name,
        "chips-TOTAL_FORMS": len(rows),
        "chips-INITIAL_FORMS": 0,
        "chips-MIN_NUM_FORMS": 0,
        "chips-MAX_NUM_FORMS": 20,
    }
    for index, (value, color) in enumerate(rows):
        data[f"chips-{index}-value"] = value
        data[f"chips-{index}-color"] = color
    return data


def _editor_data(steps, *, name="Main Event", chip_set=None, template=False, op="save") -> dict:
    data = {
        "name": name,
        "op": op,
        "steps-TOTAL_FORMS": len(steps),
        "steps-INITIAL_FORMS": len(steps),
        "steps-MIN_NUM_FORMS": 0,
        "steps-MAX_NUM_FORMS": 200,
    }
    if template:
        data["is_template"] = "on"
    if chip_set is not None:
        data["chip_set"] = chip_set.pk
    for index, step in enumerate(steps):
        for field, value in step_initial(step).items():
            if field == "addon":
                if value:
                    data[f"steps-{index}-addon"] = "on"
            else:
                data[f"steps-{index}-{field}"] = value
    return data


def _detail(structure_id: int) -> str:
    return reverse("structures:detail", args=[structure_id])


def _text(response) -> str:
    return response.content.decode()


# --- The shipped templates ------------------------------------------------------------


def test_three_templates_exist_after_migrations_with_breaks_and_color_ups():
    standard = ChipSet.objects.get(name="Standard")
    chips = dict(standard.chips.values_list("value", "color"))
    templates = {s.name: s for s in Structure.objects.filter(is_template=True)}

    assert chips == {
        25: "green",
        100: "black",
        500: "purple",
        1000: "yellow",
        5000: "orange",
        25000: "grey",
    }
    assert TEMPLATE_NAMES <= set(templates)
    color_ups = []
    for key, shipped in generator.TEMPLATES.items():
        steps = structure_steps(templates[shipped.title].pk)
        assert templates[shipped.title].chip_set == standard
        assert any(step.is_break for step in steps), key
        assert steps == generator.template_steps(key)[1]
        color_ups += [chip for step in steps for chip in step.color_up]
    assert color_ups
    assert set(color_ups) <= set(chips)


def test_template_migration_reverses_and_applies_again():
    migration = importlib.import_module("clock.migrations.0002_templates")

    migration.templates_delete(apps, None)
    gone = Structure.objects.filter(name__in=TEMPLATE_NAMES, is_template=True).count()
    standard_gone = not ChipSet.objects.filter(name="Standard").exists()
    migration.templates_create(apps, None)

    assert (gone, standard_gone) == (0, True)
    assert Structure.objects.filter(name__in=TEMPLATE_NAMES, is_template=True).count() == 3


# --- Chip sets ----------------------------------------------------------------------------


def test_chip_set_create_saves_chips_smallest_first(director):
    response = director.post(
        reverse("structures:chipset-create"),
        _chip_data(
            "Casino Baden", [("1,000", "yellow"), ("25", "green"), ("", ""), ("100", "black")]
        ),
    )

    assert response.status_code == 302
    chip_set = ChipSet.objects.get(name="Casino Baden")
    assert list(chip_set.chips.values_list("value", "color")) == [
        (25, "green"),
        (100, "black"),
        (1000, "yellow"),
    ]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("25", "green"), ("25", "red")], "Each value only once in a chip set."),
        ([("25", "")], "Name the colour of this chip, e.g. green."),
        ([("", "green")], "Give the value of this chip."),
        ([("abc", "green")], "Enter a whole number."),
        ([("0", "green")], "Ensure this value is greater than or equal to 1."),
        ([("", "")], "A chip set needs at least one chip."),
    ],
)
def test_chip_set_with_bad_rows_shows_errors_and_saves_nothing(director, rows, message):
    response = director.post(reverse("structures:chipset-create"), _chip_data("Bad set", rows))

    assert response.status_code == 200
    assert message in _text(response)
    assert not ChipSet.objects.filter(name="Bad set").exists()


def test_chip_set_name_taken_is_a_field_error(director):
    _chip_set("House")

    response = director.post(
        reverse("structures:chipset-create"), _chip_data("House", [("25", "green")])
    )

    assert "A chip set with this name exists already." in _text(response)
    assert ChipSet.objects.filter(name="House").count() == 1


def test_chip_set_edit_replaces_chips_and_blank_rows_drop_them(director):
    chip_set = _chip_set("House")

    page = director.get(reverse("structures:chipset-edit", args=[chip_set.pk]))
    response = director.post(
        reverse("structures:chipset-edit", args=[chip_set.pk]),
        _chip_data("House 2", [("25", "white"), ("", ""), ("500", "purple")]),
    )

    assert 'value="green"' in _text(page)
    assert response.status_code == 302
    chip_set.refresh_from_db()
    assert chip_set.name == "House 2"
    assert list(chip_set.chips.values_list("value", "color")) == [(25, "white"), (500, "purple")]


def test_chip_set_more_rows_keeps_what_was_typed_and_saves_nothing(director):
    data = _chip_data("New", [("25", "green")])
    data["more"] = "1"

    response = director.post(reverse("structures:chipset-create"), data)

    assert response.status_code == 200
    assert response.context["chips"].total_form_count() == 5
    assert 'value="green"' in _text(response)
    assert not ChipSet.objects.filter(name="New").exists()


# --- Structure list -------------------------------------------------------------------------


def test_list_shows_templates_first_and_which_tournament_uses_a_copy(director):
    event = tournament(name="Friday Deepstack")
    with_structure(event)

    response = director.get(reverse("structures:list"))

    text = _text(response)
    assert response.status_code == 200
    assert text.index("Turbo") < text.index("Friday Deepstack")
    assert reverse("structures:tournament", args=[event.pk]) in text


def test_list_query_count_does_not_grow_with_structures(director, django_assert_num_queries):
    with_structure(tournament(name="One"))
    director.get(reverse("structures:list"))  # sessions, roles: warm up
    with CaptureQueriesContext(connection) as one:
        director.get(reverse("structures:list"))
    with_structure(tournament(name="Two"))
    with_structure(tournament(name="Three"))
    with CaptureQueriesContext(connection) as three:
        director.get(reverse("structures:list"))

    assert len(three) == len(one)


# --- The editor ------------------------------------------------------------------------------


def test_editor_saves_all_steps_through_structure_update(director):
    template = structure("Regular 20", STEPS)
    steps = [*STEPS[:3], Step(LEVEL, 25, 300, 600, ante=600, ante_type=engine.ANTE_BIG_BLIND)]

    response = director.post(_detail(template.pk), _editor_data(steps, name="Regular 25"))

    assert response.status_code == 302
    template.refresh_from_db()
    assert template.name == "Regular 25"
    assert structure_steps(template.pk) == steps
    assert AuditEntry.objects.filter(action="structure.update", object_id=str(template.pk)).exists()


def test_editor_new_structure_is_created(director):
    chips = _chip_set()
    steps = [
        Step(LEVEL, 20, 25, 50),
        Step(BREAK, 10, label="Kaffeepause", color_up=(25,), addon=True),
        Step(LEVEL, 20, 100, 200, small_bet=200, big_bet=400, game="lhe"),
    ]
    data = _editor_data(steps, name="Mixed", chip_set=chips, template=True)
    data["steps-1-color_up"] = "green"  # a colour name of the chip set works too

    response = director.post(reverse("structures:create"), data)

    created = Structure.objects.get(name="Mixed")
    assert response.status_code == 302
    assert response["Location"] == _detail(created.pk)
    assert (created.is_template, created.chip_set) == (True, chips)
    assert structure_steps(created.pk) == steps


def test_editor_shows_rule_errors_on_their_rows_and_saves_nothing(director):
    template = structure("Regular 20", STEPS)
    steps = [Step(LEVEL, 20, 300, 200), *STEPS[1:]]
    data = _editor_data(steps, chip_set=_chip_set())
    data["steps-2-color_up"] = "5000"
    data["steps-1-minutes"] = "0"

    response = director.post(_detail(template.pk), data)

    text = _text(response)
    assert response.status_code == 200
    assert "The chip set has no 5000 chip." in text
    assert "Ensure this value is greater than or equal to 1." in text
    assert structure_steps(template.pk) == STEPS

    data["steps-2-color_up"], data["steps-1-minutes"] = "25", "20"
    response = director.post(_detail(template.pk), data)
    assert "The small blind must not be more than the big blind." in _text(response)
    assert structure_steps(template.pk) == STEPS


def test_editor_without_a_level_says_so(director):
    template = structure("Regular 20", STEPS)

    response = director.post(_detail(template.pk), _editor_data([]))

    assert "The structure needs at least one level." in _text(response)


def test_editor_row_buttons_change_the_table_without_saving(director):
    template = structure("Regular 20", STEPS)
    url = _detail(template.pk)

    added = director.post(url, _editor_data(STEPS, op="add-break"))
    deleted = director.post(url, _editor_data(STEPS, op="delete-3"))
    moved = director.post(url, _editor_data(STEPS, op="up-3"), **HTMX)

    def kinds(response):
        return [form["kind"].value() for form in response.context["formset"].forms]

    assert kinds(added) == [LEVEL, LEVEL, BREAK, LEVEL, LEVEL, BREAK]
    assert kinds(deleted) == [LEVEL, LEVEL, LEVEL, LEVEL]
    assert kinds(moved) == [LEVEL, BREAK, LEVEL, LEVEL, LEVEL]
    assert "<html" not in _text(moved)  # htmx gets the form alone
    assert structure_steps(template.pk) == STEPS


def test_editor_insert_level_copies_the_level_above(director):
    template = structure("Regular 20", STEPS)

    response = director.post(_detail(template.pk), _editor_data(STEPS, op="level-2"))

    forms = response.context["formset"].forms
    assert len(forms) == 6
    assert forms[2]["big_blind"].value() == "400"


def test_editor_locks_played_rows_while_the_clock_runs_and_refuses_changes(director):
    event = tournament()
    clock = with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    url = _detail(clock.structure_id)

    page = director.get(url)
    changed_first = [Step(LEVEL, 20, 100, 250), *STEPS[1:]]
    refused = director.post(url, _editor_data(changed_first))
    changed_later = [*STEPS[:3], Step(LEVEL, 30, 300, 600, ante=600, ante_type="bba"), STEPS[4]]
    saved = director.post(url, _editor_data(changed_later))

    assert page.context["locked"] == 1
    assert "locked" in _text(page)
    assert refused.status_code == 200
    assert "Levels already played or in play cannot be changed (level 1)." in _text(refused)
    assert saved.status_code == 302
    assert structure_steps(clock.structure_id) == changed_later


def test_editor_row_buttons_leave_locked_rows_alone(director):
    event = tournament()
    clock = with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    response = director.post(_detail(clock.structure_id), _editor_data(STEPS, op="delete-1"))

    assert len(response.context["formset"].forms) == len(STEPS)


def test_editor_with_tampered_management_form_shows_an_error(director):
    template = structure("Regular 20", STEPS)
    data = _editor_data(STEPS)
    del data["steps-TOTAL_FORMS"]

    response = director.post(_detail(template.pk), data)

    assert response.status_code == 200
    assert structure_steps(template.pk) == STEPS


# --- Copy and delete -----------------------------------------------------------------------------


def test_copy_creates_a_template_with_the_same_steps(director):
    event = tournament(name="Sunday Main Event")
    clock = with_structure(event)

    response = director.post(
        reverse("structures:copy", args=[clock.structure_id]),
        {"name": "Sunday classic", "is_template": "on"},
    )

    copy = Structure.objects.get(name="Sunday classic")
    assert response.status_code == 302
    assert copy.is_template
    assert structure_steps(copy.pk) == STEPS


def test_delete_is_refused_while_a_tournament_uses_the_structure(director):
    clock = with_structure(tournament())

    response = director.post(reverse("structures:delete", args=[clock.structure_id]))

    assert response.status_code == 200
    assert "The structure is used by a tournament." in _text(response)
    assert Structure.objects.filter(pk=clock.structure_id).exists()


def test_delete_of_an_unused_structure(director):
    unused = structure("Old turbo", STEPS)

    response = director.post(reverse("structures:delete", args=[unused.pk]))

    assert response.status_code == 302
    assert not Structure.objects.filter(pk=unused.pk).exists()


# --- Export and import -------------------------------------------------------------------------


def _upload(name: str, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content)


UMLAUT_STEPS = [
    Step(LEVEL, 20, 100, 200),
    Step(BREAK, 15, label="Kaffeepause für alle", color_up=(25,), addon=True),
    Step(LEVEL, 20, 200, 400, ante=400, ante_type=engine.ANTE_BIG_BLIND),
]


def test_export_json_then_import_gives_the_same_steps(director):
    source = structure("Größe 20", UMLAUT_STEPS)

    exported = director.get(reverse("structures:export-json", args=[source.pk]))
    imported = director.post(
        reverse("structures:import"),
        {"file": _upload("structure.json", exported.content), "is_template": "on"},
    )

    assert exported.status_code == 200
    assert exported["Content-Type"].startswith("application/json")
    assert "attachment" in exported["Content-Disposition"]
    assert json.loads(exported.content)["name"] == "Größe 20"
    created = Structure.objects.exclude(pk=source.pk).get(name="Größe 20")
    assert imported.status_code == 302
    assert structure_steps(created.pk) == UMLAUT_STEPS


@pytest.mark.parametrize("query", ["", "?delimiter=semicolon"])
def test_export_csv_is_utf8_sig_and_imports_again(director, query):
    source = structure("Regular", UMLAUT_STEPS)

    exported = director.get(reverse("structures:export-csv", args=[source.pk]) + query)
    imported = director.post(
        reverse("structures:import"),
        {"file": _upload("regular.csv", exported.content), "name": "Wieder da"},
    )

    assert exported.content.startswith(b"\xef\xbb\xbf")
    header = exported.content.decode("utf-8-sig").splitlines()[0]
    assert header.startswith("kind;minutes" if query else "kind,minutes")
    assert "Kaffeepause für alle" in exported.content.decode("utf-8-sig")
    assert imported.status_code == 302
    assert structure_steps(Structure.objects.get(name="Wieder da").pk) == UMLAUT_STEPS


def test_import_german_excel_csv_with_semicolons(director):
    chips = _chip_set()
    text = (
        "kind;minutes;small_blind;big_blind;ante;ante_type;label;color_up;addon\r\n"
        "Level;20;100;200;0;none;;;\r\n"
        "Break;15;;;;;Pause für Raucher;25;ja\r\n"
        "level;20;200;400;400;bba;;;\r\n"
    )

    response = director.post(
        reverse("structures:import"),
        {
            "file": _upload("Struktur.csv", text.encode("utf-8-sig")),
            "name": "Samstag",
            "chip_set": chips.pk,
        },
    )

    created = Structure.objects.get(name="Samstag")
    assert response.status_code == 302
    assert created.chip_set == chips
    assert structure_steps(created.pk) == [
        Step(LEVEL, 20, 100, 200),
        Step(BREAK, 15, label="Pause für Raucher", color_up=(25,), addon=True),
        Step(LEVEL, 20, 200, 400, ante=400, ante_type=engine.ANTE_BIG_BLIND),
    ]


def test_import_pasted_json_uses_its_name(director):
    text = json.dumps(
        {
            "name": "Pasted",
            "steps": [{"kind": "level", "minutes": 15, "small_blind": 50, "big_blind": 100}],
        }
    )

    response = director.post(reverse("structures:import"), {"text": text})

    assert response.status_code == 302
    assert structure_steps(Structure.objects.get(name="Pasted").pk) == [Step(LEVEL, 15, 50, 100)]


def test_import_errors_are_listed_per_location_and_nothing_is_saved(director):
    before = Structure.objects.count()
    text = "kind,minutes,small_blind,big_blind\nlevel,20,100,200\nlevel,20,300,abc\nbreak,0,,\n"

    response = director.post(reverse("structures:import"), {"text": text, "name": "Broken"})

    body = _text(response)
    assert response.status_code == 200
    assert "Nothing was saved" in body
    assert "Row 3, big blind" in body
    assert "Must be a whole number." in body
    assert Structure.objects.count() == before


def test_import_json_errors_name_the_step(director):
    text = json.dumps(
        {
            "name": "X",
            "steps": [{"kind": "level", "minutes": 20, "small_blind": 300, "big_blind": 200}],
        }
    )

    response = director.post(reverse("structures:import"), {"text": text})

    assert "Step 1, small blind" in _text(response)
    assert "The small blind must not be more than the big blind." in _text(response)


def test_import_needs_a_file_or_text_and_a_name_for_csv(director):
    empty = director.post(reverse("structures:import"), {"name": "X"})
    unnamed = director.post(
        reverse("structures:import"), {"text": "kind,minutes,small_blind,big_blind\nlevel,20,1,2\n"}
    )
    chip_missing = director.post(
        reverse("structures:import"),
        {
            "text": "kind,minutes,small_blind,big_blind,color_up\nlevel,20,1,2,\nbreak,10,,,77\n"
            "level,20,2,4,\n",
            "name": "Chips",
            "chip_set": _chip_set().pk,
        },
    )

    assert "Upload a file or paste its text." in _text(empty)
    assert "Name the structure: a CSV file has no name." in _text(unnamed)
    assert "The chip set has no 77 chip." in _text(chip_missing)
    assert not Structure.objects.filter(name="Chips").exists()


# --- Generator -----------------------------------------------------------------------------------


def _generator_data(chip_set, **overrides) -> dict:
    data = {
        "chip_set": chip_set.pk,
        "starting_stack": "20,000",
        "level_minutes": "20",
        "target_hours": "6",
        "levels": "",
        "ante_from_level": "4",
        "ante_type": "bba",
        "break_every": "6",
        "break_minutes": "15",
        "name": "",
        "is_template": "on",
    }
    data.update(overrides)
    return data


def _expected(chip_set) -> list[Step]:
    return generator.generate(
        generator.GeneratorInput(
            starting_stack=20000,
            denominations=tuple(chip_set.chips.values_list("value", flat=True)),
            level_minutes=20,
            target_minutes=360,
            ante_from_level=4,
            break_every=6,
            break_minutes=15,
        )
    )


def test_generator_preview_is_an_htmx_partial(director):
    standard = ChipSet.objects.get(name="Standard")

    response = director.post(
        reverse("structures:generate"), _generator_data(standard, op="preview"), **HTMX
    )

    text = _text(response)
    assert response.status_code == 200
    assert "<html" not in text
    assert 'id="preview"' in text
    assert [view.step for view in response.context["preview"]] == _expected(standard)
    assert "BBA" in text


def test_generator_saves_a_new_structure_to_edit(director):
    standard = ChipSet.objects.get(name="Standard")

    response = director.post(
        reverse("structures:generate"), _generator_data(standard, op="save", name="Generated")
    )

    created = Structure.objects.get(name="Generated")
    assert response.status_code == 302
    assert response["Location"] == _detail(created.pk)
    assert created.is_template and created.chip_set == standard
    assert structure_steps(created.pk) == _expected(standard)


def test_generator_save_over_htmx_redirects_the_page(director):
    standard = ChipSet.objects.get(name="Standard")

    response = director.post(
        reverse("structures:generate"),
        _generator_data(standard, op="save", name="Generated", levels="12", target_hours=""),
        **HTMX,
    )

    created = Structure.objects.get(name="Generated")
    assert response["HX-Redirect"] == _detail(created.pk)
    assert sum(1 for step in structure_steps(created.pk) if not step.is_break) == 12


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"starting_stack": "20010"}, "Must be a multiple of the smallest chip (25)."),
        ({"target_hours": ""}, "Give either the target duration or the number of levels."),
        ({"levels": "10"}, "Give either the target duration or the number of levels."),
        ({"start_big_blind": "5000"}, "The starting stack must be at least 10 big blinds."),
        ({"target_hours": "0.25", "level_minutes": "20"}, "Shorter than one level."),
        ({"op": "save"}, "Name the structure to save it."),
        ({"starting_stack": "475"}, "At least 500 with these chips, for 10 big blinds."),
        (
            {"level_minutes": "1", "target_hours": "10", "break_every": ""},
            "That is more than 100 levels: make the levels longer.",
        ),
        (
            {"starting_stack": "1,000,000,000,000", "levels": "100", "target_hours": ""},
            "Must be at most 1 000 000 000 000.",
        ),
    ],
)
def test_generator_input_errors(director, overrides, message):
    standard = ChipSet.objects.get(name="Standard")
    before = Structure.objects.count()

    response = director.post(reverse("structures:generate"), _generator_data(standard, **overrides))

    assert response.status_code == 200
    assert message in _text(response)
    assert Structure.objects.count() == before


# --- A tournament's structure ---------------------------------------------------------------------


def test_tournament_page_copies_a_template_into_the_tournament(director):
    event = tournament(name="Saturday Turbo")
    turbo = Structure.objects.get(name="Turbo", is_template=True)

    empty = director.get(reverse("structures:tournament", args=[event.pk]))
    response = director.post(
        reverse("structures:tournament", args=[event.pk]), {"structure": turbo.pk}
    )
    page = director.get(reverse("structures:tournament", args=[event.pk]))

    clock = Clock.objects.get(pk=event.pk)
    assert "no blind structure yet" in _text(empty)
    assert response.status_code == 302
    assert clock.structure_id != turbo.pk
    assert structure_steps(clock.structure_id) == structure_steps(turbo.pk)
    assert _detail(clock.structure_id) in _text(page)


def test_tournament_pages_link_the_structure_page_for_directors(director):
    event = tournament()

    overview = director.get(reverse("tournaments:detail", args=[event.pk]))

    assert reverse("structures:tournament", args=[event.pk]) in overview.content.decode()


def test_tournament_page_refuses_a_new_structure_once_the_clock_started(director):
    event = tournament()
    clock = with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    turbo = Structure.objects.get(name="Turbo", is_template=True)

    response = director.post(
        reverse("structures:tournament", args=[event.pk]), {"structure": turbo.pk}
    )

    assert response.status_code == 200
    assert "The structure cannot be replaced once the clock has started." in _text(response)
    assert Clock.objects.get(pk=event.pk).structure_id == clock.structure_id


# --- Permissions and bad ids ---------------------------------------------------------


def _urls() -> list[str]:
    template = Structure.objects.filter(is_template=True).first()
    chip_set = ChipSet.objects.first()
    event = tournament()
    return [
        reverse("structures:list"),
        reverse("structures:create"),
        reverse("structures:generate"),
        reverse("structures:import"),
        _detail(template.pk),
        reverse("structures:export-json", args=[template.pk]),
        reverse("structures:export-csv", args=[template.pk]),
        reverse("structures:copy", args=[template.pk]),
        reverse("structures:delete", args=[template.pk]),
        reverse("structures:chipset-list"),
        reverse("structures:chipset-create"),
        reverse("structures:chipset-edit", args=[chip_set.pk]),
        reverse("structures:tournament", args=[event.pk]),
    ]


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_staff_without_the_director_role_get_403(client, role):
    client.force_login(staff(role))

    for url in _urls():
        assert client.get(url).status_code == 403, url
        assert client.post(url).status_code == 403, url


def test_anonymous_visitors_are_sent_to_log_in(client):
    for url in _urls():
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_director_sees_every_page(director):
    for url in _urls():
        assert director.get(url).status_code == 200, url


@pytest.mark.parametrize(
    "path",
    [
        "/structures/abc/",
        "/structures/99999999/",
        "/structures/1234567890123456789/",
        "/structures/99999999/export.json",
        "/structures/99999999/delete/",
        "/chipsets/99999999/",
        "/tournaments/99999999/structure/",
    ],
)
def test_unknown_or_malformed_ids_are_404(director, path):
    assert director.get(path).status_code == 404


# --- Stud's bring-in (RP-10 E, TDA 30) ----------------------------------------------------


def test_the_editor_keeps_a_stud_levels_bring_in_and_a_copy_carries_it(director):
    stud = Step(LEVEL, 20, 100, 200, small_bet=200, big_bet=400, bring_in=75, game="stud")
    template = structure("Stud", [stud])

    editor = _text(director.get(_detail(template.pk)))
    saved = director.post(_detail(template.pk), _editor_data([stud], name="Stud 75"))
    copied = director.post(
        reverse("structures:copy", args=[template.pk]), {"name": "Stud copy", "is_template": "on"}
    )

    assert "Bring-in" in editor and 'value="75"' in editor
    assert saved.status_code == 302 and structure_steps(template.pk) == [stud]
    assert copied.status_code == 302
    assert structure_steps(Structure.objects.get(name="Stud copy").pk) == [stud]


def test_the_editor_refuses_a_bring_in_above_the_small_bet(director):
    stud = Step(LEVEL, 20, 100, 200, small_bet=200, big_bet=400, game="stud")
    template = structure("Stud", [stud])
    data = _editor_data([stud], name="Stud")
    data["steps-0-bring_in"] = "300"

    response = director.post(_detail(template.pk), data)

    assert response.status_code == 200  # the editor again, the error on its row
    assert "The bring-in must not be more than the small bet (RP-10 E)." in _text(response)
    assert structure_steps(template.pk) == [stud]
