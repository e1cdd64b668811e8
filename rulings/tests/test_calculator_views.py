"""The floor calculators page: every staff role, the four calculators as plain forms and
through htmx, their answers with the rules' titles, the refusals on the fields, and
garbage that never makes a 500."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from rulings.engine import parsing
from rulings.engine.parsing import amounts_parse, blinds_parse
from rulings.models import Venue
from seating.models import MAX_SEATS
from tournaments.models import MAX_CHIPS
from tournaments.tests.factories import staff

pytestmark = pytest.mark.django_db

PAGE = "rulings:calculators"


def _url() -> str:
    return reverse(PAGE)


@pytest.fixture
def floor_client(client):
    client.force_login(staff("floor"))
    return client


def _text(response) -> str:
    """The page's text with tags and runs of blanks collapsed, for phrase checks."""
    html = response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _card(response, name: str) -> str:
    """The HTML of one calculator's card."""
    html = response.content.decode()
    start = html.index(f'id="calc-{name}"')
    end = html.find("</details>", start)
    return html[start:end]


def _bet(**overrides) -> dict:
    data = {
        "calculator": "bet",
        "game": "nlhe",
        "blinds": "50/100",
        "street": "flop",
        "actions": "A bet 1000",
        "player": "B",
        "stack": "10000",
        "in_front": "",
        "declaration": "",
        "declared_amount": "",
        "chips": "5000",
        "pot": "300",
        "readings": "",
    }
    return {**data, **overrides}


def _pot_limit(**overrides) -> dict:
    data = {
        "calculator": "pot_limit",
        "blinds": "100/200",
        "posted": "0/200",
        "street": "preflop",
        "pot": "",
        "bets": "200",
        "in_front": "",
    }
    return {**data, **overrides}


def _pots(**overrides) -> dict:
    data = {
        "calculator": "pots",
        "contributions": "1 525\n4 525\n6 525 folded",
        "winners": "1 4",
        "button": "2",
        "smallest_chip": "25",
        "seats": "9",
        "dead": "",
    }
    return {**data, **overrides}


def _race(**overrides) -> dict:
    data = {
        "calculator": "chip_race",
        "removed": "25",
        "next_chip": "100",
        "seats": "1 3 As Kd 2c 5000\n2 1 Ah",
    }
    return {**data, **overrides}


# --- Who may use it ---------------------------------------------------------------------------


def test_visitor_goes_to_the_login_page(client):
    response = client.get(_url())
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_visitor_posting_goes_to_the_login_page(client):
    response = client.post(_url(), _bet())
    assert response.status_code == 302


@pytest.mark.parametrize("role", ["floor", "dealer", "cashier", "director"])
def test_every_staff_role_sees_the_four_calculators(client, role):
    client.force_login(staff(role))
    response = client.get(_url())
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("bet", "pot_limit", "pots", "chip_race"):
        assert f'id="calc-{name}"' in html
        assert f'name="calculator" value="{name}"' in html
    assert "Chips pushed (TDA 44, 45)" in html


def test_the_bet_card_is_open_at_first_and_another_on_request(floor_client):
    first = floor_client.get(_url())
    assert "open" in _card(first, "bet").split(">", 1)[0]
    assert "open" not in _card(first, "pots").split(">", 1)[0]
    asked = floor_client.get(_url(), {"calculator": "pots"})
    assert "open" in _card(asked, "pots").split(">", 1)[0]
    assert "open" not in _card(asked, "bet").split(">", 1)[0]


def test_a_user_without_a_role_is_refused(client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("visitor", password="pw-Floorman-2026"))
    assert client.get(_url()).status_code == 403


# --- The answers ------------------------------------------------------------------------------


def test_lone_overchip_is_a_call_tda_44(floor_client):
    response = floor_client.post(_url(), _bet())
    assert response.status_code == 200
    card = _card(response, "bet")
    assert "open" in card.split(">", 1)[0]
    text = " ".join(re.sub(r"<[^>]+>", " ", card).split())
    assert "Call to 1,000" in text
    assert "Min raise next: 2,000" in text
    assert "TDA 44" in text
    # The rule book's title of the cited rule is shown under the answer.
    assert _rule_title("44", "en") in text
    # What was typed is kept.
    assert 'value="5000"' in card
    assert "A bet 1000" in card


def _rule_title(number: str, language: str) -> str:
    from rulings.engine import rulebook

    return rulebook.entry(number).title(language)


def test_chips_half_a_raise_more_make_a_raise_that_reopens_tda_45(floor_client):
    response = floor_client.post(_url(), _bet(chips="1000, 500"))
    text = " ".join(re.sub(r"<[^>]+>", " ", _card(response, "bet")).split())
    assert "Raise to 2,000" in text
    assert "Min raise next: 3,000" in text
    assert "Re-opened (TDA 47)" in text
    assert "TDA 45-B" in text and "TDA 43-A" in text
    assert _rule_title("45", "en") in text and _rule_title("43", "en") in text


