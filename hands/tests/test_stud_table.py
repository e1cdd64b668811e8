"""Stud at the table, through the hands API: the dealer enters the upcards, the log knows
who brings it in and who acts first (RP-10 D, E), the limits (small bet on third and
fourth street, big bet after; the complete), the house's open pair reading on fourth
street (RP-10 F, casino §38), who shows first (TDA 17-A, casino §42), the HORSE button
frozen during stud (TDA 11-B), and the showdown with stud hands.

Limits 200/400, a 50 ante, a 100 bring-in (the level's small blind column); four
players in seats 1-4, the button on seat 4."""

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands.models import Hand, HandAction, HandPlayer
from hands.services.away import away_start
from hands.tests.factories import button_at, seat_players
from seating.models import Seat, TableState
from seating.models import Table as SeatingTable
from seating.selectors import balancing
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
STUD_STEPS = [Step(LEVEL, 20, 100, 200, ante=50, ante_type="ante", small_bet=200, big_bet=400)]


def stud_event(**house):
    event = tournament(game="stud")
    if house:
        event.house_settings = house
        event.save()
    with_structure(event, STUD_STEPS)
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 4)
    return event


class Table:
    def __init__(self, event, number=1):
        self.event = event
        self.client = api(staff("dealer"))
        self.base = f"{API}/tournaments/{event.pk}/tables/{number}/hands/"
        response = self.client.post(self.base, format="json")
        assert response.status_code == 201, response.content
        self.hand = response.json()["number"]

    def url(self, suffix=""):
        return f"{self.base}{self.hand}/{suffix}"

    def upcards(self, cards, expect=201):
        response = self.client.post(
            self.url("upcards/"), {"cards": {str(k): v for k, v in cards.items()}}, format="json"
        )
        assert response.status_code == expect, response.content
        return response.json()

    def act(self, kind, amount=None, expect=201):
        body = {"kind": kind} if amount is None else {"kind": kind, "amount": amount}
        response = self.client.post(self.url("actions/"), body, format="json")
        assert response.status_code == expect, response.content
        return response.json()

    def betting(self):
        return self.client.get(self.url()).json()["betting"]


DOORS = {1: "Kh", 2: "7d", 3: "2c", 4: "9s"}  # the deuce of clubs brings it in


def test_the_low_card_by_suit_brings_it_in_and_may_complete():
    table = Table(stud_event())
    assert table.betting() is None  # nothing to log before the door cards
    # Logging before the door cards says so.
    refused = table.act("bet", 100, expect=409)
    assert "door cards" in refused["detail"]

    betting = table.upcards(DOORS)["betting"]

    assert (betting["bring_in_seat"], betting["to_act"]) == (3, 3)
    assert betting["pot"] == 200  # four antes of 50
    legal = betting["legal"]
    assert (legal["min_to"], legal["max_to"], legal["can_check"]) == (100, 200, False)
    refused = table.act("check", expect=409)
    assert refused["rule"] == "RP-10 E"
    refused = table.act("fold", expect=409)
    assert refused["rule"] == "TDA 30"
    table.act("bet", 100)  # the bring-in
    betting = table.act("raise", 200)["betting"]  # seat 4 completes
    assert (betting["to_act"], betting["legal"]["min_to"]) == (1, 400)


def test_fourth_street_waits_for_the_upcards_and_the_high_hand_acts_first():
    table = Table(stud_event())
    table.upcards(DOORS)
    for kind, amount in (("bet", 100), ("call", None), ("call", None), ("call", None)):
        table.act(kind, amount)
    assert table.betting()["upcards_due"] == "fourth"
    refused = table.act("check", expect=409)
    assert refused["rule"] == "RP-10"

    # RP-10 D: seat 1 and seat 4 both show K-9; the king of spades acts first.
    betting = table.upcards({1: "9h", 2: "3d", 3: "4c", 4: "Ks"})["betting"]

    assert betting["to_act"] == 4
    assert betting["upcards"]["4"] == ["9s", "Ks"]
    assert betting["legal"]["max_to"] == 200  # the small bet on fourth street
    entry = AuditEntry.objects.filter(action="hand.upcards").latest("pk")
    assert entry.after["street"] == "fourth" and entry.after["to_act"] == 4


def to_fourth_with_an_open_pair(event):
    table = Table(event)
    table.upcards(DOORS)
    for kind, amount in (("bet", 100), ("call", None), ("call", None), ("call", None)):
        table.act(kind, amount)
    table.upcards({1: "Qh", 2: "7s", 3: "4c", 4: "Jd"})  # seat 2 shows a pair of sevens
    return table


