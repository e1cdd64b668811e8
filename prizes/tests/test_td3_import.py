"""Importing The Tournament Director's save files (issue 22, items 6-7): a finished event
as history whose counts, places and prizes match the file, any file as a template, the
players matched by link and then by name, contact data only when asked, and the same
file twice changing nothing. The files are tournaments/tests/td3/ (invented people)."""

from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.selectors import clock_setup
from floorman.errors import Conflict, Invalid, ServiceError
from floorman.models import AuditEntry
from hands.models import Elimination, Knockout
from payouts.models import Payout
from prizes.models import EventTemplate, Payment
from prizes.selectors import results
from prizes.services import events
from prizes.services.imports import file_read, td3_import
from tournaments.engine import td3
from tournaments.models import (
    Entry,
    EntryStatus,
    Player,
    PlayerLink,
    TournamentStatus,
    Transaction,
    TransactionKind,
)
from tournaments.selectors import ledger_totals_check, player_proposals
from tournaments.tests.factories import staff

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[2] / "tournaments" / "tests" / "td3"
FINISHED = [
    "v3_0.tdt",
    "v3_7.tdt",
    "finished_v3_0.tdt",
    "finished_v3_4.tdt",
    "finished_v3_7.tdt",
]


def data(name: str) -> bytes:
    return (FILES / name).read_bytes()


def imported(name: str, **options):
    return td3_import(actor=staff("director"), data=data(name), file_name=name, **options)


def table_counts() -> dict[str, int]:
    """Rows in every table the import writes (the audit log aside)."""
    with connection.cursor() as cursor:
        tables = [
            "tournaments_tournament",
            "tournaments_player",
            "tournaments_playerlink",
            "tournaments_entry",
            "tournaments_transaction",
            "tournaments_ledgertotals",
            "hands_elimination",
            "hands_knockout",
            "tournaments_payout",
            "tournaments_payment",
            "tournaments_payoutstructure",
            "prizes_eventtemplate",
            "prizes_td3import",
            "clock_structure",
            "clock_clock",
        ]
        found = {}
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {table}")  # noqa: S608 - our own names
            found[table] = cursor.fetchone()[0]
        return found


@pytest.mark.parametrize("name", FINISHED)
def test_a_finished_event_comes_in_with_the_files_counts(name):
    found = td3.summary(td3.parse(data(name)))
    done = imported(name)
    event = done.record.tournament
    assert event.status == TournamentStatus.FINISHED
    entries = Entry.objects.filter(tournament=event)
    assert entries.values("player").distinct().count() == found.players
    assert entries.count() == found.entries
    assert sum(e.rebuys for e in entries) == found.rebuys
    lines = Transaction.objects.filter(tournament=event)
    assert lines.filter(kind=TransactionKind.ADDON).count() == found.addons
    assert lines.filter(kind=TransactionKind.REENTRY).count() == found.reentries
    assert lines.filter(kind=TransactionKind.REBUY).count() == found.rebuys
    assert Elimination.objects.filter(tournament=event).count() == found.bust_outs
    assert entries.filter(status=EntryStatus.BUSTED).count() == found.bust_outs
    assert not ledger_totals_check(event)
    assert done.record.title == found.title
    assert (done.record.league, done.record.season) == (found.league, found.season)


@pytest.mark.parametrize("name", FINISHED)
def test_each_players_last_entry_holds_the_files_place_and_prize(name):
    found = td3.summary(td3.parse(data(name)))
    event = imported(name).record.tournament
    links = dict(PlayerLink.objects.values_list("external_id", "player_id"))
    rows = results(event).rows
    last = {}
    for row in rows:  # best first: a player's earlier entries finish below everybody
        last.setdefault(row.entry.player_id, row)
    assert {uuid: last[links[uuid]].place for uuid in found.places} == found.places
    assert not any(row.conflict for row in rows)
    assert len(rows) == Entry.objects.filter(tournament=event).count()
    assert all(not row.paid_differs for row in rows)


