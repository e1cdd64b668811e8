"""Button and blinds (TDA 10-A, 11-A, 11-D, 32, 34-B, RP-11; IFP 2.1, 3.1, 3.7; casino
§16, §31) without a database."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.engine import ANTE_BIG_BLIND, ANTE_NONE, ANTE_TRADITIONAL
from seating import engine as seating
from seating.engine import blinds
from seating.engine.blinds import Positions

NINE = tuple(range(1, 10))


def seated(*seats):
    """Seat -> entry, the entry being 100 + seat."""
    return {seat: 100 + seat for seat in seats}


def after(last: Positions) -> dict:
    """What the next hand needs to know about the last one."""
    return {
        "button": last.button,
        "small_blind": last.small_blind_seat,
        "big_blind": last.big_blind,
    }


def hand(occupied, *, seats=NINE, **last):
    return blinds.next_positions(seats, occupied, **last)


def blinds_of(positions: Positions):
    return positions.button, positions.small_blind, positions.big_blind


# --- IFP 2.1, casino §16: the first button ---------------------------------------------------


def test_first_button_goes_to_the_highest_card():
    assert blinds.first_button({1: "9c", 2: "Kd", 3: "Qs", 4: "2h"}) == 2


def test_first_button_equal_ranks_go_by_suit_spades_hearts_diamonds_clubs():
    assert blinds.first_button({1: "Ah", 2: "As", 3: "Ad", 4: "Ac"}) == 2
    assert blinds.first_button({1: "Kc", 2: "Kd"}) == 2
    assert blinds.first_button({5: "Th", 6: "10d"}) == 5


def test_first_button_refuses_a_card_twice_or_no_card():
    with pytest.raises(ValueError):
        blinds.first_button({1: "As", 2: "as"})
    with pytest.raises(ValueError):
        blinds.first_button({1: "Xs"})
    with pytest.raises(ValueError):
        blinds.first_button({})


def test_button_draw_deals_one_card_per_player_and_replays_from_its_seed():
    occupied = seated(1, 3, 4, 8)

    cards = blinds.button_draw(NINE, occupied, random.Random(7))

    assert list(cards) == [1, 3, 4, 8]
    assert len(set(cards.values())) == 4
    assert blinds.button_draw(NINE, occupied, random.Random(7)) == cards
    assert blinds.first_button(cards) in occupied


def test_button_draw_favours_no_seat():
    wins = {seat: 0 for seat in range(1, 7)}
    rng = random.Random(2024)
    for _ in range(6000):
        wins[blinds.first_button(blinds.button_draw(NINE, seated(*range(1, 7)), rng))] += 1
    assert all(850 < count < 1150 for count in wins.values())


# --- The first hand ---------------------------------------------------------------------


def test_first_hand_blinds_are_the_two_players_after_the_drawn_button():
    first = hand(seated(*NINE), button=4)

    assert blinds_of(first) == (4, 5, 6)
    assert first.dealt_in == (5, 6, 7, 8, 9, 1, 2, 3, 4)  # IFP 2.3: the button gets the last card
    assert first.first_to_act_preflop == 7


def test_first_hand_skips_empty_seats():
    assert blinds_of(hand(seated(1, 4, 7, 9), button=9)) == (9, 1, 4)


def test_first_hand_needs_a_button_and_two_players():
    with pytest.raises(ValueError):
        hand(seated(*NINE))
    with pytest.raises(ValueError):
        hand(seated(3), button=3)


# --- TDA 32, IFP 3.1: the dead button ---------------------------------------------------


def test_button_and_blinds_move_one_seat_each_hand():
    nxt = hand(seated(*NINE), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, 3, 4)
    assert nxt.dealt_in[0] == 3 and nxt.dealt_in[-1] == 2


def test_big_blind_busts_no_small_blind_next_hand():
    """IFP 3.1: the big blind busted; only a big blind is posted, by the next player."""
    nxt = hand(seated(1, 2, 4, 5, 6), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, None, 4)
    assert nxt.small_blind_seat == 3


def test_big_blind_busts_then_the_button_is_dead_the_hand_after():
    """IFP 3.1: the hand after, the button stays behind the same player (on the empty
    seat) so that small and big blind are posted properly again."""
    occupied = seated(1, 2, 4, 5, 6)
    first = hand(occupied, button=1, small_blind=2, big_blind=3)

    second = hand(occupied, **after(first))

    assert blinds_of(second) == (3, 4, 5)
    assert second.dealt_in[-1] == 2  # the player on seat 2 acts last again


def test_small_blind_busts_dead_button():
    """IFP 3.1: the button stays with the same player a second time, on the empty seat."""
    nxt = hand(seated(1, 3, 4, 5), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, 3, 4)
    assert 2 not in nxt.dealt_in
    assert nxt.dealt_in[-1] == 1


def test_button_busts_blinds_move_on_as_usual():
    nxt = hand(seated(2, 3, 4, 5), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, 3, 4)


def test_player_busting_elsewhere_is_passed_over():
    nxt = hand(seated(1, 2, 3, 5, 6), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, 3, 5)
    assert 4 not in nxt.dealt_in


def test_both_blinds_bust_dead_button_and_dead_small_blind():
    nxt = hand(seated(1, 4, 5, 6), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, None, 4)


def test_empty_seats_after_the_big_blind_are_skipped():
    nxt = hand(seated(1, 2, 3, 7), button=1, small_blind=2, big_blind=3)

    assert blinds_of(nxt) == (2, 3, 7)


# --- TDA 10-A, casino §8b, §13: new players -----------------------------------------------


def test_new_player_after_the_big_blind_posts_it_at_once():
    """TDA 11-A: the single big blind."""
    occupied = seated(1, 2, 3, 4, 6)

    nxt = hand(occupied, button=1, small_blind=2, big_blind=3, new_players={104})

    assert blinds_of(nxt) == (2, 3, 4)
    assert 4 in nxt.dealt_in


def test_new_player_between_small_blind_and_button_waits_for_the_button():
    # Seat 3 lay empty between the small blind (2) and big blind (4); a player sits there.
    occupied = seated(1, 2, 3, 4, 5, 6)
    first = hand(occupied, button=1, small_blind=2, big_blind=4, new_players={103})

    assert blinds_of(first) == (2, 4, 5)
    assert first.waiting == (3,)
    assert 3 not in first.dealt_in

    second = hand(occupied, **after(first), new_players={103})

    assert second.waiting == ()
    assert 3 in second.dealt_in  # the button has passed


def test_new_player_between_big_blind_and_button_is_dealt_in_and_posts_in_turn():
    occupied = seated(1, 2, 3, 4, 7)
    positions = hand(occupied, button=1, small_blind=2, big_blind=3, new_players={107})

    assert 7 in positions.dealt_in
    big_blinds = [positions.big_blind]
    for _ in range(3):
        positions = hand(occupied, **after(positions))
        big_blinds.append(positions.big_blind)
    assert big_blinds == [4, 7, 1, 2]


def test_new_player_may_get_the_button():
    """TDA 10-A: any seat including the button. The small blind busted from seat 2, where
    the button goes next; a new player sits down there."""
    occupied = seated(1, 2, 3, 4, 5)

    nxt = hand(occupied, button=1, small_blind=2, big_blind=3, new_players={102})

    assert blinds_of(nxt) == (2, 3, 4)
    assert nxt.dealt_in[-1] == 2


def test_new_player_may_get_the_small_blind():
    """TDA 10-A: any seat including the small blind. The big blind busted from seat 3."""
    occupied = seated(1, 2, 3, 4, 5)

    nxt = hand(occupied, button=1, small_blind=2, big_blind=3, new_players={103})

    assert blinds_of(nxt) == (2, 3, 4)


# --- TDA 34-B, IFP 3.7, casino §31: heads-up ---------------------------------------------


@pytest.mark.parametrize(
    ("busted", "button", "big_blind"),
    [
        (1, 7, 4),  # the button busts: the last big blind gets the button
        (4, 7, 1),  # the small blind busts: the last big blind gets the button
        (7, 4, 1),  # the big blind busts: the big blind moves on, the small blind has the button
    ],
)
def test_going_heads_up_nobody_has_the_big_blind_twice(busted, button, big_blind):
    """TDA 34-B: three players on seats 1 (button), 4 (small blind), 7 (big blind)."""
    occupied = seated(*(s for s in (1, 4, 7) if s != busted))

    nxt = hand(occupied, button=1, small_blind=4, big_blind=7)

    assert blinds_of(nxt) == (button, button, big_blind)
    assert nxt.heads_up
    assert nxt.big_blind != 7 or busted == 7


def test_heads_up_the_button_acts_first_before_the_flop_and_last_after():
    nxt = hand(seated(2, 6), button=1, small_blind=2, big_blind=6)

    assert blinds_of(nxt) == (6, 6, 2)
    assert nxt.first_to_act_preflop == 6
    assert nxt.first_to_act_postflop == 2
    assert nxt.dealt_in == (2, 6)  # casino §31: the big blind gets the first card


def test_heads_up_the_big_blind_alternates():
    occupied = seated(3, 8)
    positions = hand(occupied, button=3)
    seen = []
    for _ in range(4):
        seen.append(blinds_of(positions))
        positions = hand(occupied, **after(positions))

    assert seen == [(3, 3, 8), (8, 8, 3), (3, 3, 8), (8, 8, 3)]


def test_first_hand_heads_up_the_drawn_button_posts_the_small_blind():
    assert blinds_of(hand(seated(2, 5), button=5)) == (5, 5, 2)


def test_heads_up_table_that_gains_a_player_deals_everyone():
    """A third player sits down between the two; nobody posts twice or skips."""
    nxt = hand(seated(1, 3, 5), button=1, small_blind=1, big_blind=5, new_players={103})

    assert blinds_of(nxt) == (4, 5, 1)
    assert nxt.dealt_in == (5, 1, 3)
    assert hand(seated(1, 3, 5), **after(nxt)).big_blind == 3


# --- RP-11: antes --------------------------------------------------------------------------


def test_big_blind_ante_is_posted_by_the_big_blind_alone():
    nxt = hand(seated(*NINE), button=1, small_blind=2, big_blind=3, ante=ANTE_BIG_BLIND)
    assert nxt.antes == (4,)


def test_traditional_ante_is_posted_by_everyone_dealt_in():
    occupied = seated(1, 2, 3, 5, 6, 7)
    nxt = hand(
        occupied, button=1, small_blind=2, big_blind=5, new_players={103}, ante=ANTE_TRADITIONAL
    )
    assert nxt.antes == nxt.dealt_in
    assert 3 not in nxt.antes  # waiting: not dealt in, no ante


def test_no_ante():
    assert hand(seated(*NINE), button=1, ante=ANTE_NONE).antes == ()


# --- TDA 11-A, 11-D: what seating needs -------------------------------------------------


def worst_seat(seats, occupied, *, new_players=frozenset(), **last):
    """The product's path to the worst seat: the blinds engine gives the next big blind
    and a dead small blind (seating.selectors.balancing), seating.worst_seat the seat."""
    positions = blinds.next_positions(seats, occupied, new_players=new_players, **last)
    dead = positions.small_blind_seat if positions.small_blind is None else None
    table = seating.TableView(1, tuple(seats), occupied)
    return seating.worst_seat(table, positions.big_blind, dead)


def hands_to_big_blind(seats, occupied, *, new_players=frozenset(), **last) -> dict:
    """The tests' reference: for each open seat, in how many hands a player seated there
    now would post the big blind (1: the next hand), if nobody else came or went, found
    by dealing the hands with the blinds engine. TDA 11-A: the fewest is the worst
    position; the small blind's seat never is, it waits a whole orbit."""
    found = {}
    for seat in (s for s in seats if s not in occupied):
        newcomer = object()  # stands for the player who would sit there
        table = {**occupied, seat: newcomer}
        new, hand_last = {*new_players, newcomer}, dict(last)
        for count in range(1, 2 * len(seats) + 2):
            positions = blinds.next_positions(seats, table, new_players=new, **hand_last)
            if positions.big_blind == seat:
                found[seat] = count
                break
            new -= {table[s] for s in positions.dealt_in}
            hand_last = after(positions)
    return found


