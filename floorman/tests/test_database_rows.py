"""One column of many rows in one statement (floorman.database.rows): the stacks a hand
leaves, written without an expression per player."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from floorman.database.rows import column_set
from tournaments.models import Entry
from tournaments.tests.factories import field, tournament

pytestmark = pytest.mark.django_db


def test_each_row_gets_its_own_value_in_one_statement():
    event = tournament()
    first, second, third = field(event, 3)

    with CaptureQueriesContext(connection) as captured:
        column_set(Entry, "chips", {first.pk: 5_000, second.pk: 41_000}, tournament=event.pk)

    assert len(captured.captured_queries) == 1
    chips = dict(Entry.objects.filter(tournament=event).values_list("pk", "chips"))
    assert chips == {first.pk: 5_000, second.pk: 41_000, third.pk: event.starting_stack}


def test_rows_outside_the_scope_are_left_alone():
    event, other = tournament(name="Main"), tournament(name="Side")
    (mine,) = field(event, 1)
    (theirs,) = field(other, 1)

    column_set(Entry, "chips", {mine.pk: 1, theirs.pk: 2}, tournament=event.pk)

    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.chips, theirs.chips) == (1, other.starting_stack)


def test_nothing_to_write_asks_nothing():
    with CaptureQueriesContext(connection) as captured:
        column_set(Entry, "chips", {})
    assert not captured.captured_queries
