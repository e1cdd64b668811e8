"""Who eliminated whom and what each elimination pays (issue 18), as the floor sees it:
settled from the logged hand (the winner(s) of the pot the busted player was all-in for,
TDA 20, 21), named by the floor without one, corrected and taken back."""

import random

import pytest

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from hands import services
from hands.engine import bounties as rules
from hands.models import Knockout
from hands.selectors import (
    bounties_won,
    entry_bounties,
    knockouts_standing,
    mystery_left,
    mystery_prizes,
    mystery_replay_check,
)
from hands.services import busts as bust_services
from hands.tests.factories import button_at, deal, seat_players
from payouts.models import PayoutStructure
from prizes import services as prize_services
from prizes.models import BountyPayment
from tournaments.models import Entry, Tournament
from tournaments.services.ledger import ledger_line_add
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

BOARD = "2c 7d 9h Js 3s"


def bounty_event(**overrides):
    event = tournament(**overrides)
    with_structure(event)  # level 1: 100/200
    return event


def chips(entry, amount: int) -> None:
    Entry.objects.filter(pk=entry.pk).update(chips=amount)


def act(event, hand, kind, amount=None):
    return services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=hand.table.number,
        hand_number=hand.number,
        kind=kind,
        amount=amount,
    )


def settle(event, hand, cards, board=BOARD):
    return services.hand_settle(
        actor=None,
        tournament_id=event.pk,
        number=hand.table.number,
        hand_number=hand.number,
        cards=cards,
        board=board,
    )


def standing(event) -> set[tuple[int, int, int, int]]:
    """(busted, winner, cash, added) of every knockout that stands."""
    return set(knockouts_standing(event).values_list("busted_id", "winner_id", "cash", "added"))


def four_all_in(event, stacks: dict[int, int]):
    """Table 1, seats 1-4 with these stacks, button 1 (small blind 2, big blind 3): every
    player all-in before the flop, seat 4 first."""
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    players = {seat: seated[(1, seat)] for seat in (1, 2, 3, 4)}
    for seat, amount in stacks.items():
        chips(players[seat], amount)
    button_at(event, 1, 1)
    hand = deal(event, 1)
    act(event, hand, "raise", max(stacks.values()))  # seat 4 (first to act)
    act(event, hand, "call")  # seat 1
    act(event, hand, "call")  # seat 2 (small blind)
    act(event, hand, "call")  # seat 3 (big blind)
    return players, hand


def three_all_in(event, stacks: dict[int, int], *, second="call"):
    """Table 1, seats 1-3, button 1: seat 1 moves all-in, seat 2 calls (or folds), seat 3
    calls."""
    seated = seat_players(event, {1: [1, 2, 3]})
    players = {seat: seated[(1, seat)] for seat in (1, 2, 3)}
    for seat, amount in stacks.items():
        chips(players[seat], amount)
    button_at(event, 1, 1)
    hand = deal(event, 1)
    act(event, hand, "raise", max(stacks.values()))
    act(event, hand, second)
    act(event, hand, "call")
    return players, hand


# --- settled from the logged hand -----------------------------------------------------------


def test_the_pot_winner_collects_the_knockout_bounty_of_the_player_they_busted():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    players, hand = three_all_in(event, {1: 20000, 2: 20000, 3: 5000}, second="fold")

    settle(event, hand, {1: "As Ah", 3: "4c 5d"})

    one, three = players[1].pk, players[3].pk
    assert standing(event) == {(three, one, 2500, 0)}
    assert Knockout.objects.get().source == "hand"
    bust = AuditEntry.objects.get(action="entry.bust", object_id=str(three))
    assert bust.after["knockouts"] == [
        {"busted": three, "winner": one, "cash": 2500, "added": 0, "draw": None, "source": "hand"}
    ]
    assert AuditEntry.objects.get(action="hand.finish").after["knockouts"][0]["winner"] == one
    assert bounties_won(event) == {one: 2500}


def test_a_split_pot_splits_the_bounty_odd_unit_first_from_the_button_tda_20():
    event = bounty_event(bounty_format="knockout", bounty=2500)  # €25, whole euros paid
    players, hand = three_all_in(event, {1: 20000, 2: 20000, 3: 5000})

    # Broadway on both tens: seats 1 and 2 split every pot; seat 3 is out.
    settle(event, hand, {1: "Tc 4d", 2: "Td 5c", 3: "2h 2s"}, board="Ah Kd Qc Jh 3s")

    # 25 whole euros between two: the odd euro to seat 2, the first left of the button.
    assert standing(event) == {
        (players[3].pk, players[2].pk, 1300, 0),
        (players[3].pk, players[1].pk, 1200, 0),
    }


