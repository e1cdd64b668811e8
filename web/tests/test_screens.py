"""Lobby screens: public pages with the clock, the numbers and the rule notices."""

import dataclasses
import json
import re
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from clock import services
from clock.engine import big_blinds
from clock.selectors import measuring_big_blind
from clock.tests.factories import with_structure
from floorman import versions
from floorman.versions import screens_changed
from hands import services as hands
from hands.services import busts as bust_services
from hands.tests.factories import button_at, deal, finish, seat_players
from prizes import services as prize_services
from rulings import services as rulings
from seating import services as seating
from tournaments.tests.factories import register, tournament
from web.screens import numbers, texts
from web.screens import views as screens
from web.screens.numbers import average_stack, payout_groups
from web.screens.views import rotation_query

pytestmark = pytest.mark.django_db

CONFIG = re.compile(r'<script id="lobby-config" type="application/json">(.*?)</script>', re.S)


def lobby_url(event, **query) -> str:
    url = reverse("screens:lobby", kwargs={"tournament_id": event.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def data_url(event) -> str:
    return reverse("screens:data", kwargs={"tournament_id": event.pk})


def config_of(html: str) -> dict:
    return json.loads(CONFIG.search(html).group(1))


def three_in_one_out():
    """The worked example: 3 entries of 20,000 chips, one busted, blinds 100/200."""
    event = tournament()
    with_structure(event)
    entries = [register(event, name).entry for name in ("Anna", "Ben", "Cleo")]
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)
    return event


def field_of(count: int, **overrides):
    """`count` entries at €100 + €10 with the house payout settings (15 % paid)."""
    event = tournament(**overrides)
    with_structure(event)
    for n in range(count):
        register(event, f"Player {n + 1}")
    return event


# 20 entries, €2,000: twelve places typed by the director, 10th to 12th paying the same.
TYPED_LINES = [61000, 35000, 25000, 18000, 14000, 11000, 9000, 8000, 7000, 4000, 4000, 4000]


def typed_table(event, lines=TYPED_LINES) -> None:
    prize_services.payouts_update(actor=None, tournament_id=event.pk, lines=lines)


def act(event, *actions: str) -> None:
    for action in actions:
        services.clock_act(actor=None, tournament_id=event.pk, action=action)


# --- The lobby page -------------------------------------------------------------------


def test_lobby_is_public_and_shows_name_blinds_and_initial_state(client):
    event = tournament(name="Friday Deepstack")
    with_structure(event)

    response = client.get(lobby_url(event))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Friday Deepstack" in html
    assert ">100 / 200<" in html
    assert ">20:00<" in html
    assert ">200 / 400<" in html  # the next level
    config = config_of(html)
    board = config["boards"][0]
    assert board["clock"]["level"]["big_blind"] == 200
    assert [s["position"] for s in board["clock"]["steps"]] == [1, 2, 3, 4, 5]
    assert board["lobby"]["name"] == "Friday Deepstack"
    assert board["urls"] == {
        "clock": f"/api/v1/tournaments/{event.pk}/clock/?steps=1",
        "data": f"/lobby/{event.pk}/data/",
        "socket": f"/ws/tournaments/{event.pk}/",
    }
    assert config["every"] is None
    assert "/static/js/clock.js" in html


def test_lobby_resync_urls_answer(client):
    event = tournament()
    with_structure(event)
    urls = config_of(client.get(lobby_url(event)).content.decode())["boards"][0]["urls"]

    assert client.get(urls["clock"]).status_code == 200
    assert client.get(urls["data"]).status_code == 200


def test_lobby_of_unknown_tournament_is_404(client):
    response = client.get(reverse("screens:lobby", kwargs={"tournament_id": 999999}))

    assert response.status_code == 404


def test_lobby_without_structure_says_so(client):
    event = tournament()

    html = client.get(lobby_url(event)).content.decode()

    assert "No blind structure yet" in html


def test_lobby_of_running_clock_embeds_its_end_time(client):
    event = tournament()
    with_structure(event)
    act(event, "start")

    config = config_of(client.get(lobby_url(event)).content.decode())

    state = config["boards"][0]["clock"]
    assert state["status"] == "running"
    assert state["ends_at"] is not None
    assert state["server_time"] is not None


@pytest.mark.parametrize(
    ("layout", "present", "absent"),
    [
        ("clock", [], ["payouts-title", "seating-title"]),
        ("payouts", ["payouts-title", "as soon as there is a prize pool"], []),
        ("seating", ["seating-title", "once the tables are set up"], ["payouts-title"]),
        ("nonsense", [], ["payouts-title", "seating-title"]),
    ],
)
def test_lobby_layouts_render_their_sections(client, layout, present, absent):
    event = tournament()
    with_structure(event)

    html = client.get(lobby_url(event, layout=layout)).content.decode()

    expected = layout if layout != "nonsense" else "clock"
    assert f'class="lobby layout-{expected}"' in html
    assert config_of(html)["layout"] == expected
    for text in present:
        assert text in html
    for text in absent:
        assert text not in html
    assert "Prize pool" in html and "Average stack" in html and "Next break in" in html


def test_payouts_layout_shows_pool_places_paid_and_amounts(client):
    event = field_of(20)

    html = client.get(lobby_url(event, layout="payouts")).content.decode()

    assert html.count(">€2,000.00<") == 2  # facts and the payouts panel
    assert ">Places paid: 3<" in html
    assert "<li><span>1</span><span>€1,006.00</span></li>" in html
    assert "<li><span>2</span><span>€774.00</span></li>" in html
    assert "<li><span>3</span><span>€220.00</span></li>" in html
    assert '<p class="note" data-field="payouts_none" hidden>' in html
    assert '<p class="note" data-field="payouts_provisional">Provisional' in html  # still open
    assert 'data-field="places_paid_fact"' not in html  # the panel says it here


def test_payouts_layout_groups_places_that_pay_the_same(client):
    event = field_of(20)
    typed_table(event)  # typed lines lock the table

    html = client.get(lobby_url(event, layout="payouts")).content.decode()

    assert ">Places paid: 12<" in html
    assert "<li><span>10–12</span><span>€40.00</span></li>" in html
    assert "<li><span>9</span><span>€70.00</span></li>" in html
    assert '<p class="note" data-field="payouts_provisional" hidden>' in html  # locked


def test_payouts_layout_without_entries_says_when_payouts_show(client):
    event = tournament()
    with_structure(event)

    html = client.get(lobby_url(event, layout="payouts")).content.decode()

    assert '<p class="places" data-field="payouts_places" hidden>' in html
    assert '<ol class="payout-lines" data-field="payouts_lines" hidden>' in html
    assert '<p class="note" data-field="payouts_none">' in html


def test_clock_layout_shows_places_paid_beside_the_prize_pool(client):
    event = field_of(20)

    html = client.get(lobby_url(event)).content.decode()

    assert '<div class="fact" data-field="places_paid_fact"><dt>Places paid</dt>' in html
    assert '<dd data-field="places_paid">3</dd>' in html
    assert "payouts-title" not in html


def test_clock_layout_hides_places_paid_while_nothing_is_paid(client):
    event = tournament()
    with_structure(event)

    html = client.get(lobby_url(event)).content.decode()

    assert '<div class="fact" data-field="places_paid_fact" hidden>' in html


def test_lobby_shows_announcements_as_text(client):
    event = tournament()
    with_structure(event)
    services.announcement_post(actor=None, tournament_id=event.pk, text="<b>Dinner</b> at 8")

    html = client.get(lobby_url(event)).content.decode()

    assert "&lt;b&gt;Dinner&lt;/b&gt; at 8" in html
    assert "<b>Dinner" not in html


# --- Rule notices (server-rendered; clock.js adds the timed ones) ----------------------


def test_break_with_colour_up_shows_the_chip_race_tda_24(client):
    event = tournament()
    with_structure(event)  # position 3: a break that colours up the 25s
    act(event, "start", "next", "next")

    html = client.get(lobby_url(event)).content.decode()

    assert ">Break<" in html
    assert "Colour-up (TDA 24): the 25 chips come off" in html
    assert "cards dealt from seat 1" in html
    assert "nobody is raced out" in html


def test_break_with_addon_says_add_ons_are_on_sale(client):
    from clock.engine import BREAK, LEVEL, Step

    event = tournament()
    with_structure(event, [Step(LEVEL, 20, 100, 200), Step(BREAK, 15, addon=True)])
    act(event, "start", "next")

    html = client.get(lobby_url(event)).content.decode()

    assert "Add-ons are on sale during this break" in html


def test_end_of_day_draw_casino_28_shows_hands_remaining(client):
    event = tournament(house_settings={"day_end_draw": "casino"})
    with_structure(event)
    act(event, "start")
    clock = services.clock_day_end(actor=None, tournament_id=event.pk)

    html = client.get(lobby_url(event)).content.decode()

    hands = clock.day_end_hands
    assert f"End of the day (casino §28): {hands} hands remain at every table" in html
    assert "Clock paused" in html


def test_last_level_is_announced(client):
    event = tournament()
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="jump", level=4)

    html = client.get(lobby_url(event)).content.decode()

    assert ">Last level<" in html  # as the next level and as a notice
    assert "Last level</li>" in html
    assert ">400 / 800<" in html
    assert ">Big blind ante 800<" in html


