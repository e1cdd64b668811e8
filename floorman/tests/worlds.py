"""A test module's world, made once: the rows many tests start from.

Building a world (tournaments, tables, seated entries, staff) costs far more than a
request against it. `world_fixtures(build)` gives a module two fixtures:

- `world_made` (module scope): `build()` run once, inside a transaction that is rolled
  back when the module is done, so nothing of it outlives the module;
- `world` (each test): the test runs in a savepoint inside that transaction
  (pytest-django's `db`), rolled back after it, so every test starts from the same rows
  whatever the one before wrote; it gets a deep copy of the objects, so changes a test
  makes to them in memory stay with it too.

Not for tests that need committed data (`transactional_db`, the browser tests).
"""

import copy

import pytest
from django.db import transaction
from django.test import override_settings

from seating import selectors as seating_selectors

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def world_fixtures(build):
    @pytest.fixture(scope="module")
    def world_made(django_db_setup, django_db_blocker):
        # Made before any test's own fixtures: with the tests' fast password hasher
        # (conftest.py), so that the staff it makes can log in.
        # The block is the tests' own, never committed, as the one pytest-django's `db`
        # opens: marked as Django's TestCase marks its blocks, so that the callbacks run
        # before a commit (the audit entries, floorman/database/hooks.py) run here too.
        module_block = transaction.atomic()
        module_block._from_testcase = True  # noqa: SLF001
        with (
            django_db_blocker.unblock(),
            module_block,
            override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        ):
            yield build()
            transaction.set_rollback(True)

    @pytest.fixture
    def world(world_made, db):
        # The seat lookup keeps each tournament's index in the process, labelled with the
        # tournament's version; the rollback takes that version back, so an index built in
        # an earlier test would pass for the current one.
        seating_selectors._field_indexes.clear()  # noqa: SLF001
        return copy.deepcopy(world_made)

    return world_made, world
