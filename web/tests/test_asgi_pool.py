"""Under ASGI, requests borrow PostgreSQL connections from the process's pool (issue 20).

Each ASGI request runs in a thread of its own: a connection kept per thread piled up until
PostgreSQL refused more, and one opened per request cost 20-63 ms on a busy machine.
"""

import asyncio
import threading

import psycopg
import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connection, connections
from django.http import JsonResponse
from django.urls import path

from floorman.tests.servers import wait_until
from web.asgi import application

pytestmark = pytest.mark.postgres

# A request that holds its connection until the test lets it go (ROOT_URLCONF below).
release = threading.Event()


def hold(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")  # the connection is this request's until it ends
    release.wait(timeout=60)
    return JsonResponse({"ok": True})


urlpatterns = [path("hold/", hold)]


def test_under_asgi_connections_come_from_a_pool_sized_by_the_settings(settings):
    database = connections["default"].settings_dict

    assert database["CONN_MAX_AGE"] == 0  # the pool's requirement
    assert database["OPTIONS"]["pool"]["min_size"] == settings.DATABASE_POOL_MIN
    assert database["OPTIONS"]["pool"]["max_size"] == settings.DATABASE_POOL_MAX


async def _get(url: str) -> int:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "https",
        "path": url,
        "raw_path": url.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost"), (b"x-forwarded-proto", b"https")],
        "client": ("127.0.0.1", 40000),
        "server": ("localhost", 443),
    }
    request = ApplicationCommunicator(application, scope)
    await request.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await request.receive_output(timeout=90)
    await request.receive_output(timeout=90)  # the body
    await request.wait(timeout=90)  # the request ends: its connection goes back to the pool
    return start["status"]


# The pool's connections carry a name of their own: a connection another test left open
# in this process is not counted.
POOL_NAME = "floorman-asgi-pool-test"


def _pool_connected(monitor) -> int:
    """The pool's connections to the test database."""
    row = monitor.execute(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND application_name = %s"
        " AND pid <> pg_backend_pid()",
        [POOL_NAME],
    ).fetchone()
    return row[0]


@pytest.mark.django_db(transaction=True)
def test_many_concurrent_asgi_requests_use_no_more_connections_than_the_pool_holds(settings):
    settings.ROOT_URLCONF = __name__
    database = connections["default"].settings_dict
    configured = database["OPTIONS"]["pool"]
    connection.close()
    connection.close_pool()  # the next connection makes a pool of the size below
    database["OPTIONS"]["pool"] = {"min_size": 1, "max_size": 3, "timeout": 60}
    database["OPTIONS"]["application_name"] = POOL_NAME
    release.clear()
    statuses = []

    async def twelve_at_once():
        statuses.extend(await asyncio.gather(*(_get("/hold/") for _ in range(12))))

    requests = threading.Thread(target=lambda: asyncio.run(twelve_at_once()))
    params = connection.get_connection_params()
    monitor = psycopg.connect(
        **{k: v for k, v in params.items() if k not in ("cursor_factory", "context")},
        autocommit=True,
    )
    try:
        requests.start()
        pool = connections["default"].pool
        # Three requests hold the pool's three connections, nine wait for one.
        wait_until(
            lambda: pool.get_stats().get("requests_waiting", 0) == 9,
            60,
            "nine requests did not wait for a connection",
        )
        connected = _pool_connected(monitor)
        release.set()
        requests.join(timeout=120)
    finally:
        release.set()
        monitor.close()
        connection.close()
        connection.close_pool()
        database["OPTIONS"]["pool"] = configured
        database["OPTIONS"].pop("application_name", None)

    assert connected == 3
    assert statuses == [200] * 12
