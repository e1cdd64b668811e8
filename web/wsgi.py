"""WSGI entry point: production serves plain HTTP through gunicorn (see README)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")
application = get_wsgi_application()
