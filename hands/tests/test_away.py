"""The hands a player sits out (TDA 71-C), counted by the hands app: from the end of the
hand in play at the table where it began (TDA 68), one record after the other for a
player sent away twice, at any table after a move, and no more once cancelled. Only a
hand dealt dead counts: the deal decides it (hands.engine.away) and keeps it."""

import pytest
from django.db import IntegrityError, transaction

from clock.tests.factories import with_structure
from hands.engine.away import Serving, begun, dead_seats
from hands.models import Away
from hands.selectors import away_seats, away_serving, table_state_public
from hands.services.away import away_end, away_hands_count, away_start
from hands.tests.factories import button_at, deal, finish, seat_players
from seating import services as seating
from seating.models import Table
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = tournament()
    with_structure(event)  # level 1: 100/200
    return event


def table(event, number: int) -> Table:
    return Table.objects.get(tournament=event, number=number)


def send_away(event, entry, number: int, hands: int) -> Away:
    return away_start(tournament=event, entry=entry, table=table(event, number), hands=hands)


def counts(*records: Away) -> list[tuple[int, bool]]:
    """Each record's hands missed and whether it has ended, as stored."""
    for record in records:
        record.refresh_from_db()
    return [(record.hands_missed, record.ended_at is not None) for record in records]


def test_counting_starts_after_the_hand_in_play_at_the_same_table_tda_68(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    first = deal(event, 1)
    away = send_away(event, seated[(1, 3)], 1, hands=2)
    assert (away.table_number, away.after_hand) == (1, first.number)

    finish(event, 1, first)  # the hand it was given in does not count
    assert counts(away) == [(0, False)]

    finish(event, 1, deal(event, 1))
    assert counts(away) == [(1, False)]

    finish(event, 1, deal(event, 1))
    assert counts(away) == [(2, True)]
    assert away.cancelled is False
    assert away_seats(event.pk, 1) == {}


def test_before_the_first_hand_the_first_hand_counts(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    away = send_away(event, seated[(1, 2)], 1, hands=1)
    assert away.after_hand is None

    finish(event, 1, deal(event, 1))

    assert counts(away) == [(1, True)]


def test_two_records_at_once_are_served_one_after_the_other(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    offender = seated[(1, 2)]
    first = send_away(event, offender, 1, hands=2)
    second = send_away(event, offender, 1, hands=1)
    assert away_seats(event.pk, 1) == {2: 3}  # the hands left add up

    finish(event, 1, deal(event, 1))
    assert counts(first, second) == [(1, False), (0, False)]

    finish(event, 1, deal(event, 1))
    assert counts(first, second) == [(2, True), (0, False)]
    assert away_seats(event.pk, 1) == {2: 1}

    finish(event, 1, deal(event, 1))
    assert counts(first, second) == [(2, True), (1, True)]
    assert away_seats(event.pk, 1) == {}


def test_a_cancelled_record_ends_and_counts_no_more(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    away = send_away(event, seated[(1, 3)], 1, hands=3)
    finish(event, 1, deal(event, 1))

    away_end(away=away)
    finish(event, 1, deal(event, 1))

    assert counts(away) == [(1, True)]
    assert away.cancelled is True
    assert table_state_public(table(event, 1))["away"] == {}


def test_hands_at_another_table_after_a_move_count(event):
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    offender = seated[(1, 3)]
    for _ in range(3):  # table 1 is at its fourth hand, table 2 at its first
        finish(event, 1, deal(event, 1))
    playing = deal(event, 1)
    away = send_away(event, offender, 1, hands=2)
    assert away.after_hand == playing.number == 4
    finish(event, 1, playing)
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=offender.pk, to_table=2, to_seat=5
    )
    assert away_seats(event.pk, 1) == {} and away_seats(event.pk, 2) == {5: 2}

    # Hand 1 of table 2 is no earlier than the penalty: table 2 never dealt hand 4.
    finish(event, 2, deal(event, 2))

    assert counts(away) == [(1, False)]
    assert table_state_public(table(event, 2))["away"] == {"5": 1}


def test_a_player_not_dealt_in_misses_no_hand(event):
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2]})
    button_at(event, 1, 1)
    away = send_away(event, seated[(2, 1)], 2, hands=1)

    hand = deal(event, 1)
    away_hands_count(
        tournament=event, table=table(event, 1), hand=hand, entry_ids=[seated[(1, 1)].pk]
    )

    assert counts(away) == [(0, False)]


def test_the_database_refuses_more_hands_missed_than_given(event):
    seated = seat_players(event, {1: [1, 2]})
    away = send_away(event, seated[(1, 1)], 1, hands=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Away.objects.filter(pk=away.pk).update(hands_missed=2)


# --- The rule, as the engine has it (TDA 68, 71-C) ----------------------------------------


def test_tda_68_a_penalty_begins_with_the_hand_after_the_one_in_play():
    assert not begun(given_at=1, after_hand=4, table=1, hand=4)
    assert begun(given_at=1, after_hand=4, table=1, hand=5)
    assert begun(given_at=1, after_hand=None, table=1, hand=1)  # no hand dealt yet
    assert begun(given_at=1, after_hand=9, table=2, hand=1)  # moved: any hand there


def test_dead_seats_are_those_whose_penalty_has_begun():
    serving = [Serving(2, 1, 3), Serving(5, 1, 4), Serving(7, 2, 8)]

    assert dead_seats(serving, table=1, hand=4) == {2, 7}
    assert dead_seats(serving, table=1, hand=5) == {2, 5, 7}
    assert dead_seats([], table=1, hand=1) == frozenset()


def test_the_deal_keeps_the_dead_seats_and_only_those_hands_count(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    playing = deal(event, 1)
    early = send_away(event, seated[(1, 2)], 1, hands=1)
    assert away_serving(event.pk, 1) == [Serving(2, 1, playing.number)]
    assert not playing.players.filter(dead=True).exists()  # TDA 68: this hand stays live

    finish(event, 1, playing)
    nxt = deal(event, 1)

    assert list(nxt.players.filter(dead=True).values_list("seat", flat=True)) == [2]
    finish(event, 1, nxt)
    assert counts(early) == [(1, True)]
