"""The clock's disagreements between the rule books are house settings (issue 19).

TDA 29 against casino §27: how long a player on the clock has, and whether a hand that
faces no bet is checked or dead when the time runs out. Casino §31: the levels halve
once two players are left (the TDA has no such rule). Casino §28: the day ends with a
draw of 3 to 7 more hands at every table (the TDA: when the day's last level ends).
Each reading is checked where the floor sees it: the clock's API, its console, the
dealer's tablet."""

from datetime import timedelta

import pytest
from django.utils import timezone

from clock import services
from clock.models import Clock, PlayerClock
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands.services import busts
from hands.tests.factories import seat_players
from prizes.models import EventTemplate
from prizes.services import events
from tournaments.models import Tournament, Venue
from tournaments.selectors import house_settings
from tournaments.tests.factories import api, register, staff, tournament

pytestmark = pytest.mark.django_db

DEAD_RULE = "casino §27, IFP 4.26, older TDA 5"  # the hand is dead, bet or no bet


def choose(event, **readings) -> None:
    """The event's own house settings (the settings page writes the same)."""
    Tournament.objects.filter(pk=event.pk).update(house_settings=readings)


def call(event, *, seat: int = 3, facing_bet: bool = False) -> dict:
    response = api(staff("floor")).post(
        f"/api/v1/tournaments/{event.pk}/player-clocks/",
        {"table": 2, "seat": seat, "facing_bet": facing_bet},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def console(client, event) -> str:
    client.force_login(staff("director"))
    return client.get(f"/tournaments/{event.pk}/clock/").content.decode()


# --- player_clock: TDA 29 against casino §27 --------------------------------------------


def test_tda29_a_player_on_the_clock_has_25_seconds_and_a_5_second_countdown():
    event = tournament(status="running")

    called = call(event)

    assert (called["seconds"], called["countdown"], called["rule"]) == (30, 5, "TDA 29")


def test_casino27_a_player_on_the_clock_has_one_more_minute_the_last_10_counted():
    event = tournament(status="running")
    choose(event, player_clock="casino")

    called = call(event)

    assert (called["seconds"], called["countdown"], called["rule"]) == (60, 10, "casino §27")
    started = timezone.now()
    assert called["ends_at"] > (started + timedelta(seconds=50)).isoformat()


def test_casino27_in_a_turbo_event_the_player_clock_is_30_seconds_with_5():
    event = tournament(status="running")
    choose(event, player_clock="casino")
    director = api(staff("director"))
    settings = director.put(
        f"/api/v1/tournaments/{event.pk}/clock/settings/", {"turbo": True}, format="json"
    )
    assert settings.status_code == 200 and settings.json()["turbo"] is True

    called = call(event)

    assert (called["seconds"], called["countdown"], called["rule"]) == (30, 5, "casino §27")


def test_the_tda_reading_ignores_whether_the_event_is_a_turbo():
    event = tournament(status="running")
    services.clock_settings_update(actor=None, tournament_id=event.pk, data={"turbo": True})

    assert (call(event)["seconds"], call(event, seat=4)["countdown"]) == (30, 5)  # TDA 29


def test_an_event_follows_its_venues_player_clock_unless_it_chose_its_own():
    Venue.objects.create(name="Casino", is_default=True, house_settings={"player_clock": "casino"})
    follows, own = tournament(status="running"), tournament(status="running", name="Own")
    choose(own, player_clock="tda")

    assert call(follows)["seconds"] == 60  # casino §27, as the venue chose
    assert call(own)["seconds"] == 30  # TDA 29, the event's own choice


def test_a_running_player_clock_keeps_the_time_it_was_called_with():
    event = tournament(status="running")
    call(event)

    choose(event, player_clock="casino", clock_expired_no_bet="dead")
    (running,) = api().get(f"/api/v1/tournaments/{event.pk}/player-clocks/").json()

    assert (running["seconds"], running["rule"]) == (30, "TDA 29")
    assert (running["consequence"], running["consequence_rule"]) == ("check", "TDA 29")


def test_the_console_shows_the_time_a_call_gets_and_its_rule(client):
    event = tournament(status="running")
    assert "30 s in all, the last 5 s counted down (TDA 29)" in console(client, event)

    choose(event, player_clock="casino")

    assert "60 s in all, the last 10 s counted down (casino §27)" in console(client, event)


def test_ifp426_a_player_on_the_clock_has_a_minute_then_a_10_second_countdown():
    event = tournament(status="running")
    choose(event, player_clock="ifp")
    services.clock_settings_update(actor=None, tournament_id=event.pk, data={"turbo": True})

    called = call(event)

    # IFP 4.26 and the older TDA translation's rule 5: 60 s, then 10 more counted down;
    # neither book shortens it in a turbo.
    assert (called["seconds"], called["countdown"]) == (70, 10)
    assert called["rule"] == "IFP 4.26, older TDA 5"


def test_the_console_shows_the_ifp_time_and_the_tablet_cites_it(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {2: [1, 2, 3, 4]})
    choose(event, player_clock="ifp")

    assert "70 s in all, the last 10 s counted down (IFP 4.26, older TDA 5)" in console(
        client, event
    )
    call(event, seat=3)
    client.force_login(staff("dealer"))
    page = client.get(f"/tournaments/{event.pk}/tables/2/tablet/").content.decode()

    assert "Clock on seat 3 (IFP 4.26, older TDA 5)" in page
    assert 'data-countdown-from="10"' in page  # the last ten seconds counted aloud


# --- clock_expired_no_bet: TDA 29 against casino §27 ---------------------------------------


def test_tda29_out_of_time_facing_no_bet_the_hand_is_checked_facing_one_dead():
    event = tournament(status="running")

    unfacing, facing = call(event, seat=3), call(event, seat=4, facing_bet=True)

    assert (unfacing["consequence"], unfacing["consequence_rule"]) == ("check", "TDA 29")
    assert (facing["consequence"], facing["consequence_rule"]) == ("dead", "TDA 29")


def test_casino27_out_of_time_the_hand_is_dead_bet_or_no_bet():
    event = tournament(status="running")
    choose(event, clock_expired_no_bet="dead")

    unfacing, facing = call(event, seat=3), call(event, seat=4, facing_bet=True)

    assert (unfacing["consequence"], unfacing["consequence_rule"]) == ("dead", DEAD_RULE)
    assert (facing["consequence"], facing["consequence_rule"]) == ("dead", DEAD_RULE)
    assert PlayerClock.objects.get(seat=3).no_bet == "dead"


def test_the_console_says_what_an_expired_clock_means_with_its_rule(client):
    event = tournament(status="running")
    call(event, seat=3)
    assert "the hand is checked, as it faced no bet (TDA 29)" in console(client, event)

    choose(event, clock_expired_no_bet="dead")
    call(event, seat=5)

    page = console(client, event)
    assert "the hand is dead, though it faced no bet (casino §27, IFP 4.26, older TDA 5)" in page
    assert (
        "Out of time, the hand is dead, bet or no bet (casino §27, IFP 4.26, older TDA 5)" in page
    )


def test_the_dealers_tablet_cites_the_houses_reading(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {2: [1, 2, 3, 4]})
    choose(event, player_clock="casino", clock_expired_no_bet="dead")
    call(event, seat=3)
    client.force_login(staff("dealer"))

    page = client.get(f"/tournaments/{event.pk}/tables/2/tablet/").content.decode()

    assert "Clock on seat 3 (casino §27)" in page
    assert "the hand is dead, though it faced no bet (casino §27, IFP 4.26, older TDA 5)" in page


# --- heads_up_level: casino §31 -------------------------------------------------------------


def heads_up(event) -> dict:
    """Three players, the clock running; the first busts: two are left."""
    entries = [register(event, name).entry for name in ("Anna", "Ben", "Cleo")]
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)
    return {"entries": entries, "clock": api().get(f"/api/v1/tournaments/{event.pk}/clock/")}


