"""The seat lookup's index kept up to date by the change log (tournaments.models.LookupChange):
a bust or a move updates each process's index with the rows that changed; a process too
far behind, or a change of any row, rebuilds it."""

import re
from pathlib import Path

import pytest

from hands.services import busts as bust_services
from seating import selectors, services
from seating.engine.lookup import FieldIndex
from seating.tests.factories import add_tables, field
from seating.tests.test_lookup import index_state
from tournaments import services as tournament_services
from tournaments.models import LOOKUP_CHANGES_KEPT, LookupChange
from tournaments.tests.factories import register, tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def builds(monkeypatch):
    """The full rebuilds of the index made in this process, by tournament."""
    selectors._field_indexes.clear()  # noqa: SLF001 - each test starts with no index
    made = []
    build = selectors._index_build  # noqa: SLF001

    def counted(tournament_id):
        made.append(tournament_id)
        return build(tournament_id)

    monkeypatch.setattr(selectors, "_index_build", counted)
    return made


def seated_event(players: int = 12):
    event = tournament()
    add_tables(event, 2)
    müller = register(event, "Jürgen Müller").entry
    others = field(event, players - 1)
    services.seating_draw(actor=None, tournament_id=event.pk)
    return event, müller, others


def cached_index(event) -> FieldIndex:
    return selectors._field_indexes._indexes[event.pk].index  # noqa: SLF001


def test_a_bust_shows_in_the_next_search_with_the_index_updated_not_rebuilt(builds):
    event, müller, others = seated_event()
    assert selectors.seat_lookup(event.pk, "mueller")[0]["status"] == "active"

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=müller.pk)

    (found,) = selectors.seat_lookup(event.pk, "mueller")
    assert (found["status"], found["table"], found["seat"]) == ("busted", None, None)
    # Still playing first: the busted player is listed after every one still in.
    everyone = selectors.seat_lookup(event.pk, "e", limit=50)
    assert len(everyone) == 12
    assert everyone[-1]["entry"] == müller.pk
    assert builds == [event.pk]  # built once, for the first search; the bust updated it
    rebuilt = FieldIndex(selectors._index_build(event.pk).rows)  # noqa: SLF001
    assert index_state(cached_index(event)) == index_state(rebuilt)


def test_the_log_names_the_entries_each_version_changed(builds):
    event, müller, _others = seated_event()
    version = type(event).objects.get(pk=event.pk).lookup_version

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=müller.pk)

    logged = LookupChange.objects.filter(tournament=event, version__gt=version)
    # The entry leaves play and its seat is freed: one version names it, and the index
    # reads its row as it is after both (the lookup test above: busted, no seat).
    assert [
        entries for _v, entries in logged.order_by("version").values_list("version", "entries")
    ] == [[müller.pk]]
    assert type(event).objects.get(pk=event.pk).lookup_version == version + 1


def test_a_process_further_behind_than_the_log_keeps_rebuilds(builds):
    event, müller, _others = seated_event()
    selectors.seat_lookup(event.pk, "mueller")
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=müller.pk)
    for _ in range(LOOKUP_CHANGES_KEPT):  # the bust's versions are overwritten in the log
        tournament_services.lookup_changed([event.pk], [])

    (found,) = selectors.seat_lookup(event.pk, "mueller")

    assert found["status"] == "busted"
    assert builds == [event.pk, event.pk]
    assert LookupChange.objects.filter(tournament=event).count() == LOOKUP_CHANGES_KEPT


def test_a_rename_rebuilds_and_the_new_name_is_found(builds):
    event, müller, _others = seated_event()
    selectors.seat_lookup(event.pk, "mueller")

    tournament_services.player_update(
        actor=None, player_id=müller.player_id, data={"name": "Jürgen Meier"}
    )

    assert selectors.seat_lookup(event.pk, "mueller") == []
    assert selectors.seat_lookup(event.pk, "meier")[0]["entry"] == müller.pk
    assert builds == [event.pk, event.pk]


def test_a_new_entry_is_found_without_a_rebuild(builds):
    event, _müller, _others = seated_event()
    selectors.seat_lookup(event.pk, "mueller")

    late = register(event, "Zora Late").entry

    (found,) = selectors.seat_lookup(event.pk, "zora")
    assert found["entry"] == late.pk
    assert builds == [event.pk]


# The lookup's version and its change log have one writer (house rule: one column, one
# writer): tournaments.services.lookup_changed, which writes both in one statement.
WRITES = re.compile(
    r"lookup_version\s*=(?!=)|lookup_version\s*\+|LookupChange\(|LookupChange\.objects\.(?!filter)"
    r"|lookup_changes\.|tournaments_lookupchange\s*\(|UPDATE tournaments_tournament"
)


def test_lookup_changed_is_the_only_writer_of_the_version_and_its_log():
    writers = set()
    for path in ROOT.glob("*/**/*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if (
            "/tests/" in relative
            or "/migrations/" in relative
            or relative.startswith((".venv", "bench/", "var/"))
        ):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if WRITES.search(line) and "models." not in line:
                writers.add(relative)
    assert writers == {"tournaments/services/__init__.py"}