def reference_worst_seat(seats, occupied, *, new_players=frozenset(), **last):
    """The open seat that pays the big blind soonest by `hands_to_big_blind`; of two that
    would both take it next hand (a single big blind) the first after the big blind."""
    counts = hands_to_big_blind(seats, occupied, new_players=new_players, **last)
    if not counts:
        return None
    start = last["big_blind"] if last.get("big_blind") is not None else last["button"]
    i = seats.index(start) + 1 if start in seats else sum(1 for s in seats if s < start)
    order = list(seats[i:] + seats[:i])
    return min(counts, key=lambda seat: (counts[seat], order.index(seat)))


def test_big_blind_next_is_the_player_balancing_moves():
    occupied = seated(1, 2, 3, 5, 6)
    assert hand(occupied, button=1, small_blind=2, big_blind=3).big_blind == 5


def test_open_seat_right_after_the_big_blind_takes_it_next_hand():
    occupied = seated(1, 2, 3, 5, 6, 7, 8)  # seats 4 and 9 open

    hands = hands_to_big_blind(NINE, occupied, button=1, small_blind=2, big_blind=3)

    assert hands == {4: 1, 9: 5}
    assert worst_seat(NINE, occupied, button=1, small_blind=2, big_blind=3) == 4


def test_worst_open_seat_is_never_the_small_blind():
    """TDA 11-A, casino §14: the big blind busted from seat 3; a player sitting there
    would post the small blind and wait an orbit for the big blind."""
    occupied = seated(1, 2, 4, 5, 6, 8)  # seats 3, 7 and 9 open

    hands = hands_to_big_blind(NINE, occupied, button=1, small_blind=2, big_blind=3)

    assert hands[3] == max(hands.values())
    assert worst_seat(NINE, occupied, button=1, small_blind=2, big_blind=3) == 7
    table = seating.TableView(2, NINE, occupied)
    assert seating.worst_seat(table, big_blind_next=4, dead_small_blind=3) == 7


