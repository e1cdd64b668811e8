"""Rulings pages: the public rule book, house rules and rule book imports (director),
the floor's incidents and penalties and a player's record (floor and director)."""

import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clock.tests.factories import with_structure
from hands.services import busts as bust_services
from hands.tests.factories import button_at, deal, finish, seat_players
from rulings import services
from rulings.models import (
    HouseRule,
    Incident,
    Penalty,
    PenaltyKind,
    PenaltyStatus,
    Venue,
)
from seating.services import desk as desk_intentions
from tournaments.models import EntryStatus
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "dealer", "cashier", "floor", "director")
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def _as(client, persona: str):
    if persona != "anonymous":
        client.force_login(staff(persona))
    return client


def _expected(persona: str, allowed: tuple[str, ...]) -> int:
    if persona == "anonymous":
        return 302
    return 200 if persona in allowed else 403


@pytest.fixture
def event():
    event = tournament()
    with_structure(event)
    return event


@pytest.fixture
def floor_client(client):
    client.force_login(staff("floor"))
    return client


@pytest.fixture
def director_client(client):
    client.force_login(staff("director"))
    return client


def _floor(event) -> str:
    return reverse("rulings:floor", args=[event.pk])


def _text(response) -> str:
    """The page's text with tags and runs of blanks collapsed, for phrase checks."""
    html = response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _incident_data(**overrides) -> dict:
    data = {
        "table": "3",
        "hand": "12",
        "players": "",
        "category": "betting",
        "description": "Seat 4 put out a single 5,000 chip against a 1,000 bet, said nothing.",
        "rules": "44",
        "decision": "Call of 1,000.",
        "dispute": "",
    }
    data.update(overrides)
    return data


def _penalty_data(**overrides) -> dict:
    data = {"player": "", "kind": "warning", "rounds": "", "hands": "", "reason": "", "rules": ""}
    data.update(overrides)
    return data


# --- Permissions ---------------------------------------------------------------------------


@pytest.mark.parametrize("persona", PERSONAS)
def test_floor_page_is_for_floor_and_director(client, event, persona):
    response = _as(client, persona).get(_floor(event))
    assert response.status_code == _expected(persona, ("floor", "director"))
    if persona == "anonymous":
        assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("persona", PERSONAS)
