"""Incidents, penalties and house rules through the services, with the table tablet
counting the hands a player on penalty misses (TDA 71, 68; casino §49)."""

import pytest

from clock import services as clock_services
from clock.models import Clock
from clock.tests.factories import with_structure
from floorman.audit import audit_chain_verify
from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from hands import services as hands
from hands.models import HandAction
from hands.selectors import table_state_public
from hands.services import busts
from hands.tests.factories import button_at, deal, finish, seat_players
from rulings import selectors, services
from rulings.engine import housebook
from rulings.models import Dispute, HouseRule, PenaltyKind, PenaltyStatus, Venue
from seating.models import Seat, Table
from seating.services import desk
from tournaments.models import EntryStatus, Tournament
from tournaments.selectors import chips_in_play
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = tournament()
    with_structure(event)  # level 1: 100/200
    return event


def give(event, entry, kind, **data):
    return services.penalty_give(
        actor=staff("floor"),
        tournament_id=event.pk,
        data={"entry": entry.pk, "kind": kind, **data},
    )


def act(event, hand, kind, amount=None):
    return hands.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=hand.table.number,
        hand_number=hand.number,
        kind=kind,
        amount=amount,
    )


# --- Penalties ------------------------------------------------------------------------------


def test_missed_round_is_one_hand_per_player_at_the_table_times_rounds_tda_71a(event):
    seated = seat_players(event, {1: [1, 2, 3, 4, 5, 6]})
    penalty = give(event, seated[(1, 3)], PenaltyKind.MISSED_ROUNDS, rounds=2)
    assert (penalty.players_at_table, penalty.hands) == (6, 12)
    assert penalty.status == PenaltyStatus.SERVING