def test_the_house_unit_decides_the_odd_units():
    event = bounty_event(bounty_format="knockout", bounty=2550)
    PayoutStructure.objects.create(tournament=event, unit=50)
    players, hand = three_all_in(event, {1: 20000, 2: 20000, 3: 5000})

    settle(event, hand, {1: "Tc 4d", 2: "Td 5c", 3: "2h 2s"}, board="Ah Kd Qc Jh 3s")

    cash = dict(Knockout.objects.values_list("winner_id", "cash"))
    assert cash == {players[2].pk: 1300, players[1].pk: 1250}


def test_a_short_stack_is_eliminated_by_the_main_pot_winner_not_the_side_pot_tda_21():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    # The short stack (3) and A (1) all-in; B (2) wins the side pot from C (4).
    players, hand = four_all_in(event, {1: 8000, 2: 20000, 3: 5000, 4: 30000})

    settle(event, hand, {1: "As Ah", 2: "Ks Kh", 3: "4c 5d", 4: "Qd Qc"})

    assert standing(event) == {(players[3].pk, players[1].pk, 2500, 0)}


def test_two_players_busted_in_one_hand_by_different_players():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    # As above, but C (4) covers nobody: they lose the last side pot to B (2) and bust.
    players, hand = four_all_in(event, {1: 8000, 2: 20000, 3: 5000, 4: 20000})

    settle(event, hand, {1: "As Ah", 2: "Ks Kh", 3: "4c 5d", 4: "Qd Qc"})

    assert standing(event) == {
        (players[3].pk, players[1].pk, 2500, 0),
        (players[4].pk, players[2].pk, 2500, 0),
    }


def test_pko_pays_half_in_cash_grows_the_eliminators_head_and_the_next_knockout_pays_it():
    event = bounty_event(bounty_format="pko", bounty=5000, bounty_cash_percent=50)
    players, hand = three_all_in(event, {1: 20000, 2: 5000, 3: 5000})

    # Seat 1 busts both others in one hand: each from the bounties at its start.
    settle(event, hand, {1: "As Ah", 2: "Ks Kh", 3: "4c 5d"})

    one, two, three = (players[seat].pk for seat in (1, 2, 3))
    assert standing(event) == {(two, one, 2500, 2500), (three, one, 2500, 2500)}
    assert entry_bounties(event) == {one: 10000}


def test_pko_a_grown_bounty_is_paid_at_the_next_knockout():
    event = bounty_event(bounty_format="pko", bounty=5000, bounty_cash_percent=50)
    seated = seat_players(event, {1: [1, 2, 3]})
    a, b, c = (seated[(1, seat)] for seat in (1, 2, 3))
    floor = staff("floor")
    bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=c.pk, eliminators=[b.pk])
    assert entry_bounties(event) == {a.pk: 5000, b.pk: 7500}

    bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=b.pk, eliminators=[a.pk])

    # B's grown 7,500: 3,700 in whole euros, the rest on A's head.
    assert standing(event) >= {(b.pk, a.pk, 3700, 3800)}
    assert entry_bounties(event)[a.pk] == 5000 + 3800


# --- mystery bounties -----------------------------------------------------------------------

PRIZES = [
    {"amount": 100000, "count": 1},
    {"amount": 20000, "count": 2},
    {"amount": 5000, "count": 5},
]


def test_mystery_no_draw_before_the_money_then_draws_replay_from_the_seed_and_the_pool_shrinks():
    event = bounty_event(bounty_format="mystery", mystery_start="money", mystery_prizes=PRIZES)
    players = list(seat_players(event, {1: [1, 2, 3, 4, 5]}).values())
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    # Two places paid: the first two busts are not in the money.
    PayoutStructure.objects.create(tournament=event, shares=[70, 30])
    floor = staff("floor")
    winner = players[0]

    def bust(entry):
        bust_services.entry_bust(
            actor=floor, tournament_id=event.pk, entry_id=entry.pk, eliminators=[winner.pk]
        )

    bust(players[4])
    bust(players[3])
    assert not Knockout.objects.exists()
    assert Tournament.objects.get(pk=event.pk).mystery_seed == ""

    bust(players[2])  # three left for two places: the bubble, no draw
    assert not Knockout.objects.exists()
    bust(players[1])  # in the money: the first draw

    event.refresh_from_db()
    drawn = Knockout.objects.get()
    assert drawn.draw == 1 and drawn.winner_id == winner.pk
    expected, _left = rules.mystery_draw(
        mystery_prizes(event), random.Random(f"{event.mystery_seed}:1")
    )
    assert drawn.cash == expected
    left = list(mystery_prizes(event))
    left.remove(expected)
    assert list(mystery_left(event)) == left
    assert mystery_replay_check(event) == []
    Knockout.objects.update(cash=expected + 1)  # a prize not drawn from this seed
    assert mystery_replay_check(event) == [1]


