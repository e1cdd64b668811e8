"""Hand-for-hand (RP-8, casino §29) without a database."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.engine import handforhand as h4h
from hands.engine.places import Bust, finishing_places, in_the_money, prize_shares

# --- When it starts and ends ----------------------------------------------------------------


def test_suggested_once_the_field_is_within_the_margin_of_the_money():
    assert h4h.suggest(52, 50, margin=2)
    assert not h4h.suggest(52, 50, margin=1)
    assert h4h.suggest(51, 50)
    assert not h4h.suggest(60, 50, margin=2)


def test_not_suggested_in_the_money():
    assert not h4h.suggest(50, 50, margin=3)
    assert not h4h.suggest(12, 50, margin=3)


def test_margin_is_at_least_one_player():
    with pytest.raises(ValueError):
        h4h.suggest(51, 50, margin=0)


def test_bubble_bursts_by_itself_once_everyone_left_is_paid():
    """Casino §29: hand-for-hand lasts until the paid places are reached."""
    assert not h4h.bubble_burst(51, 50)
    assert h4h.bubble_burst(50, 50)
    assert h4h.bubble_burst(48, 50)


# --- Casino §29: rounds ----------------------------------------------------------------------


def test_next_hand_is_dealt_only_when_every_table_has_finished():
    current = h4h.announce([1, 2, 3])
    assert current.number == 0  # RP-8 A: the hand in progress counts

    current = h4h.finish(h4h.finish(current, 1), 3)
    assert not current.complete
    with pytest.raises(ValueError):
        h4h.deal(current)

    current = h4h.finish(current, 2)
    assert current.complete
    following = h4h.deal(current)
    assert following == h4h.Round(number=1, tables=frozenset({1, 2, 3}))
    assert following.playing == {1, 2, 3}


def test_all_in_table_waits_face_down_until_every_other_table_has_finished():
    """RP-8 F, casino §29a."""
    current = h4h.hold(h4h.announce([1, 2, 3]), 2)
    assert h4h.showdown_next(current) is None
    with pytest.raises(ValueError):
        h4h.finish(current, 2)  # no more cards until the others are done

    current = h4h.finish(h4h.finish(current, 1), 3)
    assert h4h.showdown_next(current) == 2

    current = h4h.finish(current, 2)
    assert current.complete


def test_several_all_in_tables_show_down_one_at_a_time_first_held_first():
    """Casino §29a: one after the other, once the rest have finished."""
    current = h4h.announce([1, 2, 3, 4])
    for table in (3, 1):
        current = h4h.hold(current, table)
    current = h4h.finish(h4h.finish(current, 2), 4)

    assert h4h.showdown_order(current) == (3, 1)
    with pytest.raises(ValueError):
        h4h.finish(current, 1)
    current = h4h.finish(current, 3)
    assert h4h.showdown_next(current) == 1
    assert h4h.finish(current, 1).complete


def test_a_table_reports_its_hand_once():
    current = h4h.finish(h4h.announce([1, 2]), 1)
    with pytest.raises(ValueError):
        h4h.finish(current, 1)
    with pytest.raises(ValueError):
        h4h.hold(current, 1)
    with pytest.raises(ValueError):
        h4h.finish(current, 9)


def test_next_hand_after_a_table_broke_between_hands():
    current = h4h.finish(h4h.finish(h4h.announce([1, 2]), 1), 2)
    assert h4h.deal(current, tables=[1]).tables == {1}


def test_busts_of_one_round_are_one_hand_at_every_table():
    assert h4h.bust_hand(table=1, hand=40, h4h_round=3) == h4h.bust_hand(
        table=7, hand=38, h4h_round=3
    )
    assert h4h.bust_hand(table=1, hand=40, h4h_round=None) != h4h.bust_hand(
        table=7, hand=40, h4h_round=None
    )


# --- RP-8 A: payoff eligibility from the announcement ---------------------------------------


def test_rp8a_example_three_bust_in_the_current_hand_and_share_the_50th_place_payout():
    """RP-8 A: 50 paid, 52 left at the announcement, three bust in the current hand at
    three tables: all three share the 50th place payout, and the bubble has burst."""
    current = h4h.announce([4, 9, 11])
    busts = [
        Bust(entry=e, table=t, stack=s, hand=h4h.bust_hand(table=t, hand=88, h4h_round=0))
        for e, t, s in ((401, 4, 2_000), (901, 9, 35_000), (1101, 11, 600))
    ]
    for table in current.tables:
        current = h4h.finish(current, table)

    places = finishing_places(52, busts)

    assert {(p.place, p.shared) for p in places.values()} == {(50, (50, 52))}
    assert all(in_the_money(p, 50) for p in places.values())
    assert prize_shares(places, {50: 15_000}) == {401: 5_000, 901: 5_000, 1101: 5_000}
    assert h4h.bubble_burst(52 - len(busts), 50)


def test_without_hand_for_hand_the_same_busts_are_placed_one_by_one():
    busts = [
        Bust(entry=e, table=t, stack=1, hand=h4h.bust_hand(table=t, hand=88, h4h_round=None))
        for e, t in ((401, 4), (901, 9), (1101, 11))
    ]
    places = finishing_places(52, busts)
    assert [places[e].place for e in (401, 901, 1101)] == [52, 51, 50]


# --- RP-8 B-D: the clock ---------------------------------------------------------------


def test_house_setting_is_capped_at_three_minutes():
    """RP-8 B: a maximum of three minutes a hand (clock.engine.take_time takes it off)."""
    assert h4h.seconds_per_hand() == 120
    assert h4h.seconds_per_hand(150) == 150
    assert h4h.seconds_per_hand(240) == 180
    with pytest.raises(ValueError):
        h4h.seconds_per_hand(-1)


# --- Properties ----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 8), st.lists(st.tuples(st.booleans(), st.integers(0, 99)), max_size=80))
def test_rounds_deal_only_when_complete_and_show_down_in_order(tables, reports):
    current = h4h.announce(range(1, tables + 1))
    held: list[int] = []
    shown: list[int] = []
    for all_in, pick in reports:
        if current.complete:
            assert shown == held  # one at a time, first held first
            current, held, shown = h4h.deal(current), [], []
            continue
        playing = sorted(current.playing)
        if playing:
            table = playing[pick % len(playing)]
            if all_in:
                current = h4h.hold(current, table)
                held.append(table)
            else:
                current = h4h.finish(current, table)
            assert h4h.showdown_next(current) in (None, *held)
        else:
            table = h4h.showdown_next(current)
            shown.append(table)
            current = h4h.finish(current, table)
        assert current.finished | set(current.held) | current.playing == current.tables
        if current.playing:
            assert h4h.showdown_next(current) is None
