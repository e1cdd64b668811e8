"""The floor names who eliminated a player in a bounty event (issue 18): the desk's bust
form and the tablet's bust screen offer the table's players, the APIs take
`eliminators`, and the desk names or corrects an eliminator later."""

import pytest
from rest_framework.test import APIClient

from floorman.models import AuditEntry
from hands import services
from hands.models import Knockout, TabletLink
from hands.selectors import knockouts_standing
from hands.services import busts
from hands.tests.factories import button_at, deal, seat_players
from prizes.models import BountyPayment
from tournaments.models import Entry
from tournaments.services.ledger import ledger_line_add
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return tournament(bounty_format="knockout", bounty=2500)


@pytest.fixture
def seated(event):
    """Table 1 seats 1-3 and table 2 seats 1-2."""
    return seat_players(event, {1: [1, 2, 3], 2: [1, 2]})


def standing(event):
    return set(knockouts_standing(event).values_list("busted__number", "winner__number", "cash"))


def api(role="floor") -> APIClient:
    client = APIClient(HTTP_X_FORWARDED_PROTO="https")
    client.force_authenticate(staff(role))
    return client


# --- the desk -------------------------------------------------------------------------------


def test_the_desks_bust_form_offers_the_players_at_the_busted_players_table(client, event, seated):
    client.force_login(staff("floor"))
    page = client.get(f"/tournaments/{event.pk}/entries/?sort=seat").content.decode()

    row = page[page.index('id="entry-1"') : page.index('id="entry-2"')]
    assert "Eliminator: not named" in row
    assert f'value="{seated[(1, 2)].pk}"' in row and f'value="{seated[(1, 3)].pk}"' in row
    assert f'value="{seated[(2, 1)].pk}"' not in row  # another table's player


def test_the_desk_busts_with_the_eliminator_named(client, event, seated):
    client.force_login(staff("floor"))
    out, winner = seated[(1, 3)], seated[(1, 1)]

    client.post(f"/tournaments/{event.pk}/entries/{out.number}/bust/", {"eliminator": winner.pk})

    assert standing(event) == {(out.number, winner.number, 2500)}


def test_an_unnamed_bust_shows_eliminator_not_named_and_the_desk_names_them_later(
    client, event, seated
):
    client.force_login(staff("floor"))
    out, winner = seated[(1, 3)], seated[(1, 1)]
    client.post(f"/tournaments/{event.pk}/entries/{out.number}/bust/")
    assert Entry.objects.get(pk=out.pk).status == "busted"

    page = client.get(f"/tournaments/{event.pk}/entries/").content.decode()
    assert "eliminator not named" in page
    form = client.get(f"/tournaments/{event.pk}/entries/{out.number}/knockout/")
    assert "Eliminator not named" in form.content.decode()
    assert f'value="{winner.pk}"' in form.content.decode()

    done = client.post(
        f"/tournaments/{event.pk}/entries/{out.number}/knockout/", {"eliminators": [winner.pk]}
    )

    assert done.status_code == 302
    assert standing(event) == {(out.number, winner.number, 2500)}
    assert AuditEntry.objects.filter(action="knockout.correct").count() == 1


def test_the_correction_page_refuses_a_paid_bounty_with_409(client, event, seated):
    client.force_login(staff("floor"))
    out, winner, other = seated[(1, 3)], seated[(1, 1)], seated[(1, 2)]
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=out.pk, eliminators=[winner.pk])
    line = ledger_line_add(
        tournament=event,
        entry=winner,
        kind="bounty",
        amount=-2500,
        prize_share=0,
        fee_share=0,
        bounty_share=-2500,
    )
    BountyPayment.objects.create(knockout=Knockout.objects.get(), line=line)

    refused = client.post(
        f"/tournaments/{event.pk}/entries/{out.number}/knockout/", {"eliminators": [other.pk]}
    )

    assert refused.status_code == 409
    assert "take the payment back at the cage first" in refused.content.decode()
    assert standing(event) == {(out.number, winner.number, 2500)}


