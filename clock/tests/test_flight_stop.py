"""The end of a flight's day (issue 17, item 3): the director's stop, the stop at the
event's last level of the day and at its share of entries left. Play stops: the clock
finished, the flight finished with its survivors still active with their chips, a
FlightEnd with the chips in play (sold less removed), one audit entry. A flight that has
stopped takes no more busts, hands or registrations; the end-of-day draw (casino §28)
still comes first where the director wants it."""

from datetime import timedelta

import pytest

from clock import engine as clock_engine
from clock import services as clock_services
from clock.models import Clock
from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from floorman.tests.concurrency import at_once
from hands import services as hand_services
from hands.services import busts
from hands.tests.factories import button_at
from rulings import services as rulings
from seating.services import desk
from tournaments.models import EntryStatus, FlightEnd, Tournament
from tournaments.tests.factories import register, staff, tournament
from tournaments.tests.flights import main_event, running_flight

pytestmark = pytest.mark.django_db

SIX_STACKS = 6 * 20000


def test_the_director_stops_a_flight_and_its_survivors_stay_in_with_their_chips():
    event = main_event()
    flight, seats = running_flight(event)
    director = staff("director")

    flight_end = clock_services.flight_stop(actor=director, tournament_id=flight.pk)

    flight.refresh_from_db()
    assert flight.status == "finished"
    assert flight.entries.filter(status=EntryStatus.ACTIVE).count() == 6
    assert Clock.objects.get(pk=flight.pk).status == clock_engine.FINISHED
    assert (flight_end.reason, flight_end.chips_in_play) == ("director", SIX_STACKS)
    audit = AuditEntry.objects.get(action="flight.stop")
    assert audit.after["chips_in_play"] == SIX_STACKS and audit.after["reason"] == "director"
    assert audit.before["clock"]["status"] == clock_engine.RUNNING


def test_the_chips_in_play_are_the_chips_sold_less_the_chips_taken_out_of_play():
    event = main_event()
    flight, seats = running_flight(event)
    cheat = seats[(2, 3)]
    rulings.penalty_give(
        actor=None,
        tournament_id=flight.pk,
        data={"entry": cheat.pk, "kind": "disqualification"},
    )

    flight_end = clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    assert flight_end.chips_in_play == SIX_STACKS - 20000  # TDA 71-D: out of play
    active = sum(flight.entries.filter(status="active").values_list("chips", flat=True))
    assert active == flight_end.chips_in_play  # the stacks on the tables say the same


def test_a_flight_stops_once_only_while_it_runs_and_only_a_flight():
    event = main_event()
    flight, _seats = running_flight(event)
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)
    lone = tournament()

    with pytest.raises(Conflict) as twice:
        clock_services.flight_stop(actor=None, tournament_id=flight.pk)
    with pytest.raises(Conflict) as not_a_flight:
        clock_services.flight_stop(actor=None, tournament_id=lone.pk)
    with pytest.raises(Invalid):
        clock_services.flight_stop(actor=None, tournament_id=flight.pk, reason="lunch")

    assert twice.value.code == "flight_stopped"
    assert not_a_flight.value.code == "not_a_flight"
    assert FlightEnd.objects.count() == 1
    assert lone.status == "registering"


def test_a_stopped_flight_takes_no_more_busts_hands_or_registrations():
    event = main_event()
    flight, seats = running_flight(event)
    button_at(flight, 1, 1)
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    with pytest.raises(Conflict) as bust:
        busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 2)].pk)
    with pytest.raises(Conflict) as hand:
        hand_services.hand_start(actor=None, tournament_id=flight.pk, number=1)
    with pytest.raises(Conflict) as registration:
        register(flight, "Late Larry")

    assert bust.value.code == hand.value.code == "flight_stopped"
    assert registration.value.code == "registration_closed"
    assert flight.entries.filter(status=EntryStatus.ACTIVE).count() == 6


def test_the_flight_stops_by_itself_when_the_level_after_the_days_last_would_begin():
    event = main_event(flight_end_level=2)
    flight, _seats = running_flight(event)

    clock_services.clock_act(actor=None, tournament_id=flight.pk, action="next")  # level 2
    assert not FlightEnd.objects.filter(flight=flight).exists()
    clock_services.clock_act(actor=None, tournament_id=flight.pk, action="next")  # the break
    assert not FlightEnd.objects.filter(flight=flight).exists()
    clock_services.clock_act(actor=None, tournament_id=flight.pk, action="next")  # level 3

    flight_end = FlightEnd.objects.get(flight=flight)
    assert flight_end.reason == "level"
    assert Tournament.objects.get(pk=flight.pk).status == "finished"
    assert Clock.objects.get(pk=flight.pk).status == clock_engine.FINISHED