def test_mystery_from_the_start_draws_one_per_elimination_and_undo_puts_it_back():
    event = bounty_event(bounty_format="mystery", mystery_start="start", mystery_prizes=PRIZES)
    players = list(seat_players(event, {1: [1, 2, 3, 4]}).values())
    floor = staff("floor")
    for entry in players[2:]:
        bust_services.entry_bust(
            actor=floor, tournament_id=event.pk, entry_id=entry.pk, eliminators=[players[0].pk]
        )
    event.refresh_from_db()  # the first draw set the seed
    assert sorted(Knockout.objects.values_list("draw", flat=True)) == [1, 2]
    assert len(mystery_left(event)) == 8 - 2
    assert mystery_replay_check(event) == []

    bust_services.entry_bust_undo(actor=floor, tournament_id=event.pk, entry_id=players[3].pk)

    assert len(mystery_left(event)) == 8 - 1  # the prize is back in the draw
    assert mystery_replay_check(event) == []


def test_mystery_on_a_flight_waits_for_day_2():
    parent = bounty_event(bounty_format="mystery", mystery_start="day2", mystery_prizes=PRIZES)
    flight = bounty_event(
        bounty_format="mystery",
        mystery_start="day2",
        mystery_prizes=PRIZES,
        parent=parent,
        flight_name="1A",
    )
    players = list(seat_players(flight, {1: [1, 2, 3]}).values())
    bust_services.entry_bust(
        actor=None, tournament_id=flight.pk, entry_id=players[2].pk, eliminators=[players[0].pk]
    )
    assert not Knockout.objects.exists()


# --- named by the floor ---------------------------------------------------------------------


def test_the_floor_names_the_eliminator_at_the_desk_and_on_the_tablet():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    floor = staff("floor")
    bust_services.entry_bust(
        actor=floor,
        tournament_id=event.pk,
        entry_id=seated[(1, 4)].pk,
        eliminators=[seated[(1, 1)].pk],
    )
    services.table_busts_record(
        actor=floor, tournament_id=event.pk, number=1, seats=[3], eliminators=[2]
    )

    assert standing(event) == {
        (seated[(1, 4)].pk, seated[(1, 1)].pk, 2500, 0),
        (seated[(1, 3)].pk, seated[(1, 2)].pk, 2500, 0),
    }
    assert set(Knockout.objects.values_list("source", flat=True)) == {"floor"}


def test_the_hands_result_names_the_eliminator_by_seat():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)
    services.hand_finish(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=hand.number,
        busts=[3],
        eliminators=[2],
    )
    assert standing(event) == {(seated[(1, 3)].pk, seated[(1, 2)].pk, 2500, 0)}
    assert Knockout.objects.get().hand == hand


def test_a_bust_without_an_eliminator_stays_unsettled_until_the_floor_names_one():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seated = seat_players(event, {1: [1, 2, 3]})
    out, winner = seated[(1, 3)], seated[(1, 1)]
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=out.pk)

    assert Entry.objects.get(pk=out.pk).status == "busted"
    assert not Knockout.objects.exists()
    assert AuditEntry.objects.get(action="entry.bust").after["eliminator_named"] is False

    services.knockout_correct(
        actor=staff("floor"),
        tournament_id=event.pk,
        busted_entry_id=out.pk,
        eliminator_ids=[winner.pk],
    )
    assert standing(event) == {(out.pk, winner.pk, 2500, 0)}