# --- The rotating screen ------------------------------------------------------------------


def test_rotate_shows_each_tournament_in_the_order_given(client):
    first, second = tournament(name="Main Event"), tournament(name="Turbo")
    with_structure(first)

    response = client.get(reverse("screens:rotate") + f"?t={second.pk},{first.pk}&every=30")

    assert response.status_code == 200
    config = config_of(response.content.decode())
    assert [b["lobby"]["name"] for b in config["boards"]] == ["Turbo", "Main Event"]
    assert config["every"] == 30
    assert ">Turbo<" in response.content.decode()  # the first one, before the script runs
    assert "1 of 2" in response.content.decode()


def test_rotate_defaults_to_twenty_seconds():
    assert rotation_query({"t": "4, 5,4"}) == ([4, 5], 20)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?t=",
        "?t=1,x",
        "?t=1;2",
        "?t=1,,2",
        "?t=-1",
        "?t=%D9%A1",  # an Arabic-Indic one: a digit, but not an id
        "?t=" + ",".join(str(n) for n in range(1, 14)),  # 13 tournaments
        "?t=1&every=9",
        "?t=1&every=301",
        "?t=1&every=abc",
        "?t=1&every=1e2",
        "?t=1234567890123456789",  # longer than any id
    ],
)
def test_rotate_refuses_malformed_addresses_with_400(client, query):
    tournament()

    response = client.get(reverse("screens:rotate") + query)

    assert response.status_code == 400
    assert "address is not right" in response.content.decode()