def test_worst_open_seat_agrees_with_seating_on_its_examples():
    short = seated(1, 2, 3, 5, 6, 7, 8)
    assert worst_seat(NINE, short, button=1, small_blind=2, big_blind=3) == 4
    assert seating.worst_seat(seating.TableView(2, NINE, short), big_blind_next=5) == 4

    wrap = seated(2, 3, 4, 5, 6, 7, 8)
    assert worst_seat(NINE, wrap, button=6, small_blind=7, big_blind=8) == 9
    assert seating.worst_seat(seating.TableView(2, NINE, wrap), big_blind_next=2) == 9


def test_short_table_halts_once_the_big_blind_reaches_an_open_seat():
    """TDA 11-D addendum: table A has 5 players (seats 1-5), the fullest has 8."""
    table_a = seated(1, 2, 3, 4, 5)
    assert not blinds.blinds_reached_open_seat(NINE, table_a, big_blind=3)
    assert blinds.blinds_reached_open_seat(NINE, table_a, big_blind=5)
    assert not blinds.blinds_reached_open_seat(NINE, table_a, big_blind=None)


def test_a_table_that_logged_nothing_gets_a_guess_from_seat_1():
    """Issue 16: a guess, shown as one, for a table with no button and no hand logged:
    as if the button were on its last occupied seat, the blinds the first two players."""
    assert blinds.big_blind_guess(NINE, seated(2, 4, 5, 7, 9)) == 4
    assert blinds.big_blind_guess(NINE, seated(3, 8)) == 3  # heads-up: the other player
    assert blinds.big_blind_guess(NINE, seated(6)) == 6
    assert blinds.big_blind_guess(NINE, {}) is None