def test_floor_posts_are_for_floor_and_director(client, event, persona):
    seated = seat_players(event, {1: [1, 2, 3]})
    penalty = services.penalty_give(
        actor=None,
        tournament_id=event.pk,
        data={"entry": seated[(1, 1)].pk, "kind": PenaltyKind.MISSED_HANDS, "hands": 2},
    )
    _as(client, persona)
    posts = [
        (reverse("rulings:incident-create", args=[event.pk]), _incident_data()),
        (
            reverse("rulings:penalty-create", args=[event.pk]),
            _penalty_data(player=str(seated[(1, 2)].number)),
        ),
        (reverse("rulings:penalty-end", args=[event.pk, penalty.pk]), {}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        if persona in ("floor", "director"):
            assert response.status_code == 302, url
        else:
            assert response.status_code == _expected(persona, ()), url
    allowed = persona in ("floor", "director")
    assert Incident.objects.filter(tournament=event).count() == (1 if allowed else 0)
    assert Penalty.objects.filter(kind=PenaltyKind.WARNING).count() == (1 if allowed else 0)
    penalty.refresh_from_db()
    assert penalty.status == (PenaltyStatus.CANCELLED if allowed else PenaltyStatus.SERVING)


@pytest.mark.parametrize("persona", PERSONAS)
def test_player_record_is_for_floor_and_director(client, event, persona):
    entry = register(event, "Anna Berger").entry
    url = reverse("rulings:record", args=[entry.player_id])
    assert _as(client, persona).get(url).status_code == _expected(persona, ("floor", "director"))


@pytest.mark.parametrize("persona", PERSONAS)
def test_house_rules_are_managed_by_the_director_only(client, persona):
    venue = Venue.objects.create(name="Casino Example", is_default=True)
    _as(client, persona)
    assert client.get(reverse("rulings:house")).status_code == _expected(persona, ("director",))
    posts = [
        (reverse("rulings:venue-create"), {"new-name": "Other"}),
        (
            reverse("rulings:house-rule-add", args=[venue.pk]),
            {"rule-kind": "own", "rule-title": "Phones", "rule-text": "No phones."},
        ),
        (
            reverse("rulings:rulebook-upload", args=[venue.pk]),
            {"book-file": SimpleUploadedFile("rules.md", b"## 1. Phones\nNo phones.\n")},
        ),
    ]
    for url, data in posts:
        response = client.post(url, data)
        expected = 302 if persona == "director" else _expected(persona, ())
        assert response.status_code == expected, url
    assert Venue.objects.count() == (2 if persona == "director" else 1)


@pytest.mark.parametrize("persona", PERSONAS)
def test_rule_book_is_public(client, persona):
    _as(client, persona)
    assert client.get(reverse("rulings:rulebook")).status_code == 200
    assert client.get(reverse("rulings:rulebook") + "?q=clock").status_code == 200
    assert client.get(reverse("rulings:rule", args=["44"])).status_code == 200


def test_navigation_links_to_the_rule_book_and_the_floor(floor_client, event):
    html = floor_client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'href="{reverse("rulings:rulebook")}"' in html
    assert f'href="{_floor(event)}"' in html


def test_cashier_sees_no_floor_link(client, event):
    client.force_login(staff("cashier"))
    html = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'href="{_floor(event)}"' not in html


# --- The rule book --------------------------------------------------------------------------


def test_rule_book_lists_every_rule_by_section(client):
    response = client.get(reverse("rulings:rulebook"))
    text = _text(response)
    assert "General Concepts" in text and "Recommended Procedures" in text
    html = response.content.decode()
    assert f'href="{reverse("rulings:rule", args=["1"])}"' in html
    assert f'href="{reverse("rulings:rule", args=["RP-22"])}"' in html


def test_rule_book_search_finds_overchip_in_english(client):
    response = client.get(reverse("rulings:rulebook"), {"q": "overchip"})
    html = response.content.decode()
    first = re.search(r'class="rule-link" href="([^"]+)"', html).group(1)
    assert first == reverse("rulings:rule", args=["44"])
    assert "Overchips" in _text(response)


@pytest.mark.parametrize("query", ["overchip", "Überchip", "ueberchip"])
def test_rule_book_search_finds_overchip_on_the_german_page(client, query):
    response = client.get(reverse("rulings:rulebook"), {"q": query}, **GERMAN)
    html = response.content.decode()
    first = re.search(r'class="rule-link" href="([^"]+)"', html).group(1)
    assert first == reverse("rulings:rule", args=["44"])
    text = _text(response)
    assert "§ 44" in text and "Überchips" in text


def test_rule_book_search_by_number(client):
    response = client.get(reverse("rulings:rulebook"), {"q": "RP-8"})
    first = re.search(r'class="rule-link" href="([^"]+)"', response.content.decode()).group(1)
    assert first == reverse("rulings:rule", args=["RP-8"])


def test_rule_book_search_takes_garbage(client):
    for query in ["\x00", "x" * 5000, "%%%", "10" * 30, "§§§ -- ''"]:
        assert client.get(reverse("rulings:rulebook"), {"q": query}).status_code == 200


def test_rule_page_shows_house_rules_and_says_when_one_replaces_it(client):
    venue = Venue.objects.create(name="Casino Example", is_default=True)
    HouseRule.objects.create(
        venue=venue, kind="override", tda="44", title="Big chips", text="Always a raise here."
    )
    HouseRule.objects.create(
        venue=venue, kind="addition", tda="44", title="Announce", text="Say it out loud."
    )
    text = _text(client.get(reverse("rulings:rule", args=["44"])))
    assert "At Casino Example a house rule replaces this TDA rule." in text
    assert "Always a raise here." in text and "Say it out loud." in text
    listing = _text(client.get(reverse("rulings:rulebook")))
    assert "Replaced by a house rule" in listing


def test_rule_page_takes_any_way_of_writing_a_rule(client):
    for number in ["45-B", "rp-8", "EV-8"]:
        assert client.get(reverse("rulings:rule", args=[number])).status_code == 200
    for number in ["72", "RP-99", "x", "9" * 40, "10000000000000000000000000000000"]:
        assert client.get(reverse("rulings:rule", args=[number])).status_code == 404


def test_rule_book_lists_and_searches_the_houses_own_rules(client):
    venue = Venue.objects.create(name="Casino Example", is_default=True)
    HouseRule.objects.create(venue=venue, kind="own", title="Dress code", text="No hats.")
    HouseRule.objects.create(venue=venue, kind="own", title="Phones", text="Away at the table.")
    text = _text(client.get(reverse("rulings:rulebook")))
    assert "Dress code" in text and "Phones" in text
    found = _text(client.get(reverse("rulings:rulebook"), {"q": "hats"}))
    assert "Dress code" in found and "Phones" not in found


# --- House rules ------------------------------------------------------------------------------


def test_director_creates_a_venue_and_the_page_says_nothing_ships(director_client):
    page = _text(director_client.get(reverse("rulings:house")))
    assert "Floorman ships with no rule book text" in page
    response = director_client.post(
        reverse("rulings:venue-create"),
        {"new-name": "  Casino  Example ", "new-is_default": "on"},
    )
    venue = Venue.objects.get()
    assert response.status_code == 302
    assert (venue.name, venue.is_default) == ("Casino Example", True)
    page = _text(director_client.get(response.url))
    assert "The highest reasonable amount" in page  # its house settings start at the TDA


def test_venue_names_are_unique(director_client):
    Venue.objects.create(name="Casino Example")
    response = director_client.post(
        reverse("rulings:venue-create"),
        {"new-name": "casino example"},
    )
    assert response.status_code == 200
    assert "A venue of this name exists." in _text(response)


def test_director_renames_a_venue(director_client):
    venue = Venue.objects.create(name="Casino Example")
    response = director_client.post(
        reverse("rulings:venue-update", args=[venue.pk]), {"venue-name": "Casino Vienna"}
    )
    assert response.status_code == 302
    venue.refresh_from_db()
    assert venue.name == "Casino Vienna"


def test_director_adds_edits_and_deletes_a_house_rule(director_client):
    venue = Venue.objects.create(name="Casino Example", is_default=True)
    add = reverse("rulings:house-rule-add", args=[venue.pk])
    response = director_client.post(
        add,
        {"rule-kind": "override", "rule-tda": "29", "rule-title": "Clock", "rule-text": "30 s."},
    )
    assert response.status_code == 302
    rule = HouseRule.objects.get()
    assert (rule.kind, rule.tda) == ("override", "29")

    edit = reverse("rulings:house-rule-edit", args=[venue.pk, rule.pk])
    assert director_client.get(edit).status_code == 200
    response = director_client.post(
        edit, {"kind": "addition", "tda": "TDA 29", "title": "Clock", "text": "45 s."}
    )
    assert response.status_code == 302
    rule.refresh_from_db()
    assert (rule.kind, rule.tda, rule.text) == ("addition", "29", "45 s.")

    delete = reverse("rulings:house-rule-delete", args=[venue.pk, rule.pk])
    assert director_client.post(delete).status_code == 302
    assert not HouseRule.objects.exists()
    assert director_client.post(delete).status_code == 404


def test_house_rule_over_an_unknown_tda_rule_is_a_field_error(director_client):
    venue = Venue.objects.create(name="Casino Example")
    for tda in ["", "99", "RP-40", "x" * 20]:
        response = director_client.post(
            reverse("rulings:house-rule-add", args=[venue.pk]),
            {"rule-kind": "override", "rule-tda": tda, "rule-title": "T", "rule-text": "X"},
        )
        assert response.status_code == 200
        assert "Name the TDA rule this house rule changes" in _text(response)
    assert not HouseRule.objects.exists()


RULE_BOOK = """# House rules of Casino Example

## 1. Registration
Players register at the desk.

## 2. Clock
A player may get 30 seconds, as TDA 29 says, and then the count.

## 3. Phones
Phones stay off the table.
"""


def _upload(client, venue, name: str, content: bytes):
    return client.post(
        reverse("rulings:rulebook-upload", args=[venue.pk]),
        {"book-file": SimpleUploadedFile(name, content)},
    )


def test_upload_imports_the_sections_of_a_rule_book(director_client):
    venue = Venue.objects.create(name="Casino Example", is_default=True)
    response = _upload(director_client, venue, "house.md", RULE_BOOK.encode())
    assert response.status_code == 302
    rules = list(HouseRule.objects.filter(venue=venue).order_by("position"))
    assert [rule.title for rule in rules][-3:] == ["Registration", "Clock", "Phones"]
    assert all(rule.imported for rule in rules)
    assert [rule.tda for rule in rules if rule.tda] == ["29"]
    page = director_client.get(response.url)
    assert re.search(r"Imported \d+ rules from house\.md\.", _text(page))


def test_upload_accepts_a_byte_order_mark_and_latin_text_in_utf8(director_client):
    venue = Venue.objects.create(name="Casino Example")
    content = "\ufeff## 1. Überchips\nEin großer Chip.\n".encode()
    assert _upload(director_client, venue, "regeln.txt", content).status_code == 302
    assert HouseRule.objects.get().title == "Überchips"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("rules.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "Upload a text file (.txt)"),
        ("rules.docx", b"PK\x03\x04\x14\x00", "Upload a text file (.txt)"),
        ("rules.txt", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "is not UTF-8 text"),
        ("rules.txt", "## 1. Überchips".encode("latin-1"), "is not UTF-8 text"),
        ("rules.md", b"## 1. Clock\x00\x00\x01", "This is not a text file"),
        ("rules.md", b"   \n\n", "The file is empty"),
    ],
)
def test_upload_refuses_what_is_not_a_text_rule_book(director_client, name, content, message):
    venue = Venue.objects.create(name="Casino Example")
    response = _upload(director_client, venue, name, content)
    assert response.status_code == 200
    assert message in _text(response)
    assert not HouseRule.objects.exists()


def test_upload_refuses_more_than_2_mb(director_client):
    venue = Venue.objects.create(name="Casino Example")
    content = b"## 1. Clock\n" + b"x" * (2 * 1024 * 1024)
    response = _upload(director_client, venue, "rules.md", content)
    assert response.status_code == 200
    assert "larger than 2 MB" in _text(response)


def test_upload_of_too_many_sections_is_a_field_error(director_client):
    venue = Venue.objects.create(name="Casino Example")
    content = "".join(f"## {n}. Rule\nText.\n" for n in range(1, 2100)).encode()
    response = _upload(director_client, venue, "rules.md", content)
    assert response.status_code == 200
    assert "at most 2,000 sections" in _text(response)
    assert not HouseRule.objects.exists()


def test_upload_without_a_file_is_a_field_error(director_client):
    venue = Venue.objects.create(name="Casino Example")
    response = director_client.post(reverse("rulings:rulebook-upload", args=[venue.pk]), {})
    assert response.status_code == 200
    assert "This field is required." in _text(response)


# --- Incidents ----------------------------------------------------------------------------


def test_recording_an_incident_shows_it_with_its_dispute_window(floor_client, event):
    anna = register(event, "Anna Berger").entry
    ben = register(event, "Ben Caspar").entry
    response = floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(
            players=f"{anna.number}, Ben Caspar",
            rules="45-B, 44",
            dispute="reading",
        ),
    )
    incident = Incident.objects.get()
    assert response.status_code == 302
    assert response.url == _floor(event) + f"#incident-{incident.pk}"
    assert set(incident.entries.all()) == {anna, ben}
    assert incident.rules == ["45-B", "44"]

    page = floor_client.get(_floor(event))
    text = _text(page)
    assert "Floor call recorded." in text
    assert "Dispute: Open until the next hand starts (TDA 22)" in text
    html = page.content.decode()
    assert f'href="{reverse("rulings:record", args=[anna.player_id])}"' in html
    assert f'href="{reverse("rulings:rule", args=["45"])}">45-B</a>' in html


