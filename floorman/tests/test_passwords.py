"""Weak passwords are refused wherever a password is set (issue 15): Django's validators
(similarity to the account, length, the common list, all digits) and the house's words."""

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.utils import translation

from floorman.bootstrap import director_ensure
from floorman.passwords import HouseWordsValidator
from floorman.staff import common as staff_common

pytestmark = pytest.mark.django_db

HOUSE_WORDS = "This password is made of words everyone in a poker room would try."


def refusal_codes(password: str, user=None) -> set[str]:
    with pytest.raises(ValidationError) as refused:
        validate_password(password, user)
    return {error.code for error in refused.value.error_list}


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("floorman", "password_house_words"),
        ("pokerpoker", "password_house_words"),
        ("12345678901", "password_entirely_numeric"),
        ("Floorman2026!", "password_house_words"),
        ("poker-poker-poker", "password_house_words"),
        ("AllIn.Aces.Kings", "password_house_words"),
        ("40917352816", "password_entirely_numeric"),
        ("short", "password_too_short"),
        ("password1", "password_too_common"),
    ],
)
def test_weak_passwords_are_refused(password, code):
    assert code in refusal_codes(password)


def test_a_password_like_the_username_is_refused():
    user = User(username="carla.dealer", email="carla@example.com")

    assert "password_too_similar" in refusal_codes("carla.dealer", user)


@pytest.mark.parametrize(
    "password",
    ["pw-Floorman-2026", "Turn the river, Dora!", "correct horse battery staple", "Zk8-r2Lq-Wp4"],
)
def test_strong_passwords_pass(password):
    validate_password(password, User(username="dora"))


def test_house_words_say_why_in_german():
    with translation.override("de"), pytest.raises(ValidationError) as refused:
        HouseWordsValidator().validate("Floorman")
    assert refused.value.messages == [
        "Dieses Passwort besteht aus Wörtern, die in einem Pokerraum jeder ausprobiert."
    ]


def test_admin_refuses_a_weak_password_for_a_new_account(client):
    """The admin's forms are the one page where staff passwords are set."""
    client.force_login(User.objects.create_superuser("root", password="Zk8-r2Lq-Wp4-root"))

    response = client.post(
        "/admin/auth/user/add/",
        {
            "username": "carla",
            "usable_password": "true",
            "password1": "pokerpoker",
            "password2": "pokerpoker",
        },
    )

    assert response.status_code == 200
    assert HOUSE_WORDS in response.context["adminform"].form.errors["password2"]
    assert not User.objects.filter(username="carla").exists()


def test_admin_refuses_a_weak_new_password(client):
    client.force_login(User.objects.create_superuser("root", password="Zk8-r2Lq-Wp4-root"))
    carla = User.objects.create_user("carla", password="Zk8-r2Lq-Wp4-carla")

    response = client.post(
        f"/admin/auth/user/{carla.pk}/password/",
        {"usable_password": "true", "password1": "Floorman2026", "password2": "Floorman2026"},
    )

    assert response.status_code == 200
    carla.refresh_from_db()
    assert carla.check_password("Zk8-r2Lq-Wp4-carla")


def test_the_first_directors_password_passes_the_validators():
    password = director_ensure()

    validate_password(password, User.objects.get(username="director"))


def test_the_first_directors_password_is_drawn_again_when_refused(monkeypatch):
    draws = iter(["12345678901234567890", "floorman-POKER-2026!", "Zk8-r2Lq-Wp4-Hs7d-Jx"])
    monkeypatch.setattr(staff_common.secrets, "token_urlsafe", lambda size: next(draws))

    assert director_ensure() == "Zk8-r2Lq-Wp4-Hs7d-Jx"


def test_no_director_is_made_when_every_draw_is_refused(monkeypatch):
    monkeypatch.setattr(staff_common.secrets, "token_urlsafe", lambda size: "1" * 20)

    with pytest.raises(ValidationError):
        director_ensure()
    assert not User.objects.filter(username="director").exists()
