"""Bounties (issue 18): who eliminated whom from the logged hand, and what each bust pays in a
knockout, a progressive knockout and a mystery bounty event. No database."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.engine.bounties import (
    BountyPayment,
    Elimination,
    MysteryPrize,
    bounty_shares,
    eliminations,
    eliminators,
    knockout_payments,
    mystery_draw,
    mystery_payments,
    mystery_pool,
    mystery_replay,
    pko_cash,
    pko_hand,
    pko_winner,
    settle_order,
)
from hands.engine.pots import Pot, build_pots
from hands.engine.showdown import Award, award_pots

# A rainbow board without straights or flushes: sets beat pairs beat ace high.
BOARD = "2c 7d 9h Jd Ks"
KINGS = "Kh Kc"  # a set of kings, the best hand here
JACKS = "Jh Jc"  # a set of jacks
NINES = "9c 9d"  # a set of nines
ACE_HIGH = "Ac Qc"


def showdown(contributions, holdings, folded=(), order=(1, 2, 3, 4, 5, 6)):
    pots = build_pots(contributions, folded)
    return award_pots(pots, holdings, BOARD, order_from_button=order)


# --- who eliminated whom: the pot the player was all-in for (TDA 21) ----------------------------


def test_the_winner_of_the_only_pot_eliminates_the_player_all_in():
    awards = showdown({1: 500, 2: 500}, {1: ACE_HIGH, 2: KINGS})
    assert eliminators(1, awards) == (2,)


def test_short_stack_is_eliminated_by_the_main_pot_winner_not_the_side_pot_winner():
    """Seats 1 and 2 are all-in for 100; 3 and 4 play a side pot above it. Seat 2 wins the
    main pot, seat 3 the side pot: seat 1 could only lose the main pot, so 2 eliminated it."""
    awards = showdown({1: 100, 2: 100, 3: 500, 4: 500}, {1: ACE_HIGH, 2: KINGS, 3: JACKS, 4: NINES})
    assert [a.high for a in awards] == [(2,), (3,)]
    assert eliminators(1, awards) == (2,)
    assert eliminators(4, awards) == (3,)  # 4 was in the side pot: its loser to 3


def test_middle_stack_is_eliminated_by_whoever_won_the_highest_pot_it_was_in():
    """Seat 1 (100) wins the main pot; seat 2 is all-in for 300 and loses the side pot to 3,
    who covered it. 2 lost the main pot to 1 too, but the pot it was all-in for was 3's."""
    awards = showdown({1: 100, 2: 300, 3: 300}, {1: KINGS, 2: NINES, 3: JACKS})
    assert eliminators(2, awards) == (3,)


def test_a_player_who_won_chips_did_not_bust():
    awards = showdown({1: 100, 2: 300, 3: 300}, {1: KINGS, 2: NINES, 3: JACKS})
    with pytest.raises(ValueError):
        eliminators(1, awards)


def test_a_player_who_folded_was_not_eliminated_in_the_hand():
    awards = showdown({1: 200, 2: 500, 3: 500}, {2: KINGS, 3: JACKS}, folded={1})
    with pytest.raises(ValueError):
        eliminators(1, awards)
    with pytest.raises(ValueError):
        eliminators(6, awards)  # not in the hand at all


def test_a_split_pot_has_several_eliminators_in_odd_chip_order():
    """Seats 2 and 4 chop with the same ace-king; odd chips (and bounty units) go from the
    button (TDA 20-A), so with the button on 3, seat 4 comes first."""
    awards = showdown(
        {1: 100, 2: 500, 4: 500}, {1: ACE_HIGH, 2: "Ah Kd", 4: "Ad Kh"}, order=(4, 5, 6, 1, 2)
    )
    assert eliminators(1, awards) == (4, 2)


def test_hi_lo_the_high_and_the_low_winner_both_eliminated_the_player():
    """TDA 20-C splits the pot into a high and a low half: both halves' winners share."""
    pot = Pot(900, (1, 2, 3))
    awards = [Award(pot, high=(2,), low=(3,), shares={2: 450, 3: 450})]
    assert eliminators(1, awards) == (2, 3)
    scoop = [Award(pot, high=(2,), low=(2,), shares={2: 900})]
    assert eliminators(1, scoop) == (2,)


def test_several_players_busted_in_one_hand_each_by_their_own_pot():
    """1 and 2 are all-in for 100, 3 for 300, 4 covers. 2 wins the main pot, 4 the side pot:
    1 was eliminated by 2, 3 by 4."""
    awards = showdown({1: 100, 2: 100, 3: 300, 4: 300}, {1: ACE_HIGH, 2: KINGS, 3: NINES, 4: JACKS})
    assert eliminations([1, 3], awards) == {1: (2,), 3: (4,)}