def test_prize_money_and_the_ledger_match_the_file():
    event = imported("finished_v3_7.tdt").record.tournament
    lines = Transaction.objects.filter(tournament=event)
    collected = sum(line.prize_share for line in lines if line.kind != TransactionKind.PAYOUT)
    assert collected == 64_000  # 5 entries and a rebuy at 100, two add-ons at 20
    assert sum(line.fee_share for line in lines) == 6 * 1_000
    assert list(Payout.objects.filter(tournament=event).values_list("amount", flat=True)) == [
        38_400,
        19_200,
        6_400,
    ]
    paid = {
        p.entry.player.name: -p.line.amount
        for p in Payment.objects.select_related("entry__player", "line")
    }
    assert paid == {"Piet Vos": 38_400, "Jana Roth": 19_200, "Lio": 6_400}
    table = results(event).table
    assert table.balanced


def test_the_eliminators_are_kept_as_knockouts_without_a_bounty():
    event = imported("finished_v3_7.tdt").record.tournament
    knockouts = Knockout.objects.filter(tournament=event).select_related(
        "busted__player", "winner__player"
    )
    named = sorted((k.busted.player.name, k.winner.player.name) for k in knockouts)
    assert named == sorted(
        [
            ("Jana Roth", "Piet Vos"),
            ("Lio", "Jana Roth"),
            ("Lio", "Piet Vos"),
            ("Ren Mäki", "Piet Vos"),
            ("Ren Mäki", "Jana Roth"),
        ]
    )
    assert {k.cash for k in knockouts} == {0}


def test_the_structure_with_its_breaks_and_antes_comes_with_the_event():
    event = imported("finished_v3_4.tdt").record.tournament
    steps = clock_setup(event)["structure"]["steps"]
    assert [s["kind"] for s in steps] == ["level", "level", "break", "level", "level"]
    assert (steps[3]["small_blind"], steps[3]["big_blind"], steps[3]["ante"]) == (100, 200, 25)
    assert (event.buy_in, event.fee, event.starting_stack) == (18_000, 2_000, 10_000)


def test_importing_the_same_file_twice_changes_nothing():
    first = imported("finished_v3_4.tdt")
    before = table_counts()
    audits = AuditEntry.objects.count()
    with pytest.raises(Conflict) as refused:
        imported("finished_v3_4.tdt")
    assert refused.value.code == "td3_already_imported"
    assert refused.value.data["tournament"] == first.record.tournament_id
    assert table_counts() == before
    assert AuditEntry.objects.count() == audits


def test_a_later_save_of_an_event_imported_as_history_is_the_same_event():
    imported("finished_v3_4.tdt")
    later = data("finished_v3_4.tdt").replace(b"ClockRunning: false", b"ClockRunning: true")
    before = table_counts()
    with pytest.raises(Conflict):
        td3_import(actor=staff("director"), data=later, file_name="later.tdt")
    assert table_counts() == before


def test_players_are_matched_by_link_first_then_by_name():
    known = Player.objects.create(name="Jana Roth")
    accents = Player.objects.create(name="REN MAKI")
    linked = Player.objects.create(name="Somebody Else")
    PlayerLink.objects.create(source="td3", external_id="u2", player=linked)
    done = imported("finished_v3_7.tdt")
    players = {
        e.player.name: e.player.pk
        for e in Entry.objects.filter(tournament=done.record.tournament).select_related("player")
    }
    assert players["Jana Roth"] == known.pk
    assert players["REN MAKI"] == accents.pk
    assert players["Somebody Else"] == linked.pk  # u2, "Piet Vos" in the file
    assert "Lio" in players and Player.objects.filter(name="Lio").count() == 1
    # The next file finds them by the links this one made.
    how = {p.file_id: p.how for p in player_proposals(done.event.people)}
    assert how == {"u1": "link", "u2": "link", "u3": "link", "u4": "link"}


