"""The prize-money API: payouts, results, payments and deals, as a client sees them."""

import pytest

from payouts.selectors import payout_table
from prizes.models import Payment
from tournaments.models import Tournament, Transaction, TransactionKind
from tournaments.tests.factories import (
    api,
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db

API = "/api/v1"


def url(event: Tournament, path: str) -> str:
    return f"{API}/tournaments/{event.pk}/{path}"


def final_three(**overrides):
    """Ten players at €100, 1,000 chips each; seven are out: three play for the money."""
    event = tournament(buy_in=10000, fee=0, starting_stack=1000, **overrides)
    entries = field(event, 10)
    registration_closed(event)
    api(staff("director")).put(
        url(event, "payouts/"),
        {"locked": False, "places_fixed": 3, "places_mode": "fixed"},
        format="json",
    )
    bust_in_order(event, *entries[:7])
    return event, entries


# --- Payouts ----------------------------------------------------------------------------


def test_payouts_are_public_and_add_up_to_the_pool():
    event = tournament(buy_in=10000, fee=1000, guarantee=500000)
    field(event, 20)
    body = api().get(url(event, "payouts/")).json()
    assert body["prize_pool"]["total"] == 500000  # €200,000 collected, €300,000 overlay
    assert body["prize_pool"]["overlay"] == 300000
    assert body["places_paid"] == 3
    amounts = [line["amount"] for line in body["lines"]]
    assert sum(amounts) == 500000
    assert amounts == sorted(amounts, reverse=True)
    assert (body["locked"], body["balanced"], body["difference"]) == (False, True, 0)


def test_put_lines_that_do_not_add_up_is_400_with_the_difference():
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    response = api(staff("director")).put(
        url(event, "payouts/"), {"lines": [60000, 30000]}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "lines": [
            "The lines add up to €900.00 but the prize pool is €1,000.00: €100.00 too little."
        ]
    }
    assert not payout_table(event).locked


def test_put_lines_that_add_up_lock_the_table():
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    response = api(staff("director")).put(
        url(event, "payouts/"), {"lines": [60000, 40000]}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert [line["amount"] for line in body["lines"]] == [60000, 40000]
    assert (body["locked"], body["locked_reason"], body["edited"]) == (True, "edited", True)


def test_put_lines_that_increase_is_400():
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    response = api(staff("director")).put(
        url(event, "payouts/"), {"lines": [40000, 60000]}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"lines": ["Place 2 pays more than the place above it."]}


def test_put_settings_recalculates():
    event = tournament(buy_in=10000, fee=0)
    field(event, 100)
    response = api(staff("director")).put(
        url(event, "payouts/"),
        {"places_percent": "10", "winner_share": "30", "unit": 1000},
        format="json",
    )
    body = response.json()
    assert body["places_paid"] == 10
    amounts = [line["amount"] for line in body["lines"]]
    assert sum(amounts) == 1000000
    assert all(amount % 1000 == 0 for amount in amounts)
    assert amounts[0] == 300000  # 30 % of €10,000
    assert amounts[-1] >= 20000  # the min-cash: twice the buy-in


@pytest.mark.parametrize(
    "body, field_name",
    [
        ({"places_percent": "0"}, "places_percent"),
        ({"places_percent": "100.5"}, "places_percent"),
        ({"places_percent": "abc"}, "places_percent"),
        ({"places_fixed": 0}, "places_fixed"),
        ({"winner_share": "-1"}, "winner_share"),
        ({"unit": 0}, "unit"),
        ({"unit": 10**30}, "unit"),
        ({"lines": [-1]}, "lines"),
        ({"lines": "many"}, "lines"),
        ({"lines": [10**30]}, "lines"),
        ({"shares": [6000, 3000]}, "shares"),
        ({"shares": [3000, 7000]}, "shares"),
        ({"places_mode": "fixed", "places_fixed": None}, "places_fixed"),
        ({"template": 999999}, "template"),
        ({"locked": "perhaps"}, "locked"),
    ],
)
def test_bad_payout_input_is_400_and_changes_nothing(body, field_name):
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    before = api().get(url(event, "payouts/")).json()
    response = api(staff("director")).put(url(event, "payouts/"), body, format="json")
    assert response.status_code == 400
    assert field_name in response.json()
    assert api().get(url(event, "payouts/")).json() == before


def test_only_the_director_changes_payouts():
    event = tournament()
    assert api().put(url(event, "payouts/"), {"unit": 100}, format="json").status_code in (
        401,
        403,
    )
    response = api(staff("cashier")).put(url(event, "payouts/"), {"unit": 100}, format="json")
    assert response.status_code == 403


def test_payouts_of_an_unknown_tournament_is_404():
    assert api().get(f"{API}/tournaments/987654/payouts/").status_code == 404


def test_changing_a_locked_table_is_409():
    event = tournament(buy_in=10000, fee=0)
    field(event, 20)
    registration_closed(event)
    response = api(staff("director")).put(url(event, "payouts/"), {"unit": 500}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "payouts_locked"


# --- Results and payments -------------------------------------------------------------------


def test_results_are_public_without_contact_data():
    event = tournament(buy_in=10000, fee=0)
    entries = [register(event, f"P{n}", email=f"p{n}@example.com").entry for n in range(10)]
    registration_closed(event)
    bust_in_order(event, *entries[:9])
    response = api().get(url(event, "results/"))
    body = response.json()
    assert [row["place"] for row in body["results"]] == list(range(1, 11))
    assert body["results"][0]["player"]["name"] == "P9"
    assert sum(row["prize"] for row in body["results"]) == 100000
    assert "example.com" not in response.content.decode()


def test_paying_an_entry_twice_is_409():
    event, entries = final_three()
    bust_in_order(event, entries[7])  # third place
    cashier = api(staff("cashier"))
    first = cashier.post(url(event, "payments/"), {"entry": entries[7].pk}, format="json")
    assert first.status_code == 201
    second = cashier.post(url(event, "payments/"), {"entry": entries[7].pk}, format="json")
    assert second.status_code == 409
    assert second.json()["code"] == "already_paid"
    assert Transaction.objects.filter(kind=TransactionKind.PAYOUT).count() == 1


def test_payment_needs_a_place_and_the_cashier():
    event, entries = final_three()
    response = api(staff("cashier")).post(
        url(event, "payments/"), {"entry": entries[9].pk}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "no_place"
    floor = api(staff("floor")).post(url(event, "payments/"), {"entry": entries[7].pk})
    assert floor.status_code == 403
    unknown = api(staff("cashier")).post(url(event, "payments/"), {"entry": 10**9}, format="json")
    assert unknown.status_code == 404
    garbage = api(staff("cashier")).post(url(event, "payments/"), {"entry": "x"}, format="json")
    assert garbage.status_code == 400


def test_payment_taken_back():
    event, entries = final_three()
    bust_in_order(event, entries[7])
    cashier = api(staff("cashier"))
    cashier.post(url(event, "payments/"), {"entry": entries[7].pk}, format="json")
    response = cashier.delete(url(event, f"payments/{entries[7].pk}/"))
    assert response.status_code == 200
    assert not Payment.objects.exists()
    again = cashier.delete(url(event, f"payments/{entries[7].pk}/"))
    assert again.status_code == 409


def test_director_enters_a_place():
    event, entries = final_three()
    director = api(staff("director"))
    response = director.put(
        url(event, f"results/{entries[9].pk}/place/"), {"place": 1}, format="json"
    )
    assert response.status_code == 200
    winner = next(row for row in response.json()["results"] if row["place"] == 1)
    assert winner["entry"]["id"] == entries[9].pk
    bad = director.put(url(event, f"results/{entries[9].pk}/place/"), {"place": 0}, format="json")
    assert bad.status_code == 400


# --- Deals ------------------------------------------------------------------------------------


def test_deal_calculate_answers_in_the_order_given():
    event, _entries = final_three()
    prizes = list(payout_table(event).amounts)
    response = api(staff("floor")).post(
        url(event, "deal/calculate/"),
        {"method": "icm", "chips": [2000, 5000, 3000]},
        format="json",
    )
    assert response.status_code == 200
    players = response.json()["players"]
    assert [p["chips"] for p in players] == [2000, 5000, 3000]
    assert sum(p["amount"] for p in players) == sum(prizes)
    assert players[1]["amount"] > players[2]["amount"] > players[0]["amount"]


def test_deal_calculate_with_prizes_given_and_a_save():
    event, _entries = final_three()
    response = api(staff("floor")).post(
        url(event, "deal/calculate/"),
        {
            "method": "save",
            "chips": [5000, 3000, 2000],
            "prizes": [50000, 30000, 20000],
            "save": 5000,
        },
        format="json",
    )
    body = response.json()
    assert body["left_to_play"] == 5000
    assert sum(p["amount"] for p in body["players"]) == 95000


def test_deal_chip_counts_off_is_400_with_both_totals():
    event, _entries = final_three()
    response = api(staff("floor")).post(
        url(event, "deal/calculate/"),
        {"method": "chip_chop", "chips": [5000, 3000, 1500]},
        format="json",
    )
    assert response.status_code == 400
    message = response.json()["chips"][0]
    assert "9,500" in message and "10,000" in message


@pytest.mark.parametrize(
    "body",
    [
        {"method": "magic", "chips": [5000, 5000]},
        {"method": "icm", "chips": [10000]},
        {"method": "icm", "chips": [0, 10000]},
        {"method": "icm", "chips": "lots"},
        {"method": "icm", "chips": [10**30, 1]},
        {"method": "icm", "chips": [5000, 3000, 2000], "prizes": [1, 2, 3]},
        {"method": "icm", "chips": [5000, 3000, 2000], "prizes": [1, 1, 1, 1]},
        {"method": "save", "chips": [5000, 3000, 2000]},
        {"method": "save", "chips": [5000, 3000, 2000], "save": 10**9},
    ],
)
def test_bad_deal_figures_are_400(body):
    event, _entries = final_three()
    response = api(staff("floor")).post(url(event, "deal/calculate/"), body, format="json")
    assert response.status_code == 400


def test_recorded_deal_finishes_the_tournament():
    event, entries = final_three()
    left = entries[7:]
    figures = (
        api(staff("floor"))
        .post(
            url(event, "deal/calculate/"),
            {"method": "icm", "chips": [5000, 3000, 2000]},
            format="json",
        )
        .json()["players"]
    )
    players = [
        {"entry": entry.pk, "chips": p["chips"], "amount": p["amount"]}
        for entry, p in zip(left, figures, strict=True)
    ]
    response = api(staff("director")).post(
        url(event, "deal/"), {"method": "icm", "players": players}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "finished"
    top = body["results"][:3]
    assert [row["entry"]["id"] for row in top] == [e.pk for e in left]
    assert [row["prize"] for row in top] == [p["amount"] for p in figures]
    again = api(staff("director")).post(
        url(event, "deal/"), {"method": "icm", "players": players}, format="json"
    )
    assert again.status_code == 409


def test_deal_amounts_must_share_out_the_prizes():
    event, entries = final_three()
    players = [
        {"entry": e.pk, "chips": c, "amount": 30000}
        for e, c in zip(entries[7:], [5000, 3000, 2000], strict=True)
    ]
    response = api(staff("director")).post(
        url(event, "deal/"), {"method": "custom", "players": players}, format="json"
    )
    assert response.status_code == 400
    assert "a difference of -€100.00" in response.json()["amounts"][0]


def test_deal_continues_with_an_amount_left_for_the_winner():
    event, entries = final_three()
    prizes = list(payout_table(event).amounts)
    players = [
        {"entry": e.pk, "chips": c, "amount": a}
        for e, c, a in zip(
            entries[7:], [5000, 3000, 2000], [prizes[1], prizes[1], prizes[2]], strict=True
        )
    ]
    save = prizes[0] - prizes[1]
    response = api(staff("director")).post(
        url(event, "deal/"),
        {"method": "custom", "players": players, "save": save, "continue_play": True},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["status"] == "running"
    bust_in_order(event, entries[9], entries[8])
    results = api().get(url(event, "results/")).json()["results"]
    assert results[0]["entry"]["id"] == entries[7].pk
    assert results[0]["prize"] == prizes[1] + save  # the deal plus what was played for


def test_deal_missing_a_player_is_400():
    event, entries = final_three()
    players = [{"entry": e.pk, "chips": 5000, "amount": 1} for e in entries[7:9]]
    response = api(staff("director")).post(
        url(event, "deal/"), {"method": "custom", "players": players}, format="json"
    )
    assert response.status_code == 400
    assert "players" in response.json()


def test_only_the_director_records_a_deal():
    event, entries = final_three()
    response = api(staff("floor")).post(url(event, "deal/"), {}, format="json")
    assert response.status_code == 403


def test_payment_of_an_amount_no_longer_due_is_409():
    """The cashier's screen showed an old figure: nothing is paid, the new one is said."""
    event, entries = final_three()
    bust_in_order(event, entries[7])
    due = payout_table(event).amounts[2]
    response = api(staff("cashier")).post(
        url(event, "payments/"), {"entry": entries[7].pk, "amount": due + 1}, format="json"
    )
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["prize"]) == ("prize_changed", due)
    assert not Payment.objects.exists()
