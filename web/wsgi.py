"""WSGI entry point: production serves plain HTTP through gunicorn (see README)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")
application = get_wsgi_application()

from web.warmup import application_warm  # noqa: E402 - needs Django set up

# Before the worker accepts a request: the first page after a start is as quick as any.
application_warm()