def test_warning_is_recorded_and_over_at_once(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    penalty = give(event, seated[(1, 2)], PenaltyKind.WARNING, reason="Excessive chatter")
    assert penalty.status == PenaltyStatus.SERVED and penalty.hands == 0
    assert AuditEntry.objects.filter(action="penalty.warning").count() == 1


def test_penalty_starts_after_the_hand_in_play_tda_68(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    offender = seated[(1, 3)]
    first = deal(event, 1)
    penalty = give(event, offender, PenaltyKind.MISSED_HANDS, hands=2)
    assert penalty.after_hand == first.number

    finish(event, 1, first)  # the hand it was given in does not count
    penalty.refresh_from_db()
    assert penalty.hands_served == 0

    finish(event, 1, deal(event, 1))
    penalty.refresh_from_db()
    assert (penalty.hands_served, penalty.status) == (1, PenaltyStatus.SERVING)

    finish(event, 1, deal(event, 1))
    penalty.refresh_from_db()
    assert (penalty.hands_served, penalty.status) == (2, PenaltyStatus.SERVED)


def test_tablet_shows_the_seat_away_with_hands_left(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    give(event, seated[(1, 4)], PenaltyKind.MISSED_HANDS, hands=3)
    table = Table.objects.get(tournament=event, number=1)
    assert table_state_public(table)["away"] == {"4": 3}


def test_away_player_is_dealt_in_posts_and_the_hand_is_killed_tda_71c(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)  # small blind 2, big blind 3, seat 4 first to act
    give(event, seated[(1, 2)], PenaltyKind.MISSED_HANDS, hands=1)
    hand = deal(event, 1)
    act(event, hand, "call")  # seat 4
    _hand, after = act(event, hand, "call")  # seat 1, the button
    # Seat 2, on penalty, posted the small blind; its hand is dead from the deal: the
    # action goes past it to the big blind, and the log never needs to fold it.
    actions = list(HandAction.objects.filter(hand=hand).values_list("seat", "kind"))
    assert actions == [(4, "call"), (1, "call")]
    assert after.to_act == 3 and after.dead == (2,)
    assert hand.players.get(seat=2).dead


def test_disqualification_removes_the_entry_and_its_chips_tda_71d(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    before = chips_in_play(event)
    offender = seated[(1, 1)]
    penalty = give(event, offender, PenaltyKind.DISQUALIFICATION, reason="Collusion")
    offender.refresh_from_db()
    assert offender.status == EntryStatus.DISQUALIFIED
    assert penalty.chips_removed == offender.chips == 20000
    assert chips_in_play(event) == before - 20000
    assert not Seat.objects.filter(entry=offender).exists()


def test_disqualifying_the_third_last_player_makes_the_clock_heads_up_casino31(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    Tournament.objects.filter(pk=event.pk).update(
        house_settings={"heads_up_level": "casino"}
    )  # casino §31
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")

    give(event, seated[(1, 1)], PenaltyKind.DISQUALIFICATION, reason="Collusion")

    assert Clock.objects.get(pk=event.pk).halved_from is not None
    assert AuditEntry.objects.filter(action="entry.disqualified").exists()


def test_missed_rounds_need_rounds_and_a_seat(event):
    seated = seat_players(event, {1: [1, 2]})
    with pytest.raises(Invalid) as refused:
        give(event, seated[(1, 1)], PenaltyKind.MISSED_ROUNDS)
    assert "rounds" in refused.value.fields


def test_busted_player_gets_no_penalty(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(1, 1)].pk)
    with pytest.raises(Conflict):
        give(event, seated[(1, 1)], PenaltyKind.WARNING)


def test_td_ends_a_penalty_early(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    penalty = give(event, seated[(1, 1)], PenaltyKind.MISSED_HANDS, hands=5)
    ended = services.penalty_end(
        actor=staff("director"), tournament_id=event.pk, penalty_id=penalty.pk
    )
    assert ended.status == PenaltyStatus.CANCELLED
    table = Table.objects.get(tournament=event, number=1)
    assert table_state_public(table)["away"] == {}
    with pytest.raises(Conflict):
        services.penalty_end(actor=None, tournament_id=event.pk, penalty_id=penalty.pk)


def test_a_penalty_reads_its_counts_from_its_away_record(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    penalty = give(event, seated[(1, 3)], PenaltyKind.MISSED_HANDS, hands=2)
    away = penalty.away
    assert (away.entry_id, away.table_number, away.hands, away.after_hand) == (
        seated[(1, 3)].pk,
        1,
        2,
        None,
    )
    assert (penalty.status, penalty.hands_served, penalty.hands_left) == (
        PenaltyStatus.SERVING,
        0,
        2,
    )
    assert penalty.ended_at is None and penalty.get_status_display() == "Being served"

    finish(event, 1, deal(event, 1))
    finish(event, 1, deal(event, 1))
    penalty = selectors.penalties_given(event.pk).get(pk=penalty.pk)

    assert (penalty.status, penalty.hands_served, penalty.hands_left) == (
        PenaltyStatus.SERVED,
        2,
        0,
    )
    assert penalty.ended_at == penalty.away.ended_at is not None
    assert selectors.penalty_public(penalty)["status"] == "served"
    assert not selectors.penalties_serving(event.pk).exists()


def test_warnings_and_disqualifications_have_no_away_record(event):
    seated = seat_players(event, {1: [1, 2, 3]})
    warning = give(event, seated[(1, 1)], PenaltyKind.WARNING)
    out = give(event, seated[(1, 2)], PenaltyKind.DISQUALIFICATION)

    for penalty in (warning, out):
        assert penalty.away is None
        assert (penalty.status, penalty.hands_served, penalty.hands_left) == (
            PenaltyStatus.SERVED,
            0,
            0,
        )
        assert penalty.ended_at == penalty.at
    assert not selectors.penalties_serving(event.pk).exists()


def test_warned_entries_leave_out_cancelled_penalties_rp_15(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    give(event, seated[(1, 1)], PenaltyKind.WARNING)
    give(event, seated[(1, 2)], PenaltyKind.MISSED_HANDS, hands=2)
    lifted = give(event, seated[(1, 3)], PenaltyKind.MISSED_HANDS, hands=2)
    services.penalty_end(actor=None, tournament_id=event.pk, penalty_id=lifted.pk)

    assert selectors.warned_entries(event.pk) == {seated[(1, 1)].pk, seated[(1, 2)].pk}


# --- Incidents ----------------------------------------------------------------------------


def record(event, **data):
    body = {
        "category": "betting",
        "description": "Player pushed a single 1,000 chip facing 400 without a word.",
        "decision": "A call (TDA 44).",
        "rules": ["44"],
        **data,
    }
    return services.incident_record(actor=staff("floor"), tournament_id=event.pk, data=body)


def test_incident_is_logged_with_players_rules_and_who_decided(event):
    seated = seat_players(event, {1: [1, 2]})
    incident = record(event, table=1, entries=[seated[(1, 1)].pk])
    assert incident.rules == ["44"]
    assert list(incident.entries.all()) == [seated[(1, 1)]]
    assert incident.decided_by is not None
    assert selectors.incidents_search(event.pk, query="chip").count() == 1


def test_unknown_tda_rule_is_refused_but_house_references_are_kept(event):
    with pytest.raises(Invalid) as refused:
        record(event, rules=["99"])
    assert "no TDA rule 99" in refused.value.fields["rules"][0]
    assert record(event, rules=["45-B", "RP-8", "casino §49"]).rules == [
        "45-B",
        "RP-8",
        "casino §49",
    ]


def test_player_from_another_tournament_is_refused(event):
    other = tournament(name="Other")
    stranger = seat_players(other, {1: [1, 2]})[(1, 1)]
    with pytest.raises(Invalid):
        record(event, entries=[stranger.pk])


def test_dispute_window_of_a_misread_hand_closes_with_the_next_hand_tda_22(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)
    finish(event, 1, hand)
    incident = record(event, table=1, hand=hand.number, dispute=Dispute.READING)
    assert selectors.dispute_window(incident).open
    deal(event, 1)
    window = selectors.dispute_window(incident)
    assert (window.open, window.reason) == (False, "next_hand_started")


def test_accounting_dispute_stays_open_until_substantial_action_tda_22(event):
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    hand = deal(event, 1)
    finish(event, 1, hand)
    incident = record(event, table=1, hand=hand.number, dispute=Dispute.ACCOUNTING)
    following = deal(event, 1)
    act(event, following, "call")
    assert selectors.dispute_window(incident).open  # one action is not substantial
    act(event, following, "call")
    assert not selectors.dispute_window(incident).open  # two, with chips in: TDA 36


def test_break_dispute_lasts_one_minute(event):
    from datetime import timedelta

    incident = record(event, dispute=Dispute.BREAK)
    assert selectors.dispute_window(incident).open
    later = incident.pot_awarded_at + timedelta(seconds=61)
    assert not selectors.dispute_window(incident, now=later).open


def test_players_record_follows_them_across_tournaments(event):
    seated = seat_players(event, {1: [1, 2]})
    player = seated[(1, 1)].player
    record(event, entries=[seated[(1, 1)].pk])
    later = tournament(name="Next week")

    entry = desk.entry_register(actor=None, tournament_id=later.pk, player_id=player.pk).entry
    services.penalty_give(
        actor=None, tournament_id=later.pk, data={"entry": entry.pk, "kind": "warning"}
    )
    incidents, penalties = selectors.player_record(player.pk)
    assert incidents.count() == 1 and penalties.count() == 1


# --- House rules ----------------------------------------------------------------------------


BOOK = """# House rules

## 1. Deals
Deals are allowed when the director agrees.

## 2. Calling the clock
One minute with a ten-second count (changes TDA 29).

## 3. Re-entries
Until the end of level 6.
"""


def test_rule_book_import_makes_one_house_rule_a_section():
    venue = Venue.objects.create(name="Casino", is_default=True)
    rules = services.rulebook_import(actor=None, venue_id=venue.pk, text=BOOK, source="rules.md")
    assert [r.title for r in rules] == ["House rules", "Deals", "Calling the clock", "Re-entries"]
    assert HouseRule.objects.get(title="Calling the clock").tda == "29"
    # A second import replaces the first, rules typed by hand stay.
    services.house_rule_save(
        actor=None,
        venue_id=venue.pk,
        data={"kind": "override", "tda": "57", "title": "Unclear amounts", "text": "Lowest."},
    )
    services.rulebook_import(actor=None, venue_id=venue.pk, text="## 9. Only rule\nText.")
    assert sorted(HouseRule.objects.values_list("title", flat=True)) == [
        "Only rule",
        "Unclear amounts",
    ]


def test_house_rule_of_its_own_stands_on_no_tda_rule():
    venue = Venue.objects.create(name="Casino")
    rule = services.house_rule_save(
        actor=None,
        venue_id=venue.pk,
        data={"kind": "own", "tda": "57", "title": "Phones", "text": "Away from the table."},
    )
    assert rule.tda == ""


def test_house_rule_over_an_unknown_tda_rule_is_refused():
    venue = Venue.objects.create(name="Casino")
    with pytest.raises(Invalid):
        services.house_rule_save(
            actor=None,
            venue_id=venue.pk,
            data={"kind": "override", "tda": "99", "title": "x", "text": "y"},
        )


def test_tablet_tells_the_dealer_who_was_warned_rp_15(client, event):
    seated = seat_players(event, {1: [1, 2, 3]})
    give(event, seated[(1, 2)], PenaltyKind.WARNING, reason="Chatter")
    client.force_login(staff("dealer"))
    page = client.get(f"/tournaments/{event.pk}/tables/1/tablet/").content.decode()
    assert page.count('class="badge b-warned"') == 1


def test_an_imported_section_citing_no_real_tda_rule_is_the_houses_own():
    sections = housebook.split_sections(
        "## 1. Clock\nAs TDA RP 8 says.\n\n## 2. Phones\nUnlike TDA 99, none at the table.\n"
    )
    assert [(s.title, s.tda) for s in sections] == [("Clock", "RP-8"), ("Phones", "")]


# --- The audit log --------------------------------------------------------------------------


def test_incidents_and_every_step_of_a_penalty_are_in_the_audit_chain(event):
    """Issue 15, item 12: rulings and penalties are part of the tamper-evident log."""
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    incident = record(event, table=1, entries=[seated[(1, 3)].pk])
    served = give(event, seated[(1, 3)], PenaltyKind.MISSED_HANDS, hands=1, incident=incident.pk)
    ended = give(event, seated[(1, 4)], PenaltyKind.MISSED_HANDS, hands=5)
    services.penalty_end(actor=staff("director"), tournament_id=event.pk, penalty_id=ended.pk)
    finish(event, 1, deal(event, 1))

    logged = AuditEntry.objects.filter(tournament=event).order_by("seq")
    rulings = [
        (e.action, e.object_id)
        for e in logged
        if e.action.startswith(("incident.", "penalty.", "away."))
    ]
    served.refresh_from_db()
    assert rulings == [
        ("incident.record", str(incident.pk)),
        ("penalty.missed_hands", str(served.pk)),
        ("penalty.missed_hands", str(ended.pk)),
        ("penalty.end", str(ended.pk)),
        ("away.served", str(served.away_id)),  # hands counts the hands missed (hands.Away)
    ]
    assert logged.get(action="away.served").after == {
        "entry": seated[(1, 3)].pk,
        "hands_missed": 1,
        "table": 1,
        "hand": 1,
    }
    assert audit_chain_verify().holds
