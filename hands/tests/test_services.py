"""Hands at the tables through the services: the button, dealing, the action log, the
result, bust-outs and their places (IFP 4.27), halting (TDA 11-D)."""

import random

import pytest

from clock.tests.factories import with_structure
from floorman.errors import Conflict, Invalid
from hands import services
from hands.models import Elimination, Hand, HandAction, HandStatus
from hands.selectors import finishing_places, table_state_public
from hands.services import busts as bust_services
from hands.tests.factories import button_at, deal, finish, seat_players
from prizes import services as prize_services
from prizes.selectors import results
from seating.engine import blinds
from seating.models import Seat, TableState
from seating.tests.factories import undo_last
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = tournament()
    with_structure(event)  # level 1: 100/200
    return event


# --- The button ----------------------------------------------------------------------------


def test_button_draw_gives_each_player_a_card_and_the_high_card_the_button(event):
    seat_players(event, {1: [1, 3, 5, 7]})

    state = services.button_draw(actor=None, tournament_id=event.pk, number=1)

    cards = {int(seat): card for seat, card in state.draw_cards.items()}
    assert sorted(cards) == [1, 3, 5, 7]
    assert state.button == blinds.first_button(cards)  # IFP 2.1
    replay = blinds.button_draw(
        (1, 2, 3, 4, 5, 6, 7, 8, 9), {1: 0, 3: 0, 5: 0, 7: 0}, random.Random(state.draw_seed)
    )
    assert replay == cards


def test_button_draw_refused_once_hands_were_played(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1))

    with pytest.raises(Conflict) as refused:
        services.button_draw(actor=None, tournament_id=event.pk, number=1)
    assert refused.value.code == "button_drawn"


def test_a_hand_needs_a_button_and_two_players(event):
    seat_players(event, {1: [1, 2], 2: [4]})
    with pytest.raises(Conflict) as no_button:
        deal(event, 1)
    with pytest.raises(Conflict) as alone:
        deal(event, 2)
    assert (no_button.value.code, alone.value.code) == ("no_button", "too_few_players")


# --- Dealing ------------------------------------------------------------------------------


def test_first_hand_blinds_follow_the_drawn_button_with_stacks_and_level(event):
    seated = seat_players(event, {1: [2, 4, 6, 8]})
    button_at(event, 1, 4)

    hand = deal(event, 1)

    assert (hand.number, hand.level, hand.button, hand.small_blind, hand.big_blind) == (
        1,
        1,
        4,
        6,
        8,
    )
    assert (hand.small_blind_amount, hand.big_blind_amount) == (100, 200)
    dealt = {p.seat: (p.entry_id, p.stack) for p in hand.players.all()}
    assert dealt == {seat: (seated[(1, seat)].pk, 20000) for seat in (2, 4, 6, 8)}


def test_next_hand_moves_button_and_blinds_one_seat_on(event):
    seat_players(event, {1: [2, 4, 6, 8]})
    button_at(event, 1, 4)
    finish(event, 1, deal(event, 1))

    second = deal(event, 1)

    assert (second.number, second.button, second.small_blind, second.big_blind) == (2, 6, 8, 2)


def test_one_hand_at_a_time(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    deal(event, 1)

    with pytest.raises(Conflict) as refused:
        deal(event, 1)
    assert refused.value.code == "hand_in_play"
    assert Hand.objects.count() == 1


def test_big_blind_busts_dead_small_blind_and_button_moves_on_tda_32(event):
    seated = seat_players(event, {1: [1, 2, 3, 4, 5]})
    button_at(event, 1, 1)
    first = deal(event, 1)  # button 1, small blind 2, big blind 3
    finish(event, 1, first, busts=[3])

    second = deal(event, 1)

    # The big blind moves on to seat 4; nobody posts the small blind in the empty seat 3;
    # the button moves to seat 2 (TDA 32, IFP 3.1).
    assert (second.button, second.small_blind, second.small_blind_seat, second.big_blind) == (
        2,
        None,
        3,
        4,
    )
    assert seated[(1, 3)].pk not in {p.entry_id for p in second.players.all()}


def test_new_player_between_button_and_small_blind_waits_for_the_button_tda_10_a(event):
    seated = seat_players(event, {1: [1, 3, 5, 7], 2: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1))  # button 1, blinds 3 and 5
    newcomer = seated[(2, 4)]
    from seating import services as seating

    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=newcomer.pk, to_table=1, to_seat=4
    )

    second = deal(event, 1)  # button 3, small blind 5, big blind 7: seat 4 sits in between

    assert (second.button, second.small_blind, second.big_blind) == (3, 5, 7)
    assert newcomer.pk not in {p.entry_id for p in second.players.all()}
    assert Seat.objects.get(table__number=1, number=4).wait_for_button is True
    assert table_state_public(second.table)["hand"]["number"] == 2
    finish(event, 1, second)

    third = deal(event, 1)
    assert newcomer.pk in {p.entry_id for p in third.players.all()}
    assert Seat.objects.get(table__number=1, number=4).wait_for_button is False