def test_rotate_with_an_unknown_tournament_is_404(client):
    event = tournament()

    response = client.get(reverse("screens:rotate") + f"?t={event.pk},999999")

    assert response.status_code == 404


def test_rotate_accepts_twelve_tournaments_and_the_limits_of_every(client):
    events = [tournament(name=f"Event {n}") for n in range(12)]
    ids = ",".join(str(e.pk) for e in events)

    for every in (10, 300):
        response = client.get(reverse("screens:rotate") + f"?t={ids}&every={every}")
        assert response.status_code == 200
        assert len(config_of(response.content.decode())["boards"]) == 12


# --- The data endpoint and the average stack ---------------------------------------------


def test_data_worked_example_average_30000_is_150_big_blinds(client):
    event = three_in_one_out()

    body = client.get(data_url(event)).json()

    assert body["entries"] == 3
    assert body["active"] == 2
    assert body["prize_pool"] == {
        "amount": 30000,
        "currency": "EUR",
        "text": "€300.00",
        "guarantee": 0,
    }
    assert body["average_stack"] == {
        "chips": 30000,
        "text": "30,000",
        "big_blind": 200,
        "big_blinds": 150.0,
    }
    assert body["payouts"] == {
        "places_paid": 1,  # 15 % of 3, rounded up
        "locked": False,
        "lines": [{"first": 1, "last": 1, "amount": 30000, "text": "€300.00"}],
        "more": False,
    }
    assert body["announcements"] == []


def test_data_payouts_of_twenty_entries_pay_three_places_summing_to_the_pool(client):
    event = field_of(20)

    body = client.get(data_url(event)).json()

    payouts = body["payouts"]
    assert body["prize_pool"]["amount"] == 200000
    assert payouts["places_paid"] == 3  # 15 % of 20, rounded up
    assert payouts["locked"] is False  # follows the pool while registration is open
    assert payouts["more"] is False
    assert [(line["first"], line["last"]) for line in payouts["lines"]] == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]
    assert sum(line["amount"] for line in payouts["lines"]) == 200000
    assert [line["text"] for line in payouts["lines"]] == ["€1,006.00", "€774.00", "€220.00"]


