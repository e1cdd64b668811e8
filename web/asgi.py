"""ASGI entry point: HTTP through Django, /ws/ through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402
from django.db import connections  # noqa: E402

# Under ASGI Django runs each request's code in a thread of its own; a connection kept
# open per thread (CONN_MAX_AGE) outlives the thread, and a few dozen requests exhaust
# PostgreSQL's connections ("too many clients"). Opening one per request instead cost
# 20-63 ms each on a busy machine (issue 20). So under ASGI a request borrows one from
# the process's pool (Django's, psycopg_pool: settings.DATABASE_POOL) and gives it back
# when it ends: at most DATABASE_POOL_MAX per process. The pool needs CONN_MAX_AGE 0.
# gunicorn's sync workers (web.wsgi) keep their own persistent connection.
for alias in connections:
    database = connections.settings[alias]
    database["CONN_MAX_AGE"] = 0
    if database["ENGINE"] == "floorman.database.postgresql":
        database.setdefault("OPTIONS", {})["pool"] = dict(settings.DATABASE_POOL)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402 - needs Django set up
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from web.consumers import EntryConsumer, SeriesConsumer, TournamentConsumer  # noqa: E402
from web.warmup import application_warm  # noqa: E402

# Before the server accepts a request: the first page after a start is as quick as any.
application_warm()

websocket_urlpatterns = [
    # At most 18 digits: a larger id cannot exist and would overflow a database integer.
    re_path(r"^ws/tournaments/(?P<tournament_id>[0-9]{1,18})/$", TournamentConsumer.as_asgi()),
    re_path(
        r"^ws/tournaments/(?P<tournament_id>[0-9]{1,18})/entries/(?P<entry_id>[0-9]{1,18})/$",
        EntryConsumer.as_asgi(),
    ),
    re_path(r"^ws/series/(?P<series_id>[0-9]{1,18})/$", SeriesConsumer.as_asgi()),
]

# No session or auth middleware on /ws/: the consumers are public and read-only, and
# Channels' AuthMiddlewareStack reads the session and the user from the database on
# every handshake, before any consumer runs (a connection and two queries each: issue 15).
# A consumer that needs the user must add it for its own route.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)
