"""The live-reporting feed (issue 18, item 7): its JSON as the OpenAPI schema documents
it, its Atom feed by RFC 4287's rules, and the results export a results database reads.
Public, cacheable (304 on a matching ETag), rate-limited, only what the house publishes:
no contact data ever, chip counts only where the house publishes them."""

import copy
import csv
import io
import random
import xml.etree.ElementTree as ET
from datetime import datetime
from types import SimpleNamespace

import jsonschema
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_ratelimit import core as ratelimit_core

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman.tests.openapi import api_schema
from prizes import services as prize_services
from tournaments.models import ChipCount, CountSweep, Entry, Tournament
from tournaments.services import series as series_services
from tournaments.tests.factories import (
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
EMAIL = "ada.kontakt@example.org"
PHONE = "+43 660 1234567"
LINES = [50000, 30000, 20000]  # €500, €300, €200: the pool of ten €100 buy-ins


def visitor() -> Client:
    """Anyone on the internet, through the TLS proxy (production settings redirect HTTP)."""
    return Client(HTTP_X_FORWARDED_PROTO="https")


def feed_url(event) -> str:
    return reverse("api-feed", args=[event.pk])


def atom_url(event) -> str:
    return reverse("feed-atom", args=[event.pk])


def export_url(event) -> str:
    return reverse("feed-export", args=[event.pk])


def ten_handed(**settings) -> tuple[Tournament, list[Entry]]:
    """Ten players of 20,000 chips (one of them with contact data), three places paid,
    the clock running in level 2 (200/400), late registration over after level 1."""
    event = tournament(buy_in=10000, fee=0, **settings)
    with_structure(event)
    ada = register(event, "Ada Kontakt", email=EMAIL, phone=PHONE, country="AT").entry
    entries = [ada, *field(event, 9, country="DE")]
    prize_services.payouts_update(actor=staff("director"), tournament_id=event.pk, lines=LINES)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    registration_closed(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="jump", level=2)
    return event, entries


def chips_set(entry: Entry, chips: int) -> None:
    """What the hands and the counts keep: the entry's stack now."""
    Entry.objects.filter(pk=entry.pk).update(chips=chips)


def count_sweep(event, counts: dict[Entry, int], *, level: int = 1) -> CountSweep:
    """A closed count sweep at a break: each player's count, stamped with the level."""
    sweep = CountSweep.objects.create(tournament=event, level=level, closed_at=timezone.now())
    for entry, chips in counts.items():
        ChipCount.objects.create(
            tournament=event, entry=entry, chips=chips, level=level, sweep=sweep, source="floor"
        )
        chips_set(entry, chips)
    return sweep


# --- The JSON against its OpenAPI schema -----------------------------------------------


def json_schema(component: str) -> dict:
    """The OpenAPI component as a JSON schema that `jsonschema` reads: OpenAPI 3.0's
    `nullable` as JSON Schema's null type, the components beside the root's $ref."""

    def convert(node):
        if isinstance(node, list):
            return [convert(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: convert(value) for key, value in node.items()}
        if node.pop("nullable", False):
            if "type" in node:
                node["type"] = [node["type"], "null"]
                if "enum" in node:
                    node["enum"] = [*node["enum"], None]
            else:
                node = {"anyOf": [node, {"type": "null"}]}
        return node

    components = convert(copy.deepcopy(api_schema()["components"]))
    return {"$ref": f"#/components/schemas/{component}", "components": components}


def test_the_feed_validates_against_the_schema_the_api_documents():
    event, entries = ten_handed()
    festival = series_services.series_add(
        actor=None,
        data={
            "name": "Vienna Poker Days",
            "slug": "vienna-poker-days",
            "starts_on": timezone.localdate(event.start_at),
            "ends_on": timezone.localdate(event.start_at),
        },
    )
    series_services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=festival.pk, series_number=5
    )
    count_sweep(event, {entries[0]: 60000, entries[1]: 20000})
    bust_in_order(event, *entries[7:])

    response = visitor().get(feed_url(event))

    assert response.status_code == 200
    path = "/api/v1/tournaments/{tournament_pk}/feed/"
    documented = api_schema()["paths"][path]["get"]["responses"]["200"]["content"]
    assert documented["application/json"]["schema"] == {"$ref": "#/components/schemas/Feed"}
    data = response.json()
    jsonschema.validate(data, json_schema("Feed"), format_checker=jsonschema.FormatChecker())
    assert data["event"]["title"] == "Vienna Poker Days #5: Sunday Main Event"
    assert data["eliminations"] and data["chip_counts"]["leaders"] and data["results"]


def test_a_feed_with_nothing_yet_validates_too():
    event = tournament(status="planned")  # no clock, no players

    response = visitor().get(feed_url(event))

    assert response.status_code == 200
    data = response.json()
    jsonschema.validate(data, json_schema("Feed"))
    assert (data["clock"]["level"], data["eliminations"], data["results"]) == (None, [], [])


# --- What the feed shows -----------------------------------------------------------------


def test_the_feed_shows_the_level_the_players_left_and_the_busts_with_place_and_prize():
    event, entries = ten_handed()
    bust_in_order(event, *entries[2:9])  # 7 out: places 10 to 4; Ada and two more left

    data = visitor().get(feed_url(event)).json()

    assert data["clock"]["status"] == "running"
    assert (data["clock"]["level"]["small_blind"], data["clock"]["level"]["big_blind"]) == (
        200,
        400,
    )
    assert data["clock"]["ends_at"] is not None
    assert (data["entries"], data["players_left"], data["prize_pool"]) == (10, 3, 100000)
    assert data["places_paid"] == 3
    newest = data["eliminations"][0]
    assert (newest["place"], newest["entry"], newest["prize"]) == (4, entries[8].number, 0)
    assert [bust["place"] for bust in data["eliminations"]] == [4, 5, 6, 7, 8, 9, 10]
    assert data["finished"] is False and data["finished_at"] is None


def test_the_money_places_show_their_prize_and_the_winner_closes_the_results():
    event, entries = ten_handed()
    ada = entries[0]
    bust_in_order(event, *entries[1:])  # Ada wins

    data = visitor().get(feed_url(event)).json()

    assert data["event"]["status"] == "finished" and data["finished"] is True
    assert data["finished_at"] is not None
    assert [(b["place"], b["prize"]) for b in data["eliminations"][:2]] == [(2, 30000), (3, 20000)]
    winner = data["results"][0]
    assert (winner["place"], winner["entry"], winner["prize"]) == (1, ada.number, 50000)
    assert winner["player"] == {
        "id": ada.player_id,
        "name": "Ada Kontakt",
        "nickname": "",
        "country": "AT",
    }
    assert [row["place"] for row in data["results"]] == list(range(1, 11))


def test_the_chip_leaders_show_with_their_count_and_big_blinds():
    event, entries = ten_handed()
    count_sweep(event, {entries[3]: 80000, entries[0]: 40000}, level=1)

    leaders = visitor().get(feed_url(event)).json()["chip_counts"]

    assert (leaders["players_left"], leaders["chips"]) == (10, 80000 + 40000 + 8 * 20000)
    assert leaders["average"] == 28000 and leaders["average_big_blinds"] == 70.0
    first, second = leaders["leaders"][:2]
    assert (first["rank"], first["entry"], first["chips"]) == (1, entries[3].number, 80000)
    assert (first["big_blinds"], first["counted_level"]) == (200.0, 1)
    assert first["counted_at"] is not None
    assert (second["rank"], second["player"]["name"]) == (2, "Ada Kontakt")
    assert leaders["leaders"][2]["counted_at"] is None  # never counted: the stack it bought


def test_chip_counts_stay_private_where_the_house_does_not_publish_them():
    event, entries = ten_handed(chip_counts_public=False)
    count_sweep(event, {entries[3]: 80000})

    data = visitor().get(feed_url(event)).json()
    atom = visitor().get(atom_url(event)).content.decode()

    assert data["chip_counts"] is None
    assert "80000" not in str(data) and "80,000" not in atom and "/counts/" not in atom
    assert data["players_left"] == 10  # the field is public, the stacks are not


def test_a_flights_busts_show_without_a_place():
    """Issue 17: a flight gives no places (they run over the whole event); its busts are
    in its feed all the same."""
    main = tournament(name="Main Event", buy_in=10000, fee=0)
    flight = tournament(name="Main Event", parent=main, flight_name="1A", buy_in=10000, fee=0)
    entries = field(flight, 3, country="IT")
    bust_in_order(flight, entries[0])

    data = visitor().get(feed_url(flight)).json()

    assert data["event"]["title"] == "Main Event, 1A" and data["event"]["flight"] == "1A"
    bust = data["eliminations"][0]
    assert (bust["place"], bust["prize"], bust["entry"]) == (None, 0, entries[0].number)
    assert bust["player"]["name"] == "Player 1"
    assert data["results"] == []
    titles = ET.fromstring(visitor().get(atom_url(flight)).content).findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text for e in titles] == ["Player 1 (IT) is out"]