def test_data_payouts_follow_the_pool_as_players_register(client):
    event = field_of(20)
    register(event, "Late Larry")

    payouts = client.get(data_url(event)).json()["payouts"]

    assert payouts["places_paid"] == 4  # 15 % of 21, rounded up
    assert sum(line["amount"] for line in payouts["lines"]) == 210000


def test_data_payouts_group_consecutive_places_paying_the_same(client):
    event = field_of(20)
    typed_table(event)

    payouts = client.get(data_url(event)).json()["payouts"]

    assert payouts["places_paid"] == 12
    assert payouts["locked"] is True
    assert len(payouts["lines"]) == 10
    assert payouts["lines"][-1] == {"first": 10, "last": 12, "amount": 4000, "text": "€40.00"}
    assert sum(
        line["amount"] * (line["last"] - line["first"] + 1) for line in payouts["lines"]
    ) == sum(TYPED_LINES)


def test_data_payouts_show_the_first_groups_only_and_say_there_are_more(client, monkeypatch):
    event = field_of(20)
    typed_table(event)
    monkeypatch.setattr(numbers, "PAYOUT_GROUPS_MAX", 9)

    payouts = client.get(data_url(event)).json()["payouts"]

    assert [line["first"] for line in payouts["lines"]] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert payouts["more"] is True
    assert payouts["places_paid"] == 12


def test_payout_groups_join_equal_neighbours_and_leave_out_unpaid_places():
    assert payout_groups([500, 300, 100, 100, 100, 50, 0]) == [
        (1, 1, 500),
        (2, 2, 300),
        (3, 5, 100),
        (6, 6, 50),
    ]
    assert payout_groups([]) == []
    assert payout_groups([100, 100]) == [(1, 2, 100)]


def test_data_queries_do_not_grow_with_the_field(client):
    small, big = field_of(3), field_of(30)
    client.get(data_url(small))  # warm up caches (content types, sessions)
    screens_changed([small.pk, big.pk])  # both built again, from the database

    with CaptureQueriesContext(connection) as few:
        client.get(data_url(small))
    with CaptureQueriesContext(connection) as many:
        client.get(data_url(big))

    assert len(many) == len(few)


def test_data_is_built_once_per_version_and_never_stale(client, django_assert_num_queries):
    """Issue 20: the lobby's numbers come from the shared cache until the tournament
    changes; the change's own service renews the version, so the next read is new."""
    event = field_of(30)
    client.get(data_url(event))  # built and filed

    with django_assert_num_queries(0):  # the clock's row and the numbers: cached
        cached = client.get(data_url(event)).json()
    client.get(lobby_url(event))  # rendered once at these versions and the clock's state
    with django_assert_num_queries(0):  # the page, with the moment's values put in
        lobby = client.get(lobby_url(event))
    assert cached["active"] == 30
    assert ">30 left of 30<" in lobby.content.decode()

    entry = event.entries.order_by("number").first()
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    assert client.get(data_url(event)).json()["active"] == 29
    assert ">29 left of 30<" in client.get(lobby_url(event)).content.decode()


def test_data_shows_a_changed_structure_at_once(client, django_capture_on_commit_callbacks):
    """The lobby's numbers hold the clock's row: an edit of the structure, which takes no
    tournament lock, renews the clock's version, and the numbers with it."""
    event = field_of(3)
    clock = with_structure(event)
    assert client.get(data_url(event)).json()["average_stack"]["big_blind"] == 200  # kept
    steps = services.structure_steps(clock.structure_id)
    doubled = [dataclasses.replace(steps[0], small_blind=200, big_blind=400), *steps[1:]]

    with django_capture_on_commit_callbacks(execute=True):
        services.structure_update(
            actor=None,
            structure_id=clock.structure_id,
            name="Doubled",
            steps=doubled,
            is_template=False,
            chip_set_id=None,
        )

    assert client.get(data_url(event)).json()["average_stack"]["big_blind"] == 400
    html = client.get(lobby_url(event)).content.decode()
    assert ">200 / 400<" in html
    assert config_of(html)["boards"][0]["clock"]["level"]["big_blind"] == 400


