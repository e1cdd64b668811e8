"""Chips removed from play (issue 19): a stack forfeited for a re-entry (TDA 8-B), chips
out of view or in transit (TDA 63), lost and found chips nobody owns (TDA 64). Each
lowers the chips in play as every figure shows them (the count check, the lobby's
average, a flight's bag check, the feed); from a player's stack, it lowers that stack
and their count; refusals write nothing; the floor's page, the API and its permissions;
the chips-found calculator points to the action."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clock import services as clock_services
from floorman.models import AuditEntry
from rulings import services as rulings
from seating.services.counts import entry_count_record
from tournaments.models import ChipRemoval, Entry
from tournaments.selectors import flight_bag_check
from tournaments.services.removals import chips_remove
from tournaments.tests.factories import api, staff
from tournaments.tests.flights import main_event, running_flight
from web.tests.test_counts import playing, text
from web.tests.test_feed import feed_url, visitor

pytestmark = pytest.mark.django_db

SIX_STACKS = 6 * 20_000


def removed_url(event) -> str:
    return f"/api/v1/tournaments/{event.pk}/chips-removed/"


def counts_of(event) -> dict:
    return api(staff("floor")).get(f"/api/v1/tournaments/{event.pk}/counts/").json()


def lobby_average(client, event) -> int:
    url = reverse("screens:data", kwargs={"tournament_id": event.pk})
    return client.get(url).json()["average_stack"]["chips"]


def remove(event, body: dict, *, who: str = "floor"):
    return api(staff(who)).post(removed_url(event), body, format="json")


def nothing_written(entries, stacks: dict[int, int]) -> bool:
    now = dict(Entry.objects.filter(pk__in=[e.pk for e in entries]).values_list("pk", "chips"))
    return (
        not ChipRemoval.objects.exists()
        and not AuditEntry.objects.filter(action="chips.remove").exists()
        and now == stacks
    )


# --- Every chips-in-play figure goes down ----------------------------------------------------


@pytest.mark.parametrize(
    "reason, from_a_player",
    [("reentry_forfeit", True), ("out_of_view", True), ("lost_and_found", False)],
    ids=["tda-8b", "tda-63", "tda-64"],
)
def test_chips_removed_from_play_lower_the_count_check_and_the_lobby_average(
    client, reason, from_a_player
):
    event, entries = playing()  # six stacks of 20,000
    assert counts_of(event)["expected"] == SIX_STACKS
    assert lobby_average(client, event) == 20_000

    body = {"reason": reason, "amount": 6_000, "note": "seat 4"}
    if from_a_player:
        body["entry"] = entries[0].pk
    response = remove(event, body)

    assert response.status_code == 201
    counts = counts_of(event)
    assert counts["expected"] == SIX_STACKS - 6_000
    assert lobby_average(client, event) == 19_000  # 114,000 over six players
    if from_a_player:  # TDA 8-B, 63: the stacks hold what is in play
        assert counts["counted"] == SIX_STACKS - 6_000 and counts["difference"] == 0
    else:  # TDA 64: the stacks still hold the lost chips until they are counted again
        assert counts["counted"] == SIX_STACKS and counts["difference"] == 6_000


def test_a_removal_from_a_players_stack_lowers_their_stack_and_their_latest_count_tda_63():
    event, entries = playing()
    carrier = entries[2]
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=carrier.pk, chips=25_000)
    before = counts_of(event)

    remove(event, {"reason": "out_of_view", "amount": 4_000, "entry": carrier.pk})

    carrier.refresh_from_db()
    assert carrier.chips == 21_000
    after = counts_of(event)
    row = next(row for row in after["players"] if row["entry"] == carrier.pk)
    assert row["chips"] == 21_000
    assert after["counted"] == before["counted"] - 4_000
    assert after["difference"] == before["difference"]  # the removal explains itself
    leaders = api().get(f"/api/v1/tournaments/{event.pk}/chip-leaders/").json()
    assert next(r["chips"] for r in leaders["leaders"] if r["entry"] == carrier.pk) == 21_000


def test_a_count_after_the_removal_stands_as_counted():
    event, entries = playing()
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[0].pk, chips=25_000)
    remove(event, {"reason": "out_of_view", "amount": 5_000, "entry": entries[0].pk})
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[0].pk, chips=19_000)

    counts = counts_of(event)

    assert counts["counted"] == 19_000 + 5 * 20_000
    assert counts["expected"] == SIX_STACKS - 5_000


def test_a_forfeited_stack_may_be_the_whole_stack_tda_8b():
    event, entries = playing()

    response = remove(
        event, {"reason": "reentry_forfeit", "amount": 20_000, "entry": entries[1].pk}
    )

    assert response.status_code == 201
    assert Entry.objects.get(pk=entries[1].pk).chips == 0
    assert counts_of(event)["expected"] == SIX_STACKS - 20_000


def test_a_disqualification_and_a_removal_each_count_once():
    event, entries = playing()
    rulings.penalty_give(
        actor=None,
        tournament_id=event.pk,
        data={"entry": entries[0].pk, "kind": "disqualification"},
    )
    remove(event, {"reason": "lost_and_found", "amount": 1_000})

    assert counts_of(event)["expected"] == SIX_STACKS - 20_000 - 1_000  # TDA 71-D, TDA 64


def test_chips_removed_in_a_flight_leave_its_chips_in_play_and_its_bag_check():
    event = main_event()
    flight, seats = running_flight(event)
    chips_remove(
        actor=None,
        tournament_id=flight.pk,
        reason="out_of_view",
        amount=3_000,
        entry_id=seats[(1, 1)].pk,
    )
    chips_remove(actor=None, tournament_id=flight.pk, reason="lost_and_found", amount=500)

    flight_end = clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    assert flight_end.chips_in_play == SIX_STACKS - 3_500
    assert flight_bag_check(flight).expected == SIX_STACKS - 3_500


def test_a_stopped_flight_takes_no_removal():
    event = main_event()
    flight, seats = running_flight(event)
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    response = remove(flight, {"reason": "lost_and_found", "amount": 500})

    assert response.status_code == 409
    assert not ChipRemoval.objects.exists()


def test_the_feed_shows_the_chips_in_play_less_lost_and_found_chips_tda_64():
    event, _entries = playing()

    remove(event, {"reason": "lost_and_found", "amount": 2_500})

    chip_counts = visitor().get(feed_url(event)).json()["chip_counts"]
    assert chip_counts["chips_in_play"] == SIX_STACKS - 2_500
    assert chip_counts["chips"] == SIX_STACKS  # nobody's stack held them


def test_the_feed_shows_a_forfeited_stack_gone_from_the_stacks_and_from_play_tda_8b():
    event, entries = playing()

    remove(event, {"reason": "reentry_forfeit", "amount": 20_000, "entry": entries[0].pk})

    chip_counts = visitor().get(feed_url(event)).json()["chip_counts"]
    assert chip_counts["chips_in_play"] == chip_counts["chips"] == SIX_STACKS - 20_000


# --- Refusals write nothing ------------------------------------------------------------------


def test_more_chips_than_the_player_has_is_refused_and_writes_nothing():
    event, entries = playing()

    response = remove(event, {"reason": "out_of_view", "amount": 20_001, "entry": entries[0].pk})

    assert response.status_code == 409
    assert response.json()["code"] == "removal_over_stack"
    assert "20,000" in response.json()["detail"]
    assert nothing_written(entries, {e.pk: 20_000 for e in entries})
    assert counts_of(event)["expected"] == SIX_STACKS


@pytest.mark.parametrize(
    "body, field",
    [
        ({"amount": 500}, "reason"),
        ({"reason": "chip_race", "amount": 500}, "reason"),
        ({"reason": "lost_and_found", "amount": 0}, "amount"),
        ({"reason": "lost_and_found", "amount": -5}, "amount"),
        ({"reason": "lost_and_found", "amount": "lots"}, "amount"),
        ({"reason": "lost_and_found"}, "amount"),
        ({"reason": "lost_and_found", "amount": 500, "note": "x" * 301}, "note"),
        ({"reason": "lost_and_found", "amount": 500, "entry": "first"}, "entry"),
        ({"reason": "out_of_view", "amount": 500}, "entry"),  # TDA 63: whose chips?
        ({"reason": "reentry_forfeit", "amount": 500}, "entry"),  # TDA 8-B: whose stack?
        ({"reason": "lost_and_found", "amount": 500, "entry": "OWNER"}, "entry"),  # TDA 64
    ],
)
def test_bad_input_is_refused_with_the_fields_message_and_writes_nothing(body, field):
    event, entries = playing()
    if body.get("entry") == "OWNER":
        body = {**body, "entry": entries[0].pk}

    response = remove(event, body)

    assert response.status_code == 400
    assert field in response.json()
    assert nothing_written(entries, {e.pk: 20_000 for e in entries})


def test_an_entry_of_another_event_is_not_found_and_nothing_is_written():
    event, entries = playing()
    other, others = playing(first_table=5)

    response = remove(event, {"reason": "out_of_view", "amount": 500, "entry": others[0].pk})

    assert response.status_code == 404
    assert nothing_written(entries + others, {e.pk: 20_000 for e in entries + others})


def test_a_player_out_of_the_event_has_no_stack_to_take_from():
    event, entries = playing()
    rulings.penalty_give(
        actor=None,
        tournament_id=event.pk,
        data={"entry": entries[0].pk, "kind": "disqualification"},
    )

    response = remove(event, {"reason": "out_of_view", "amount": 500, "entry": entries[0].pk})

    assert response.status_code == 409
    assert not ChipRemoval.objects.exists()


# --- The API: permissions, the list, the audit -----------------------------------------------


@pytest.mark.parametrize(
    "who, status", [("floor", 201), ("director", 201), ("dealer", 403), ("cashier", 403)]
)
def test_the_floor_and_the_director_remove_chips_others_may_not(who, status):
    event, entries = playing()

    response = remove(event, {"reason": "lost_and_found", "amount": 500}, who=who)
    listed = api(staff(who)).get(removed_url(event))

    assert response.status_code == status
    assert listed.status_code == (200 if status == 201 else 403)
    assert ChipRemoval.objects.count() == (1 if status == 201 else 0)


def test_the_public_may_neither_list_nor_remove_chips():
    event, _entries = playing()

    assert api().get(removed_url(event)).status_code in (401, 403)
    assert api().post(removed_url(event), {}, format="json").status_code in (401, 403)
    assert not ChipRemoval.objects.exists()


def test_the_list_shows_each_removal_with_its_rule_player_and_who_newest_first():
    event, entries = playing()
    floor = staff("floor")
    chips_remove(
        actor=floor,
        tournament_id=event.pk,
        reason="reentry_forfeit",
        amount=20_000,
        entry_id=entries[3].pk,
        note="re-entered",
    )
    chips_remove(actor=floor, tournament_id=event.pk, reason="lost_and_found", amount=25)

    rows = api(staff("floor")).get(removed_url(event)).json()

    assert [(r["reason"], r["rule"], r["amount"]) for r in rows] == [
        ("lost_and_found", "TDA 64", 25),
        ("reentry_forfeit", "TDA 8-B", 20_000),
    ]
    assert (rows[1]["entry"], rows[1]["number"]) == (entries[3].pk, entries[3].number)
    assert rows[1]["name"] == entries[3].player.name and rows[1]["note"] == "re-entered"
    assert rows[0]["entry"] is None and rows[0]["removed_by"] == floor.username


@pytest.mark.parametrize("page", [False, True], ids=["api", "counts-page"])
def test_the_lists_queries_do_not_grow_with_the_removals(client, page):
    small, small_entries = playing(4)
    big, big_entries = playing(16, first_table=5)
    for event, entries, times in ((small, small_entries, 1), (big, big_entries, 3)):
        for entry in entries[:times]:
            chips_remove(
                actor=staff("floor"),
                tournament_id=event.pk,
                reason="out_of_view",
                amount=100,
                entry_id=entry.pk,
            )
    if page:
        client.force_login(staff("floor"))
        url = "/tournaments/{}/counts/"
    else:
        client = api(staff("floor"))
        url = "/api/v1/tournaments/{}/chips-removed/"
    client.get(url.format(small.pk))  # the floor's roles, read once per person

    with CaptureQueriesContext(connection) as one:
        assert client.get(url.format(small.pk)).status_code == 200
    with CaptureQueriesContext(connection) as three:
        response = client.get(url.format(big.pk))
        assert response.status_code == 200
    listed = response.content.decode().count("data-removal=") if page else len(response.json())

    assert listed == 3
    assert len(three) == len(one)


def test_a_removal_is_audited_with_the_stack_after_it():
    event, entries = playing()

    remove(event, {"reason": "out_of_view", "amount": 1_500, "entry": entries[0].pk})

    audit = AuditEntry.objects.get(action="chips.remove")
    assert (audit.after["amount"], audit.after["rule"]) == (1_500, "TDA 63")
    assert audit.after["stack_after"] == 18_500


def test_a_removal_tells_the_screens_on_commit(monkeypatch, django_capture_on_commit_callbacks):
    event, entries = playing()
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda _id, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        chips_remove(
            actor=None,
            tournament_id=event.pk,
            reason="out_of_view",
            amount=100,
            entry_id=entries[0].pk,
        )

    assert [m["type"] for m in sent] == ["entry.updated", "counts.updated"]


def test_a_finished_event_has_no_chips_to_remove():
    event, entries = playing()
    event.__class__.objects.filter(pk=event.pk).update(status="finished")

    response = remove(event, {"reason": "lost_and_found", "amount": 100})

    assert response.status_code == 409
    assert not ChipRemoval.objects.exists()


# --- The floor's counts page -----------------------------------------------------------------


def test_the_floor_takes_chips_out_of_play_on_the_counts_page(client):
    event, entries = playing()
    client.force_login(staff("floor"))
    url = f"/tournaments/{event.pk}/counts/"

    response = client.post(
        url,
        {
            "action": "remove",
            "reason": "out_of_view",
            "amount": "2000",
            "number": entries[1].number,
        },
    )
    page = text(client.get(url))

    assert response.status_code == 302
    assert Entry.objects.get(pk=entries[1].pk).chips == 18_000
    assert "Chips removed from play" in page and "(TDA 63)" in page
    assert f"#{entries[1].number}" in page


@pytest.mark.parametrize(
    "form, status, message",
    [
        ({"reason": "out_of_view", "amount": "2000"}, 400, "TDA 8-B, 63"),
        ({"reason": "out_of_view", "amount": "2000", "number": "999"}, 400, "No entry"),
        ({"reason": "lost_and_found", "amount": "0"}, 400, ""),
        ({"reason": "out_of_view", "amount": "20001", "number": "FIRST"}, 409, "20,000 chips"),
    ],
)
def test_the_counts_page_refuses_a_bad_removal_and_writes_nothing(client, form, status, message):
    event, entries = playing()
    client.force_login(staff("floor"))
    if form.get("number") == "FIRST":
        form = {**form, "number": entries[0].number}

    response = client.post(f"/tournaments/{event.pk}/counts/", {"action": "remove", **form})

    assert response.status_code == status
    assert message in text(response)
    assert nothing_written(entries, {e.pk: 20_000 for e in entries})


def test_a_dealer_may_not_open_the_removal_form(client):
    event, _entries = playing()
    client.force_login(staff("dealer"))

    response = client.post(
        f"/tournaments/{event.pk}/counts/",
        {"action": "remove", "reason": "lost_and_found", "amount": "100"},
    )

    assert response.status_code == 403
    assert not ChipRemoval.objects.exists()


# --- The chips-found calculator points to the action -------------------------------------------


CHIPS_FOUND = "/api/v1/rulings/chips-found/"


@pytest.mark.parametrize("situation", ["out_of_view", "lost_and_found", "reentry_forfeit"])
def test_the_calculator_names_the_removal_when_chips_leave_play(situation):
    event, _entries = playing()

    answer = api().post(
        CHIPS_FOUND, {"situation": situation, "value": 500, "tournament": event.pk}, format="json"
    )

    action = answer.json()["action"]
    assert answer.json()["outcome"] == "removed"
    assert action["name"] == "api-chips-removed" and action["method"] == "POST"
    assert action["api"] == removed_url(event)
    assert action["body"] == {"reason": situation, "amount": 500}
    assert action["page"].startswith(f"/tournaments/{event.pk}/counts/?")
    # Sending that body records the removal (a player's stack named where TDA 8-B/63 need it).
    assert action["page"].endswith("#remove")


def test_the_calculator_without_an_event_names_the_api_operation():
    answer = api().post(CHIPS_FOUND, {"situation": "lost_and_found", "value": 500}, format="json")

    action = answer.json()["action"]
    assert action["api"] == "/api/v1/tournaments/{tournament_pk}/chips-removed/"
    assert action["page"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"situation": "lost_and_found", "value": 500, "owner_known": True},  # TDA 1 decides
        {"situation": "behind_all_in", "value": 500, "reading": "ifp"},  # IFP 4.20: in the pot
        {"situation": "behind_all_in", "value": 500, "all_in_won": False},  # TDA 62
    ],
)
def test_the_calculator_names_no_removal_when_the_chips_stay_in_play(body):
    answer = api().post(CHIPS_FOUND, body, format="json")

    assert answer.status_code == 200 and answer.json()["action"] is None


def test_the_calculators_page_links_to_recording_the_removal(client):
    client.force_login(staff("floor"))

    response = client.post(
        reverse("rulings:calculators"),
        {"calculator": "chips_found", "situation": "out_of_view", "value": "500"},
    )
    page = text(response)

    assert 'data-removal-action="api-chips-removed"' in page
    assert "POST /api/v1/tournaments/{tournament_pk}/chips-removed/" in page
