"""The embedded Celery worker, the first director account and the health check."""

import json
import time
import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest
from celery import Celery
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db import OperationalError
from django.test import RequestFactory

from floorman import health as health_module
from floorman.bootstrap import DirectorAccountError, director_ensure
from floorman.roles import DIRECTOR
from floorman.tasks import HEARTBEAT_KEY, worker_heartbeat
from floorman.worker import start_embedded_worker

# --- The embedded worker --------------------------------------------------------------


@pytest.fixture
def heartbeat_clear() -> Iterator[None]:
    # Delete only our keys: under REDIS_URL the cache is a shared Redis database.
    keys = [HEARTBEAT_KEY, health_module._REQUESTED_KEY]
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


def celery_app_for(broker_url: str, queue: str) -> Celery:
    """An app configured like floorman.celery.app, on `broker_url` and its own queue.

    The queue is new for every test, so messages left in a shared Redis by an earlier
    run, or a developer's worker on the same Redis, cannot mix with this test's.
    """
    app = Celery("floorman-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = broker_url
    app.conf.task_default_queue = queue
    return app


@pytest.mark.parametrize(
    "broker_url",
    [
        pytest.param("memory://", id="memory"),
        pytest.param(settings.REDIS_URL, id="redis", marks=pytest.mark.redis),
    ],
)
def test_embedded_worker_runs_countdown_task_on_time(broker_url: str, heartbeat_clear) -> None:
    queue = f"floorman-test-{uuid.uuid4().hex}"
    app = celery_app_for(broker_url, queue)
    worker = start_embedded_worker(app, queues=[queue])
    try:
        sent_at = time.time()
        app.tasks[worker_heartbeat.name].apply_async(countdown=2)

        time.sleep(1)
        assert cache.get(HEARTBEAT_KEY) is None  # eager or instant would have set it

        seen = None
        while seen is None and time.time() < sent_at + 5:
            time.sleep(0.1)
            seen = cache.get(HEARTBEAT_KEY)
        assert seen is not None
        delay = datetime.fromisoformat(seen).timestamp() - sent_at
        assert 1.9 <= delay <= 5
    finally:
        worker.stop()
        if broker_url.startswith("redis"):
            with app.connection_for_write() as connection:
                connection.default_channel.queue_delete(queue)
    assert not worker.thread.is_alive()


# --- The first director ----------------------------------------------------------------


@pytest.mark.django_db
def test_director_ensure_creates_director_once() -> None:
    password = director_ensure()

    assert password is not None
    assert len(password) >= 16
    user = User.objects.get(username="director")
    assert user.check_password(password)
    assert list(user.groups.values_list("name", flat=True)) == [DIRECTOR]
    assert director_ensure() is None
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_director_ensure_passwords_differ_between_installations() -> None:
    passwords = set()
    for _ in range(3):
        passwords.add(director_ensure())
        User.objects.all().delete()  # a fresh installation

    assert len(passwords) == 3
    assert None not in passwords


@pytest.mark.django_db
def test_director_ensure_group_missing_creates_it() -> None:
    Group.objects.filter(name=DIRECTOR).delete()

    assert director_ensure() is not None
    assert User.objects.get(username="director").groups.get().name == DIRECTOR


@pytest.mark.django_db
def test_director_ensure_superuser_exists_creates_nobody() -> None:
    User.objects.create_superuser(username="admin", password="x" * 20)

    assert director_ensure() is None
    assert not User.objects.filter(username="director").exists()


@pytest.mark.django_db
def test_director_ensure_inactive_director_raises() -> None:
    director_ensure()
    User.objects.filter(username="director").update(is_active=False)

    with pytest.raises(DirectorAccountError):
        director_ensure()


# --- The health check ---------------------------------------------------------------------


class TaskStub:
    def __init__(self) -> None:
        self.sent = 0

    def apply_async(self, **options) -> None:
        self.sent += 1


@pytest.fixture
def task_stub(monkeypatch, heartbeat_clear) -> TaskStub:
    stub = TaskStub()
    monkeypatch.setattr(health_module, "worker_heartbeat", stub)
    return stub


@pytest.mark.django_db
def test_health_all_up_200(task_stub: TaskStub) -> None:
    response = health_module.health(RequestFactory().get("/health/"))

    assert response.status_code == 200
    assert json.loads(response.content) == {"database": True, "cache": True, "worker_seen": None}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_health_is_served_at_its_url(client, task_stub: TaskStub) -> None:
    response = client.get("/health/")

    assert response.status_code == 200
    assert response.json()["database"] is True


@pytest.mark.django_db
def test_health_after_heartbeat_shows_worker_seen(task_stub: TaskStub) -> None:
    worker_heartbeat()  # what the worker runs

    body = json.loads(health_module.health(RequestFactory().get("/health/")).content)

    seen = datetime.fromisoformat(body["worker_seen"])
    assert seen.utcoffset().total_seconds() == 0
    assert abs(time.time() - seen.timestamp()) < 5


@pytest.mark.django_db
def test_health_polled_often_sends_one_heartbeat(task_stub: TaskStub) -> None:
    for _ in range(5):
        health_module.health(RequestFactory().get("/health/"))

    assert task_stub.sent == 1


class BrokenConnection:
    def cursor(self):
        raise OperationalError("connection refused")


def test_health_database_down_503(task_stub: TaskStub, monkeypatch) -> None:
    monkeypatch.setattr(health_module, "connection", BrokenConnection())

    response = health_module.health(RequestFactory().get("/health/"))

    assert response.status_code == 503
    assert json.loads(response.content)["database"] is False


class BrokenCache:
    def __getattr__(self, name: str):
        raise ConnectionError("cache down")


@pytest.mark.django_db
def test_health_cache_down_503(task_stub: TaskStub, monkeypatch) -> None:
    monkeypatch.setattr(health_module, "cache", BrokenCache())

    response = health_module.health(RequestFactory().get("/health/"))

    assert response.status_code == 503
    assert json.loads(response.content) == {"database": True, "cache": False, "worker_seen": None}
    assert task_stub.sent == 0


@pytest.mark.django_db
def test_health_post_405(task_stub: TaskStub) -> None:
    assert health_module.health(RequestFactory().post("/health/")).status_code == 405


def test_liveness_answers_without_touching_database_or_cache(client, monkeypatch) -> None:
    monkeypatch.setattr(health_module, "connection", BrokenConnection())
    monkeypatch.setattr(health_module, "cache", BrokenCache())

    response = client.get("/health/live/")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