def test_a_feed_of_no_such_event_is_404():
    assert visitor().get(reverse("api-feed", args=[987654])).status_code == 404
    assert visitor().get(reverse("feed-atom", args=[987654])).status_code == 404
    assert visitor().get(reverse("feed-export", args=[987654])).status_code == 404


def test_no_contact_data_in_the_feed_the_atom_feed_or_the_export():
    event, entries = ten_handed()
    count_sweep(event, {entries[0]: 80000})
    bust_in_order(event, *entries[1:])  # Ada, with email and phone, wins

    bodies = [
        visitor().get(url).content.decode("utf-8-sig")
        for url in (feed_url(event), atom_url(event), export_url(event))
    ]

    for body in bodies:
        assert "Ada Kontakt" in body
        assert EMAIL not in body and PHONE not in body and "1234567" not in body
        assert "email" not in body and "phone" not in body and "birth" not in body


# --- Caching -----------------------------------------------------------------------------


def test_the_feed_answers_304_while_nothing_changed_and_a_new_etag_after_a_bust():
    event, entries = ten_handed()
    client = visitor()
    first = client.get(feed_url(event))
    etag = first["ETag"]
    assert etag.startswith('"') and "public" in first["Cache-Control"]
    assert "max-age=15" in first["Cache-Control"]
    assert "Cookie" not in first["Vary"]  # one copy in a shared cache for every reader

    again = client.get(feed_url(event), HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag

    bust_in_order(event, entries[9])
    changed = client.get(feed_url(event), HTTP_IF_NONE_MATCH=etag)

    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["eliminations"][0]["place"] == 10


def test_the_atom_feed_answers_304_while_nothing_changed():
    event, entries = ten_handed()
    bust_in_order(event, entries[9])
    first = visitor().get(atom_url(event))

    again = visitor().get(atom_url(event), HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304


def test_the_feed_its_atom_feed_and_the_export_are_counted_per_address_together(
    settings, monkeypatch
):
    """A reporting site gets one count whichever door it polls (FLOORMAN_RATE_FEED). An
    address of its own (counts of earlier runs stay in the cache) and django-ratelimit's
    clock held still, as floorman/tests/test_rate_limits.py does."""
    monkeypatch.setattr(ratelimit_core, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))
    settings.FLOORMAN_RATE_FEED = "3/m"
    event, entries = ten_handed()
    bust_in_order(event, *entries[1:])
    ip = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
    site = Client(HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR=ip, HTTP_X_REAL_IP=ip)

    assert [site.get(url(event)).status_code for url in (feed_url, atom_url, export_url)] == [
        200,
        200,
        200,
    ]
    over = site.get(feed_url(event))

    assert over.status_code == 429 and int(over["Retry-After"]) > 0
    assert site.get(atom_url(event)).status_code == 429
    assert site.get(export_url(event)).status_code == 429
    assert visitor().get(feed_url(event)).status_code == 200  # another address


# --- Atom (RFC 4287) ---------------------------------------------------------------------


def rfc3339(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert moment.tzinfo is not None, f"{text} has no time zone"
    return moment


def atom_checked(body: bytes) -> ET.Element:
    """RFC 4287's required elements: the feed's id, title, updated and an author (none
    in its entries), each entry's id, title, updated and a link (no content); ids are
    IRIs, unique, and times are RFC 3339."""
    feed = ET.fromstring(body)
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert len(feed.findall(f"{ATOM}{name}")) == 1, f"the feed needs one <{name}>"
    assert feed.find(f"{ATOM}author/{ATOM}name").text
    rfc3339(feed.find(f"{ATOM}updated").text)
    ids = [feed.find(f"{ATOM}id").text]
    for entry in feed.findall(f"{ATOM}entry"):
        for name in ("id", "title", "updated"):
            assert len(entry.findall(f"{ATOM}{name}")) == 1, f"an entry needs one <{name}>"
        assert entry.find(f"{ATOM}link[@rel='alternate']").get("href").startswith("https://")
        rfc3339(entry.find(f"{ATOM}updated").text)
        ids.append(entry.find(f"{ATOM}id").text)
    assert all(i.startswith("tag:testserver,") for i in ids)
    assert len(ids) == len(set(ids))
    return feed


def test_the_atom_feed_holds_the_busts_the_counts_and_the_results_newest_first():
    event, entries = ten_handed()
    count_sweep(event, {entries[0]: 90000, entries[1]: 50000}, level=3)
    bust_in_order(event, *entries[1:])

    response = visitor().get(atom_url(event))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = atom_checked(response.content)
    assert feed.find(f"{ATOM}title").text == "Sunday Main Event"
    titles = [entry.find(f"{ATOM}title").text for entry in feed.findall(f"{ATOM}entry")]
    assert titles[0] == "Results: Sunday Main Event"
    assert "Player 9 (DE) is out in place 2 (€300.00)" in titles
    assert "Player 1 (DE) is out in place 10" in titles
    assert "Chip counts at level 3" in titles
    times = [rfc3339(e.find(f"{ATOM}updated").text) for e in feed.findall(f"{ATOM}entry")]
    assert times == sorted(times, reverse=True)
    results = feed.find(f"{ATOM}entry/{ATOM}summary").text
    assert "1. Ada Kontakt (AT): €500.00" in results


def test_an_entry_keeps_its_id_and_time_from_read_to_read():
    event, entries = ten_handed()
    bust_in_order(event, entries[9])
    before = atom_checked(visitor().get(atom_url(event)).content)

    bust_in_order(event, entries[8])
    after = atom_checked(visitor().get(atom_url(event)).content)

    def entries_of(feed):
        return {
            e.find(f"{ATOM}id").text: e.find(f"{ATOM}updated").text
            for e in feed.findall(f"{ATOM}entry")
        }

    assert entries_of(before).items() < entries_of(after).items()
    assert before.find(f"{ATOM}id").text == after.find(f"{ATOM}id").text


def test_an_atom_feed_without_entries_is_valid_and_stays_the_same():
    event = tournament(status="planned")

    first = visitor().get(atom_url(event))
    again = visitor().get(atom_url(event))

    feed = atom_checked(first.content)
    assert feed.findall(f"{ATOM}entry") == []
    assert first["ETag"] == again["ETag"]


def test_the_atom_feed_reads_in_german():
    event, entries = ten_handed()
    bust_in_order(event, *entries[1:])

    response = visitor().get(atom_url(event), HTTP_ACCEPT_LANGUAGE="de")

    feed = atom_checked(response.content)
    assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == "de"
    results = feed.find(f"{ATOM}entry/{ATOM}summary").text
    assert "500,00\xa0€" in results  # the language's money, as the pages show it


def test_the_public_results_page_links_the_atom_feed():
    event, entries = ten_handed()

    html = visitor().get(reverse("results-public", args=[event.pk])).content.decode()

    assert (
        f'<link rel="alternate" type="application/atom+xml" title="Live reporting (Atom)" '
        f'href="{atom_url(event)}">'
    ) in html
    assert export_url(event) not in html  # no results to export before the end

    bust_in_order(event, *entries[1:])
    html = visitor().get(reverse("results-public", args=[event.pk])).content.decode()

    assert f'href="{export_url(event)}"' in html  # finished: its places as CSV


# --- The results export ------------------------------------------------------------------


def exported(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_export_has_the_columns_a_results_database_asks_for():
    event, entries = ten_handed()
    bust_in_order(event, *entries[1:])

    response = visitor().get(export_url(event))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = exported(response)
    date = timezone.localdate(event.start_at).isoformat()
    assert rows[0] == ["place", "name", "country", "prize", "currency", "date", "event"]
    assert rows[1] == ["1", "Ada Kontakt", "AT", "500.00", "EUR", date, "Sunday Main Event"]
    assert rows[2] == ["2", "Player 9", "DE", "300.00", "EUR", date, "Sunday Main Event"]
    assert rows[10][:4] == ["10", "Player 1", "DE", "0.00"]
    assert len(rows) == 11


def test_the_export_is_the_same_in_german():
    event, entries = ten_handed()
    bust_in_order(event, *entries[1:])

    english = visitor().get(export_url(event)).content
    german = visitor().get(export_url(event), HTTP_ACCEPT_LANGUAGE="de").content

    assert german == english  # column names, ISO dates, plain decimals: never translated


def test_the_export_names_the_series_and_keeps_formulas_as_text():
    event = tournament(buy_in=10000, fee=0)
    festival = series_services.series_add(
        actor=None,
        data={
            "name": "Vienna Poker Days",
            "slug": "vienna-poker-days",
            "starts_on": timezone.localdate(event.start_at),
            "ends_on": timezone.localdate(event.start_at),
        },
    )
    series_services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=festival.pk, series_number=12
    )
    mallory = register(event, "=HYPERLINK(1)").entry
    register(event, "Ada")
    registration_closed(event)
    bust_in_order(event, mallory)

    rows = exported(visitor().get(export_url(event)))

    assert rows[1][0:2] == ["1", "Ada"] and rows[1][6] == "Vienna Poker Days #12: Sunday Main Event"
    assert rows[2][1] == "'=HYPERLINK(1)"  # a name, never a formula in a spreadsheet


def test_a_series_the_house_does_not_publish_stays_out_of_the_feed():
    event = tournament(buy_in=10000, fee=0)
    closed = series_services.series_add(
        actor=None,
        data={
            "name": "Private Club Nights",
            "slug": "private-club-nights",
            "starts_on": timezone.localdate(event.start_at),
            "ends_on": timezone.localdate(event.start_at),
            "public": False,
        },
    )
    series_services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=closed.pk, series_number=3
    )

    data = visitor().get(feed_url(event)).json()

    assert (data["event"]["series"], data["event"]["number"]) == (None, None)
    assert data["event"]["title"] == "Sunday Main Event"
    assert "Private Club Nights" not in visitor().get(atom_url(event)).content.decode()


def test_the_export_waits_for_the_event_to_finish():
    event, entries = ten_handed()
    bust_in_order(event, *entries[5:])

    assert visitor().get(export_url(event)).status_code == 404


# --- Query counts ------------------------------------------------------------------------


@pytest.mark.parametrize("url", [feed_url, atom_url, export_url])
def test_the_feed_reads_as_many_queries_for_100_entries_as_for_10(url):
    counts = []
    for size in (10, 100):
        event = tournament(name=f"Field of {size}", buy_in=10000, fee=0)
        with_structure(event)
        entries = field(event, size)
        registration_closed(event)
        sweep = CountSweep.objects.create(tournament=event, level=2, closed_at=timezone.now())
        ChipCount.objects.bulk_create(
            ChipCount(
                tournament=event, entry=e, chips=1000 * n, level=2, sweep=sweep, source="floor"
            )
            for n, e in enumerate(entries, start=1)
        )
        bust_in_order(event, *entries[1:])
        visitor().get(url(event))  # warm up: the structure's steps are cached per process
        with CaptureQueriesContext(connection) as queries:
            assert visitor().get(url(event)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
