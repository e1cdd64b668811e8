"""The Celery app. Tasks are thin wrappers around services and take ids, not objects."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")

app = Celery("floorman")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
