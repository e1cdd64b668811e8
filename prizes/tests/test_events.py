"""Events made from other events (prizes.services.events): a copy of an event, and the
house's saved event templates. A copy takes the event's setup (its settings, its own copy
of the blind structure, the payout, seating and hand-for-hand settings, the tables) and
never its entries, players, hands, payments or results."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from clock import engine as clock_engine
from clock import services as clock_services
from clock.models import Announcement, Clock
from clock.selectors import structure_steps
from clock.tests.factories import STEPS, with_structure
from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from floorman.tests.concurrency import at_once
from hands.models import Hand, HandForHand
from hands.services import h4h_settings_update
from hands.tests.factories import button_at, deal, finish
from payouts.models import Payout, PayoutLock, PayoutStructure
from prizes import services as prize_services
from prizes.models import EventTemplate, Payment
from prizes.services import events
from seating import services as seating_services
from seating.models import Seat, Seating, Table, VenueTable
from seating.services import desk
from seating.tests.factories import add_tables
from tournaments.models import Alternate, Entry, Tournament, Transaction
from tournaments.services import TOURNAMENT_FIELDS
from tournaments.tests.factories import field, staff, tournament

pytestmark = pytest.mark.django_db

NEXT_SATURDAY = timezone.now().replace(microsecond=0) + timedelta(days=7)
SETTINGS = [n for n in TOURNAMENT_FIELDS if n not in ("name", "start_at", "current_level")]


def saturday_night(director) -> Tournament:
    """Last Saturday's event as it was played: settings of every app changed from their
    defaults, three tables (one accessible seat each, one seat blocked), a field seated,
    a hand dealt and a player out."""
    event = tournament(
        name="Saturday Deepstack",
        buy_in=5000,
        fee=500,
        starting_stack=30000,
        table_size=8,
        capacity=64,
        late_reg_until_level=6,
        reentry_allowed=True,
        reentry_max=2,
        reentry_until_level=6,
        rebuy_until_level=4,
        rebuy_max=1,
        rebuy_price=5000,
        rebuy_chips=30000,
        addon_at_break_after_level=4,
        addon_price=5000,
        addon_fee=500,
        addon_chips=40000,
        guarantee=300000,
    )
    with_structure(event)
    clock_services.clock_settings_update(
        actor=director,
        tournament_id=event.pk,
        data={"warning_seconds": 60, "turbo": True},
    )
    prize_services.payouts_update(
        actor=director,
        tournament_id=event.pk,
        settings={"places_mode": "fixed", "places_fixed": 4, "unit": 500},
    )
    seating_services.settings_update(
        actor=director,
        tournament_id=event.pk,
        data={"balance_threshold": 1, "halt_rule": "casino", "final_table_size": 8},
    )
    h4h_settings_update(
        actor=director, tournament_id=event.pk, data={"seconds_per_hand": 90, "margin": 2}
    )
    add_tables(event, 3, seats=8, accessible="1")
    seating_services.seat_set(
        actor=director, tournament_id=event.pk, number=2, seat=8, blocked=True
    )
    entries = field(event, 12)
    Tournament.objects.filter(pk=event.pk).update(status="running")
    seating_services.seating_draw(actor=director, tournament_id=event.pk)
    clock_services.clock_act(actor=director, tournament_id=event.pk, action="start")
    clock_services.announcement_post(actor=director, tournament_id=event.pk, text="Good luck")
    table = Seat.objects.get(entry=entries[0]).table.number
    button_at(event, table, Seat.objects.filter(table__number=table, entry__isnull=False)[0].number)
    hand = deal(event, table)
    finish(event, table, hand)
    event.refresh_from_db()
    return event


def setup_of(event: Tournament) -> dict:
    """Everything a director set up, app by app, as a copy must have it."""
    clock = Clock.objects.get(pk=event.pk)
    payouts = PayoutStructure.objects.get(tournament=event)
    seating = Seating.objects.get(tournament=event)
    h4h = HandForHand.objects.get(tournament=event)
    return {
        "event": {name: getattr(event, name) for name in SETTINGS},
        "steps": structure_steps(clock.structure_id),
        "chip_set": clock.structure.chip_set_id,
        "clock": {name: getattr(clock, name) for name in Clock.SETTINGS},
        "payouts": payouts.settings_dict(),
        "seating": {name: getattr(seating, name) for name in Seating.SETTINGS},
        "hand_for_hand": {name: getattr(h4h, name) for name in HandForHand.HOUSE_SETTINGS},
        "tables": [
            (t.number, t.seats, t.break_order, accessible, blocked)
            for t in Table.objects.filter(tournament=event).order_by("break_order")
            for accessible, blocked in [
                (
                    [s.number for s in t.seat_set.all() if s.accessible],
                    [s.number for s in t.seat_set.all() if s.blocked],
                )
            ]
        ],
    }


def nothing_played(event: Tournament) -> None:
    """A new event: no entries, players, hands, money, results, seats taken or clock run."""
    assert not Entry.objects.filter(tournament=event).exists()
    assert not Alternate.objects.filter(tournament=event).exists()
    assert not Transaction.objects.filter(tournament=event).exists()
    assert not Hand.objects.filter(tournament=event).exists()
    assert not Payment.objects.filter(entry__tournament=event).exists()
    assert not Payout.objects.filter(tournament=event).exists()
    assert not Announcement.objects.filter(tournament=event).exists()
    assert not Seat.objects.filter(table__tournament=event, entry__isnull=False).exists()
    clock = Clock.objects.get(pk=event.pk)
    assert (clock.status, clock.position) == (clock_engine.NOT_STARTED, 1)
    assert clock.left_ms == STEPS[0].minutes * 60_000
    payouts = PayoutStructure.objects.get(tournament=event)
    assert (payouts.lock, payouts.edited) == (PayoutLock.AUTO, False)
    assert (event.status, event.current_level) == ("planned", 1)


# --- A copy -----------------------------------------------------------------------------------


def test_copy_takes_the_whole_setup_under_a_new_name_and_start_and_nothing_played():
    director = staff("director")
    source = saturday_night(director)
    seating_services.tables_close(tournament=source)  # the night is over: tables are free

    copy = events.event_copy(
        actor=director,
        tournament_id=source.pk,
        name="Saturday Deepstack #2",
        start_at=NEXT_SATURDAY,
    )

    copy.refresh_from_db()
    assert (copy.name, copy.start_at) == ("Saturday Deepstack #2", NEXT_SATURDAY)
    assert setup_of(copy) == setup_of(source)
    nothing_played(copy)
    # The tables are the venue's, as tables added by hand, and open.
    assert list(
        Table.objects.filter(tournament=copy, broken_at=None).values_list(
            "venue_table__number", flat=True
        )
    ) == [1, 2, 3]
    entry = AuditEntry.objects.get(action="tournament.copy")
    assert (entry.tournament_id, entry.actor_id) == (copy.pk, director.pk)
    assert entry.after["copied_from"] == source.pk
    assert entry.after["tables"] == [3, 2, 1]


def test_the_copy_plays_its_own_structure_editing_one_leaves_the_other():
    director = staff("director")
    source = tournament(name="Friday Turbo")
    with_structure(source)
    copy = events.event_copy(
        actor=director, tournament_id=source.pk, name="Friday Turbo", start_at=NEXT_SATURDAY
    )
    source_clock, copy_clock = Clock.objects.get(pk=source.pk), Clock.objects.get(pk=copy.pk)
    assert copy_clock.structure_id != source_clock.structure_id

    shorter = [clock_engine.Step(clock_engine.LEVEL, 10, 100, 200), *STEPS[1:]]
    clock_services.structure_update(
        actor=director,
        structure_id=source_clock.structure_id,
        name="Friday Turbo",
        steps=shorter,
        is_template=False,
        chip_set_id=None,
    )

    assert structure_steps(copy_clock.structure_id) == STEPS
    assert structure_steps(source_clock.structure_id) == shorter


def test_copy_without_the_tables_takes_the_rest():
    director = staff("director")
    source = tournament(name="Sunday Bounty")
    add_tables(source, 2, seats=6)

    copy = events.event_copy(
        actor=director,
        tournament_id=source.pk,
        name="Sunday Bounty",
        start_at=NEXT_SATURDAY,
        tables=False,
    )

    assert not Table.objects.filter(tournament=copy).exists()
    assert copy.buy_in == source.buy_in and Seating.objects.filter(tournament=copy).exists()


def test_copy_refused_while_another_event_plays_its_tables_writes_nothing():
    director = staff("director")
    source = tournament(name="Tonight")
    add_tables(source, 2)  # tonight's event still has tables 1 and 2
    before = (Tournament.objects.count(), Table.objects.count(), AuditEntry.objects.count())

    with pytest.raises(Conflict) as refused:
        events.event_copy(
            actor=director, tournament_id=source.pk, name="Next week", start_at=NEXT_SATURDAY
        )

    assert refused.value.code == "tables_in_use"
    assert "1, 2" in refused.value.message
    assert (Tournament.objects.count(), Table.objects.count(), AuditEntry.objects.count()) == before


def test_copy_of_an_event_without_a_structure_or_tables():
    source = tournament(name="Cash-in satellite")

    copy = events.event_copy(
        actor=None, tournament_id=source.pk, name="Satellite", start_at=NEXT_SATURDAY
    )

    assert Clock.objects.get(pk=copy.pk).structure_id is None
    assert not Table.objects.filter(tournament=copy).exists()


@pytest.mark.parametrize("name", ["", "   ", "\u200b\u200b", "x" * 121])
def test_copy_needs_a_name_a_screen_shows(name):
    source = tournament()
    count = Tournament.objects.count()

    with pytest.raises(Invalid) as refused:
        events.event_copy(actor=None, tournament_id=source.pk, name=name, start_at=NEXT_SATURDAY)

    assert list(refused.value.fields) == ["name"]
    assert Tournament.objects.count() == count


def test_copy_of_no_event_is_not_found():
    with pytest.raises(NotFound):
        events.event_copy(actor=None, tournament_id=999999, name="X", start_at=NEXT_SATURDAY)


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_copies_taking_the_same_tables_at_once_one_is_refused():
    """A venue table serves one tournament at a time: two directors copying last week's
    event at the same moment get one event with the tables and one refusal, never both."""
    source = tournament(name="Last Saturday")
    add_tables(source, 2)
    with transaction.atomic():
        seating_services.tables_close(tournament=source)

    def copy(name):
        return lambda: events.event_copy(
            actor=None, tournament_id=source.pk, name=name, start_at=NEXT_SATURDAY
        )

    results = at_once(copy("Saturday A"), copy("Saturday B"))

    made = [r for r in results if isinstance(r, Tournament)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert (len(made), len(refused)) == (1, 1), results
    assert refused[0].code == "tables_in_use"
    assert Tournament.objects.filter(name__startswith="Saturday ").count() == 1
    assert Table.objects.filter(broken_at=None).count() == 2


# --- Event templates ----------------------------------------------------------------------


def test_template_keeps_the_setup_and_starts_events_like_a_copy():
    director = staff("director")
    source = saturday_night(director)
    seating_services.tables_close(tournament=source)

    template = events.event_template_save(
        actor=director, tournament_id=source.pk, name="Saturday Deepstack"
    )
    started = events.event_template_start(
        actor=director, template_id=template.pk, name="Saturday Deepstack", start_at=NEXT_SATURDAY
    )

    assert template.saved_from == "Saturday Deepstack" and template.saved_by == director
    started.refresh_from_db()
    assert setup_of(started) == setup_of(source)
    nothing_played(started)
    assert AuditEntry.objects.filter(action="event_template.save", tournament=source).count() == 1
    entry = AuditEntry.objects.get(action="tournament.from_template")
    assert entry.tournament_id == started.pk and entry.after["template"] == "Saturday Deepstack"


def test_template_stays_as_saved_when_its_event_changes_later():
    director = staff("director")
    source = tournament(name="Monday PLO", buy_in=2000)
    clock = with_structure(source)
    template = events.event_template_save(actor=director, tournament_id=source.pk, name="PLO")

    Tournament.objects.filter(pk=source.pk).update(buy_in=9900)
    clock_services.structure_update(
        actor=director,
        structure_id=clock.structure_id,
        name="Changed",
        steps=STEPS[:2],
        is_template=False,
        chip_set_id=None,
    )
    started = events.event_template_start(
        actor=director, template_id=template.pk, name="Monday PLO", start_at=NEXT_SATURDAY
    )

    assert started.buy_in == 2000
    assert structure_steps(Clock.objects.get(pk=started.pk).structure_id) == STEPS


def test_template_saved_again_under_its_name_is_replaced():
    first = tournament(name="Old", buy_in=1000)
    second = tournament(name="New", buy_in=2000)
    events.event_template_save(actor=None, tournament_id=first.pk, name="Weekly")

    template = events.event_template_save(actor=None, tournament_id=second.pk, name=" Weekly ")

    assert EventTemplate.objects.count() == 1
    assert (template.name, template.saved_from) == ("Weekly", "New")
    assert template.setup["event"]["buy_in"] == 2000


def test_template_needs_a_name():
    event = tournament()

    with pytest.raises(Invalid):
        events.event_template_save(actor=None, tournament_id=event.pk, name="  ")

    assert not EventTemplate.objects.exists()


def test_deleted_template_is_gone_and_its_events_stay():
    event = tournament()
    template = events.event_template_save(actor=None, tournament_id=event.pk, name="Weekly")
    started = events.event_template_start(
        actor=None, template_id=template.pk, name="Weekly", start_at=NEXT_SATURDAY
    )

    events.event_template_delete(actor=None, template_id=template.pk)

    assert not EventTemplate.objects.exists()
    assert Tournament.objects.filter(pk=started.pk).exists()
    assert AuditEntry.objects.filter(action="event_template.delete").count() == 1
    with pytest.raises(NotFound):
        events.event_template_start(
            actor=None, template_id=template.pk, name="Weekly", start_at=NEXT_SATURDAY
        )
    with pytest.raises(NotFound):
        events.event_template_delete(actor=None, template_id=template.pk)


def test_template_start_refused_for_tables_in_play_writes_nothing():
    event = tournament()
    add_tables(event, 1)
    template = events.event_template_save(actor=None, tournament_id=event.pk, name="Weekly")
    count = Tournament.objects.count()

    with pytest.raises(Conflict):
        events.event_template_start(
            actor=None, template_id=template.pk, name="Weekly", start_at=NEXT_SATURDAY
        )

    assert Tournament.objects.count() == count
    assert VenueTable.objects.count() == 1


def test_template_from_an_older_setup_starts_with_the_house_defaults_for_what_it_lacks():
    """A template saved before a setting existed: the new event takes that setting's
    default, as an event made by hand would."""
    template = EventTemplate.objects.create(
        name="Old one",
        setup={"event": {"buy_in": 1000, "starting_stack": 10000}, "unknown": {"x": 1}},
    )

    started = events.event_template_start(
        actor=None, template_id=template.pk, name="Old one", start_at=NEXT_SATURDAY
    )

    assert (started.buy_in, started.table_size, started.fee) == (1000, 9, 0)
    assert Clock.objects.get(pk=started.pk).warning_seconds == 90
    assert PayoutStructure.objects.get(tournament=started).places_mode == "percent"


def test_desk_intentions_work_on_a_copy():
    """The copied event is a whole event: it registers and seats like any other."""
    source = tournament(name="Last Saturday")
    add_tables(source, 1, seats=6)
    seating_services.tables_close(tournament=source)
    copy = events.event_copy(
        actor=None, tournament_id=source.pk, name="This Saturday", start_at=NEXT_SATURDAY
    )
    Tournament.objects.filter(pk=copy.pk).update(status="registering")

    registration = desk.entry_register(
        actor=None, tournament_id=copy.pk, player_data={"name": "Anna Berger"}
    )

    assert registration.entry.chips == source.starting_stack
