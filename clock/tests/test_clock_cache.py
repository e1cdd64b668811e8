"""GET .../clock/ from the cache (issue 20): no query once kept, never a stale state.

The cache is settings CACHES["default"]: Redis when REDIS_URL is set, shared by every
process as in production; the process's memory otherwise.
"""

import threading
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from clock import cache, services
from clock.tests.factories import with_structure
from floorman import versions
from seating.services.desk import tournament_status_set
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def clock_url(event, query: str = "") -> str:
    return reverse("clock", args=[event.pk]) + query


def test_a_kept_clock_is_read_without_a_query(django_assert_num_queries):
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    client = api()
    with django_assert_num_queries(1):  # the first read: the row, one query
        first = client.get(clock_url(event, "?steps=1"))

    with django_assert_num_queries(0):
        again = client.get(clock_url(event, "?steps=1"))
        without_steps = client.get(clock_url(event))

    assert again.status_code == 200 and again.json()["status"] == "running"
    assert len(again.json()["steps"]) == len(first.json()["steps"]) == 5
    assert "steps" not in without_steps.json()


def test_the_time_left_is_counted_at_each_read_from_the_kept_clock(
    monkeypatch, django_assert_num_queries
):
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    client = api()
    started = client.get(clock_url(event)).json()  # kept
    anchor = cache.clock_row_cached(event.pk).state.anchor

    later = anchor + timedelta(minutes=25)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with django_assert_num_queries(0):
        body = client.get(clock_url(event)).json()

    # 25 minutes into 20-minute levels: level 2 with 15 minutes left, from the kept row.
    assert started["level"]["number"] == 1
    assert body["level"]["number"] == 2
    assert body["seconds_left"] == 15 * 60
    assert body["server_time"] == later.isoformat()


def test_a_pause_reads_as_paused_at_once_after_the_clock_was_kept(
    django_capture_on_commit_callbacks,
):
    event = tournament(status="running")
    with_structure(event)
    floor = api(staff("floor"))
    floor.post(clock_url(event), {"action": "start"}, format="json")
    assert api().get(clock_url(event)).json()["status"] == "running"  # kept

    with django_capture_on_commit_callbacks(execute=True):
        floor.post(clock_url(event), {"action": "pause"}, format="json")

    assert api().get(clock_url(event)).json()["status"] == "paused"


def test_a_row_kept_before_the_commit_is_not_read_after_it(django_capture_on_commit_callbacks):
    """Another process read the clock while the pause was not committed yet, and kept what
    it read after the pause's transaction had replaced the token: the commit replaces it
    again, and the next read is the pause."""
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    running = cache.clock_row_cached(event.pk)

    with django_capture_on_commit_callbacks(execute=True):
        services.clock_act(actor=None, tournament_id=event.pk, action="pause")
        # What the other process keeps: the running clock, under the token of the moment.
        version_keys, row_key = versions.keys(cache.row_key(event.pk), event.pk, (cache.KIND,))
        store = caches[versions.CACHE]
        store.set(row_key, ((store.get(version_keys[0]),), running))
        assert cache.clock_row_cached(event.pk).state.status == "running"

    assert api().get(clock_url(event)).json()["status"] == "paused"


def test_a_cancelled_event_reads_as_finished_though_its_clock_never_ran(
    django_capture_on_commit_callbacks,
):
    event = tournament(status="registering")
    with_structure(event)
    assert api().get(clock_url(event)).json()["status"] == "not_started"  # kept

    with django_capture_on_commit_callbacks(execute=True):
        tournament_status_set(actor=None, tournament_id=event.pk, status="cancelled")

    assert api().get(clock_url(event)).json()["status"] == "finished"


def test_a_changed_structure_shows_its_new_steps(django_capture_on_commit_callbacks):
    event = tournament(status="running")
    clock = with_structure(event)
    before = api().get(clock_url(event, "?steps=1")).json()  # kept
    steps = services.structure_steps(clock.structure_id)
    longer = [*steps, steps[-1]]

    with django_capture_on_commit_callbacks(execute=True):
        services.structure_update(
            actor=None,
            structure_id=clock.structure_id,
            name="Longer",
            steps=longer,
            is_template=False,
            chip_set_id=None,
        )

    after = api().get(clock_url(event, "?steps=1")).json()
    assert len(after["steps"]) == len(before["steps"]) + 1
    assert after["steps_version"] != before["steps_version"]


def test_no_such_tournament_is_not_kept_and_stays_404(django_assert_num_queries):
    client = api()
    assert client.get("/api/v1/tournaments/999999/clock/").status_code == 404
    with django_assert_num_queries(1):  # asked again: read again
        assert client.get("/api/v1/tournaments/999999/clock/").status_code == 404


def test_the_clock_is_read_from_the_database_when_the_cache_is_down(monkeypatch):
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    class Down:
        def __getattr__(self, name):
            raise ConnectionError("the cache is down")

    monkeypatch.setattr(versions, "caches", {versions.CACHE: Down()})
    response = api().get(clock_url(event))
    services.clock_act(actor=None, tournament_id=event.pk, action="pause")  # still saved

    assert response.status_code == 200 and response.json()["status"] == "running"
    assert api().get(clock_url(event)).json()["status"] == "paused"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_another_process_reading_during_the_pause_keeps_no_stale_clock():
    """A real second connection reads the running clock while the pause's transaction is
    open (PostgreSQL shows it the last committed state) and keeps it: after the commit
    every read is the pause."""
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    seen = {}

    def other_process():
        try:
            seen["row"] = cache.clock_row_cached(event.pk)
        finally:
            connection.close()

    with transaction.atomic():
        services.clock_act(actor=None, tournament_id=event.pk, action="pause")
        reader = threading.Thread(target=other_process)
        reader.start()
        reader.join(timeout=30)

    assert seen["row"].state.status == "running"  # what the other connection saw, and kept
    assert api().get(clock_url(event)).json()["status"] == "paused"