def test_a_pause_shows_on_the_kept_lobby_at_once(client, django_capture_on_commit_callbacks):
    event = field_of(3)
    act(event, "start")
    html = client.get(lobby_url(event)).content.decode()  # kept, running
    assert ">Clock paused<" not in html
    assert config_of(html)["boards"][0]["clock"]["status"] == "running"

    with django_capture_on_commit_callbacks(execute=True):
        act(event, "pause")

    html = client.get(lobby_url(event)).content.decode()
    assert ">Clock paused<" in html
    assert config_of(html)["boards"][0]["clock"]["status"] == "paused"


def clock_digits(html: str) -> str:
    return re.search(r'data-field="clock" role="timer">([^<]*)<', html).group(1)


def test_the_kept_page_shows_the_moments_time(client, monkeypatch):
    """The page is rendered once per version and clock state; the time left, the time to
    the break and the clock's state for clock.js are the moment's at every request."""
    event = field_of(3)
    act(event, "start")
    first = client.get(lobby_url(event)).content.decode()
    later = timezone.now() + timedelta(seconds=65)
    monkeypatch.setattr(timezone, "now", lambda: later)

    with CaptureQueriesContext(connection) as asked:
        html = client.get(lobby_url(event)).content.decode()

    assert len(asked) == 0  # kept
    before, after = config_of(first)["boards"][0]["clock"], config_of(html)["boards"][0]["clock"]
    assert after["server_time"] == later.isoformat()
    assert before["ms_left"] - after["ms_left"] >= 65000
    assert clock_digits(first) == "20:00"
    assert clock_digits(html) == "18:55"
    assert f">{texts._duration(after['seconds_to_break'] * 1000)}<" in html
    assert "moment-" not in html


@pytest.mark.parametrize("layout", ["clock", "payouts", "bounties"])
def test_the_kept_page_is_the_page_rendered_whole(client, monkeypatch, layout):
    """At one moment, the kept page with the moment's values put in is, byte for byte,
    the page rendered whole from the database."""
    event = field_of(20, name="Fish & <Chips>")
    act(event, "start")
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    client.get(lobby_url(event, layout=layout))  # kept
    kept = client.get(lobby_url(event, layout=layout)).content.decode()

    monkeypatch.setattr(screens, "SHARED_LAYOUTS", ())
    whole = client.get(lobby_url(event, layout=layout)).content.decode()

    assert kept == whole
    assert "Fish &amp; &lt;Chips&gt;" in kept


def test_the_kept_page_rolls_into_the_next_level_by_itself(client, monkeypatch):
    """A running clock reaches its next level with no change saved: the page of the new
    level is another page, never the kept one of the level before."""
    event = field_of(3)
    act(event, "start")
    assert ">100 / 200<" in client.get(lobby_url(event)).content.decode()  # kept
    assert client.get(data_url(event)).json()["average_stack"]["big_blind"] == 200
    later = timezone.now() + timedelta(minutes=20, seconds=5)
    monkeypatch.setattr(timezone, "now", lambda: later)

    html = client.get(lobby_url(event)).content.decode()

    assert re.search(r'data-field="blinds">200 / 400<', html)
    assert config_of(html)["boards"][0]["clock"]["level"]["big_blind"] == 400
    assert client.get(data_url(event)).json()["average_stack"]["big_blind"] == 400


@pytest.mark.parametrize("layout", ["clock", "payouts"])
def test_the_kept_page_shows_a_payout_change_at_once(client, layout):
    event = field_of(20)
    act(event, "start")
    assert "€610.00" not in client.get(lobby_url(event, layout=layout)).content.decode()
    client.get(data_url(event))  # both kept

    typed_table(event)

    html = client.get(lobby_url(event, layout=layout)).content.decode()
    assert config_of(html)["boards"][0]["lobby"]["payouts"]["lines"][0]["text"] == "€610.00"
    assert client.get(data_url(event)).json()["payouts"]["lines"][0]["text"] == "€610.00"
    if layout == "payouts":
        assert "<span>€610.00</span>" in html