def test_rules_cited_split_on_commas_and_spaces(floor_client, event):
    floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(rules="45-B 44, TDA 29; RP-8, Casino §49"),
    )
    assert Incident.objects.get().rules == ["45-B", "44", "TDA 29", "RP-8", "Casino §49"]


def test_dispute_window_closes_when_the_next_hand_starts(floor_client, event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    first = deal(event, 1)
    floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(table="1", hand=str(first.number), dispute="reading"),
    )
    assert "Open until the next hand starts" in _text(floor_client.get(_floor(event)))
    finish(event, 1, first)
    deal(event, 1)
    assert "Dispute: Closed: the next hand has started (TDA 22)" in _text(
        floor_client.get(_floor(event))
    )


def test_break_dispute_shows_the_minute_it_closes(floor_client, event):
    floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(hand="", dispute="break"),
    )
    incident = Incident.objects.get()
    until = timezone.localtime(incident.pot_awarded_at + timedelta(minutes=1))
    assert f"Open until {until:%H:%M:%S}" in _text(floor_client.get(_floor(event)))
    Incident.objects.filter(pk=incident.pk).update(
        pot_awarded_at=timezone.now() - timedelta(minutes=2)
    )
    assert "Closed: the minute after the pot was awarded has passed" in _text(
        floor_client.get(_floor(event))
    )