def test_casino31_two_players_left_the_next_levels_last_half_as_long(client):
    event = tournament(status="registering")
    choose(event, heads_up_level="casino")

    state = heads_up(event)["clock"].json()

    assert state["halved_from"] == 2  # from the next level on
    assert "Levels last half as long from the next one (casino §31)." in console(client, event)
    entry = AuditEntry.objects.get(action="clock.heads_up")
    assert entry.after["heads_up_level"] == "casino"


def test_tda_the_levels_stay_as_scheduled_heads_up(client):
    event = tournament(status="registering")

    state = heads_up(event)["clock"].json()

    assert state["halved_from"] is None
    page = console(client, event)
    assert "half as long" not in page
    assert "The levels stay as scheduled (TDA (no rule))" in page


def test_a_halved_clock_gets_its_full_levels_back_when_the_house_chooses_the_tda():
    event = tournament(status="registering")
    choose(event, heads_up_level="casino")
    entries = heads_up(event)["entries"]
    assert Clock.objects.get(pk=event.pk).halved_from == 2

    choose(event, heads_up_level="tda")
    busts.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    assert Clock.objects.get(pk=event.pk).halved_from is None


def choose_through_the_api(event, **readings) -> dict:
    response = api(staff("director")).patch(
        f"/api/v1/tournaments/{event.pk}/house-settings/",
        {"house_settings": readings},
        format="json",
    )
    assert response.status_code == 200, response.content
    return api().get(f"/api/v1/tournaments/{event.pk}/clock/").json()