def test_a_call_without_an_amount_calls_the_bet_it_faces(floor_client):
    response = floor_client.post(
        _url(),
        _bet(actions="A bet 1000\nC call\nD fold", chips="1000 500"),
    )
    assert response.status_code == 200
    assert "Raise to 2,000" in _text(response)


def test_pre_flop_the_blinds_count_as_posted(floor_client):
    response = floor_client.post(
        _url(), _bet(street="preflop", actions="C all in 250", chips="500", pot="")
    )
    assert response.status_code == 200
    assert "TDA 44" in _text(response)


def test_unclear_amount_follows_the_house_setting(floor_client):
    data = _bet(actions="A bet 200", chips="", declaration="raise", readings="250 2050", pot="5000")
    tda = _text(floor_client.post(_url(), data))
    Venue.objects.create(name="Casino", is_default=True, house_settings={"unclear_amount": "ifp"})
    ifp = floor_client.post(_url(), data)
    assert "Raise to 2,050" in tda
    assert "IFP 4.17" in _text(ifp)
    assert "The lowest amount (IFP 4.17)" in _text(ifp)  # the house setting is named


def test_pot_limit_before_the_flop_assumes_full_blinds_tda_54b(floor_client):
    response = floor_client.post(_url(), _pot_limit())
    assert response.status_code == 200
    text = " ".join(re.sub(r"<[^>]+>", " ", _card(response, "pot_limit")).split())
    assert "Raise up to 700" in text
    assert "To call: 200" in text
    assert "TDA 54-B" in text
    assert _rule_title("54", "en") in text


def test_split_pot_gives_the_odd_chip_left_of_the_button_tda_20(floor_client):
    response = floor_client.post(_url(), _pots())
    assert response.status_code == 200
    text = " ".join(re.sub(r"<[^>]+>", " ", _card(response, "pots")).split())
    assert "Seat 1: 775" in text
    assert "Seat 4: 800" in text
    assert "Main pot 1,575" in text
    assert "TDA 20-A" in text and "casino §20" in text
    assert _rule_title("20", "en") in text


def test_side_pots_with_winners_per_pot(floor_client):
    response = floor_client.post(
        _url(),
        _pots(contributions="1 500\n2 1000 folded\n4 1000\n5 1000", winners="1 | 4", button=""),
    )
    assert response.status_code == 200
    text = " ".join(re.sub(r"<[^>]+>", " ", _card(response, "pots")).split())
    assert "Side pot 1" in text
    assert "Seat 1: 2,000" in text  # 4 x 500
    assert "Seat 4: 1,500" in text  # 500 from seats 2, 4 and 5
    assert "TDA 21" in text


def test_chip_race_one_chip_and_nobody_raced_out_tda_24(floor_client):
    response = floor_client.post(_url(), _race())
    assert response.status_code == 200
    text = " ".join(re.sub(r"<[^>]+>", " ", _card(response, "chip_race")).split())
    assert "1 chip raced of 100" in text
    assert "not raced out (TDA 24-A)" in text
    assert "TDA 24-A" in text and "casino §18" in text
    assert _rule_title("24", "en") in text


def test_only_the_used_card_is_bound_and_open(floor_client):
    response = floor_client.post(_url(), _race())
    assert "open" in _card(response, "chip_race").split(">", 1)[0]
    assert "open" not in _card(response, "bet").split(">", 1)[0]
    assert 'value="25"' in _card(response, "chip_race")