def test_no_open_seat_no_worst_seat():
    full = seated(*NINE)
    assert worst_seat(NINE, full, button=1, small_blind=2, big_blind=3) is None


# --- Properties ----------------------------------------------------------------------------


@st.composite
def histories(draw):
    size = draw(st.integers(2, 10))
    seats = tuple(range(1, size + 1))
    start = sorted(draw(st.sets(st.sampled_from(seats), min_size=2)))
    button = draw(st.sampled_from(start))
    events = draw(
        st.lists(
            st.tuples(st.sampled_from(["deal", "deal", "bust", "arrive"]), st.integers(0, 999)),
            max_size=60,
        )
    )
    return seats, start, button, events


def play(seats, start, button, events):
    """Deal, bust and seat players in turn; the hands with who sat where at each."""
    occupied = {seat: 100 + seat for seat in start}
    new: set[int] = set()
    arrivals = iter(range(1000, 2000))
    positions = blinds.next_positions(seats, occupied, button=button)
    hands = [(positions, dict(occupied))]
    for event, pick in events:
        if event == "deal":
            last = after(positions)
            positions = blinds.next_positions(seats, occupied, new_players=new, **last)
            hands.append((positions, dict(occupied)))
            new -= {occupied[seat] for seat in positions.dealt_in}
        elif event == "bust" and len(occupied) > 2:
            del occupied[sorted(occupied)[pick % len(occupied)]]
        elif event == "arrive" and len(occupied) < len(seats):
            free = [seat for seat in seats if seat not in occupied]
            entry = next(arrivals)
            occupied[free[pick % len(free)]] = entry
            new.add(entry)
    return hands, occupied, new