def test_incident_needs_the_hand_for_a_disputed_reading(floor_client, event):
    response = floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(hand="", dispute="accounting"),
    )
    assert response.status_code == 200
    assert "Give the hand: the dispute window runs from it (TDA 22)." in _text(response)
    assert not Incident.objects.exists()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("999", "There is no entry #999."),
        ("Nobody Here", "No player “Nobody Here” here."),
        ("Player", "give the entry number"),
        ("1" * 30, "There is no entry"),
    ],
)
def test_players_that_name_no_single_entry_are_a_field_error(floor_client, event, players, message):
    register(event, "Player One")
    register(event, "Player Two")
    response = floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]), _incident_data(players=players)
    )
    assert response.status_code == 200
    assert message in _text(response)
    assert not Incident.objects.exists()


def test_a_name_finds_the_entry_still_in_play_of_a_player_who_re_entered(floor_client):
    event = tournament(reentry_allowed=True)
    first = register(event, "Anna Berger").entry
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=first.pk)
    second = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=first.player_id, reentry=True
    ).entry
    floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]), _incident_data(players="anna")
    )
    assert list(Incident.objects.get().entries.all()) == [second]


def test_unknown_tda_rule_is_a_field_error(floor_client, event):
    response = floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]), _incident_data(rules="99")
    )
    assert response.status_code == 200
    assert "There is no TDA rule 99." in _text(response)