def test_a_table_three_short_halts_once_its_big_blind_reaches_an_open_seat_tda_11_d(event):
    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8, 9], 2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 2, 5, big_blind=9 - 3)  # last hand: big blind in seat 6, seat 7 open

    with pytest.raises(Conflict) as halted:
        deal(event, 2)

    assert halted.value.code == "halted" and "TDA 11-D" in halted.value.message


def test_a_halt_waived_by_the_floor_lets_the_table_deal(event):
    from seating import services as seating

    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8, 9], 2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 2, 5, big_blind=6)
    seating.halt_waive(actor=None, tournament_id=event.pk, number=2, waived=True)

    assert deal(event, 2).number == 1


# --- The action log ---------------------------------------------------------------------------


def act(event, hand, kind, amount=None, seat=None):
    return services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=hand.table.number,
        hand_number=hand.number,
        kind=kind,
        amount=amount,
        seat=seat,
    )


def test_actions_are_checked_and_logged_in_turn(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)  # button 1 acts first pre-flop with three players

    act(event, hand, "raise", 600)
    act(event, hand, "call")
    _hand, state = act(event, hand, "fold")

    assert [(a.seat, a.kind, a.amount) for a in HandAction.objects.order_by("sequence")] == [
        (1, "raise", 600),
        (2, "call", None),
        (3, "fold", None),
    ]
    assert state.street == "flop" and state.pot == 1400


def test_raise_below_the_minimum_is_refused_with_rule_and_options_tda_43(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)

    with pytest.raises(Conflict) as refused:
        act(event, hand, "raise", 300)  # the big blind is 200: at least 400

    assert refused.value.code == "illegal_action"
    assert refused.value.data["rule"] == "TDA 43"
    assert refused.value.data["legal"] == {
        "seat": 1,
        "call": 200,
        "can_check": False,
        "wager": "raise",
        "min_to": 400,
        "max_to": 20000,
    }
    assert HandAction.objects.count() == 0


def test_acting_out_of_turn_is_refused_tda_53_a(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)

    with pytest.raises(Conflict) as refused:
        act(event, hand, "call", seat=3)

    assert refused.value.data["rule"] == "TDA 53-A"


# --- Results and places ----------------------------------------------------------------------


def test_finishing_counts_stacks_and_refuses_strangers_and_everyone_busting(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)

    with pytest.raises(Invalid):
        finish(event, 1, hand, busts=[7])
    with pytest.raises(Invalid):
        finish(event, 1, hand, busts=[1, 2, 3])
    finish(event, 1, hand, stacks={1: 25000, 2: 15000, 3: 20000})

    seated[(1, 1)].refresh_from_db()
    assert seated[(1, 1)].chips == 25000
    assert Hand.objects.get().status == HandStatus.FINISHED


