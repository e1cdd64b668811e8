"""The Celery app. Tasks are thin wrappers around services and take ids, not objects."""

import logging
import os

from celery import Celery, bootsteps
from celery.signals import task_postrun, worker_process_shutdown
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")

app = Celery("floorman")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)

TIMERS_RESEND = "web.tasks.timers_resend"
# Sent by the clock when its level change closes a satellite's registration: the seats'
# check is the hands app's, above the clock (web.tasks.satellite_seats_check).
SATELLITE_SEATS_CHECK = "web.tasks.satellite_seats_check"


class TimersResend(bootsteps.StartStopStep):
    """Each time the worker starts consuming, at start and after it reconnects to the
    broker, the timed tasks are sent again (web.tasks.timers_resend).

    A worker holds the tasks that wait for their eta itself. When it crashes, Redis gives
    them back only after the visibility timeout (hours: settings); when the connection to
    Redis is lost, the worker drops them; and in embedded mode they die with the process.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, consumer) -> None:
        try:
            # By name: the task calls the apps, and the core imports none of them.
            app.signature(TIMERS_RESEND).apply_async()
        except Exception:  # the broker went away again: the next reconnection tries again
            logger.exception("The timed tasks were not sent again.")


app.steps["consumer"].add(TimersResend)

# kombu 5.7's Redis transport, on losing the broker, tries to give back the tasks the
# worker holds through a connection it has just closed; the AttributeError leaves the
# worker hung, consuming nothing, until someone restarts it (floorman/tests/faults/
# test_redis_restart.py). Without that step the tasks stay in Redis's unacked set and
# return after the visibility timeout; the timed ones, the only ones a worker holds
# for long, are sent again at once by TimersResend when the worker reconnects.
kombu_redis.Channel.do_restore = False


@task_postrun.connect
def _close_database_connections(**kwargs) -> None:
    """The embedded worker runs tasks on pool threads; each thread's database
    connection would outlive the thread (and block dropping a test database)."""
    from django.db import connections  # noqa: PLC0415 - Django is set up only once the worker starts

    connections.close_all()


@worker_process_shutdown.connect
def _live_events_sent(**kwargs) -> None:
    """A pool process leaves with os._exit (no atexit): the live events its last tasks
    handed to its sender go out first (floorman.live)."""
    from floorman import live  # noqa: PLC0415 - Django is set up only once the worker starts

    live.flush()
