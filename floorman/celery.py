"""The Celery app. Tasks are thin wrappers around services and take ids, not objects."""

import os

from celery import Celery
from celery.signals import task_postrun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")

app = Celery("floorman")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_postrun.connect
def _close_database_connections(**kwargs) -> None:
    """The embedded worker runs tasks on pool threads; each thread's database
    connection would outlive the thread (and block dropping a test database)."""
    from django.db import connections

    connections.close_all()
