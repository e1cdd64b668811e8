"""Finishing places (IFP 4.27, casino §29b-c, RP-8 A) without a database."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.engine.places import Bust, Place, finishing_places, in_the_money, prize_shares


def places_of(players_left, *busts):
    return {
        entry: (p.place, p.shared) for entry, p in finishing_places(players_left, busts).items()
    }


# --- One at a time ------------------------------------------------------------------------


def test_busts_in_different_hands_take_the_next_place_down():
    assert places_of(
        10,
        Bust(entry=1, table=1, stack=500, hand="t1-h7"),
        Bust(entry=2, table=2, stack=9000, hand="t2-h4"),
        Bust(entry=3, table=1, stack=100, hand="t1-h8"),
    ) == {1: (10, (10, 10)), 2: (9, (9, 9)), 3: (8, (8, 8))}


def test_busts_at_different_tables_outside_hand_for_hand_do_not_share():
    """Each table's hand is its own: the one recorded first finishes lower."""
    assert places_of(
        52,
        Bust(entry=1, table=1, stack=500, hand=("table", 1, 30)),
        Bust(entry=2, table=2, stack=500, hand=("table", 2, 28)),
    ) == {1: (52, (52, 52)), 2: (51, (51, 51))}


# --- IFP 4.27, casino §29c: the same hand at the same table --------------------------------


def test_same_hand_same_table_the_bigger_starting_stack_finishes_higher():
    assert places_of(
        10,
        Bust(entry=1, table=3, stack=3000, hand="h"),
        Bust(entry=2, table=3, stack=5000, hand="h"),
        Bust(entry=3, table=3, stack=1000, hand="h"),
    ) == {2: (8, (8, 8)), 1: (9, (9, 9)), 3: (10, (10, 10))}


def test_same_hand_same_table_equal_stacks_share_the_place():
    """IFP 4.27: exactly equal stacks share."""
    assert places_of(
        10,
        Bust(entry=1, table=3, stack=4000, hand="h"),
        Bust(entry=2, table=3, stack=4000, hand="h"),
    ) == {1: (9, (9, 10)), 2: (9, (9, 10))}


def test_three_out_together_on_equal_stacks_share_44th_to_46th_ifp_4_27():
    """Issue 16: three players out in one hand at one table, each on 20,000 at its
    start, with 46 left: all three finish 44th (shared 44th-46th), none 45th or 46th."""
    busts = [Bust(entry=n, table=4, stack=20000, hand="t4-a") for n in (7, 8, 9)]

    assert places_of(46, *busts) == {n: (44, (44, 46)) for n in (7, 8, 9)}


def test_three_out_together_split_the_prizes_of_the_places_they_share():
    """Casino §29, RP-8 A: 45 places paid, so the three share the 44th and 45th prizes
    (and the unpaid 46th): 150 + 120 split three ways."""
    busts = [Bust(entry=n, table=4, stack=20000, hand="t4-a") for n in (7, 8, 9)]
    places = finishing_places(46, busts)

    assert prize_shares(places, {44: 150, 45: 120}) == {7: 90, 8: 90, 9: 90}
    assert all(in_the_money(place, 45) for place in places.values())


# --- Casino §29b, RP-8 A: hand-for-hand --------------------------------------------------


def test_hand_for_hand_busts_at_different_tables_share_whatever_their_stacks():
    assert places_of(
        20,
        Bust(entry=1, table=1, stack=100, hand="h4h-3"),
        Bust(entry=2, table=2, stack=90_000, hand="h4h-3"),
    ) == {1: (19, (19, 20)), 2: (19, (19, 20))}


def test_rp8a_three_bust_in_the_announcement_hand_all_share_the_50th_place_payout():
    """RP-8 A: 50 paid, 52 left at the announcement, three bust in the current hand."""
    busts = [Bust(entry=e, table=e, stack=1000 * e, hand="h4h-0") for e in (7, 8, 9)]
    places = finishing_places(52, busts)

    assert {p.place for p in places.values()} == {50}
    assert {p.shared for p in places.values()} == {(50, 52)}
    assert all(in_the_money(p, 50) for p in places.values())
    assert prize_shares(places, {49: 12_000, 50: 9_000}) == {7: 3000, 8: 3000, 9: 3000}


def test_same_table_order_within_a_hand_for_hand_hand_shared_across_tables():
    """Both rules at once: at table 1 A outlasted B (more chips); C busted alone at
    table 2 and ties with the best of table 1."""
    a, b, c = 1, 2, 3
    places = places_of(
        51,
        Bust(entry=a, table=1, stack=9000, hand="h4h-2"),
        Bust(entry=b, table=1, stack=1000, hand="h4h-2"),
        Bust(entry=c, table=2, stack=500, hand="h4h-2"),
    )

    assert places == {a: (49, (49, 50)), c: (49, (49, 50)), b: (51, (51, 51))}


def test_a_bust_recorded_late_joins_its_own_hand():
    places = places_of(
        30,
        Bust(entry=1, table=1, stack=100, hand="h4h-1"),
        Bust(entry=2, table=1, stack=100, hand="h4h-2"),
        Bust(entry=3, table=2, stack=100, hand="h4h-1"),  # table 2 reported late
    )

    assert places == {1: (29, (29, 30)), 3: (29, (29, 30)), 2: (28, (28, 28))}


# --- Undo -----------------------------------------------------------------------------------