def test_casino31_chosen_heads_up_halves_the_next_levels_at_once():
    event = tournament(status="registering")
    heads_up(event)  # two left under the TDA: nothing halved

    state = choose_through_the_api(event, heads_up_level="casino")

    # Casino §31 from now on, without waiting for a bust (heads-up, the next one ends the
    # event): the level in play keeps its announced time, the next ones are halved.
    assert state["halved_from"] == 2
    assert state["level"]["position"] == 1 and state["seconds_left"] > full_seconds(event, 1) - 60
    assert AuditEntry.objects.filter(action="clock.heads_up").count() == 1


def test_the_tda_chosen_heads_up_gives_a_halved_level_in_play_its_time_back():
    event = tournament(status="registering")
    choose(event, heads_up_level="casino")
    heads_up(event)
    clock = Clock.objects.get(pk=event.pk)
    assert clock.halved_from == 2
    # The clock has moved on into level 2, halved, with 2 of its minutes played.
    halved_ms = full_seconds(event, 2) * 1000 // 2
    Clock.objects.filter(pk=event.pk).update(
        position=2, left_ms=halved_ms - 120_000, anchor_at=timezone.now()
    )

    state = choose_through_the_api(event, heads_up_level="tda")

    assert state["halved_from"] is None
    # The TDA has no §31: level 2 runs its full scheduled time, the 2 minutes played kept.
    scheduled = full_seconds(event, 2)
    assert scheduled - 125 <= state["seconds_left"] <= scheduled - 120


def test_a_venues_heads_up_reading_reaches_its_events_clock_at_once():
    venue = Venue.objects.create(name="Casino", is_default=True)
    event = tournament(status="registering")
    heads_up(event)

    response = api(staff("director")).patch(
        f"/api/v1/venues/{venue.pk}/house-settings/",
        {"house_settings": {"heads_up_level": "casino"}},
        format="json",
    )

    assert response.status_code == 200, response.content
    assert Clock.objects.get(pk=event.pk).halved_from == 2  # casino §31, from the next level