def test_two_busts_in_one_hand_the_bigger_starting_stack_places_higher_ifp_4_27(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    desk_chips(seated[(1, 2)], 5000)
    desk_chips(seated[(1, 3)], 9000)
    button_at(event, 1, 1)
    hand = deal(event, 1)

    finish(event, 1, hand, busts=[2, 3])

    places = finishing_places(event.pk)
    assert places[seated[(1, 3)].pk].place == 3  # started the hand with more chips
    assert places[seated[(1, 2)].pk].place == 4


def test_where_the_house_shares_the_place_two_busts_in_one_hand_share_it(event):
    """House setting same_hand_busts = "share" (RP-8 A read for every hand)."""
    event.house_settings = {"same_hand_busts": "share"}
    event.save()
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    desk_chips(seated[(1, 2)], 5000)
    desk_chips(seated[(1, 3)], 9000)
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[2, 3])

    places = finishing_places(event.pk)
    assert places[seated[(1, 2)].pk].shared == places[seated[(1, 3)].pk].shared == (3, 4)


def test_equal_starting_stacks_share_the_place(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[2, 3])

    places = finishing_places(event.pk)
    assert places[seated[(1, 2)].pk].shared == places[seated[(1, 3)].pk].shared == (3, 4)


def test_places_count_down_hand_by_hand_and_the_last_entry_wins(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[2])
    finish(event, 1, deal(event, 1), busts=[3])
    assert seated[(1, 1)].pk not in finishing_places(event.pk)  # registration is still open
    type(event).objects.filter(pk=event.pk).update(status="running")  # no late registration

    places = finishing_places(event.pk)
    assert {seat: places[seated[(1, seat)].pk].place for seat in (1, 2, 3)} == {1: 1, 2: 3, 3: 2}


def test_undoing_a_bust_takes_its_place_away(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[2])

    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=seated[(1, 2)].pk)

    assert finishing_places(event.pk) == {}
    assert not Elimination.objects.exists()


def test_a_bust_entered_at_the_desk_gets_its_place_too(event):
    seated = seat_players(event, {1: [1, 2, 3]})

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(1, 3)].pk)

    elimination = Elimination.objects.get()
    assert (elimination.table_number, elimination.seat, elimination.stack) == (1, 3, 20000)
    assert finishing_places(event.pk)[seated[(1, 3)].pk].place == 3


def test_players_a_table_busts_together_without_a_logged_hand_share_the_place(event):
    """Issue 16: a table that logs no hands busts three players at once, all on 20,000:
    they went out in one hand, so they share the place (IFP 4.27, casino §29c)."""
    seated = seat_players(event, {1: [1, 2, 3, 4, 5]})

    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2, 3, 4])

    places = finishing_places(event.pk)
    assert {places[seated[(1, seat)].pk].shared for seat in (2, 3, 4)} == {(3, 5)}


def test_busted_together_without_a_hand_the_bigger_last_count_finishes_higher(event):
    seated = seat_players(event, {1: [1, 2, 3, 4, 5]})
    desk_chips(seated[(1, 2)], 5000)
    desk_chips(seated[(1, 4)], 9000)

    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2, 3, 4])

    places = finishing_places(event.pk)
    shown = {seat: places[seated[(1, seat)].pk].shared for seat in (2, 3, 4)}
    assert shown == {3: (3, 3), 4: (4, 4), 2: (5, 5)}  # 20,000, 9,000, 5,000


def test_busts_recorded_one_after_another_without_a_hand_do_not_share(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})

    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2])
    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[3])

    places = finishing_places(event.pk)
    assert (places[seated[(1, 2)].pk].shared, places[seated[(1, 3)].pk].shared) == (
        (4, 4),
        (3, 3),
    )


def test_a_shared_place_splits_its_prizes_in_the_results(event):
    """The results (prizes) read the same shared range and split the prizes of every
    place in it evenly (RP-8 A)."""
    seated = seat_players(event, {1: [1, 2, 3, 4, 5]})
    prize_services.payouts_update(
        actor=None, tournament_id=event.pk, lines=[20000, 15000, 9000, 6000]
    )

    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2, 3, 4])

    rows = {row.entry.pk: row for row in results(event).rows}
    shared = [rows[seated[(1, seat)].pk] for seat in (2, 3, 4)]
    assert [(row.place, row.shared, row.prize) for row in shared] == [(3, (3, 5), 5000)] * 3


def desk_chips(entry, chips: int) -> None:
    type(entry).objects.filter(pk=entry.pk).update(chips=chips)


