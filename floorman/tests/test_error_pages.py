"""Requests no view takes get the API's JSON under /api/ and a page elsewhere
(floorman.error_pages): a script reading the API never has to parse HTML."""

import pytest

pytestmark = pytest.mark.django_db


def test_api_request_django_refuses_is_a_json_400(client):
    too_many = {f"p{n}": "1" for n in range(1001)}  # over DATA_UPLOAD_MAX_NUMBER_FIELDS

    response = client.get("/api/v1/tournaments/", too_many)

    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_unknown_api_address_is_a_json_404(client):
    response = client.get("/api/v1/no-such-thing/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "Not found."}


def test_unknown_page_is_the_404_page(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert "There is nothing at this address." in response.content.decode()


def test_page_request_django_refuses_is_the_400_page(client):
    too_many = {f"p{n}": "1" for n in range(1001)}

    response = client.get("/tournaments/", too_many)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