def test_the_settings_page_change_reaches_the_clock_too(client):
    event = tournament(status="registering")
    heads_up(event)
    client.force_login(staff("director"))
    page = client.get(f"/tournaments/{event.pk}/house-settings/")
    assert page.status_code == 200
    form = {key: "" for key in page.context["form"].fields}
    form["heads_up_level"] = "casino"

    response = client.post(f"/tournaments/{event.pk}/house-settings/", form)

    assert response.status_code == 302, response.content
    assert Clock.objects.get(pk=event.pk).halved_from == 2  # casino §31


def full_seconds(event, position: int) -> int:
    """The scheduled length of the step at `position` of the event's structure."""
    clock = Clock.objects.get(pk=event.pk)
    return clock.structure.steps.get(position=position).minutes * 60


# --- day_end_draw: casino §28 ---------------------------------------------------------------


def day_end(event):
    return api(staff("director")).post(f"/api/v1/tournaments/{event.pk}/clock/day-end/")


def test_casino28_the_director_stops_the_clock_and_draws_3_to_7_hands(client):
    event = tournament(status="running")
    choose(event, day_end_draw="casino")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    assert "Draw the remaining hands" in console(client, event)

    response = day_end(event)

    assert response.status_code == 201
    assert response.json()["status"] == "paused"
    assert 3 <= response.json()["day_end_hands"] <= 7


def test_tda_the_day_ends_with_its_last_level_and_nothing_is_drawn(client):
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    audits = AuditEntry.objects.count()

    response = day_end(event)
    page = console(client, event)

    assert response.status_code == 409
    assert response.json()["code"] == "day_end_not_drawn"
    assert "the day ends when its last level ends" in response.json()["detail"]
    assert Clock.objects.get(pk=event.pk).status == "running"  # nothing stopped
    assert AuditEntry.objects.count() == audits  # a refusal writes nothing
    assert "Draw the remaining hands" not in page
    assert "no hands are drawn (TDA, no rule" in page


def test_the_console_refuses_the_draw_under_the_tda_too(client):
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    client.force_login(staff("director"))

    client.post(f"/tournaments/{event.pk}/clock/day-end/", {"confirm": "on"}, follow=True)

    assert Clock.objects.get(pk=event.pk).day_end_hands is None


def test_the_console_lists_the_clocks_house_readings_with_their_rules(client):
    event = tournament(status="running")
    choose(event, heads_up_level="casino", day_end_draw="casino")

    page = console(client, event)

    assert 'data-reading="player_clock:tda"' in page
    assert 'data-reading="clock_expired_no_bet:tda"' in page
    assert 'data-reading="heads_up_level:casino"' in page
    assert 'data-reading="day_end_draw:casino"' in page
    assert "The levels last half as long (casino §31)" in page
    assert f"/tournaments/{event.pk}/house-settings/" in page


# --- Event templates saved before issue 19 ----------------------------------------------


def test_a_template_saved_with_the_old_clock_settings_starts_events_with_those_readings():
    """A saved event template still holds the clock's old settings: the casino's turbo
    player clock, a hand folded out of time (casino §27) and halving heads-up (casino
    §31). An event started from it follows those readings."""
    template = EventTemplate.objects.create(
        name="Casino turbo",
        setup={
            "event": {"buy_in": 1000, "starting_stack": 10000},
            "clock": {
                "settings": {
                    "warning_seconds": 60,
                    "halve_heads_up": True,
                    "player_clock_seconds": 30,
                    "player_clock_countdown": 5,
                    "player_clock_unfacing": "fold",
                }
            },
        },
    )

    started = events.event_template_start(
        actor=None,
        template_id=template.pk,
        name="Casino turbo",
        start_at=timezone.now() + timedelta(days=2),
    )

    readings = house_settings(Tournament.objects.get(pk=started.pk))
    assert readings.heads_up_level == "casino"
    assert (readings.player_clock, readings.clock_expired_no_bet) == ("casino", "dead")
    clock = Clock.objects.get(pk=started.pk)
    assert (clock.warning_seconds, clock.turbo) == (60, True)