def test_busts_of_one_hand_settle_smallest_starting_stack_first():
    """As places rank them (IFP 4.27, casino §29c); equal stacks by id, so it is stable."""
    hand = [Elimination(7, (2,), 900), Elimination(5, (2,), 300), Elimination(3, (2,), 900)]
    assert [e.busted for e in settle_order(hand)] == [5, 3, 7]


# --- splitting a bounty: odd units as odd chips (TDA 20) -----------------------------------------


def test_a_split_bounty_is_shared_equally():
    assert bounty_shares(10000, (4, 2), unit=100) == {4: 5000, 2: 5000}


def test_odd_units_go_one_each_from_the_button():
    """100 euros three ways in whole euros: 34, 33, 33, the odd euro to the first seat left
    of the button, whatever order the eliminators were listed in."""
    shares = bounty_shares(10000, (2, 5, 8), unit=100, order=(5, 8, 1, 2))
    assert shares == {5: 3400, 8: 3300, 2: 3300}


def test_cents_below_the_house_unit_go_to_the_first_in_order():
    shares = bounty_shares(10050, (3, 6), unit=100)
    assert shares == {3: 5050, 6: 5000}
    assert sum(shares.values()) == 10050


def test_the_odd_unit_order_must_list_every_eliminator():
    with pytest.raises(ValueError):
        bounty_shares(10000, (2, 5), unit=100, order=(5, 8))
    with pytest.raises(ValueError):
        bounty_shares(10000, (), unit=100)


# --- knockout: a fixed bounty -------------------------------------------------------------------


def test_knockout_pays_each_busted_entrys_bounty_to_its_eliminators():
    bounties = {1: 5000, 3: 5000}
    hand = [Elimination(3, (4,), 300), Elimination(1, (2, 4), 100)]
    assert knockout_payments(hand, bounties, unit=100) == (
        BountyPayment(1, 2, 2500),
        BountyPayment(1, 4, 2500),
        BountyPayment(3, 4, 5000),
    )


def test_nobody_eliminates_themselves_or_busts_twice():
    with pytest.raises(ValueError):
        knockout_payments([Elimination(1, (1,))], {1: 5000})
    with pytest.raises(ValueError):
        knockout_payments([Elimination(1, (2,)), Elimination(1, (3,))], {1: 5000})


# --- progressive knockout -----------------------------------------------------------------------


def test_pko_pays_half_in_cash_and_puts_half_on_the_eliminators_head():
    result = pko_hand({1: 5000, 2: 5000}, [Elimination(1, (2,))], unit=100)
    assert result.payments == (BountyPayment(1, 2, cash=2500, added=2500),)
    assert result.bounties == {2: 7500}


def test_pko_cash_share_is_a_setting_rounded_down_to_the_house_unit():
    assert pko_cash(7500, 50, unit=100) == 3700  # 37.50 euros: 37 paid, 38 go on the head
    assert pko_cash(10000, 30, unit=100) == 3000
    with pytest.raises(ValueError):
        pko_cash(10000, 120)


def test_pko_chain_over_several_hands_ends_with_the_winner_collecting_their_own():
    """Four 50-euro bounties, whole euros. Hand 1: 2 busts 1. Hand 2: 3 busts 2 (75 euros:
    37 cash, 38 on 3's head). Hand 3: 4 busts 3 (88 euros: 44 and 44). 4 wins and collects."""
    bounties = {1: 5000, 2: 5000, 3: 5000, 4: 5000}
    paid = 0
    for busted, eliminator in ((1, 2), (2, 3), (3, 4)):
        hand = pko_hand(bounties, [Elimination(busted, (eliminator,))], unit=100)
        paid += sum(p.cash for p in hand.payments)
        bounties = hand.bounties
    assert bounties == {4: 5000 + 4400}
    assert paid == 2500 + 3700 + 4400
    final = pko_winner(bounties, 4)
    assert final == BountyPayment(4, 4, 9400)
    assert paid + final.cash == 4 * 5000


def test_pko_several_busts_in_one_hand_pay_from_the_bounties_at_its_start():
    """2 busts 5 (smaller stack) and 1 in one hand: both bounties are paid from what they
    were when the hand began, and 2's head grows by both halves for the next hand."""
    bounties = {1: 8000, 2: 6000, 5: 4000}
    hand = [Elimination(1, (2,), stack=9000), Elimination(5, (2,), stack=2000)]
    result = pko_hand(bounties, hand, unit=100)
    assert result.payments == (
        BountyPayment(5, 2, cash=2000, added=2000),
        BountyPayment(1, 2, cash=4000, added=4000),
    )
    assert result.bounties == {2: 12000}