def test_rp10_f_the_tda_does_not_double_the_bet_for_an_open_pair():
    table = to_fourth_with_an_open_pair(stud_event())
    assert table.betting()["to_act"] == 2
    refused = table.act("bet", 400, expect=409)
    assert refused["legal"]["max_to"] == 200
    assert table.act("bet", 200)["betting"]["current_bet"] == 200


def test_casino_38_the_house_allows_the_upper_limit_for_an_open_pair():
    table = to_fourth_with_an_open_pair(stud_event(stud_open_pair="upper_limit"))
    legal = table.betting()["legal"]
    assert (legal["min_to"], legal["max_to"]) == (200, 400)
    refused = table.act("bet", 300, expect=409)
    assert refused["rule"] == "casino §38"
    # Opened at the lower limit and raised at the lower limit, the opener may raise by
    # the upper limit (casino §38, last paragraph).
    table.act("bet", 200)
    table.act("raise", 400)
    table.act("call")
    table.act("call")
    legal = table.betting()["legal"]
    assert (legal["seat"], legal["min_to"], legal["max_to"]) == (2, 600, 800)
    # The hand keeps the reading it was dealt with, so its log replays alike.
    hand = Hand.objects.get(tournament=table.event, number=table.hand)
    assert hand.house_settings["stud_open_pair"] == "upper_limit"


def play_to_showdown(table):
    """Everybody calls to seventh street; seat 2 bets fifth street, seat 3 raises it,
    and on seventh street the last action is seat 4's bet, called."""
    table.upcards(DOORS)
    for kind, amount in (("bet", 100), ("call", None), ("fold", None), ("call", None)):
        table.act(kind, amount)
    table.upcards({2: "3d", 3: "4c", 4: "Ad"})  # seat 4: A-9 acts first
    for _ in range(3):
        table.act("check")
    table.upcards({2: "3s", 3: "5c", 4: "Kd"})  # seat 2: a pair of threes
    table.act("bet", 400)  # seat 2
    table.act("raise", 800)  # seat 3
    table.act("call")  # seat 4
    table.act("call")  # seat 2
    table.upcards({2: "8c", 3: "6c", 4: "Kc"})  # seat 4: a pair of kings
    for _ in range(3):
        table.act("check")
    # Seventh street, dealt down: the same order, seat 4 first.
    assert table.betting()["to_act"] == 4


def test_tda_17a_no_bet_on_the_final_round_the_high_hand_showing_shows_first():
    table = Table(stud_event())
    play_to_showdown(table)
    for _ in range(3):
        table.act("check")

    shown = table.betting()["show_order"]

    assert shown == {"seats": [4, 2, 3], "all_at_once": False, "rule": "TDA 17-A"}


def test_casino_42_the_last_aggressor_of_any_round_shows_first():
    table = Table(stud_event(show_order="any_round"))
    play_to_showdown(table)
    for _ in range(3):
        table.act("check")

    shown = table.betting()["show_order"]

    assert shown == {"seats": [3, 4, 2], "all_at_once": False, "rule": "casino §42"}


@pytest.mark.parametrize("house", [{}, {"show_order": "any_round"}])
def test_the_last_bet_on_seventh_street_shows_first_in_both_readings(house):
    table = Table(stud_event(**house))
    play_to_showdown(table)
    table.act("check")  # seat 4
    table.act("bet", 400)  # seat 2
    table.act("call")  # seat 3
    table.act("call")  # seat 4
    assert table.betting()["show_order"]["seats"] == [2, 3, 4]
    finish = table.client.post(
        table.url("settle/"),
        {
            "cards": {
                "2": "Ah Ac 7d 3d 3s 8c 2h",  # two pair, aces and threes
                "3": "Jh Jc 2c 4c 5c 6c Td",  # a flush in clubs
                "4": "Qs Qd 9s Ad Kd Kc 5d",  # two pair, kings and queens
            }
        },
        format="json",
    )
    assert finish.status_code == 200, finish.content
    won = {p["seat"]: p["end_stack"] for p in finish.json()["players"]}
    # Antes 200, the bring-in round 300, fifth street 2,400, seventh 1,200: 4,100.
    assert won[3] == 20000 - 50 - 100 - 800 - 400 + 4100
    assert won[2] == 20000 - 50 - 100 - 800 - 400


@pytest.mark.parametrize(
    "cards",
    [
        {1: "Kh", 2: "7d", 3: "2c"},  # seat 4 has no door card
        {1: "Kh", 2: "7d", 3: "2c", 4: "Kh"},  # the king of hearts twice
        {1: "Kh", 2: "7d", 3: "2c", 4: "1x"},  # no card
        {1: "Kh", 2: "7d", 3: "2c", 4: "9s", 9: "Ah"},  # nobody in seat 9
    ],
)
def test_bad_upcards_are_400_and_write_nothing(cards):
    table = Table(stud_event())
    audit = AuditEntry.objects.count()
    body = table.upcards(cards, expect=400)
    assert "cards" in body
    assert not HandPlayer.objects.exclude(upcards=[]).exists()
    assert AuditEntry.objects.count() == audit