def test_state_row_follows_the_hand(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 2)
    deal(event, 1)

    state = TableState.objects.get()
    assert (state.button, state.small_blind_seat, state.big_blind, state.hands_played) == (
        2,
        3,
        1,
        1,
    )


# --- Balancing and halting from the logged hands (TDA 11-A, 11-D) -------------------------


def test_balancing_moves_the_player_due_the_big_blind_from_the_logged_hands(event):
    from seating import services as seating

    seated = seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7], 2: [1, 2, 3, 4, 5]})
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    finish(event, 1, deal(event, 1))  # table 1: button 1, blinds 2 and 3; next big blind 4
    finish(event, 2, deal(event, 2))  # table 2: button 1, blinds 2 and 3; next big blind 4

    plan, _halted, _views = seating.balance_state(event)

    assert [(m.entry, m.from_table, m.from_seat, m.to_table) for m in plan.moves] == [
        (seated[(1, 4)].pk, 1, 4, 2)
    ]
    assert plan.moves[0].to_seat == 6  # the open seat that pays the big blind soonest
    assert plan.needs_big_blind == ()


def test_balancing_never_fills_the_dead_small_blind_seat(event):
    from seating import services as seating

    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8], 2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    finish(event, 2, deal(event, 2), busts=[3])  # table 2's big blind busts in seat 3

    plan, _halted, _views = seating.balance_state(event, {1: 4})

    # Next hand at table 2: big blind 4, the small blind would be the empty seat 3.
    assert plan.moves[0].to_table == 2 and plan.moves[0].to_seat != 3


def test_short_table_shows_halted_only_once_its_blinds_reach_an_open_seat(event):
    from seating import services as seating

    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8, 9], 2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    finish(event, 2, deal(event, 2))  # table 2: blinds 2 and 3; the big blind is far from 7

    _plan, halted, _views = seating.balance_state(event)
    assert halted == []
    button_at(event, 2, 5, big_blind=6)  # now seat 7, the next, is open
    _plan, halted, _views = seating.balance_state(event)
    assert halted == [(2, "TDA 11-D")]


def test_a_revoked_tablet_link_opens_nothing(event):
    from hands.selectors import tablet_link_table

    seat_players(event, {1: [1, 2]})
    link = services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    assert tablet_link_table(link.token).number == 1

    services.tablet_link_revoke(actor=None, tournament_id=event.pk, link_id=link.pk)

    assert tablet_link_table(link.token) is None
    assert tablet_link_table("no-such-token") is None


# --- The result from the action log (TDA 21, 20; cards speak) ------------------------------