def test_the_kept_page_is_one_per_language(client):
    event = field_of(3)
    assert ">Players<" in client.get(lobby_url(event)).content.decode()  # kept, in English

    with translation.override("de"):
        html = client.get(lobby_url(event), HTTP_ACCEPT_LANGUAGE="de").content.decode()

    assert ">Players<" not in html


def test_an_unknown_lobby_stays_404(client):
    url = reverse("screens:lobby", kwargs={"tournament_id": 999999})
    assert client.get(url).status_code == 404
    assert client.get(url).status_code == 404


def test_the_lobby_is_built_from_the_database_when_the_cache_is_down(client, monkeypatch):
    event = field_of(3)
    act(event, "start")
    client.get(lobby_url(event))  # kept in this process
    client.get(data_url(event))

    class Down:
        def __getattr__(self, name):
            raise ConnectionError("the cache is down")

    monkeypatch.setattr(versions, "caches", {versions.CACHE: Down()})
    act(event, "pause")  # its new versions are not filed: the kept page must not be served

    html = client.get(lobby_url(event)).content.decode()
    assert ">Clock paused<" in html
    assert config_of(html)["boards"][0]["clock"]["status"] == "paused"
    assert client.get(data_url(event)).status_code == 200


def test_lobby_page_shows_the_worked_example(client):
    event = three_in_one_out()

    html = client.get(lobby_url(event)).content.decode()

    assert ">2 left of 3<" in html
    assert ">30,000 · 150 BB<" in html
    assert ">€300.00<" in html
    assert '<dd data-field="places_paid">1</dd>' in html


def test_data_during_a_break_measures_in_the_next_levels_big_blind(client):
    event = three_in_one_out()
    act(event, "start", "next", "next")  # the break before 300/600

    body = client.get(data_url(event)).json()

    assert body["average_stack"]["big_blind"] == 600
    assert body["average_stack"]["big_blinds"] == 50.0


def test_data_is_public_and_404_for_unknown(client):
    assert client.get(reverse("screens:data", kwargs={"tournament_id": 999999})).status_code == 404
    assert client.post(data_url(tournament())).status_code == 405


def test_average_stack_is_the_chips_in_play_over_the_players_left():
    # 20,000 × (3 entries + 1 re-entry) + 20,000 × 2 rebuys + 30,000 × 1 add-on = 150,000
    assert average_stack(150000, 3) == 50000


def test_average_stack_rounds_half_up_and_is_none_without_players():
    assert average_stack(5, 2) == 3  # 2.5
    assert average_stack(10, 3) == 3  # 3.33
    assert average_stack(60000, 0) is None


def test_lobby_average_leaves_out_a_disqualified_players_chips_tda_71d(client):
    """The lobby counts the chips in play as a deal does: a disqualification takes the
    player's chips out of play, so the average of those left does not grow."""
    event = three_in_one_out()  # 60,000 chips with 2 players: 30,000
    ben = event.entries.get(player__name="Ben")
    rulings.penalty_give(
        actor=None, tournament_id=event.pk, data={"entry": ben.pk, "kind": "disqualification"}
    )

    body = client.get(data_url(event)).json()

    assert body["average_stack"]["chips"] == 40000  # 60,000 less Ben's 20,000, one left


def test_lobby_counts_a_deep_average_in_whole_big_blinds(client):
    """Issue 16: 83,560 chips at a big blind of 200 read "418 BB", not "417.8 BB"."""
    event = tournament(starting_stack=83560)
    with_structure(event)
    register(event, "Anna")

    html = client.get(lobby_url(event)).content.decode()

    assert ">83,560 · 418 BB<" in html
    assert client.get(data_url(event)).json()["average_stack"]["big_blinds"] == 418


def test_big_blinds_whole_from_ten_one_decimal_below_half_up():
    """Issue 16: "418 BB", not "417.8 BB"; a short stack keeps its tenth."""
    assert big_blinds(30000, 200) == 150
    assert big_blinds(417800, 1000) == 418
    assert big_blinds(12345, 1000) == 12
    assert big_blinds(12500, 1000) == 13
    assert big_blinds(9949, 1000) == 9.9
    assert big_blinds(9950, 1000) == 10
    assert big_blinds(4350, 1000) == 4.4
    assert big_blinds(None, 200) is None
    assert big_blinds(30000, 0) is None