def test_the_director_may_choose_each_player_and_not_one_for_two():
    someone = Player.objects.create(name="Chosen One")
    chosen = {"u1": someone.pk, "u2": None, "u3": None, "u4": None}
    done = imported("finished_v3_7.tdt", players=chosen)
    entry = Entry.objects.filter(tournament=done.record.tournament, player=someone)
    assert entry.count() == 1
    before = table_counts()
    again = data("v3_7.tdt")
    with pytest.raises(Invalid):
        td3_import(
            actor=staff("director"),
            data=again,
            file_name="v3_7.tdt",
            players={"x-1": someone.pk, "x-2": someone.pk},
        )
    assert table_counts() == before


def test_contact_data_only_when_the_director_asks():
    imported("finished_v3_7.tdt")
    jana = Player.objects.get(name="Jana Roth")
    assert (jana.email, jana.phone) == ("", "")
    other = td3_import(
        actor=staff("director"),
        data=data("finished_v3_7.tdt").replace(b"t-37-done", b"t-37-other"),
        file_name="copy.tdt",
        contacts=True,
        players={"u1": None, "u2": None, "u3": None, "u4": None},
    )
    new = {
        e.player.name: e.player for e in Entry.objects.filter(tournament=other.record.tournament)
    }
    assert (new["Jana Roth"].email, new["Jana Roth"].phone) == (
        "jana.roth@example.org",
        "+49 30 5550101",
    )


def test_an_unfinished_event_becomes_a_template_only():
    before = table_counts()
    with pytest.raises(Invalid) as refused:
        imported("v3_4.tdt")
    assert "history" in refused.value.fields
    assert table_counts() == before
    done = imported("v3_4.tdt", history=False, template=True)
    assert done.record.tournament is None
    assert done.record.template.name == 'Thursday "Deep" Stack'


def test_a_template_from_a_file_starts_a_working_event():
    done = imported("finished_v3_7.tdt", template=True)
    template = done.record.template
    assert EventTemplate.objects.filter(pk=template.pk).exists()
    started = events.event_template_start(
        actor=staff("director"),
        template_id=template.pk,
        name="Next Tuesday",
        start_at=timezone.now() + timezone.timedelta(days=7),
    )
    assert started.status == TournamentStatus.PLANNED
    assert (started.buy_in, started.fee, started.starting_stack) == (10_000, 1_000, 20_000)
    assert (started.addon_price, started.addon_chips) == (2_000, 10_000)
    assert started.rebuy_price == 10_000
    assert len(clock_setup(started)["structure"]["steps"]) == 4
    assert started.payout_structure.shares == [6_000, 3_000, 1_000]


def test_one_audit_entry_for_the_file():
    before = AuditEntry.objects.count()
    done = imported("finished_v3_7.tdt", template=True)
    assert AuditEntry.objects.count() == before + 1
    entry = AuditEntry.objects.get(action="td3.import")
    assert entry.tournament_id == done.record.tournament_id
    assert entry.after["league"] == "Tuesday Club"


# --- Broken files (fuzzing) ----------------------------------------------------------------


@st.composite
def damaged(draw) -> bytes:
    """A fixture truncated, with a byte changed, or with bytes put in."""
    original = data(draw(st.sampled_from([*FINISHED, "v3_4.tdt"])))
    at = draw(st.integers(0, len(original) - 1))
    how = draw(st.sampled_from(["truncate", "flip", "insert"]))
    if how == "truncate":
        return original[:at]
    if how == "flip":
        return original[:at] + bytes([draw(st.integers(0, 255))]) + original[at + 1 :]
    inserted = draw(
        st.binary(min_size=1, max_size=8) | st.sampled_from([b"-", b"9e99", b",", b'"', b"\\u0000"])
    )
    return original[:at] + inserted + original[at:]


@settings(max_examples=60)
@given(damaged())
def test_a_damaged_file_is_refused_whole_or_imported_whole(file):
    before = table_counts()
    try:
        finished = file_read(file).finished
        done = td3_import(
            actor=None, data=file, file_name="fuzz.tdt", history=finished, template=True
        )
    except ServiceError:
        assert table_counts() == before  # no partial import
        return
    assert done.record.template is not None
    if done.record.tournament is not None:
        assert Entry.objects.filter(tournament=done.record.tournament).count() == len(
            done.event.entries
        )