def test_the_entries_page_queries_do_not_grow_with_the_busts(
    client, event, django_assert_max_num_queries
):
    seated = seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8]})
    client.force_login(staff("floor"))
    url = f"/tournaments/{event.pk}/entries/"
    winner = seated[(1, 1)]
    busts.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=seated[(1, 8)].pk, eliminators=[winner.pk]
    )
    client.get(url)
    with django_assert_max_num_queries(40) as one:
        client.get(url)
    for seat in (7, 6, 5):
        busts.entry_bust(
            actor=None,
            tournament_id=event.pk,
            entry_id=seated[(1, seat)].pk,
            eliminators=[winner.pk],
        )

    with django_assert_max_num_queries(len(one.captured_queries)):
        page = client.get(url).content.decode()

    assert page.count("Correct the eliminator") == 4


# --- the tablet -----------------------------------------------------------------------------


def test_the_tablets_bust_screen_names_the_eliminator_by_seat(client, event, seated):
    services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    link = TabletLink.objects.get()
    screen = client.get(f"/tablet/{link.token}/").content.decode()
    assert 'name="eliminator"' in screen

    client.post(f"/tablet/{link.token}/", {"action": "bust", "seats": [3], "eliminator": 2})

    assert standing(event) == {(seated[(1, 3)].number, seated[(1, 2)].number, 2500)}


def test_the_tablets_hand_result_names_the_eliminator(client, event, seated):
    button_at(event, 1, 1)
    hand = deal(event, 1)
    services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    link = TabletLink.objects.get()

    client.post(
        f"/tablet/{link.token}/",
        {"action": "finish", "hand": hand.number, "busts": [3], "eliminator": 1},
    )

    assert standing(event) == {(seated[(1, 3)].number, seated[(1, 1)].number, 2500)}
    assert Knockout.objects.get().hand == hand


# --- the APIs -------------------------------------------------------------------------------


def test_the_desk_api_busts_with_eliminators_and_corrects_them(event, seated):
    out, wrong, right = seated[(1, 3)], seated[(1, 1)], seated[(1, 2)]
    client = api()
    base = f"/api/v1/tournaments/{event.pk}/entries/{out.pk}"

    busted = client.post(f"{base}/bust/", {"eliminators": [wrong.pk]}, format="json")
    corrected = client.post(f"{base}/knockout/", {"eliminators": [right.pk]}, format="json")

    assert busted.status_code == corrected.status_code == 200
    assert standing(event) == {(out.number, right.number, 2500)}


@pytest.mark.parametrize("eliminators", [[0], ["x"], "self", "other table busted"])
def test_the_desk_api_refuses_a_bad_eliminator_with_400_and_writes_nothing(
    event, seated, eliminators
):
    out = seated[(1, 3)]
    if eliminators == "self":
        eliminators = [out.pk]
    elif eliminators == "other table busted":
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(2, 2)].pk)
        eliminators = [seated[(2, 2)].pk]
    audit_before = AuditEntry.objects.count()

    response = api().post(
        f"/api/v1/tournaments/{event.pk}/entries/{out.pk}/bust/",
        {"eliminators": eliminators},
        format="json",
    )

    assert response.status_code == 400
    assert "eliminators" in response.json()
    assert Entry.objects.get(pk=out.pk).status == "active"
    assert AuditEntry.objects.count() == audit_before
    assert not Knockout.objects.exists()


def test_the_tables_api_takes_eliminators_by_seat(event, seated):
    response = api().post(
        f"/api/v1/tournaments/{event.pk}/tables/1/busts/",
        {"seats": [3], "eliminators": [1]},
        format="json",
    )
    refused = api().post(
        f"/api/v1/tournaments/{event.pk}/tables/1/busts/",
        {"seats": [2], "eliminators": [9]},
        format="json",
    )

    assert response.status_code == 201
    assert refused.status_code == 400
    assert standing(event) == {(seated[(1, 3)].number, seated[(1, 1)].number, 2500)}


def test_only_the_floor_corrects_an_eliminator(event, seated):
    out = seated[(1, 3)]
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=out.pk)

    response = api("cashier").post(
        f"/api/v1/tournaments/{event.pk}/entries/{out.pk}/knockout/",
        {"eliminators": [seated[(1, 1)].pk]},
        format="json",
    )

    assert response.status_code == 403
    assert not Knockout.objects.exists()