def test_undoing_the_last_bust_gives_back_the_places_before_it():
    busts = [
        Bust(entry=1, table=1, stack=100, hand="a"),
        Bust(entry=2, table=1, stack=300, hand="b"),
        Bust(entry=3, table=1, stack=200, hand="b"),
        Bust(entry=4, table=2, stack=200, hand="b"),
    ]
    recorded = [finishing_places(9, busts[:n]) for n in range(len(busts) + 1)]

    while busts:
        busts.pop()
        assert finishing_places(9, busts) == recorded[len(busts)]


# --- Refusals and prizes ----------------------------------------------------------------


def test_an_entry_busts_only_once():
    with pytest.raises(ValueError):
        finishing_places(5, [Bust(1, 1, 10, "a"), Bust(1, 1, 10, "b")])


def test_somebody_has_to_win():
    with pytest.raises(ValueError):
        finishing_places(2, [Bust(1, 1, 10, "a"), Bust(2, 2, 10, "a")])


def test_shared_prize_splits_the_pool_and_the_odd_unit_goes_to_the_first_recorded():
    places = {
        5: Place(5, 7, (7, 9)),
        6: Place(6, 7, (7, 9)),
        4: Place(4, 7, (7, 9)),
        3: Place(3, 6, (6, 6)),
    }
    shares = prize_shares(places, {6: 500, 7: 50, 8: 30, 9: 20})
    assert shares == {5: 34, 6: 33, 4: 33, 3: 500}


def test_a_shared_range_below_the_money_wins_nothing():
    place = Place(1, 51, (51, 52))
    assert not in_the_money(place, 50)
    assert prize_shares({1: place}, {50: 100}) == {1: 0}


# --- Properties ----------------------------------------------------------------------------


@st.composite
def bust_lists(draw):
    count = draw(st.integers(0, 25))
    players_left = count + draw(st.integers(1, 20))
    hands = draw(st.lists(st.integers(0, 6), min_size=count, max_size=count))
    tables = draw(st.lists(st.integers(1, 3), min_size=count, max_size=count))
    stacks = draw(st.lists(st.sampled_from([0, 100, 200, 500]), min_size=count, max_size=count))
    busts = [
        Bust(entry=i, table=t, stack=s, hand=h)
        for i, (h, t, s) in enumerate(zip(hands, tables, stacks, strict=True))
    ]
    return players_left, busts


@settings(max_examples=300, deadline=None)
@given(bust_lists())
def test_places_cover_the_range_without_gaps_and_ties_cover_contiguous_ranges(case):
    players_left, busts = case
    places = finishing_places(players_left, busts)

    block = list(range(players_left - len(busts) + 1, players_left + 1))
    ranges = {p.shared for p in places.values()}
    assert sorted(n for first, last in ranges for n in range(first, last + 1)) == block
    for first, last in ranges:
        sharing = [p for p in places.values() if p.shared == (first, last)]
        assert len(sharing) == last - first + 1
        assert {p.place for p in sharing} == {first}
    if not any(p.tied for p in places.values()):
        assert sorted(p.place for p in places.values()) == block  # a permutation


@settings(max_examples=300, deadline=None)
@given(bust_lists())
def test_same_table_same_hand_bigger_stack_never_finishes_lower(case):
    players_left, busts = case
    places = finishing_places(players_left, busts)
    for a in busts:
        for b in busts:
            if (a.hand, a.table) == (b.hand, b.table) and a.stack > b.stack:
                assert places[a.entry].place < places[b.entry].place
            if (a.hand, a.table) == (b.hand, b.table) and a.stack == b.stack:
                assert places[a.entry] == Place(
                    a.entry, places[b.entry].place, places[b.entry].shared
                )


@settings(max_examples=300, deadline=None)
@given(bust_lists(), st.integers(1, 5))
def test_a_later_hand_never_moves_an_earlier_place(case, extra):
    players_left, busts = case
    before = finishing_places(players_left + extra, busts)
    later = [Bust(entry=1000 + i, table=1, stack=1, hand="later") for i in range(extra)]

    after = finishing_places(players_left + extra, busts + later)

    assert {e: after[e] for e in before} == before
    assert {after[b.entry].place for b in later} == {players_left - len(busts) + 1}


# --- The house's reading of busts in the same hand (issue 19: same_hand_busts) -------------

HAND_FOR_HAND = [
    Bust(entry=1, table=1, stack=3000, hand="h4h-7"),
    Bust(entry=2, table=2, stack=8000, hand="h4h-7"),
    Bust(entry=3, table=1, stack=9000, hand="h4h-7"),
]


def read(same_hand, players_left, busts):
    found = finishing_places(players_left, busts, same_hand=same_hand)
    return {entry: (p.place, p.shared) for entry, p in found.items()}


def test_tda_reading_ranks_each_table_by_stack_and_shares_across_tables():
    # Table 1: 9,000 before 3,000; table 2's player holds rank 1 there, beside entry 3.
    assert read("tda", 20, HAND_FOR_HAND) == {
        3: (18, (18, 19)),
        2: (18, (18, 19)),
        1: (20, (20, 20)),
    }


def test_ifp_4_27_reading_ranks_by_starting_stack_at_every_table():
    assert read("stack", 20, HAND_FOR_HAND) == {
        3: (18, (18, 18)),
        2: (19, (19, 19)),
        1: (20, (20, 20)),
    }


def test_share_reading_gives_everyone_out_in_the_hand_the_same_places():
    assert read("share", 20, HAND_FOR_HAND) == {entry: (18, (18, 20)) for entry in (1, 2, 3)}


def test_an_unknown_reading_is_refused():
    with pytest.raises(ValueError):
        finishing_places(20, HAND_FOR_HAND, same_hand="loudest")