def test_htmx_request_gets_the_page_the_card_is_picked_from(floor_client):
    response = floor_client.post(_url(), _pot_limit(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'hx-select="#calc-pot_limit"' in response.content.decode()
    assert "Raise up to 700" in _text(response)


# --- German -----------------------------------------------------------------------------------


def test_german_page_shows_german_rule_titles(client):
    client.force_login(staff("floor"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.post(_url(), _bet(chips="1000 500"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert _rule_title("45", "de") in _text(response)
    assert _rule_title("45", "en") not in _text(response)


def test_german_page_by_the_browser_language(floor_client):
    response = floor_client.get(_url(), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()
    # The labels as the German catalogue has them (English until it has them).
    with translation.override("de"):
        labels = [gettext(text) for text in ("Game", "Street", "Chips pushed (TDA 44, 45)")]
    for label in labels:
        assert label in _text(response)


def test_the_acting_player_is_matched_whatever_the_case(floor_client):
    data = _bet(actions="A bet 1000\nB raise 3000", player="a", in_front="1000", chips="2000")
    response = floor_client.post(_url(), data)
    assert response.status_code == 200, _text(response)
    assert "Call to 3,000" in _text(response)


# --- Refusals ---------------------------------------------------------------------------------


def _field_errors(response, form: str, field: str) -> str:
    """The error list Django renders for a field (id "<form>_<field>_error")."""
    html = response.content.decode()
    match = re.search(rf'<ul class="errorlist" id="{form}_{field}_error">(.*?)</ul>', html, re.S)
    return match.group(1) if match else ""


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"blinds": "100"}, "blinds"),
        ({"blinds": "fifty/hundred"}, "blinds"),
        ({"stack": "-5"}, "stack"),
        ({"stack": ""}, "stack"),
        ({"stack": str(10**30)}, "stack"),
        ({"chips": "1000 lots"}, "chips"),
        ({"chips": "20000"}, "chips"),  # more than the player has: the engine says so
        ({"actions": "A bet 1000\nC raise 500"}, "actions"),  # below the bet
        ({"actions": "A dances 1000"}, "actions"),
        ({"actions": "A bet"}, "actions"),
        ({"actions": "C call"}, "actions"),  # nobody has bet on the flop
        ({"game": "bingo"}, "game"),
        ({"street": "fifth"}, "street"),
        ({"player": "x" * 30}, "player"),
        ({"readings": "1 2 3 4 5 6"}, "readings"),
    ],
)
def test_bad_bet_input_is_400_with_the_error_on_its_field(floor_client, overrides, field):
    response = floor_client.post(_url(), _bet(**overrides))
    assert response.status_code == 400
    assert _field_errors(response, "bet", field), f"no error shown on {field}"
    assert "open" in _card(response, "bet").split(">", 1)[0]


def test_nothing_said_or_pushed_is_refused(floor_client):
    response = floor_client.post(_url(), _bet(chips=""))
    assert response.status_code == 400
    assert _field_errors(response, "bet", "declaration")


def test_refusal_keeps_what_was_typed(floor_client):
    response = floor_client.post(_url(), _bet(chips="1000 lots", actions="A bet 1000"))
    card = _card(response, "bet")
    assert 'value="1000 lots"' in card
    assert "A bet 1000" in card
    assert "lots is not an amount of chips" in card


@pytest.mark.parametrize(
    "data, form, field",
    [
        (_pot_limit(posted="0/300"), "pot_limit", "posted"),
        (_pot_limit(blinds=""), "pot_limit", "blinds"),
        (_pots(winners="6"), "pots", "winners"),  # seat 6 folded
        (_pots(contributions="11 500"), "pots", "contributions"),
        (_pots(contributions=""), "pots", "contributions"),
        (_pots(button="0"), "pots", "button"),
        (_pots(button="", winners="1 4"), "pots", "button"),  # an odd chip needs the button
        (_race(seats="1 3 As"), "chip_race", "seats"),  # three odd chips, one card
        (_race(seats="1 3 As Kd Zz"), "chip_race", "seats"),
        (_race(next_chip="30"), "chip_race", "next_chip"),
        (_race(removed="0"), "chip_race", "removed"),
    ],
)
def test_bad_input_of_the_other_calculators_is_400_on_its_field(floor_client, data, form, field):
    response = floor_client.post(_url(), data)
    assert response.status_code == 400
    assert _field_errors(response, form, field), f"no error shown on {field}"


def test_unknown_calculator_is_400(floor_client):
    response = floor_client.post(_url(), {"calculator": "roulette"})
    assert response.status_code == 400
    assert response.status_code != 500


GARBAGE = [
    "",
    "x",
    "-1",
    str(10**30),
    "9" * 5000,
    "1e400",
    "NaN",
    "\x00",
    "½",
    "١٢٣",  # Arabic-Indic digits
    "1,,,,2",
    "|||",
    "As" * 100,
]


@pytest.mark.parametrize("calculator", ["bet", "pot_limit", "pots", "chip_race"])
@pytest.mark.parametrize("value", GARBAGE)
def test_garbage_in_every_field_is_never_a_500(floor_client, calculator, value):
    fields = {
        "bet": _bet(),
        "pot_limit": _pot_limit(),
        "pots": _pots(),
        "chip_race": _race(),
    }[calculator]
    for name in fields:
        if name == "calculator":
            continue
        response = floor_client.post(_url(), {**fields, name: value})
        assert response.status_code in (200, 400), (name, value)


def test_empty_post_is_400_with_the_required_fields(floor_client):
    for calculator, field in [
        ("bet", "blinds"),
        ("pot_limit", "blinds"),
        ("pots", "contributions"),
        ("chip_race", "removed"),
    ]:
        response = floor_client.post(_url(), {"calculator": calculator})
        assert response.status_code == 400
        assert _field_errors(response, calculator, field)


# --- Reading what is typed --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1000 500 500", [1000, 500, 500]),
        ("1000, 500", [1000, 500]),
        ("1000,500", [1000, 500]),
        ("1,000 500", [1000, 500]),
        ("2.500", [2500]),
        ("2k 500", [2000, 500]),
        ("", []),
    ],
)
def test_amounts_as_people_type_them(text, expected):
    assert amounts_parse(text) == expected


def test_the_parsers_own_limits_are_the_apps_limits():
    """The engine owns its limits (no Django there); they stay those of the models."""
    assert (parsing.MAX_CHIPS, parsing.MAX_SEATS) == (MAX_CHIPS, MAX_SEATS)


def test_blinds_as_people_type_them():
    assert blinds_parse("50/100") == [50, 100]
    assert blinds_parse("1,000/2,000") == [1000, 2000]
    assert blinds_parse("1k 2k") == [1000, 2000]
