"""`manage.py serve`: run Floorman (HTTP and websockets) with uvicorn.

Embedded mode (no DATABASE_URL, or no REDIS_URL so that tasks go to the in-memory
broker) also runs a real Celery worker in this process, so one command starts it all.
In production, docker-compose.yml runs web, websocket and worker processes separately.
"""

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from floorman.bootstrap import DirectorAccountError, director_ensure
from floorman.celery import app as celery_app
from floorman.worker import start_embedded_worker

ASGI_APP = "web.asgi:application"


def broker_in_memory() -> bool:
    return settings.CELERY_BROKER_URL.startswith("memory://")


class Command(BaseCommand):
    help = "Run Floorman with uvicorn; in embedded mode with a Celery worker in the same process."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="Address to listen on.")
        parser.add_argument("--port", type=int, default=8000, help="Port to listen on.")
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="uvicorn worker processes; more than 1 needs REDIS_URL.",
        )

    def handle(self, *args, host: str, port: int, workers: int, **options) -> None:
        if workers < 1:
            raise CommandError("--workers must be at least 1.")
        # The in-memory broker and channel layer exist once per process: a task or a
        # live event sent in one uvicorn process would never reach the others.
        if workers > 1 and (broker_in_memory() or not settings.REDIS_URL):
            raise CommandError("--workers above 1 needs REDIS_URL (Redis broker and channels).")
        self.migrations_check()
        self.director_show()
        # Before uvicorn starts its own processes or threads, so none inherits it.
        connections.close_all()

        worker = None
        if settings.EMBEDDED or broker_in_memory():
            worker = start_embedded_worker(celery_app)
            self.stdout.write("Celery worker running inside this process.")
        try:
            uvicorn.run(
                ASGI_APP,
                host=host,
                port=port,
                workers=workers,
                # Django's ASGI handler does not speak the lifespan protocol.
                lifespan="off",
                # Clock events are small; compressing each one per screen costs more CPU
                # than it saves on a LAN (bench/clock_ws.py).
                ws_per_message_deflate=False,
                # Open websockets would otherwise hold Ctrl-C until screens disconnect.
                timeout_graceful_shutdown=5,
            )
        finally:
            if worker is not None:
                self.stdout.write("Stopping the Celery worker...")
                worker.stop()

    def migrations_check(self) -> None:
        connection = connections[DEFAULT_DB_ALIAS]
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            raise CommandError(
                f"{len(plan)} database migration{'' if len(plan) == 1 else 's'} not applied: "
                "run `manage.py migrate` first."
            )

    def director_show(self) -> None:
        try:
            password = director_ensure()
        except DirectorAccountError as exc:
            raise CommandError(str(exc)) from exc
        if password is None:
            return
        line = "=" * 64
        self.stdout.write(
            self.style.WARNING(
                f"{line}\n"
                "First start: a director account was created.\n\n"
                f"    username: director\n"
                f"    password: {password}\n\n"
                "This password is shown only this once. Write it down, sign in\n"
                "and change it (Change password, in the top bar). Lost it:\n"
                "`manage.py password_reset` prints a new one.\n"
                f"{line}"
            )
        )