def test_settling_from_the_log_pays_the_best_hand_and_busts_the_loser(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    desk_chips(seated[(1, 3)], 5000)
    button_at(event, 1, 1)
    hand = deal(event, 1)  # button 1, small blind 2, big blind 3 (5,000 chips)
    act(event, hand, "raise", 5000)
    act(event, hand, "fold")
    act(event, hand, "call")  # the big blind is all-in: no more betting (TDA 16)

    services.hand_settle(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=hand.number,
        cards={1: "As Ah", 3: "Kd Kc"},
        board="2c 7d 9h Js 3s",
    )

    for entry in seated.values():
        entry.refresh_from_db()
    assert seated[(1, 1)].chips == 20000 - 5000 + 10100  # both stacks and the small blind
    assert seated[(1, 3)].status == "busted"
    assert finishing_places(event.pk)[seated[(1, 3)].pk].place == 3
    hand.refresh_from_db()
    assert hand.board == ["2c", "7d", "9h", "Js", "3s"]


def _three_way_split(event):
    """Four limp for 200 each (800); three hold broadway and split it: 266 each and two
    odd chips. The button is on seat 1, so the odd-chip order is seats 2, 3, 1."""
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    hand = deal(event, 1)  # small blind 2, big blind 3; seat 4 acts first
    for kind in ("call", "call", "call", "check"):
        act(event, hand, kind)
    for _street in ("flop", "turn", "river"):
        for _seat in range(4):
            act(event, hand, "check")
    services.hand_settle(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=hand.number,
        cards={1: "Th 3c", 2: "Td 4c", 3: "Tc 5h", 4: "9h 9d"},
        board="As Ks Qs Js 2d",
    )
    for entry in seated.values():
        entry.refresh_from_db()
    return {seat: seated[(1, seat)].chips - (20000 - 200) for seat in (1, 2, 3)}


def test_odd_chips_go_one_each_from_the_button_tda_20_a(event):
    assert _three_way_split(event) == {2: 267, 3: 267, 1: 266}


def test_odd_chips_all_go_to_the_worst_position_where_the_house_reads_casino_20(event):
    event.house_settings = {"odd_chips": "worst_position"}
    event.save()
    assert _three_way_split(event) == {2: 268, 3: 266, 1: 266}


def test_settling_refuses_while_the_betting_goes_on_or_with_bad_cards(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)

    def settle(**kwargs):
        return services.hand_settle(
            actor=None, tournament_id=event.pk, number=1, hand_number=hand.number, **kwargs
        )

    with pytest.raises(Conflict) as open_betting:
        settle(cards={1: "As Ah"})
    act(event, hand, "fold")
    act(event, hand, "fold")  # the big blind wins the blinds uncontested
    with pytest.raises(Invalid):
        settle(cards={3: "As Zz"})
    with pytest.raises(Invalid):
        settle(cards={3: "As Ah"}, board="As 2c 3d")  # a card twice
    settle(cards={})

    assert open_betting.value.code == "betting_open"
    assert Hand.objects.get().status == HandStatus.FINISHED


def test_a_seating_action_cannot_be_undone_once_a_hand_was_dealt_with_it(event):
    from seating import services as seating

    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    button_at(event, 1, 1)
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=seated[(2, 3)].pk, to_table=1, to_seat=5
    )
    deal(event, 1)

    with pytest.raises(Conflict) as refused:
        undo_last(event)

    assert refused.value.code == "undo_after_hand"
    assert Seat.objects.get(entry=seated[(2, 3)]).table.number == 1


def test_a_seating_action_cannot_be_undone_once_the_table_it_emptied_a_seat_at_dealt(event):
    from seating import services as seating

    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    button_at(event, 2, 1)
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=seated[(1, 3)].pk, to_table=2, to_seat=5
    )
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=seated[(2, 3)].pk, to_table=1, to_seat=3
    )
    deal(event, 2)  # the table the last move left, after it

    with pytest.raises(Conflict) as refused:
        undo_last(event)

    assert refused.value.code == "undo_after_hand"


def test_a_seating_action_can_be_undone_after_hands_at_other_tables_or_before_it(event):
    from seating import services as seating

    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2, 3]})
    button_at(event, 1, 1)
    button_at(event, 3, 1)
    finish(event, 1, deal(event, 1))  # before the move, at a table it touches
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=seated[(2, 3)].pk, to_table=1, to_seat=5
    )
    deal(event, 3)  # after the move, at a table it did not touch

    undo_last(event)

    assert Seat.objects.get(entry=seated[(2, 3)]).table.number == 2


def test_dealing_notes_when_the_table_last_dealt(event):
    seat_players(event, {1: [1, 2, 3], 2: [1, 2]})
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    first = deal(event, 1)
    finish(event, 1, first)
    second = deal(event, 1)

    dealt_at = dict(TableState.objects.values_list("table__number", "dealt_at"))
    assert dealt_at == {1: second.started_at, 2: None}
    assert first.started_at < second.started_at


def test_when_the_betting_is_over_the_last_aggressor_shows_first_tda_17_a(event):
    from hands.selectors import betting_public, betting_state

    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)
    for kind in ("call", "call", "check"):  # pre-flop: button, small blind, big blind
        act(event, hand, kind)
    for _street in ("flop", "turn"):
        for _seat in (2, 3, 1):
            act(event, hand, "check")
    act(event, hand, "check")  # river: seat 2 checks,
    act(event, hand, "bet", 400)  # seat 3 bets,
    act(event, hand, "call")  # seat 1 calls,
    act(event, hand, "call")  # seat 2 calls

    shown = betting_public(betting_state(hand))["show_order"]

    assert shown == {"seats": [3, 1, 2], "all_at_once": False, "rule": "TDA 17-A"}