def test_incident_list_filters(floor_client, event):
    url = reverse("rulings:incident-create", args=[event.pk])
    floor_client.post(url, _incident_data(table="1", description="String bet at table one"))
    floor_client.post(
        url, _incident_data(table="2", category="devices", description="Phone at table two")
    )
    text = _text(floor_client.get(_floor(event), {"table": "2"}))
    assert "Phone at table two" in text and "String bet" not in text
    text = _text(floor_client.get(_floor(event), {"category": "betting"}))
    assert "String bet" in text and "Phone at table two" not in text
    text = _text(floor_client.get(_floor(event), {"q": "phone"}))
    assert "Phone at table two" in text and "String bet" not in text
    for garbage in [{"table": "x"}, {"table": str(10**30)}, {"category": "??"}, {"page": "-1"}]:
        assert floor_client.get(_floor(event), garbage).status_code == 200


def test_floor_page_queries_do_not_grow_with_the_incidents(floor_client, event):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert floor_client.get(_floor(event)).status_code == 200
        return len(captured)

    register(event, "Anna Berger")
    url = reverse("rulings:incident-create", args=[event.pk])
    floor_client.post(url, _incident_data(players="1"), follow=True)
    one = queries()
    floor_client.post(url, _incident_data(players="1"))
    floor_client.post(url, _incident_data(players="Anna"))
    assert queries() == one


# --- Penalties ------------------------------------------------------------------------------


def test_missed_rounds_show_the_hands_worked_out(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7]})
    offender = seated[(1, 3)]
    response = floor_client.post(
        reverse("rulings:penalty-create", args=[event.pk]),
        _penalty_data(
            player=str(offender.number), kind="missed_rounds", rounds="2", reason="Abuse"
        ),
        follow=True,
    )
    penalty = Penalty.objects.get()
    assert (penalty.hands, penalty.players_at_table) == (14, 7)
    text = _text(response)
    assert "2 rounds × 7 players = 14 hands (TDA 71-A)" in text
    assert "14 of 14" in text  # hands left of total, in the list of penalties being served


