"""The Staff pages (issue 15): directors create accounts, give and take roles, reset
passwords and (de)activate accounts on Floorman's own pages; everyone changes their own
password. Only directors reach the staff pages; form errors show at their fields; a
refusal answers 409 with its reason and writes nothing."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from floorman import keys
from floorman.bootstrap import director_ensure
from floorman.models import AuditEntry
from floorman.roles import user_roles
from tournaments.tests.factories import STAFF_PASSWORD, signed_in, staff

pytestmark = pytest.mark.django_db

THROUGH_THE_PROXY = {"HTTP_X_FORWARDED_PROTO": "https"}
GOOD_PASSWORD = "Chip-Race-At-Level-9"
# The session, the director and their roles; every open session (decoded to count them per
# person), the API tokens, the accounts, and their roles in one query.
STAFF_LIST_QUERIES = 7
ACCOUNT_QUERIES = 7
FORM_QUERIES = 3  # the session, the director and their roles: the forms read nothing else


def html(response) -> str:
    return response.content.decode()


def signed_in_with(username: str, password: str) -> Client:
    client = Client(**THROUGH_THE_PROXY)
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, "the login form refused the account"
    return client


def roles_of(user: User) -> set[str]:
    return user_roles(User.objects.get(pk=user.pk))


def shown_password(response) -> str:
    return html(response).split('<code class="password">')[1].split("</code>")[0]


# --- Who may open the pages ----------------------------------------------------------------


def staff_pages(user_id: int) -> list[tuple[str, str]]:
    return [
        ("get", reverse("staff-access")),
        ("get", reverse("staff-create")),
        ("post", reverse("staff-create")),
        ("get", reverse("staff-account", args=[user_id])),
        ("post", reverse("staff-account", args=[user_id])),
        ("post", reverse("staff-password-reset", args=[user_id])),
        ("post", reverse("staff-active", args=[user_id])),
        ("post", reverse("staff-sign-out", args=[user_id])),
    ]


@pytest.mark.parametrize("role", ["floor", "dealer", "cashier"])
def test_only_directors_reach_the_staff_pages(role):
    other = staff("cashier", username="cash-cleo")
    client = signed_in(staff(role, username="someone"))
    before = AuditEntry.objects.count()

    for method, path in staff_pages(other.pk):
        response = getattr(client, method)(path, {"roles": ["director"], "username": "x"})
        assert response.status_code == 403, (method, path)

    assert AuditEntry.objects.count() == before
    assert roles_of(other) == {"cashier"}


def test_visitors_are_sent_to_the_login_page():
    other = staff("cashier", username="cash-cleo")
    visitor = Client(**THROUGH_THE_PROXY)

    pages = [*staff_pages(other.pk), ("get", reverse("password-change"))]
    for method, path in pages:
        response = getattr(visitor, method)(path)
        assert response.status_code == 302, (method, path)
        assert response["Location"].startswith(reverse("login") + "?next="), path


def test_unknown_account_is_404():
    admin = signed_in(staff("director", username="td"))

    assert admin.get(reverse("staff-account", args=[999999])).status_code == 404
    assert admin.post(reverse("staff-account", args=[999999]), {}).status_code == 404
    assert admin.post(reverse("staff-password-reset", args=[999999])).status_code == 404


def test_a_key_for_other_tools_is_no_staff_account():
    """A key acts as an account of its own (floorman.keys): managed at /keys/ only."""
    director = staff("director", username="td")
    admin = signed_in(director)
    made = keys.api_key_create(actor=director, name="Bar screen", scope="public")
    account = made.key.user

    assert account.username not in html(admin.get(reverse("staff-access")))
    assert admin.get(reverse("staff-account", args=[account.pk])).status_code == 404
    assert admin.post(reverse("staff-password-reset", args=[account.pk])).status_code == 404


# --- The list ------------------------------------------------------------------------------


def test_the_list_shows_every_account_with_name_and_roles_and_links_to_it():
    admin = signed_in(staff("director", username="td"))
    anna = staff("floor", username="anna")
    anna.first_name, anna.last_name = "Anna", "Huber"
    anna.save()
    nobody = User.objects.create_user("no-roles-left", password=STAFF_PASSWORD)

    page = html(admin.get(reverse("staff-access")))

    assert "Anna Huber" in page
    assert reverse("staff-account", args=[anna.pk]) in page
    assert "no-roles-left" in page  # so that a director can give them a role again
    assert reverse("staff-account", args=[nobody.pk]) in page
    assert reverse("staff-create") in page
    assert "Roles are given in the admin" not in page


def test_the_list_answers_in_the_same_queries_for_one_account_and_several(
    django_assert_num_queries,
):
    director = staff("director", username="td")
    client = signed_in(director)
    url = reverse("staff-access")
    client.get(url)  # warm up: the director's roles, content types

    with django_assert_num_queries(STAFF_LIST_QUERIES):
        assert client.get(url).status_code == 200
    for number in range(4):
        user = staff("floor", username=f"floor-{number}")
        user.groups.add(*staff("dealer").groups.all())
        signed_in(user)
    with django_assert_num_queries(STAFF_LIST_QUERIES):
        page = html(client.get(url))
    assert "floor-3" in page


def test_the_account_page_answers_in_the_same_queries_whatever_the_roles(
    django_assert_num_queries,
):
    client = signed_in(staff("director", username="td"))
    few = staff("dealer", username="few")
    many = staff("floor", username="many")
    for role in ("cashier", "dealer", "director"):
        many.groups.add(*staff(role).groups.all())
    client.get(reverse("staff-account", args=[few.pk]))

    with django_assert_num_queries(ACCOUNT_QUERIES):
        client.get(reverse("staff-account", args=[few.pk]))
    with django_assert_num_queries(ACCOUNT_QUERIES):
        page = html(client.get(reverse("staff-account", args=[many.pk])))
    assert page.count("checked") == 4


@pytest.mark.parametrize(
    ("name", "queries"), [("staff-create", FORM_QUERIES), ("password-change", FORM_QUERIES)]
)
def test_the_form_pages_answer_in_a_fixed_number_of_queries(
    name, queries, django_assert_num_queries
):
    client = signed_in(staff("director", username="td"))
    for number in range(3):
        signed_in(staff("floor", username=f"floor-{number}"))
    client.get(reverse(name))

    with django_assert_num_queries(queries):
        assert client.get(reverse(name)).status_code == 200


# --- Creating an account -------------------------------------------------------------------


def test_a_director_creates_an_account_and_its_generated_password_is_shown_once():
    admin = signed_in(staff("director", username="td"))

    response = admin.post(
        reverse("staff-create"),
        {"username": "anna", "first_name": "Anna", "last_name": "Huber", "roles": ["floor"]},
    )

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    password = shown_password(response)
    assert "shown only this once" in html(response)
    anna = User.objects.get(username="anna")
    assert roles_of(anna) == {"floor"}
    assert signed_in_with("anna", password).get(reverse("rulings:calculators")).status_code == 200
    entry = AuditEntry.objects.get(action="staff.create")
    assert password not in str(entry.after)
    # Nowhere else: the account page shows no password.
    assert password not in html(admin.get(reverse("staff-account", args=[anna.pk])))


def test_a_director_sets_the_initial_password():
    admin = signed_in(staff("director", username="td"))

    response = admin.post(
        reverse("staff-create"),
        {
            "username": "ben",
            "roles": ["dealer", "cashier"],
            "password1": GOOD_PASSWORD,
            "password2": GOOD_PASSWORD,
        },
        follow=True,
    )

    ben = User.objects.get(username="ben")
    assert response.redirect_chain[-1][0] == reverse("staff-account", args=[ben.pk])
    assert "Account ben created." in html(response)
    assert GOOD_PASSWORD not in html(response)
    assert roles_of(ben) == {"dealer", "cashier"}
    signed_in_with("ben", GOOD_PASSWORD)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": ""}, "This field is required."),
        ({"username": "anna huber"}, "Enter a valid username."),
        ({"username": "anna", "roles": ["owner"]}, "Select a valid choice."),
        ({"username": "anna", "password1": GOOD_PASSWORD, "password2": "other"}, "differ"),
        ({"username": "anna", "password1": "short", "password2": "short"}, "too short"),
        ({"username": "anna", "password1": "password1", "password2": "password1"}, "too common"),
        ({"username": "TD"}, "This username is taken."),
    ],
)
def test_the_create_form_shows_errors_at_their_fields_and_writes_nothing(data, message):
    admin = signed_in(staff("director", username="td"))
    before = User.objects.count(), AuditEntry.objects.count()

    response = admin.post(reverse("staff-create"), data)

    assert response.status_code == 400
    assert message in html(response)
    assert 'aria-invalid="true"' in html(response)
    assert (User.objects.count(), AuditEntry.objects.count()) == before


# --- Roles ---------------------------------------------------------------------------------


def test_a_director_gives_and_takes_roles():
    admin = signed_in(staff("director", username="td"))
    anna = staff("dealer", username="anna")

    response = admin.post(
        reverse("staff-account", args=[anna.pk]), {"roles": ["floor", "cashier"]}, follow=True
    )

    assert "Roles of anna saved." in html(response)
    assert roles_of(anna) == {"floor", "cashier"}
    entry = AuditEntry.objects.get(action="staff.roles")
    assert (entry.before, entry.after) == ({"roles": ["dealer"]}, {"roles": ["floor", "cashier"]})
    admin.post(reverse("staff-account", args=[anna.pk]), {})  # every box unticked
    assert roles_of(anna) == set()


def test_the_last_director_keeping_the_role_is_a_409_with_the_reason():
    director = staff("director", username="td")
    admin = signed_in(director)

    response = admin.post(reverse("staff-account", args=[director.pk]), {"roles": ["floor"]})

    assert response.status_code == 409
    assert "td is the last active director" in html(response)
    assert roles_of(director) == {"director"}
    assert not AuditEntry.objects.exists()


def test_a_director_who_gives_up_the_role_goes_to_the_tournaments():
    director = staff("director", username="td")
    staff("director", username="td2")
    admin = signed_in(director)

    response = admin.post(reverse("staff-account", args=[director.pk]), {"roles": ["floor"]})

    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:list")
    assert roles_of(director) == {"floor"}
    assert admin.get(reverse("staff-access")).status_code == 403


def test_a_bad_role_is_a_field_error():
    admin = signed_in(staff("director", username="td"))
    anna = staff("dealer", username="anna")

    response = admin.post(reverse("staff-account", args=[anna.pk]), {"roles": ["owner"]})

    assert response.status_code == 400
    assert "Select a valid choice." in html(response)
    assert roles_of(anna) == {"dealer"}


# --- Passwords and access ------------------------------------------------------------------


def test_a_director_resets_a_password_shown_once_and_the_old_sessions_end():
    admin = signed_in(staff("director", username="td"))
    anna = staff("floor", username="anna")
    phone = signed_in(anna)

    response = admin.post(reverse("staff-password-reset", args=[anna.pk]))

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    password = shown_password(response)
    assert phone.get(reverse("rulings:calculators")).status_code == 302  # signed out
    assert signed_in_with("anna", password).get(reverse("rulings:calculators")).status_code == 200
    assert AuditEntry.objects.get(action="staff.password_reset").after == {
        "password_generated": True,
        "token_deleted": False,
    }


def test_a_director_resetting_their_own_password_is_a_409():
    director = staff("director", username="td")
    admin = signed_in(director)

    response = admin.post(reverse("staff-password-reset", args=[director.pk]))

    assert response.status_code == 409
    assert "Change your own password" in html(response)
    assert not AuditEntry.objects.exists()


def test_deactivating_oneself_answers_409():
    director = staff("director", username="td")
    admin = signed_in(director)

    response = admin.post(reverse("staff-active", args=[director.pk]), {"active": "0"})

    assert response.status_code == 409
    assert "You cannot deactivate your own account." in html(response)
    assert not AuditEntry.objects.exists()


# --- Changing one's own password -----------------------------------------------------------


@pytest.mark.parametrize("role", ["dealer", "floor", "cashier", "director"])
def test_everyone_changes_their_own_password_and_stays_signed_in(role):
    user = staff(role, username="ben")
    browser, other_browser = signed_in(user), signed_in(user)
    page = html(browser.get(reverse("tournaments:list")))
    assert reverse("password-change") in page  # in the navigation

    response = browser.post(
        reverse("password-change"),
        {
            "old_password": STAFF_PASSWORD,
            "new_password1": GOOD_PASSWORD,
            "new_password2": GOOD_PASSWORD,
        },
        follow=True,
    )

    assert "Your password is changed." in html(response)
    assert browser.get(reverse("rulings:calculators")).status_code == 200  # still signed in
    assert other_browser.get(reverse("rulings:calculators")).status_code == 302
    signed_in_with("ben", GOOD_PASSWORD)
    entry = AuditEntry.objects.get(action="staff.password_change")
    assert entry.actor == user and GOOD_PASSWORD not in str(entry.after)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"old_password": "wrong"}, "This is not your current password."),
        ({"new_password2": "Something-Else-9"}, "The two passwords differ."),
        ({"new_password1": "short", "new_password2": "short"}, "too short"),
        ({"new_password1": "", "new_password2": ""}, "This field is required."),
    ],
)
def test_the_password_form_shows_errors_at_their_fields(data, message):
    user = staff("dealer", username="ben")
    browser = signed_in(user)
    form = {
        "old_password": STAFF_PASSWORD,
        "new_password1": GOOD_PASSWORD,
        "new_password2": GOOD_PASSWORD,
        **data,
    }

    response = browser.post(reverse("password-change"), form)

    assert response.status_code == 400
    assert message in html(response)
    assert 'aria-invalid="true"' in html(response)
    user.refresh_from_db()
    assert user.check_password(STAFF_PASSWORD)
    assert not AuditEntry.objects.exists()


# --- The first director, as `make run` makes it --------------------------------------------


def test_the_first_director_reaches_the_staff_page_and_gives_roles():
    password = director_ensure()
    anna = User.objects.create_user("anna", password=STAFF_PASSWORD)
    first = signed_in_with("director", password)

    assert first.get(reverse("staff-access")).status_code == 200
    first.post(reverse("staff-account", args=[anna.pk]), {"roles": ["floor"]})
    created = first.post(reverse("staff-create"), {"username": "cleo", "roles": ["cashier"]})

    assert roles_of(anna) == {"floor"}
    assert roles_of(User.objects.get(username="cleo")) == {"cashier"}
    assert created.status_code == 200 and shown_password(created)
    response = first.post(
        reverse("password-change"),
        {"old_password": password, "new_password1": GOOD_PASSWORD, "new_password2": GOOD_PASSWORD},
    )
    assert response.status_code == 302
    signed_in_with("director", GOOD_PASSWORD)


# --- German --------------------------------------------------------------------------------


def test_the_staff_pages_speak_german():
    director = staff("director", username="td")
    anna = staff("floor", username="anna")
    admin = signed_in(director)
    admin.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    pages = {
        reverse("staff-access"): "Neues Konto",
        reverse("staff-create"): "Konto anlegen",
        reverse("staff-account", args=[anna.pk]): "Passwort zurücksetzen",
        reverse("password-change"): "Neues Passwort",
    }
    for path, german in pages.items():
        response = admin.get(path)
        assert response.status_code == 200, path
        assert german in html(response), path
    refused = admin.post(reverse("staff-account", args=[director.pk]), {"roles": []})
    assert "td ist der letzte aktive Turnierleiter" in html(refused)
