"""The cashier's tickets (issue 17) through the API and the pages: an event's tickets
and a player's, transfer and refund where the house allows them, registering with a
ticket at the desk ("Paid with ticket"), the satellite's target on the event's API, and
the query-count guards of the lists."""

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Entry, Ticket, TicketStatus, Transaction, TransactionKind
from tournaments.tests.factories import api, signed_in, staff, tournament

pytestmark = pytest.mark.django_db


def player(name: str):
    return services.player_create(actor=None, data={"name": name})


def won_ticket(target, holder, satellite=None) -> Ticket:
    satellite = satellite or tournament(
        name="Satellite", buy_in=5_000, fee=500, satellite_target=target, status="finished"
    )
    return Ticket.objects.create(
        target=target, satellite=satellite, holder=holder, buy_in=target.buy_in, fee=target.fee
    )


# --- API ------------------------------------------------------------------------------


def test_api_registers_with_a_ticket_and_takes_no_money():
    target = tournament()
    ada = player("Ada")
    ticket = won_ticket(target, ada)
    client = api(staff("cashier"))
    url = reverse("entry-list", args=[target.pk])

    response = client.post(url, {"player_id": ada.pk, "ticket_id": ticket.pk}, format="json")

    assert response.status_code == 201
    line = Transaction.objects.get(entry_id=response.json()["id"])
    assert (line.kind, line.fee_share) == (TransactionKind.TICKET, 0)
    again = client.post(url, {"player_id": ada.pk, "ticket_id": ticket.pk}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "ticket_used"
    totals = client.get(reverse("tournament-totals", args=[target.pk])).json()
    assert (totals["entries"], totals["tickets"], totals["fees"]) == (1, 1, 0)


def test_api_register_with_a_bad_ticket_is_400_and_writes_nothing():
    target = tournament()
    ada, bo = player("Ada"), player("Bo")
    ticket = won_ticket(target, ada)
    client = api(staff("cashier"))
    url = reverse("entry-list", args=[target.pk])

    for body in (
        {"player_id": bo.pk, "ticket_id": ticket.pk},  # another player's
        {"player_id": ada.pk, "ticket_id": 987_654},  # no such ticket
        {"player_id": ada.pk, "ticket_id": "one"},
        {"player_id": ada.pk, "ticket_id": 10**30},
    ):
        response = client.post(url, body, format="json")
        assert response.status_code == 400, body
        assert "ticket_id" in response.json()
    assert not Entry.objects.exists()


def test_api_lists_an_events_tickets_and_a_players():
    target = tournament()
    ada = player("Ada")
    ticket = won_ticket(target, ada)
    cashier = api(staff("cashier"))

    listed = cashier.get(reverse("api-event-tickets", args=[target.pk])).json()
    mine = cashier.get(reverse("api-player-tickets", args=[ada.pk])).json()

    assert [t["id"] for t in listed] == [ticket.pk] == [t["id"] for t in mine]
    assert listed[0]["holder"] == {"id": ada.pk, "name": "Ada", "nickname": "", "country": ""}
    assert (listed[0]["value"], listed[0]["status"]) == (11_000, "issued")
    assert listed[0]["satellite"]["name"] == "Satellite"
    filtered = cashier.get(reverse("api-event-tickets", args=[target.pk]), {"status": "used"})
    assert filtered.json() == []
    bad = cashier.get(reverse("api-event-tickets", args=[target.pk]), {"status": "lost"})
    assert bad.status_code == 400
    assert api().get(reverse("api-event-tickets", args=[target.pk])).status_code in (401, 403)


def test_api_transfer_and_refund_follow_the_house():
    strict = tournament(name="Strict")
    kind = tournament(name="Kind", tickets_transferable=True, tickets_refundable=True)
    ada, bo = player("Ada"), player("Bo")
    cashier = api(staff("cashier"))

    refused = won_ticket(strict, ada)
    transfer = cashier.post(
        reverse("api-ticket-transfer", args=[refused.pk]), {"player_id": bo.pk}, format="json"
    )
    refund = cashier.post(reverse("api-ticket-refund", args=[refused.pk]))
    assert transfer.status_code == refund.status_code == 409
    assert transfer.json()["code"] == "ticket_not_transferable"
    assert refund.json()["code"] == "ticket_not_refundable"

    allowed = won_ticket(kind, ada)
    transfer = cashier.post(
        reverse("api-ticket-transfer", args=[allowed.pk]), {"player_id": bo.pk}, format="json"
    )
    assert transfer.status_code == 200 and transfer.json()["holder"]["id"] == bo.pk
    refund = cashier.post(reverse("api-ticket-refund", args=[allowed.pk]))
    assert refund.status_code == 200 and refund.json()["status"] == "refunded"

    missing = cashier.post(reverse("api-ticket-refund", args=[987_654]))
    assert missing.status_code == 404
    no_player = cashier.post(
        reverse("api-ticket-transfer", args=[allowed.pk]), {"player_id": "x"}, format="json"
    )
    assert no_player.status_code == 400
    floor = api(staff("floor")).post(reverse("api-ticket-refund", args=[allowed.pk]))
    assert floor.status_code == 403


def test_api_sets_a_satellites_target_and_refuses_a_bad_one():
    target = tournament(name="Main Event")
    director = api(staff("director"))
    body = {
        "name": "Satellite",
        "buy_in": 5_000,
        "starting_stack": 10_000,
        "start_at": "2030-05-01T18:00:00Z",
    }

    made = director.post(
        reverse("tournament-list"), {**body, "satellite_target_id": target.pk}, format="json"
    )
    assert made.status_code == 201 and made.json()["satellite_target_id"] == target.pk

    for bad in (made.json()["id"], tournament(status="finished").pk, 987_654, 0, "x"):
        response = director.patch(
            reverse("tournament-detail", args=[made.json()["id"]]),
            {"satellite_target_id": bad},
            format="json",
        )
        assert response.status_code == 400, bad
        assert "satellite_target_id" in response.json()


def test_the_openapi_schema_documents_the_tickets():
    schema = api().get(reverse("api-schema"), {"format": "json"}).json()

    paths = schema["paths"]
    assert "/api/v1/tickets/{ticket_pk}/transfer/" in paths
    assert "/api/v1/tickets/{ticket_pk}/refund/" in paths
    assert "/api/v1/tournaments/{tournament_pk}/tickets/" in paths
    assert "/api/v1/players/{player_pk}/tickets/" in paths
    entry_create = schema["components"]["schemas"]["EntryCreateRequest"]["properties"]
    assert "ticket_id" in entry_create


# --- Pages ------------------------------------------------------------------------------


def test_the_desk_offers_the_players_ticket_and_the_receipt_says_paid_with_ticket():
    target = tournament()
    ada = player("Ada Lovelace")
    ticket = won_ticket(target, ada)
    browser = signed_in(staff("cashier"))
    desk = reverse("tournaments:desk", args=[target.pk])

    matches = browser.get(reverse("tournaments:desk-search", args=[target.pk]), {"name": "Ada"})
    assert f'name="ticket_id" value="{ticket.pk}"' in matches.content.decode()

    response = browser.post(desk, {"ticket_id": ticket.pk}, follow=True)

    page = response.content.decode()
    assert "Paid with ticket" in page and "won in Satellite" in page
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.USED
    assert ticket.used_by.player_id == ada.pk


def test_the_tickets_page_lists_them_and_transfers_and_refunds_where_allowed():
    target = tournament(tickets_transferable=True, tickets_refundable=True)
    ada, bo = player("Ada"), player("Bo Berger")
    first, second = won_ticket(target, ada), won_ticket(target, ada)
    browser = signed_in(staff("cashier"))
    page = reverse("tickets:list", args=[target.pk])

    shown = browser.get(page).content.decode()
    assert f"ticket-{first.pk}" in shown and "Refund" in shown and "Transfer" in shown

    browser.post(reverse("tickets:transfer", args=[first.pk]), {"player": "bo berger"})
    browser.post(reverse("tickets:refund", args=[second.pk]))

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.holder_id == bo.pk
    assert second.status == TicketStatus.REFUNDED
    unknown = browser.post(reverse("tickets:transfer", args=[first.pk]), {"player": "Nobody"})
    assert unknown.status_code == 400 and "No player with this name." in unknown.content.decode()


def test_the_tickets_page_in_german():
    target = tournament()
    won_ticket(target, player("Ada"))
    browser = signed_in(staff("cashier"))

    page = browser.get(
        reverse("tickets:list", args=[target.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()

    assert "Ausgegeben" in page and "Gewonnen in" in page


# --- Query-count guards --------------------------------------------------------------------


def _count(client, url, django_assert_num_queries, expected):
    client.get(url)  # warm up
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200
    return response


def test_query_counts_of_the_ticket_lists(django_assert_num_queries):
    target = tournament()
    ada = player("Ada")
    satellite = tournament(
        name="Satellite", buy_in=5_000, fee=500, satellite_target=target, status="finished"
    )
    won_ticket(target, ada, satellite)
    cashier_api = api(staff("cashier"))
    browser = signed_in(staff("cashier"))
    urls = {
        reverse("api-event-tickets", args=[target.pk]): (cashier_api, 2),
        reverse("api-player-tickets", args=[ada.pk]): (cashier_api, 2),
        reverse("tickets:list", args=[target.pk]): (browser, 5),
    }
    counts = {url: _count(c, url, django_assert_num_queries, n) for url, (c, n) in urls.items()}

    for n in range(5):
        won_ticket(target, player(f"Player {n}"), satellite)
    ticket = won_ticket(target, ada, satellite)
    from seating.services import desk

    desk.entry_register(actor=None, tournament_id=target.pk, player_id=ada.pk, ticket_id=ticket.pk)

    for url, (client, n) in urls.items():
        _count(client, url, django_assert_num_queries, n)
    assert counts


# --- The satellite's payout page -------------------------------------------------------


def test_the_payout_page_shows_the_seats_or_the_problem_of_no_seat():
    from tournaments.tests.factories import field

    target = tournament(name="Main Event", buy_in=10_000, fee=1_000)
    sat = tournament(name="Satellite", buy_in=5_000, fee=500, satellite_target=target)
    browser = signed_in(staff("director"))
    page = reverse("tournaments:payouts", args=[sat.pk])
    field(sat, 2)  # €100: not one seat of €110

    short = browser.get(page).content.decode()
    assert "does not buy a single seat" in short

    field(sat, 8)  # 10 players: €500 buys 4 seats, €60 left

    shown = browser.get(page).content.decode()
    assert "The prize pool buys 4 seats of €110.00 each." in shown
    assert "goes to the next place" in shown


def test_cancelling_an_entry_paid_with_a_ticket_promises_the_ticket_back_not_cash():
    target = tournament()
    ticket = won_ticket(target, player("Ada"))
    from seating.services import desk

    entry = desk.entry_register(
        actor=None, tournament_id=target.pk, player_id=ticket.holder_id, ticket_id=ticket.pk
    ).entry
    browser = signed_in(staff("cashier"))

    page = browser.get(reverse("tournaments:entry-cancel", args=[target.pk, entry.number]))

    text = page.content.decode()
    assert "gets the ticket back (no cash)" in text
    assert "€0.00" in text


def test_the_payouts_api_gives_a_satellites_seats():
    from tournaments.tests.factories import field

    target = tournament(name="Main Event", buy_in=10_000, fee=1_000)
    sat = tournament(name="Satellite", buy_in=5_000, fee=500, satellite_target=target)
    field(sat, 10)

    data = api().get(reverse("api-payouts", args=[sat.pk])).json()

    assert (data["seats"], data["seat_value"], data["places_paid"]) == (4, 11_000, 5)
    assert [line["amount"] for line in data["lines"]] == [0, 0, 0, 0, 6_000]


def test_a_satellites_table_is_not_typed_by_hand():
    target = tournament(name="Main Event")
    sat = tournament(name="Satellite", buy_in=5_000, fee=500, satellite_target=target)

    response = api(staff("director")).put(
        reverse("api-payouts", args=[sat.pk]), {"lines": [5_000]}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "payouts_satellite"