def test_measuring_big_blind_of_limit_levels_is_the_big_bet():
    limit = {"is_break": False, "big_blind": 0, "big_bet": 400}
    brk = {"is_break": True, "big_blind": 0, "big_bet": 0}

    assert measuring_big_blind({"level": limit, "next_level": None}) == 400
    assert measuring_big_blind({"level": brk, "next_level": limit}) == 400
    assert measuring_big_blind({"level": brk, "next_level": None}) == 0
    assert measuring_big_blind({"level": None, "next_level": None}) == 0


# --- Privacy and languages -------------------------------------------------------------------


def test_no_contact_data_ever_appears(client):
    event = tournament()
    with_structure(event)
    register(event, "Dora", email="dora@example.com", phone="+43 660 1234567")
    services.announcement_post(actor=None, tournament_id=event.pk, text="Welcome")

    pages = [
        client.get(lobby_url(event)).content.decode(),
        client.get(lobby_url(event, layout="payouts")).content.decode(),
        client.get(reverse("screens:rotate") + f"?t={event.pk}").content.decode(),
        client.get(data_url(event)).content.decode(),
    ]

    for page in pages:
        assert "dora@example.com" not in page
        assert "1234567" not in page
        assert "email" not in page and "phone" not in page


def test_german_lobby_uses_german_language_and_money(client):
    event = three_in_one_out()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    html = client.get(lobby_url(event)).content.decode()
    body = client.get(data_url(event)).json()

    assert '<html lang="de">' in html
    assert "Preispool" in html  # from the catalogue
    assert "Spieler" in html
    assert "300,00\xa0€" in html
    assert ">30.000 · 150 BB<" in html
    assert body["prize_pool"]["text"] == "300,00\xa0€"
    assert body["payouts"]["lines"][0]["text"] == "300,00\xa0€"
    assert "Bezahlte Plätze" in html  # the places-paid fact
    assert body["average_stack"]["text"] == "30.000"


def test_screen_strings_are_marked_for_translation():
    """Every text clock.js shows goes through gettext: German shows wherever the
    catalogue has it, English otherwise, never a missing key."""
    from web.screens.texts import screen_strings

    with translation.override("de"):
        german = screen_strings()
    with translation.override("en"):
        english = screen_strings()

    assert german.keys() == english.keys()
    assert all(isinstance(text, str) and text for text in german.values())
    assert "%(hands)s" in german["day_end_other"]
    assert "%(count)s" in german["places_paid"]


# --- The script -------------------------------------------------------------------------------

CLOCK_JS = Path(settings.BASE_DIR) / "static" / "js" / "clock.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to check clock.js")
def test_clock_js_parses():
    result = subprocess.run(
        ["node", "--check", str(CLOCK_JS)], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr


# --- The stage of play and the end (issue 16) ----------------------------------------


def bubble_in_hand_for_hand():
    """Three tables of three, six paid; the clock started the event, hand-for-hand
    announced (round 1 is dealt everywhere) and table 1 has finished its hand."""
    event = tournament(name="Saturday Night")
    with_structure(event)
    seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2, 3]})
    for table in (1, 2, 3):
        button_at(event, table, 1)
    hands.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 6})
    act(event, "start")
    hands.h4h_start(actor=None, tournament_id=event.pk)
    finish(event, 1, deal(event, 1))
    return event


def heads_up_decided():
    """Heads-up, seat 1 busts seat 2: the last bust finishes the event (no late
    registration)."""
    event = tournament(name="Saturday Night")
    with_structure(event)
    seated = seat_players(event, {1: [1, 2]})
    act(event, "start")
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(1, 2)].pk)
    return event


def test_lobby_during_hand_for_hand_says_so_with_the_tables_still_playing_and_the_bubble(
    client,
):
    event = bubble_in_hand_for_hand()

    html = client.get(lobby_url(event)).content.decode()

    text = texts.first_paint(config_of(html)["boards"][0], texts.screen_strings())
    assert text["status"] == "Hand-for-hand"  # not just "Clock paused"
    assert text["h4h"] is True
    assert text["h4h_hand"] == "Hand-for-hand hand 1"
    assert text["h4h_playing"] == "Tables still playing the hand: 2, 3"
    assert text["h4h_bubble"] == "The bubble: 9 players left, 6 places paid"
    assert ">Tables still playing the hand: 2, 3<" in html
    assert 'data-field="h4h" role="status" aria-live="polite">' in html  # shown, not hidden