def test_pko_split_elimination_shares_cash_and_head_the_same_way():
    """3 and 4 chop the pot 1 was all-in for. Its 51 euros: 25 in cash and 26 on the heads,
    each half shared in whole euros, the odd one to 4, first from the button."""
    result = pko_hand({1: 5100, 3: 5000, 4: 5000}, [Elimination(1, (4, 3))], unit=100)
    assert result.payments == (
        BountyPayment(1, 4, cash=1300, added=1300),
        BountyPayment(1, 3, cash=1200, added=1300),
    )
    assert result.bounties == {3: 6300, 4: 6300}


def test_pko_an_eliminator_cannot_bust_in_the_same_hand():
    with pytest.raises(ValueError):
        pko_hand({1: 100, 2: 100, 3: 100}, [Elimination(1, (2,)), Elimination(2, (3,))])


def test_the_winner_collects_only_when_no_other_bounty_is_in_play():
    with pytest.raises(ValueError):
        pko_winner({4: 9400, 2: 5000}, 4)


@st.composite
def pko_events(draw):
    """A whole PKO event: bounties, then hands each busting some of the players left, each by
    one or several of the others, with random stacks."""
    players = draw(st.integers(2, 7))
    bounties = {p: draw(st.integers(0, 50000)) for p in range(1, players + 1)}
    left = sorted(bounties)
    hands = []
    while len(left) > 1:
        busted = draw(
            st.lists(st.sampled_from(left), min_size=1, max_size=len(left) - 1, unique=True)
        )
        survivors = [p for p in left if p not in busted]
        hand = [
            Elimination(
                b,
                tuple(draw(st.lists(st.sampled_from(survivors), min_size=1, unique=True))),
                draw(st.integers(1, 3)),
            )
            for b in busted
        ]
        hands.append(hand)
        left = survivors
    return bounties, hands, left[0]


@settings(max_examples=50, deadline=None)
@given(
    pko_events(),
    st.integers(0, 100),
    st.sampled_from([1, 100, 500]),
    st.randoms(use_true_random=False),
)
def test_pko_bounty_money_in_equals_cash_paid_plus_the_winners_own(event, percent, unit, rnd):
    """Whatever the busts, splits and the order a hand's busts were recorded in."""
    bounties, hands, winner = event
    money_in = sum(bounties.values())
    paid = 0
    for hand in hands:
        result = pko_hand(bounties, hand, cash_percent=percent, unit=unit)
        shuffled = list(hand)
        rnd.shuffle(shuffled)
        assert pko_hand(bounties, shuffled, cash_percent=percent, unit=unit) == result
        paid += sum(p.cash for p in result.payments)
        bounties = result.bounties
    assert money_in == paid + pko_winner(bounties, winner).cash


# --- mystery bounty: a seeded draw from the published prizes ------------------------------------

PRIZES = [MysteryPrize(100000, 1), MysteryPrize(10000, 3), MysteryPrize(2000, 6)]


def test_the_published_list_becomes_one_sealed_bounty_per_prize():
    assert mystery_pool(PRIZES) == (100000, 10000, 10000, 10000) + (2000,) * 6


def test_the_same_seed_replays_the_same_draws():
    pool = mystery_pool(PRIZES)
    first = mystery_replay(pool, "event-42", 5)
    assert mystery_replay(pool, "event-42", 5) == first
    assert mystery_replay(pool, "event-42", 3) == first[:3]  # one draw after another
    assert sorted(mystery_replay(pool, "event-42", 10)) == sorted(pool)  # each drawn once


def test_a_drawn_prize_leaves_the_pool_and_the_stored_order_does_not_matter():
    pool = mystery_pool(PRIZES)
    drawn, left = mystery_draw(pool, random.Random(7))
    assert len(left) == len(pool) - 1
    assert sorted((*left, drawn)) == sorted(pool)
    assert mystery_draw(reversed(pool), random.Random(7)) == (drawn, left)


def test_drawing_from_an_empty_pool_is_refused():
    left = mystery_pool([MysteryPrize(5000, 1)])
    prize, left = mystery_draw(left, random.Random(1))
    assert (prize, left) == (5000, ())
    with pytest.raises(ValueError):
        mystery_draw(left, random.Random(1))


def test_a_split_elimination_shares_the_drawn_mystery_bounty():
    """A 101-euro envelope for 6 and 2, who chopped: the odd euro to 6, first from the button."""
    payments, left = mystery_payments(Elimination(4, (6, 2)), [10100], random.Random(3), 100)
    assert payments == (BountyPayment(4, 6, 5100), BountyPayment(4, 2, 5000))
    assert left == ()
