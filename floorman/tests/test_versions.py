"""floorman.versions: values filed per tournament version, of one kind or several."""

import pytest
from django.core.cache import caches

from floorman import versions
from floorman.versions import (
    CACHE,
    SCREENS,
    keys,
    local_cached,
    screen_cached,
    screen_cached_at,
    screen_version,
    screens_changed,
)

pytestmark = pytest.mark.django_db

CLOCK = "clock"


class Builds:
    """A build that counts its calls and returns the count."""

    def __init__(self):
        self.count = 0

    def __call__(self) -> int:
        self.count += 1
        return self.count


def test_a_value_is_built_once_per_version():
    build = Builds()
    assert screen_cached("value", 1, build) == 1
    assert screen_cached("value", 1, build) == 1

    screens_changed([1])

    assert screen_cached("value", 1, build) == 2


@pytest.mark.parametrize("kind", [SCREENS, CLOCK])
def test_a_value_of_two_kinds_is_built_again_when_either_changes(kind):
    build = Builds()
    both = (SCREENS, CLOCK)
    assert screen_cached("both", 7, build, kinds=both) == 1
    assert screen_cached("both", 7, build, kinds=both) == 1

    screens_changed([7], kind=kind)

    assert screen_cached("both", 7, build, kinds=both) == 2
    assert screen_cached("both", 7, build, kinds=both) == 2


def test_another_tournaments_change_leaves_the_value():
    build = Builds()
    assert screen_cached("value", 1, build, kinds=(SCREENS, CLOCK)) == 1

    screens_changed([2], kind=CLOCK)

    assert screen_cached("value", 1, build, kinds=(SCREENS, CLOCK)) == 1


def test_nothing_is_filed_for_none():
    """None (no such tournament) is built again at every read: a 404 stays a 404 until
    the tournament exists, with no value of its own in the way."""
    calls = []
    assert screen_cached("missing", 3, lambda: calls.append(1)) is None
    assert screen_cached("missing", 3, lambda: calls.append(1)) is None
    assert len(calls) == 2


def test_a_copy_kept_by_this_process_is_not_served_after_a_change_elsewhere():
    """Another process's change renews the version in the shared cache: this process's
    copy, filed at the old version, is not served."""
    build = Builds()
    assert screen_cached("value", 4, build) == 1
    version_keys, _value_key = keys("value", 4)
    caches[CACHE].set(version_keys[0], "renewed elsewhere")  # as _new_versions does

    assert screen_cached("value", 4, build) == 2


def test_a_value_filed_by_another_process_is_read_and_kept():
    build = Builds()
    assert screen_cached("value", 5, build) == 1
    versions.copies.clear()  # another process: nothing of its own

    assert screen_cached("value", 5, build) == 1
    assert build.count == 1


def test_what_is_derived_is_kept_per_versions():
    built = []
    at, _value = screen_cached_at("value", 6, Builds())

    def page():
        built.append(1)
        return f"page {len(built)}"

    assert local_cached("page", at, page) == "page 1"
    assert local_cached("page", at, page) == "page 1"
    screens_changed([6])
    at, _value = screen_cached_at("value", 6, Builds())
    assert local_cached("page", at, page) == "page 2"
    assert local_cached("page", None, page) == "page 3"  # the cache is down: not kept


@pytest.mark.parametrize("kind", [SCREENS, CLOCK])
def test_the_version_a_paged_value_is_filed_under_changes_with_its_kind(kind):
    """The table map files its pages under `screen_version` (issue 20): a change of that
    kind gives a new one, a change of another kind or tournament leaves it."""
    before = screen_version(5, kind)
    assert screen_version(5, kind) == before

    screens_changed([6], kind)
    screens_changed([5], CLOCK if kind == SCREENS else SCREENS)
    assert screen_version(5, kind) == before

    screens_changed([5], kind)
    assert screen_version(5, kind) not in (None, before)
