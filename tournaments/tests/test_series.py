"""A series (festival, issue 17): its services (add, change, an event put in with its
number) and its schedule. Each refusal leaves nothing written."""

from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone, translation

from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from tournaments.models import Series, Tournament
from tournaments.selectors import series_schedule
from tournaments.services import series as services
from tournaments.services import tournament_publish
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

FIRST_DAY = date(2030, 5, 1)


def at(day: int, hour: int) -> datetime:
    """A start on the series' `day` (1 = its first), in the house's time zone."""
    moment = datetime.combine(FIRST_DAY + timedelta(days=day - 1), datetime.min.time())
    return timezone.make_aware(moment.replace(hour=hour))


def festival(**data) -> Series:
    values = {
        "name": "Spring Festival",
        "slug": "spring",
        "starts_on": FIRST_DAY,
        "ends_on": FIRST_DAY + timedelta(days=6),
    } | data
    return services.series_add(actor=None, data=values)


def event_in(series: Series, number: int | None, **data) -> Tournament:
    event = tournament(**({"start_at": at(1, 18)} | data))
    return services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=series.pk, series_number=number
    )


def flight_of(event: Tournament, name: str, **data) -> Tournament:
    """A flight as the flights' service makes it: a tournament of its own, in its
    parent's series (made here directly: flights are not this part's)."""
    return tournament(
        name=f"{event.name} Day {name}",
        parent=event,
        flight_name=name,
        series=event.series,
        **({"start_at": at(1, 12)} | data),
    )


# --- Adding and changing a series ------------------------------------------------------------


def test_a_director_adds_a_series_and_the_audit_log_shows_it():
    director = staff("director")

    series = services.series_add(
        actor=director,
        data={
            "name": "Spring Festival",
            "slug": "spring",
            "venue": "Casino Wien",
            "starts_on": FIRST_DAY,
            "ends_on": FIRST_DAY + timedelta(days=6),
            "rotate_seconds": 30,
        },
    )

    assert (series.name, series.public, series.rotate_seconds) == ("Spring Festival", True, 30)
    entry = AuditEntry.objects.get(action="series.create")
    assert entry.actor == director
    assert entry.after["slug"] == "spring"
    assert entry.after["starts_on"] == "2030-05-01"


def test_a_series_cannot_end_before_it_starts():
    with pytest.raises(Invalid) as refused:
        festival(ends_on=FIRST_DAY - timedelta(days=1))

    assert "ends_on" in refused.value.fields
    assert not Series.objects.exists()
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("seconds", [4, 301])
def test_the_lobby_rotation_is_one_a_screen_can_show(seconds):
    with pytest.raises(Invalid) as refused:
        festival(rotate_seconds=seconds)

    assert "rotate_seconds" in refused.value.fields
    assert not Series.objects.exists()


def test_a_short_name_is_the_public_address_of_one_series_only():
    festival()

    with pytest.raises(Conflict) as refused:
        festival(name="Another", slug="spring")

    assert refused.value.code == "slug_taken"
    assert "spring" in refused.value.as_dict()["slug"][0]
    assert Series.objects.count() == 1


def test_a_series_changed_is_audited_with_before_and_after():
    series = festival()

    services.series_update(
        actor=None, series_id=series.pk, data={"name": "Spring Festival 2030", "public": False}
    )

    series.refresh_from_db()
    assert (series.name, series.public) == ("Spring Festival 2030", False)
    entry = AuditEntry.objects.get(action="series.update")
    assert entry.before["name"] == "Spring Festival"
    assert entry.after["public"] is False


def test_a_changed_series_cannot_take_another_series_short_name():
    festival()
    autumn = festival(name="Autumn", slug="autumn")

    with pytest.raises(Conflict) as refused:
        services.series_update(actor=None, series_id=autumn.pk, data={"slug": "spring"})

    assert refused.value.code == "slug_taken"
    autumn.refresh_from_db()
    assert autumn.slug == "autumn"


def test_the_days_of_a_series_cannot_shrink_past_its_events():
    series = festival()
    event_in(series, 1, name="Main Event", start_at=at(5, 12))

    with pytest.raises(Invalid) as refused:
        services.series_update(
            actor=None, series_id=series.pk, data={"ends_on": FIRST_DAY + timedelta(days=2)}
        )

    assert "Main Event" in refused.value.fields["starts_on"][0]
    series.refresh_from_db()
    assert series.ends_on == FIRST_DAY + timedelta(days=6)


# --- Events in a series ---------------------------------------------------------------------


def test_an_event_put_into_a_series_gets_its_number_and_takes_its_flights_along():
    series = festival()
    main = tournament(name="Main Event", start_at=at(3, 12))
    day_1a = tournament(name="Main Event Day 1A", parent=main, flight_name="1A", start_at=at(1, 12))

    services.series_event_set(
        actor=None, tournament_id=main.pk, series_id=series.pk, series_number=3
    )

    main.refresh_from_db()
    day_1a.refresh_from_db()
    assert (main.series_id, main.series_number) == (series.pk, 3)
    assert (day_1a.series_id, day_1a.series_number) == (series.pk, None)
    entry = AuditEntry.objects.get(action="tournament.series")
    assert entry.before == {"series": None, "series_number": None}
    assert entry.after == {"series": series.pk, "series_number": 3}