def test_missed_hands_by_player_name(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    name = seated[(1, 2)].player.name
    response = floor_client.post(
        reverse("rulings:penalty-create", args=[event.pk]),
        _penalty_data(player=name, kind="missed_hands", hands="3"),
        follow=True,
    )
    assert Penalty.objects.get().entry == seated[(1, 2)]
    assert "3 hands (TDA 71-A)" in _text(response)


def test_end_early(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    penalty = services.penalty_give(
        actor=None,
        tournament_id=event.pk,
        data={"entry": seated[(1, 1)].pk, "kind": PenaltyKind.MISSED_ROUNDS, "rounds": 1},
    )
    end = reverse("rulings:penalty-end", args=[event.pk, penalty.pk])
    response = floor_client.post(end, follow=True)
    penalty.refresh_from_db()
    assert penalty.status == PenaltyStatus.CANCELLED
    text = _text(response)
    assert "Penalty ended early" in text
    assert "Nobody is serving a penalty." in text
    # Twice: the penalty is no longer served, said as a message, not an error page.
    response = floor_client.post(end, follow=True)
    assert "This penalty is not being served." in _text(response)


def test_end_early_of_another_tournaments_penalty_is_404(floor_client, event):
    other = tournament(name="Other")
    seated = seat_players(other, {1: [1, 2]})
    penalty = services.penalty_give(
        actor=None,
        tournament_id=other.pk,
        data={"entry": seated[(1, 1)].pk, "kind": PenaltyKind.MISSED_HANDS, "hands": 1},
    )
    end = reverse("rulings:penalty-end", args=[event.pk, penalty.pk])
    assert floor_client.post(end).status_code == 404
    assert floor_client.get(end).status_code == 405


def test_disqualification_needs_the_confirmation(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    offender = seated[(1, 2)]
    url = reverse("rulings:penalty-create", args=[event.pk])
    data = _penalty_data(player=str(offender.number), kind="disqualification", reason="Collusion")
    response = floor_client.post(url, data)
    assert response.status_code == 200
    assert "Tick the box to confirm" in _text(response)
    offender.refresh_from_db()
    assert offender.status == EntryStatus.ACTIVE and not Penalty.objects.exists()

    response = floor_client.post(url, {**data, "confirm": "on"}, follow=True)
    offender.refresh_from_db()
    assert offender.status == EntryStatus.DISQUALIFIED
    assert "20,000 chips leave play (TDA 71-D)" in _text(response)


def test_penalty_for_a_busted_or_unknown_player_is_a_field_error(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    busted = seated[(1, 1)]
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=busted.pk)
    url = reverse("rulings:penalty-create", args=[event.pk])
    for player in [str(busted.number), "999", "", "1, 2"]:
        response = floor_client.post(url, _penalty_data(player=player))
        assert response.status_code == 200, player
    assert not Penalty.objects.exists()


def test_missed_hands_for_a_player_without_a_seat_is_refused_on_the_form(floor_client, event):
    entry = register(event, "Anna Berger").entry
    response = floor_client.post(
        reverse("rulings:penalty-create", args=[event.pk]),
        _penalty_data(player=str(entry.number), kind="missed_hands", hands="2"),
    )
    assert response.status_code == 200
    assert "The player has no seat" in _text(response)


def test_penalty_linked_to_a_floor_call(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    offender = seated[(1, 3)]
    floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(players=str(offender.number), rules="40"),
    )
    incident = Incident.objects.get()
    page = floor_client.get(_floor(event), {"incident": incident.pk})
    html = page.content.decode()
    assert f'value="{offender.number}"' in html  # the player is filled in
    floor_client.post(
        reverse("rulings:penalty-create", args=[event.pk]),
        _penalty_data(player=str(offender.number), incident=str(incident.pk)),
    )
    assert Penalty.objects.get().incident == incident


# --- A player's record ------------------------------------------------------------------------


def test_player_record_lists_incidents_and_penalties_across_tournaments(floor_client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    offender = seated[(1, 1)]
    floor_client.post(
        reverse("rulings:incident-create", args=[event.pk]),
        _incident_data(players=str(offender.number), description="Soft play"),
        follow=True,
    )
    floor_client.post(
        reverse("rulings:penalty-create", args=[event.pk]),
        _penalty_data(player=str(offender.number), kind="missed_rounds", rounds="1"),
        follow=True,
    )
    later = tournament(name="Monday Deepstack")
    again = desk_intentions.entry_register(
        actor=None, tournament_id=later.pk, player_id=offender.player_id
    ).entry
    services.penalty_give(
        actor=None,
        tournament_id=later.pk,
        data={"entry": again.pk, "kind": PenaltyKind.WARNING, "reason": "Language"},
    )
    text = _text(floor_client.get(reverse("rulings:record", args=[offender.player_id])))
    assert "Soft play" in text
    assert "1 round × 3 players = 3 hands" in text
    assert "Monday Deepstack" in text and "Sunday Main Event" in text
    # Newest first: the warning of Monday before the missed round of Sunday.
    assert text.index("Language") < text.index("1 round × 3 players")


def test_record_of_unknown_player_is_404(floor_client):
    assert floor_client.get(reverse("rulings:record", args=[10**17])).status_code == 404
    assert floor_client.get(f"/players/{10**30}/record/").status_code == 404


# --- Malformed input never fails with a server error ---------------------------------------


GARBAGE = [
    {},
    {"table": str(10**30), "hand": "-1", "category": "nope", "dispute": "forever"},
    {"table": "abc", "hand": "1e9", "players": "\x00", "rules": "x" * 5000},
    {"players": "1, 2, " + ", ".join(str(n) for n in range(30)), "category": "betting"},
    {"player": str(10**30), "kind": "missed_rounds", "rounds": str(10**30)},
    {"player": "1", "kind": "missed_hands", "hands": "0", "incident": str(10**30)},
    {"player": "#1", "kind": "disqualification", "confirm": "maybe", "incident": "abc"},
    {"kind": ["warning", "missed_rounds"], "rules": ", , ;", "description": "\x00"},
]


@pytest.mark.parametrize("data", GARBAGE)
def test_malformed_floor_posts_never_fail(floor_client, event, data):
    seat_players(event, {1: [1, 2]})
    for name in ("incident-create", "penalty-create"):
        response = floor_client.post(reverse(f"rulings:{name}", args=[event.pk]), data)
        assert response.status_code in (200, 302), name


@pytest.mark.parametrize("data", GARBAGE + [{"new-name": "\x00", "venue-name": "x" * 500}])
def test_malformed_house_posts_never_fail(director_client, data):
    venue = Venue.objects.create(name="Casino Example")
    rule = HouseRule.objects.create(venue=venue, kind="own", title="T", text="X")
    urls = [
        reverse("rulings:venue-create"),
        reverse("rulings:venue-update", args=[venue.pk]),
        reverse("rulings:house-rule-add", args=[venue.pk]),
        reverse("rulings:house-rule-edit", args=[venue.pk, rule.pk]),
        reverse("rulings:rulebook-upload", args=[venue.pk]),
    ]
    for url in urls:
        assert director_client.post(url, data).status_code in (200, 302), url


def test_unknown_ids_are_404(director_client, event):
    huge = 10**17
    posts = [
        (reverse("rulings:incident-create", args=[huge]), _incident_data()),
        (reverse("rulings:penalty-create", args=[huge]), _penalty_data()),
        (reverse("rulings:penalty-end", args=[event.pk, huge]), {}),
        (reverse("rulings:venue-update", args=[huge]), {"venue-name": "X"}),
        (reverse("rulings:house-rule-add", args=[huge]), {}),
        (reverse("rulings:house-rule-delete", args=[huge, huge]), {}),
        (reverse("rulings:rulebook-upload", args=[huge]), {}),
    ]
    for url, data in posts:
        assert director_client.post(url, data).status_code == 404, url
    gets = [
        reverse("rulings:floor", args=[huge]),
        f"/tournaments/{10**30}/floor/",
        reverse("rulings:house-rule-edit", args=[huge, huge]),
    ]
    for url in gets:
        assert director_client.get(url).status_code == 404, url
    for venue in ["abc", str(10**30), "-1"]:
        assert director_client.get(reverse("rulings:house"), {"venue": venue}).status_code == 200
