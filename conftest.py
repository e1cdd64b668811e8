"""Test-wide rules: tests that need PostgreSQL or Redis skip, saying why, when absent.

FLOORMAN_VAR_DIR is set earlier, in floorman/pytest_plugin.py, because pytest-django
loads the settings before this file is imported.
"""

import os

import pytest
from django.conf import settings

NEEDS_POSTGRES = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL")
NEEDS_REDIS = pytest.mark.skip(reason="needs Redis: set REDIS_URL")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on_postgres = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    has_redis = bool(os.environ.get("REDIS_URL", "").strip())
    for item in items:
        if item.get_closest_marker("postgres") and not on_postgres:
            item.add_marker(NEEDS_POSTGRES)
        if item.get_closest_marker("redis") and not has_redis:
            item.add_marker(NEEDS_REDIS)
