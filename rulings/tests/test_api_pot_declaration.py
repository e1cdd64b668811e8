"""The bet calculator's API takes what its engine reads: the declaration "pot" (TDA 54)
and whether substantial action followed (TDA 36), checked with the Illustration
Addendum's examples of TDA 52-B and with TDA 54-D."""

import pytest

from tournaments.tests.factories import api

pytestmark = pytest.mark.django_db

URL = "/api/v1/rulings/bet/"


def plo_pot_10500(**overrides) -> dict:
    """52-B addendum: PLO 500-1000, post-flop the pot is 10,500 and A wants to bet it."""
    body = {
        "game": "plo",
        "blinds": [500, 1000],
        "street": "flop",
        "actions": [],
        "player": "A",
        "stack": 50000,
        "pot": 10500,
        "declaration": "pot",
    }
    return {**body, **overrides}


def ask(body: dict) -> dict:
    response = api().post(URL, body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_52b_example_1_the_low_count_stands_after_substantial_action():
    """The dealer counted 9,500, A pushed it out, B folded and C called: substantial
    action (TDA 36), so the 9,500 bet stands."""
    body = ask(plo_pot_10500(chips=[5000, 1000, 1000, 1000, 1000, 500], substantial_action=True))
    assert (body["action"], body["to"]) == ("bet", 9500)
    assert "52-B" in body["rules"]
    assert "stands" in body["explanation"]


def test_52b_example_2_the_low_count_is_raised_to_the_pot_before_substantial_action():
    """Only B folded: no substantial action yet, A's bet is made up to 10,500."""
    body = ask(plo_pot_10500(chips=[5000, 1000, 1000, 1000, 1000, 500]))
    assert (body["action"], body["to"]) == ("bet", 10500)
    assert "52-B" in body["rules"]
    # The flag defaults to no substantial action.
    explicit = ask(
        plo_pot_10500(chips=[5000, 1000, 1000, 1000, 1000, 500], substantial_action=False)
    )
    assert explicit["to"] == 10500


def test_52b_example_3_an_overbet_is_cut_to_the_pot_even_after_substantial_action():
    for substantial in (False, True):
        body = ask(plo_pot_10500(declared_amount=11500, substantial_action=substantial))
        assert (body["action"], body["to"]) == ("bet", 10500)
        assert "52-B" in body["rules"]


def test_54d_i_bet_the_pot_in_no_limit_binds_a_valid_bet():
    """TDA 54-D: "pot" is no amount in no-limit; with no chips out it binds the minimum."""
    body = ask(plo_pot_10500(game="nlhe", blinds=[100, 200], pot=1500, declaration="pot", chips=[]))
    assert (body["action"], body["to"]) == ("bet", 200)
    assert "54-D" in body["rules"]


def test_a_pot_sized_bet_in_pot_limit_is_the_whole_pot():
    body = ask(plo_pot_10500())
    assert (body["action"], body["to"]) == ("bet", 10500)


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"declaration": "potato"}, "declaration"),
        ({"substantial_action": "maybe"}, "substantial_action"),
    ],
)
def test_a_bad_declaration_or_flag_is_400_on_its_field(overrides, field):
    response = api().post(URL, plo_pot_10500(**overrides), format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_the_schema_documents_the_pot_declaration_and_the_flag():
    schema = api().get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    if schema.status_code != 200:
        pytest.skip("no schema endpoint")
    text = schema.content.decode()
    assert "substantial_action" in text and "TDA 36" in text and "TDA 54-D" in text
