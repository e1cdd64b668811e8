"""`manage.py import_td3` (issue 22, item 8): a folder with a good, a duplicate, an
unfinished and a broken file; one line per file, totals, a failure for the broken one
that stops none of the others, and --dry-run writing nothing."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from prizes.models import EventTemplate, Td3Import
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[2] / "tournaments" / "tests" / "td3"


def run(*args) -> tuple[str, bool]:
    out = StringIO()
    try:
        call_command("import_td3", *map(str, args), stdout=out)
    except CommandError:
        return out.getvalue(), False
    return out.getvalue(), True


def folder(tmp_path: Path) -> Path:
    for name in ("finished_v3_4.tdt", "v3_4.tdt"):
        (tmp_path / name).write_bytes((FILES / name).read_bytes())
    inner = tmp_path / "older"
    inner.mkdir()
    (inner / "copy.tdt").write_bytes((FILES / "finished_v3_4.tdt").read_bytes())
    (inner / "broken.tdt").write_text('{ V: "3.7.2",\n T: new Tournament({Title: "x" "y"})}')
    return tmp_path


def test_a_folder_imports_file_by_file_and_a_bad_one_stops_none(tmp_path):
    out, ok = run(folder(tmp_path))
    assert not ok  # the broken file fails the command
    lines = out.splitlines()
    assert lines[0].endswith(
        "imported as event "
        f"{Tournament.objects.get().pk} “Wednesday Re-entry” (Harbour League / 2019 Summer): "
        "5 players, 6 entries, 0 rebuys, 1 add-ons, 5 busts, 5 places"
    )
    assert "v3_4.tdt: not finished" in out
    assert "copy.tdt: already imported" in out
    assert "broken.tdt: Line 2, column 32:" in out
    assert lines[-1] == "4 files: 1 imported, 1 imported before, 1 skipped, 1 failed."
    assert Tournament.objects.count() == 1 and Entry.objects.count() == 6


def test_template_turns_an_unfinished_file_into_a_template(tmp_path):
    (tmp_path / "v3_4.tdt").write_bytes((FILES / "v3_4.tdt").read_bytes())
    out, ok = run(tmp_path, "--template")
    assert ok
    assert 'imported as template “Thursday "Deep" Stack”' in out
    assert EventTemplate.objects.count() == 1 and Tournament.objects.count() == 0


def test_dry_run_says_what_would_come_in_and_writes_nothing(tmp_path):
    (tmp_path / "a.tdt").write_bytes((FILES / "finished_v3_7.tdt").read_bytes())
    out, ok = run(tmp_path, "--dry-run")
    assert ok
    assert "would be imported as event (new)" in out
    assert (Tournament.objects.count(), Td3Import.objects.count()) == (0, 0)
    out, ok = run(tmp_path)
    assert ok and Td3Import.objects.count() == 1