def between(seats, start, end):
    """The seats strictly after `start` and before `end`, clockwise."""
    i = seats.index(start) + 1
    order = seats[i:] + seats[:i]
    return order[: order.index(end)]


@settings(max_examples=300, deadline=None)
@given(histories())
def test_every_hand_has_a_button_two_blinds_and_no_player_twice(history):
    hands, _, _ = play(*history)
    for positions, occupied in hands:
        assert set(positions.dealt_in) | set(positions.waiting) == set(occupied)
        assert not set(positions.dealt_in) & set(positions.waiting)
        assert len(positions.dealt_in) >= 2
        assert positions.big_blind in positions.dealt_in
        assert positions.small_blind != positions.big_blind
        assert positions.button != positions.big_blind
        assert positions.small_blind in (*positions.dealt_in, None)
        if positions.heads_up:
            assert positions.button == positions.small_blind
            assert positions.first_to_act_preflop == positions.button


@settings(max_examples=300, deadline=None)
@given(histories())
def test_big_blind_moves_to_the_next_player_and_never_skips_one(history):
    """IFP 3.1: nobody skips the big blind; it never stays with the same player."""
    seats = history[0]
    hands, _, _ = play(*history)
    for (before, seated_before), (now, occupied) in zip(hands, hands[1:], strict=False):
        skipped = [s for s in between(seats, before.big_blind, now.big_blind) if s in occupied]
        assert skipped == []
        assert occupied[now.big_blind] != seated_before[before.big_blind]
        if len(now.dealt_in) >= 3:
            assert now.small_blind_seat == before.big_blind  # the small blind follows


@settings(max_examples=300, deadline=None)
@given(histories())
def test_every_player_posts_one_big_blind_per_orbit(history):
    """Between two big blinds of one player, everyone who sat at the table all along
    posted exactly one; players who came in between may post theirs sooner."""
    hands, _, _ = play(*history)
    big_blinds = [occupied[positions.big_blind] for positions, occupied in hands]
    for player in set(big_blinds):
        turns = [i for i, entry in enumerate(big_blinds) if entry == player]
        for i, j in zip(turns, turns[1:], strict=False):
            stayed = set(hands[i][1].values()) & set(hands[j][1].values()) - {player}
            for other in stayed:
                assert big_blinds[i + 1 : j].count(other) == 1


@settings(max_examples=300, deadline=None)
@given(histories())
def test_new_players_wait_one_hand_at_most(history):
    hands, _, _ = play(*history)
    for (before, seated_before), (now, seated_now) in zip(hands, hands[1:], strict=False):
        waited = {seated_before[seat] for seat in before.waiting}
        assert not waited & {seated_now[seat] for seat in now.waiting}


@settings(max_examples=200, deadline=None)
@given(histories())
def test_seats_to_big_blind_counts_the_players_in_between(history):
    """A player seated now posts the big blind once everyone between them and the last
    big blind has; the worst seat is the first open one after the last big blind, as
    seating.worst_seat has it when the big blind's player is still there."""
    seats = history[0]
    hands, occupied, new = play(*history)
    last = after(hands[-1][0])
    if len(occupied) < 2 or len(occupied) == len(seats):
        return
    counts = hands_to_big_blind(seats, occupied, new_players=new, **last)
    for seat, count in counts.items():
        ahead = [s for s in between(seats, last["big_blind"], seat) if s in occupied]
        assert count == len(ahead) + 1
    assert blinds.blinds_reached_open_seat(seats, occupied, big_blind=last["big_blind"]) == (
        1 in counts.values()
    )
    # Seating picks the same seat once told of a dead small blind (an open seat that
    # would post next hand's small blind), as seating.selectors.balancing tells it. Not at a
    # heads-up table: a third player there changes where the button goes (TDA 34-B), and
    # such a table breaks before anyone is balanced into it.
    if len(occupied) < 3:
        return
    table = seating.TableView(1, seats, occupied)
    positions = blinds.next_positions(seats, occupied, new_players=new, **last)
    dead = positions.small_blind_seat if positions.small_blind is None else None
    worst = reference_worst_seat(seats, occupied, new_players=new, **last)
    assert seating.worst_seat(table, positions.big_blind, dead) == worst