def test_upcards_out_of_turn_or_in_a_board_game_are_409():
    table = Table(stud_event())
    table.upcards(DOORS)
    refused = table.upcards({1: "Qh", 2: "3d", 3: "4c", 4: "Ks"}, expect=409)
    assert "No upcards are due" in refused["detail"]
    holdem = tournament(name="Hold'em")
    with_structure(holdem, [Step(LEVEL, 20, 100, 200)])
    seat_players(holdem, {2: [1, 2]})
    button_at(holdem, 2, 1)
    board = Table(holdem, number=2)
    refused = board.upcards({1: "Kh", 2: "2c"}, expect=409)
    assert "stud" in refused["detail"]
    assert not HandAction.objects.exists()


def test_tda_11b_the_button_is_frozen_during_stud_and_holdem_starts_there():
    event = tournament(game="nlhe")
    with_structure(event, [Step(LEVEL, 20, 100, 200, small_bet=200, big_bet=400)])
    seat_players(event, {1: [1, 2, 3, 4, 5]})
    button_at(event, 1, 1)
    client = api(staff("dealer"))
    base = f"{API}/tournaments/{event.pk}/tables/1/hands/"

    def hand_played(game):
        event.game = game
        event.save(update_fields=["game"])
        hand = client.post(base, format="json").json()
        done = client.post(f"{base}{hand['number']}/finish/", {"busts": []}, format="json")
        assert done.status_code == 200, done.content
        return hand

    last_holdem = hand_played("nlhe")["button"]
    frozen = last_holdem % 5 + 1  # where the next hold'em hand would have it
    # The game shifts to stud: the button goes where the next hold'em hand would have it
    # and stays there for every stud hand.
    studs = [hand_played("stud") for _ in range(3)]
    assert [hand["button"] for hand in studs] == [frozen] * 3
    assert TableState.objects.get(table__tournament=event).button == last_holdem
    # Everybody is dealt in in stud.
    assert len(studs[0]["players"]) == 5
    # Balancing during stud moves the player who would be big blind were it hold'em.
    would_be = studs[0]["big_blind"]
    assert balancing(event.pk).big_blind_next[1] == would_be
    # Back to hold'em, the button starts where it was frozen, then moves on.
    back = hand_played("nlhe")
    assert (back["button"], back["big_blind"]) == (frozen, would_be)
    assert hand_played("nlhe")["button"] == frozen % 5 + 1


def test_tda_30_a_player_on_penalty_dealt_the_low_card_posts_the_bring_in():
    """TDA 71-C: a player on penalty is dealt in dead; dealt the low card, the bring-in
    is posted for them (TDA 30) and stays in the pot, and the action starts on the left."""
    event = stud_event()
    seat = Seat.objects.get(table__tournament=event, table__number=1, number=3)
    away_start(
        tournament=event,
        entry=seat.entry,
        table=SeatingTable.objects.get(tournament=event, number=1),
        hands=1,
    )
    table = Table(event)

    betting = table.upcards(DOORS)["betting"]

    assert (betting["bring_in_seat"], betting["to_act"]) == (3, 4)
    assert betting["current_bet"] == 100 and betting["pot"] == 300  # antes and bring-in
    assert betting["dead"] == [3]
    assert (betting["legal"]["call"], betting["legal"]["min_to"]) == (100, 200)
    table.act("call")  # seat 4
    table.act("fold")  # seat 1
    betting = table.act("fold")["betting"]  # seat 2: seat 4 is left, the hand is over
    assert betting["finished"]


def test_a_stud_hand_tabled_without_its_upcards_is_400():
    table = Table(stud_event())
    table.upcards(DOORS)
    for kind, amount in (("bet", 100), ("fold", None), ("fold", None), ("call", None)):
        table.act(kind, amount)
    table.upcards({2: "3d", 3: "4c"})
    for _ in range(2):  # fourth street checked through
        table.act("check")
    table.upcards({2: "5d", 3: "6c"})
    table.act("check")
    table.act("check")
    table.upcards({2: "8d", 3: "9c"})
    for _ in range(4):  # sixth and seventh street
        table.act("check")
    audit = AuditEntry.objects.count()

    refused = table.client.post(
        table.url("settle/"),
        {"cards": {"2": "7d 3d 5d 8d Ah Ac 2h", "3": "2c 4c 6c Kc Qc Jd Td"}},
        format="json",
    )

    assert refused.status_code == 400
    assert "9c" in refused.json()["cards"][0]
    assert AuditEntry.objects.count() == audit