def test_an_event_number_is_given_once_per_series():
    series = festival()
    event_in(series, 3, name="Main Event")
    other = tournament(name="Deepstack", start_at=at(2, 18))

    with pytest.raises(Conflict) as refused:
        services.series_event_set(
            actor=None, tournament_id=other.pk, series_id=series.pk, series_number=3
        )

    assert refused.value.code == "series_number_taken"
    assert refused.value.as_dict()["series_number"] == ["Event #3 is already in this series."]
    other.refresh_from_db()
    assert other.series_id is None
    assert not AuditEntry.objects.filter(tournament=other).exists()


def test_the_same_number_in_another_series_is_fine():
    event_in(festival(), 1)
    autumn = festival(name="Autumn", slug="autumn")

    assert event_in(autumn, 1).series_number == 1


def test_a_flight_follows_its_event_and_is_not_put_into_a_series_by_itself():
    series = festival()
    main = tournament(name="Main Event", start_at=at(3, 12))
    day_1a = tournament(name="Main Event Day 1A", parent=main, flight_name="1A", start_at=at(1, 12))

    with pytest.raises(Conflict) as refused:
        services.series_event_set(
            actor=None, tournament_id=day_1a.pk, series_id=series.pk, series_number=1
        )

    assert refused.value.code == "flight_follows_event"
    day_1a.refresh_from_db()
    assert day_1a.series_id is None


def test_an_event_outside_the_series_days_is_refused():
    series = festival()
    late = tournament(name="After Party Turbo", start_at=at(9, 20))

    with pytest.raises(Invalid) as refused:
        services.series_event_set(
            actor=None, tournament_id=late.pk, series_id=series.pk, series_number=9
        )

    assert "tournament" in refused.value.fields
    late.refresh_from_db()
    assert late.series_id is None


def test_an_event_taken_out_of_its_series_loses_its_number_and_its_flights_go_with_it():
    series = festival()
    main = event_in(series, 3, name="Main Event", start_at=at(3, 12))
    day_1a = flight_of(main, "1A")

    services.series_event_set(actor=None, tournament_id=main.pk, series_id=None, series_number=7)

    main.refresh_from_db()
    day_1a.refresh_from_db()
    assert (main.series_id, main.series_number) == (None, None)
    assert day_1a.series_id is None


def test_a_status_change_reaches_the_series_schedule_screens(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The event's live event names its series: the schedule page's socket hears it."""
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda tournament_id, message: sent.append(message))
    series = festival()
    main = event_in(series, 1, name="Main Event")
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        tournament_publish(Tournament.objects.get(pk=main.pk))

    assert sent and sent[-1]["series"] == series.pk
    assert sent[-1]["data"]["status"] == "registering"


# --- The schedule ------------------------------------------------------------------------------


def test_the_schedule_lists_events_and_flights_by_start_in_one_query(django_assert_num_queries):
    series = festival()
    main = event_in(series, 3, name="Main Event", start_at=at(3, 12), format="Freezeout")
    flight_of(main, "1B", start_at=at(2, 12))
    flight_of(main, "1A", start_at=at(1, 12))
    event_in(series, 1, name="Opening Deepstack", start_at=at(1, 18))
    tournament(name="Not in the series", start_at=at(1, 19))

    with django_assert_num_queries(1):
        rows = series_schedule(series)
        labels = [(row.label, row.tournament.name) for row in rows]

    assert labels == [
        ("Flight 1A of Event #3", "Main Event Day 1A"),
        ("Event #1", "Opening Deepstack"),
        ("Flight 1B of Event #3", "Main Event Day 1B"),
        ("Event #3", "Main Event"),
    ]
    assert rows[-1].total_buy_in == 11000  # €100 + €10, as the player pays it
    assert rows[-1].tournament.format == "Freezeout"
    assert rows[-1].day == FIRST_DAY + timedelta(days=2)


def test_a_flight_whose_own_row_names_no_series_is_still_in_its_events_schedule():
    series = festival()
    main = event_in(series, 2, name="Main Event", start_at=at(3, 12))
    Tournament.objects.create(
        name="Main Event Day 1C",
        parent=main,
        flight_name="1C",
        buy_in=10000,
        starting_stack=20000,
        start_at=at(2, 18),
    )

    assert [row.label for row in series_schedule(series)] == [
        "Flight 1C of Event #2",
        "Event #2",
    ]


def test_the_schedule_speaks_german():
    series = festival()
    main = event_in(series, 3, name="Main Event", start_at=at(3, 12))
    flight_of(main, "1B")

    with translation.override("de"):
        labels = [row.label for row in series_schedule(series)]

    assert labels == ["Flight 1B von Event #3", "Event #3"]