def test_lobby_data_carries_hand_for_hand_as_its_live_event_does(client):
    event = bubble_in_hand_for_hand()

    h4h = client.get(data_url(event)).json()["hand_for_hand"]

    assert (h4h["active"], h4h["round"], h4h["playing"], h4h["finished"]) == (
        True,
        1,
        [2, 3],
        [1],
    )
    assert (h4h["players_left"], h4h["places_paid"]) == (9, 6)


def test_lobby_data_without_hand_for_hand_has_none(client):
    event = field_of(3)

    assert client.get(data_url(event)).json()["hand_for_hand"] is None


def test_lobby_shows_the_final_table_once_the_field_fits_one_table(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2], 2: [1, 2]})
    act(event, "start")
    assert client.get(data_url(event)).json()["final_table"] is None

    seating.table_break(actor=None, tournament_id=event.pk, number=1)

    assert client.get(data_url(event)).json()["final_table"] == 2
    text = texts.first_paint(
        config_of(client.get(lobby_url(event)).content.decode())["boards"][0],
        texts.screen_strings(),
    )
    assert text["stage"] == "Final table"


def test_lobby_at_the_end_shows_the_winner_and_results_and_no_clock(client):
    event = heads_up_decided()

    html = client.get(lobby_url(event)).content.decode()

    end = client.get(data_url(event)).json()["end"]
    assert end["winner"] == "Player 0001"
    assert end["results"] == [{"place": "1", "name": "Player 0001", "prize": "€200.00"}]
    text = texts.first_paint(config_of(html)["boards"][0], texts.screen_strings())
    assert (text["status"], text["winner"], text["over"]) == (
        "Tournament finished",
        "Winner: Player 0001",
        True,
    )
    assert 'class="clock-panel" data-field="clock_panel" aria-label="Clock" hidden' in html
    assert 'class="facts" data-field="facts" hidden' in html
    assert ">Winner: Player 0001<" in html


def test_lobby_after_a_deal_says_the_players_made_one(client):
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3]})
    act(event, "start")
    left = [seated[(1, 1)], seated[(1, 2)]]
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(1, 3)].pk)
    prize_services.deal_record(
        actor=None,
        tournament_id=event.pk,
        method="custom",
        players=[
            {"entry": left[0].pk, "chips": 40000, "amount": 20000},
            {"entry": left[1].pk, "chips": 20000, "amount": 10000},
        ],
    )

    end = client.get(data_url(event)).json()["end"]

    assert (end["winner"], end["deal"]) == ("Player 0001", 2)
    assert [row["place"] for row in end["results"]] == ["1", "2"]
    text = texts.first_paint(
        config_of(client.get(lobby_url(event)).content.decode())["boards"][0],
        texts.screen_strings(),
    )
    assert text["end_note"] == "The last 2 players made a deal (casino §6)."


def test_lobby_shows_a_shared_place_as_its_range_at_the_end(client):
    """IFP 4.27: players out together on equal stacks share the place and its prize."""
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3]})
    prize_services.payouts_update(actor=None, tournament_id=event.pk, lines=[20000, 10000])
    act(event, "start")

    hands.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2, 3])

    rows = client.get(data_url(event)).json()["end"]["results"]
    assert [(row["place"], row["prize"]) for row in rows] == [
        ("1", "€200.00"),
        ("2–3", "€50.00"),
        ("2–3", "€50.00"),
    ]


def test_data_queries_at_the_end_do_not_grow_with_the_field(client):
    """The results read at the end cost the same for 3 entries as for 12."""
    small, big = field_of(3), field_of(12)
    for event in (small, big):
        act(event, "start")  # the clock starts the event
        for entry in list(event.entries.order_by("-number"))[:-1]:
            bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)
        event.refresh_from_db()
        assert event.status == "finished"
    client.get(data_url(small))  # warm up caches (content types, sessions)
    screens_changed([small.pk, big.pk])  # both built again, from the database

    with CaptureQueriesContext(connection) as few:
        client.get(data_url(small))
    with CaptureQueriesContext(connection) as many:
        client.get(data_url(big))

    assert len(many) == len(few)