def test_the_clocks_timed_level_change_stops_the_flight_too():
    event = main_event(flight_end_level=1)
    flight, _seats = running_flight(event)
    clock = Clock.objects.get(pk=flight.pk)
    # The level's time ran out: the clock reads level 2 now.
    Clock.objects.filter(pk=flight.pk).update(anchor_at=clock.anchor_at - timedelta(minutes=21))

    sent = clock_services.clock_announcement_send(
        tournament_id=flight.pk, version=clock.version, kind=clock_engine.CHANGE, position=1
    )

    assert sent
    assert FlightEnd.objects.get(flight=flight).reason == "level"


def test_the_flight_stops_by_itself_when_a_bust_leaves_the_share_of_its_entries():
    event = main_event(flight_end_percent=50)  # six entries: three survivors bag
    flight, seats = running_flight(event)

    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 1)].pk)
    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 2)].pk)
    assert not FlightEnd.objects.filter(flight=flight).exists()
    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(2, 1)].pk)

    flight_end = FlightEnd.objects.get(flight=flight)
    assert flight_end.reason == "share"
    assert flight.entries.filter(status=EntryStatus.ACTIVE).count() == 3
    assert Tournament.objects.get(pk=flight.pk).status == "finished"


@pytest.mark.parametrize("closed_by", ["clock", "timed", "director"])
def test_a_flight_already_at_its_share_stops_when_late_registration_closes(closed_by):
    event = main_event(flight_end_percent=50, late_reg_until_level=1)
    flight, seats = running_flight(event)
    for seat in ((1, 1), (1, 2), (1, 3)):  # three of six: players may still come
        busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[seat].pk)
    assert not FlightEnd.objects.filter(flight=flight).exists()

    if closed_by == "clock":  # level 2 begins: late registration is over (TDA 8-A)
        clock_services.clock_act(actor=None, tournament_id=flight.pk, action="next")
    elif closed_by == "timed":  # level 1's time ran out
        clock = Clock.objects.get(pk=flight.pk)
        Clock.objects.filter(pk=flight.pk).update(anchor_at=clock.anchor_at - timedelta(minutes=21))
        clock_services.clock_announcement_send(
            tournament_id=flight.pk, version=clock.version, kind=clock_engine.CHANGE, position=1
        )
    else:
        busts.tournament_edit(
            actor=staff("director"), tournament_id=flight.pk, data={"late_reg_until_level": None}
        )

    assert FlightEnd.objects.get(flight=flight).reason == "share"
    assert Tournament.objects.get(pk=flight.pk).status == "finished"


def test_the_end_of_day_draw_comes_first_and_the_flight_stops_after_its_hands():
    event = main_event()
    flight, _seats = running_flight(event)
    Tournament.objects.filter(pk=flight.pk).update(
        house_settings={"day_end_draw": "casino"}
    )  # casino §28

    drawn = clock_services.clock_day_end(actor=None, tournament_id=flight.pk)
    assert 3 <= drawn.day_end_hands <= 7  # casino §28
    flight_end = clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    assert flight_end.chips_in_play == SIX_STACKS
    assert Clock.objects.get(pk=flight.pk).status == clock_engine.FINISHED


def test_the_desks_finish_of_a_flight_with_players_left_is_still_refused():
    """The status engine's exception is the flight's stop only: the desk's finish keeps
    its rule (one player left), so no flight ends without its bags."""
    event = main_event()
    flight, _seats = running_flight(event)

    with pytest.raises(Conflict) as refused:
        desk.tournament_status_set(actor=None, tournament_id=flight.pk, status="finished")

    assert refused.value.code == "players_remaining"


def test_a_bust_is_not_taken_back_once_the_flight_has_stopped():
    event = main_event()
    flight, seats = running_flight(event)
    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 1)].pk)
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    with pytest.raises(Conflict) as refused:
        busts.entry_bust_undo(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 1)].pk)

    assert refused.value.code == "flight_stopped"
    assert flight.entries.filter(status=EntryStatus.ACTIVE).count() == 5


@pytest.mark.django_db(transaction=True)
def test_two_busts_at_once_at_the_share_stop_the_flight_once_and_the_second_is_refused():
    event = main_event(flight_end_percent=50)  # six entries: it stops at three left
    flight, seats = running_flight(event)
    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 1)].pk)
    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 2)].pk)

    results = at_once(
        lambda: busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(2, 1)].pk),
        lambda: busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(2, 2)].pk),
    )

    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(refused) == 1 and refused[0].code == "flight_stopped"
    assert FlightEnd.objects.filter(flight=flight).count() == 1
    assert flight.entries.filter(status=EntryStatus.ACTIVE).count() == 3


def test_a_flight_down_to_its_last_player_stops_and_the_survivor_bags_for_day_2():
    event = main_event()  # no share set: only the last player left ends the day
    flight, seats = running_flight(event)
    survivor = seats.pop((1, 1))

    for entry in seats.values():
        busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=entry.pk)

    flight_end = FlightEnd.objects.get(flight=flight)
    assert flight_end.chips_in_play == SIX_STACKS
    assert list(flight.entries.filter(status=EntryStatus.ACTIVE)) == [survivor]
    assert Tournament.objects.get(pk=flight.pk).status == "finished"
