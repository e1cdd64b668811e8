"""`manage.py td3_read` (issue 22): a folder of save files summarised file by file, a
damaged one named with where reading stopped, and nothing saved."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Player, Tournament

FILES = Path(__file__).parent / "td3"


def read(*paths) -> str:
    out = StringIO()
    call_command("td3_read", *map(str, paths), stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_a_folder_is_read_file_by_file_and_nothing_is_saved(tmp_path):
    for name in ("v3_0.tdt", "v3_7.tdt"):
        (tmp_path / name).write_bytes((FILES / name).read_bytes())
    (tmp_path / "broken.tdt").write_text('{ V: "3.7.2", T: new Tournament({Title: "x" ')
    (tmp_path / "notes.txt").write_text("not a save file")

    out = read(tmp_path)

    assert "v3_0.tdt: TD 3.0, 'Dienstag Freezeout': 2 players, 2 entries (0 re-entries)" in out
    assert "v3_7.tdt: TD 3.7.2, 'Friday 20241122' (ORF / 2024 Autumn): 2 players" in out
    assert "broken.tdt: The file ends too early: it was cut off." in out
    assert "notes.txt" not in out
    assert "2 of 3 files read." in out
    assert not Player.objects.exists() and not Tournament.objects.exists()


def test_an_unfinished_event_says_so():
    assert "1 places, not finished" in read(FILES / "v3_4.tdt")


def test_a_missing_path_is_an_error():
    with pytest.raises(CommandError, match="no such file or folder"):
        read("/nowhere/at/all.tdt")


def test_a_file_too_large_is_refused_unread_and_the_others_go_on(tmp_path, monkeypatch):
    monkeypatch.setattr("tournaments.engine.td3.MAX_BYTES", 2_000)
    (tmp_path / "huge.tdt").write_bytes(b" " * 5_000)
    (tmp_path / "v3_0.tdt").write_bytes((FILES / "v3_0.tdt").read_bytes())

    out = read(tmp_path)

    assert "huge.tdt: The file is larger than" in out
    assert "v3_0.tdt: TD 3.0" in out
    assert "1 of 2 files read." in out