@pytest.mark.parametrize("named", ["self", "busted before", "stranger"])
def test_a_bad_eliminator_is_refused_and_nothing_is_written(named):
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    other = bounty_event(name="Other event")
    stranger = seat_players(other, {5: [1]})[(5, 1)]
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(1, 4)].pk)
    out = seated[(1, 3)]
    eliminator = {"self": out, "busted before": seated[(1, 4)], "stranger": stranger}[named]

    with pytest.raises(Invalid) as refused:
        bust_services.entry_bust(
            actor=None, tournament_id=event.pk, entry_id=out.pk, eliminators=[eliminator.pk]
        )

    assert "eliminators" in refused.value.fields
    assert Entry.objects.get(pk=out.pk).status == "active"
    assert not Knockout.objects.exists()


def test_the_tablet_cannot_name_a_player_busted_in_the_same_hand_or_an_empty_seat():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seat_players(event, {1: [1, 2, 3, 4]})
    for eliminators in ([3], [7]):
        with pytest.raises(Invalid):
            services.table_busts_record(
                actor=None, tournament_id=event.pk, number=1, seats=[3, 4], eliminators=eliminators
            )
    assert not Knockout.objects.exists()
    assert Entry.objects.filter(tournament=event, status="busted").count() == 0


# --- corrections and undo -------------------------------------------------------------------


def test_a_correction_reverses_the_knockout_and_records_the_right_one_audited(
    django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda tournament_id, message: sent.append(message))
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seated = seat_players(event, {1: [1, 2, 3]})
    out, wrong, right = seated[(1, 3)], seated[(1, 1)], seated[(1, 2)]
    floor = staff("floor")
    bust_services.entry_bust(
        actor=floor, tournament_id=event.pk, entry_id=out.pk, eliminators=[wrong.pk]
    )

    with django_capture_on_commit_callbacks(execute=True):
        services.knockout_correct(
            actor=floor, tournament_id=event.pk, busted_entry_id=out.pk, eliminator_ids=[right.pk]
        )

    assert standing(event) == {(out.pk, right.pk, 2500, 0)}
    assert [m["data"]["id"] for m in sent if m["type"] == "entry.updated"] == [out.pk]
    reversed_row = Knockout.objects.get(winner=wrong)
    assert reversed_row.reversed_at is not None and reversed_row.reversed_by == floor
    audit = AuditEntry.objects.get(action="knockout.correct")
    assert [row["winner"] for row in audit.before["knockouts"]] == [wrong.pk]
    assert [row["winner"] for row in audit.after["knockouts"]] == [right.pk]


def test_a_paid_bounty_is_not_corrected_nor_undone_until_the_cage_takes_it_back():
    event = bounty_event(bounty_format="knockout", bounty=2500)
    seated = seat_players(event, {1: [1, 2, 3]})
    out, winner = seated[(1, 3)], seated[(1, 1)]
    bust_services.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=out.pk, eliminators=[winner.pk]
    )
    line = ledger_line_add(
        tournament=event,
        entry=winner,
        kind="bounty",
        amount=-2500,
        prize_share=0,
        fee_share=0,
        bounty_share=-2500,
    )
    BountyPayment.objects.create(knockout=Knockout.objects.get(), line=line)  # at the cage

    with pytest.raises(Conflict) as corrected:
        services.knockout_correct(
            actor=None,
            tournament_id=event.pk,
            busted_entry_id=out.pk,
            eliminator_ids=[seated[(1, 2)].pk],
        )
    with pytest.raises(Conflict) as undone:
        bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=out.pk)

    assert corrected.value.code == undone.value.code == "bounty_paid"
    assert standing(event) == {(out.pk, winner.pk, 2500, 0)}
    assert Entry.objects.get(pk=out.pk).status == "busted"


def test_pko_a_correction_is_refused_once_the_grown_bounty_was_collected():
    event = bounty_event(bounty_format="pko", bounty=5000)
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    a, b, c, d = (seated[(1, seat)] for seat in (1, 2, 3, 4))
    floor = staff("floor")
    bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=d.pk, eliminators=[c.pk])
    bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=c.pk, eliminators=[a.pk])

    with pytest.raises(Conflict) as refused:  # C's head, grown by D, went to A since
        services.knockout_correct(
            actor=floor, tournament_id=event.pk, busted_entry_id=d.pk, eliminator_ids=[b.pk]
        )
    assert refused.value.code == "bounty_collected"
    assert not AuditEntry.objects.filter(action="knockout.correct").exists()


