"""floorman.versions: values filed per tournament version, of one kind or several."""

import pytest

from floorman.versions import SCREENS, screen_cached, screens_changed

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
