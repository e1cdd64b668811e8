"""Malformed JSON bodies are a 400 in JSON on every endpoint, and change nothing (issue 15).

Before the fix a 2 KB body of 1,000 nested brackets raised RecursionError inside the JSON
parser: a 500 with the HTML error page, anonymous endpoints included.
"""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from floorman.models import AuditEntry
from floorman.parsers import MAX_DEPTH, JSONParser
from hands.models import Hand
from rulings.models import Incident, Penalty
from seating.models import Seat, Table
from seating.tests.factories import add_tables
from tournaments.models import Entry, Player, Tournament
from tournaments.tests.factories import STAFF_PASSWORD, api, register, staff, tournament

pytestmark = pytest.mark.django_db

DEEP = 1000
NESTED = {
    "arrays": "[" * DEEP + "]" * DEEP,
    "objects": '{"a": ' * DEEP + "1" + "}" * DEEP,
    "mixed": '{"a": [' * (DEEP // 2) + "]}" * (DEEP // 2),
    # Parsed by Python without trouble, but deeper than any request of Floorman's needs.
    "just-too-deep": "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
}
STORED = (Tournament, Player, Entry, Table, Seat, Hand, Incident, Penalty, AuditEntry)


def stored() -> dict:
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in STORED}


def api_views(patterns=None) -> list[tuple[str, type[APIView]]]:
    """(route, view class) of every REST framework view the project routes to."""
    found = []
    for item in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(item, URLResolver):
            found += api_views(item.url_patterns)
            continue
        assert isinstance(item, URLPattern)
        view = getattr(item.callback, "cls", None)
        if isinstance(view, type) and issubclass(view, APIView):
            found.append((str(item.pattern), view))
    return found


def test_every_api_view_reads_json_with_the_projects_parser():
    """Views that name their own parsers must name Floorman's JSON parser too."""
    views = api_views()
    assert len(views) > 40  # the walk found the API

    plain = [
        (route, parser.__name__)
        for route, view in views
        for parser in view().parser_classes
        if parser.media_type == "application/json" and not issubclass(parser, JSONParser)
    ]

    assert plain == []


@pytest.fixture
def event():
    event = tournament()
    add_tables(event, 2)
    register(event, "Anna Berger")
    return event


# (who, method, address) of endpoints of every app that reads a JSON body: anonymous
# ones (the API login, a floor calculator) and staff ones.
ENDPOINTS = {
    "token": lambda e: (None, "post", "/api/v1/auth/token/"),
    "calculator": lambda e: (None, "post", "/api/v1/rulings/pots/"),
    "tournament-create": lambda e: ("director", "post", "/api/v1/tournaments/"),
    "tournament-patch": lambda e: ("director", "patch", f"/api/v1/tournaments/{e.pk}/"),
    "halt-waiver": lambda e: ("floor", "post", f"/api/v1/tournaments/{e.pk}/tables/1/halt-waiver/"),
    "seat-set": lambda e: ("floor", "post", f"/api/v1/tournaments/{e.pk}/tables/1/seats/2/"),
    "button": lambda e: ("floor", "put", f"/api/v1/tournaments/{e.pk}/tables/1/button/"),
    "incident": lambda e: ("floor", "post", f"/api/v1/tournaments/{e.pk}/incidents/"),
    "payouts": lambda e: ("director", "put", f"/api/v1/tournaments/{e.pk}/payouts/"),
}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("body", NESTED.values(), ids=NESTED)
def test_deeply_nested_body_is_400_in_json_and_changes_nothing(event, endpoint, body):
    role, method, address = ENDPOINTS[endpoint](event)
    client = api(staff(role) if role else None)
    before = stored()

    response = getattr(client, method)(address, data=body, content_type="application/json")

    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "JSON parse error - the body is nested too deeply."}
    assert stored() == before


def test_token_login_with_a_nested_password_is_400(event):
    staff("director", username="dora")
    body = '{"username": "dora", "password": ' + "[" * DEEP + "]" * DEEP + "}"

    response = api().post("/api/v1/auth/token/", data=body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"detail": "JSON parse error - the body is nested too deeply."}


def test_a_body_nested_as_deep_as_allowed_is_read():
    """The limit refuses absurd bodies only: a valid login nested to the limit is read
    (its password is a list, so the answer names the field)."""
    staff("director", username="dora")
    password = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    body = '{"username": "dora", "password": ' + password + "}"

    response = api().post("/api/v1/auth/token/", data=body, content_type="application/json")
    login = api().post(
        "/api/v1/auth/token/", {"username": "dora", "password": STAFF_PASSWORD}, format="json"
    )

    assert response.status_code == 400
    assert "password" in response.json()
    assert login.status_code == 200


def test_nested_body_is_refused_in_german(event):
    response = api().post(
        "/api/v1/rulings/pots/",
        data=NESTED["arrays"],
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="de",
    )

    assert response.status_code == 400
    assert response.json() == {
        "detail": "JSON-Fehler: Der Inhalt ist zu tief verschachtelt.",
    }