def test_undoing_a_bust_reverses_its_knockouts():
    event = bounty_event(bounty_format="pko", bounty=5000)
    seated = seat_players(event, {1: [1, 2, 3]})
    out, winner = seated[(1, 3)], seated[(1, 1)]
    bust_services.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=out.pk, eliminators=[winner.pk]
    )

    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=out.pk)

    assert standing(event) == set()
    assert entry_bounties(event)[winner.pk] == 5000
    undo = AuditEntry.objects.get(action="entry.bust_undo")
    assert [row["winner"] for row in undo.after["knockouts_reversed"]] == [winner.pk]


def test_a_deal_that_ends_the_event_pays_each_player_their_own_bounty():
    event = bounty_event(bounty_format="pko", bounty=5000)
    seated = seat_players(event, {1: [1, 2, 3]})
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    a, b, c = (seated[(1, seat)] for seat in (1, 2, 3))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=c.pk, eliminators=[a.pk])
    figures = prize_services.deal_calculate(
        tournament_id=event.pk, method="chip_chop", chips=[30000, 30000]
    )

    prize_services.deal_record(
        actor=None,
        tournament_id=event.pk,
        method="chip_chop",
        players=[
            {"entry": entry.pk, "chips": 30000, "amount": row["amount"]}
            for entry, row in zip([a, b], figures["players"], strict=True)
        ],
    )

    own = set(Knockout.objects.filter(source="winner").values_list("winner_id", "cash"))
    assert own == {(a.pk, 7500), (b.pk, 5000)}
    assert sum(bounties_won(event).values()) == 3 * 5000


def test_the_winner_collects_their_own_pko_bounty_and_a_reopening_takes_it_back():
    event = bounty_event(bounty_format="pko", bounty=5000)
    seated = seat_players(event, {1: [1, 2]})
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    winner, out = seated[(1, 1)], seated[(1, 2)]

    bust_services.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=out.pk, eliminators=[winner.pk]
    )

    assert Tournament.objects.get(pk=event.pk).status == "finished"
    own = Knockout.objects.get(source="winner")
    assert (own.busted_id, own.winner_id, own.cash) == (winner.pk, winner.pk, 7500)
    assert sum(bounties_won(event).values()) == 2 * 5000  # every euro in is paid out

    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=out.pk)

    assert Tournament.objects.get(pk=event.pk).status == "running"
    assert standing(event) == set()


def test_a_mystery_correction_keeps_the_prize_drawn_and_reshares_it():
    event = bounty_event(bounty_format="mystery", mystery_start="start", mystery_prizes=PRIZES)
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    out, wrong, a, b = (seated[(1, seat)] for seat in (4, 1, 2, 3))
    bust_services.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=out.pk, eliminators=[wrong.pk]
    )
    prize = Knockout.objects.get().cash

    services.knockout_correct(
        actor=None, tournament_id=event.pk, busted_entry_id=out.pk, eliminator_ids=[a.pk, b.pk]
    )

    event.refresh_from_db()
    now = knockouts_standing(event)
    assert set(now.values_list("winner_id", flat=True)) == {a.pk, b.pk}
    assert set(now.values_list("draw", flat=True)) == {1}
    assert sum(now.values_list("cash", flat=True)) == prize
    assert len(mystery_left(event)) == 8 - 1  # still one prize out of the draw
    assert mystery_replay_check(event) == []


def test_pko_a_split_pot_shares_both_the_cash_and_the_bounty_added():
    event = bounty_event(bounty_format="pko", bounty=5000)
    players, hand = three_all_in(event, {1: 20000, 2: 20000, 3: 5000})

    settle(event, hand, {1: "Tc 4d", 2: "Td 5c", 3: "2h 2s"}, board="Ah Kd Qc Jh 3s")

    # 2,500 cash and 2,500 added, each shared in whole euros, seat 2 first from the button.
    assert standing(event) == {
        (players[3].pk, players[2].pk, 1300, 1300),
        (players[3].pk, players[1].pk, 1200, 1200),
    }


def test_the_bounty_reads_answer_for_the_entries_asked_about_only():
    """One player's page asks for their own bounties, not the whole field's."""
    event = bounty_event(bounty_format="pko", bounty=5000, bounty_cash_percent=50)
    seated = seat_players(event, {1: [1, 2, 3]})
    a, b, c = (seated[(1, seat)] for seat in (1, 2, 3))
    bust_services.entry_bust(
        actor=staff("floor"), tournament_id=event.pk, entry_id=c.pk, eliminators=[b.pk]
    )

    assert entry_bounties(event, [b.pk]) == {b.pk: 7500}
    assert bounties_won(event, [b.pk]) == {b.pk: 2500}
    assert bounties_won(event, [a.pk]) == {}
