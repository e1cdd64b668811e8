"""The staff services (floorman.staff, issue 15): directors create accounts, give and
take roles, reset passwords and (de)activate accounts; everyone changes their own
password. Each change writes one audit entry and never a password; a refusal writes
nothing; at least one active director always remains."""

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.authtoken.models import Token

from floorman import staff as services
from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from floorman.roles import DIRECTOR, user_roles
from tournaments.tests.factories import STAFF_PASSWORD, staff

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Chip-Race-At-Level-9"


def roles_of(user: User) -> set[str]:
    return user_roles(User.objects.get(pk=user.pk))  # a fresh object: no cached roles


def nothing_written(before: tuple[int, int]) -> bool:
    return (User.objects.count(), AuditEntry.objects.count()) == before


def counts() -> tuple[int, int]:
    return User.objects.count(), AuditEntry.objects.count()


def no_password_in(entry: AuditEntry, *passwords: str) -> bool:
    text = str(entry.before) + str(entry.after) + entry.object_repr
    return not any(password in text for password in passwords)


# --- Creating an account ------------------------------------------------------------------


def test_account_create_generates_a_password_to_show_once():
    director = staff("director", username="td")

    created = services.account_create(
        actor=director, username="anna", first_name="Anna", last_name="Huber", roles=["floor"]
    )

    user = User.objects.get(username="anna")
    assert created.user == user and created.password is not None
    assert user.check_password(created.password)
    assert user.get_full_name() == "Anna Huber"
    assert roles_of(user) == {"floor"}
    entry = AuditEntry.objects.get(action="staff.create")
    assert entry.actor == director
    assert entry.object_id == str(user.pk)
    assert entry.after == {
        "username": "anna",
        "name": "Anna Huber",
        "roles": ["floor"],
        "password_generated": True,
    }
    assert no_password_in(entry, created.password)


def test_account_create_with_the_directors_password_and_several_roles():
    director = staff("director", username="td")

    created = services.account_create(
        actor=director, username="ben", roles=["dealer", "cashier"], password=GOOD_PASSWORD
    )

    assert created.password is None  # the director typed it: nothing to show
    assert created.user.check_password(GOOD_PASSWORD)
    assert roles_of(created.user) == {"cashier", "dealer"}
    entry = AuditEntry.objects.get(action="staff.create")
    assert entry.after["roles"] == ["cashier", "dealer"]
    assert entry.after["password_generated"] is False
    assert no_password_in(entry, GOOD_PASSWORD)


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("Ab1-x", "This password is too short. It must contain at least 8 characters."),
        ("password123", "This password is too common."),
        ("anna.huber.floor", "The password is too similar to the username."),
    ],
)
def test_account_create_checks_djangos_password_validators(password, message):
    director = staff("director", username="td")
    before = counts()

    with pytest.raises(Invalid) as refused:
        services.account_create(
            actor=director, username="anna.huber.floor", roles=["floor"], password=password
        )

    assert message in refused.value.fields["password"]
    assert nothing_written(before)


@pytest.mark.parametrize("username", ["anna", "ANNA", " Anna "])
def test_account_create_refuses_a_taken_username_in_any_case(username):
    director = staff("director", username="td")
    staff("floor", username="anna")
    before = counts()

    with pytest.raises(Invalid) as refused:
        services.account_create(actor=director, username=username, roles=[])

    assert refused.value.fields == {"username": ["This username is taken."]}
    assert nothing_written(before)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"username": "", "roles": []}, "username"),
        ({"username": "anna huber", "roles": []}, "username"),
        ({"username": "a" * 151, "roles": []}, "username"),
        ({"username": "anna", "roles": ["owner"]}, "roles"),
        ({"username": "anna", "roles": [], "last_name": "x" * 151}, "last_name"),
    ],
)
def test_account_create_refuses_bad_input_by_field(data, field):
    director = staff("director", username="td")
    before = counts()

    with pytest.raises(Invalid) as refused:
        services.account_create(actor=director, **data)

    assert list(refused.value.fields) == [field]
    assert nothing_written(before)


# --- Roles ---------------------------------------------------------------------------------


def test_roles_given_and_taken_with_their_audit_entry():
    director = staff("director", username="td")
    anna = staff("dealer", username="anna")

    services.account_roles_set(actor=director, user_id=anna.pk, roles=["floor", "cashier"])

    assert roles_of(anna) == {"floor", "cashier"}
    entry = AuditEntry.objects.get(action="staff.roles")
    assert entry.actor == director and entry.object_id == str(anna.pk)
    assert entry.before == {"roles": ["dealer"]}
    assert entry.after == {"roles": ["floor", "cashier"]}

    services.account_roles_set(actor=director, user_id=anna.pk, roles=[])

    assert roles_of(anna) == set()
    assert AuditEntry.objects.filter(action="staff.roles").count() == 2


def test_roles_leave_other_groups_alone():
    director = staff("director", username="td")
    anna = staff("floor", username="anna")
    anna.groups.create(name="night shift")

    services.account_roles_set(actor=director, user_id=anna.pk, roles=["dealer"])

    assert sorted(anna.groups.values_list("name", flat=True)) == ["dealer", "night shift"]


def test_the_same_roles_again_write_nothing():
    director = staff("director", username="td")
    anna = staff("floor", username="anna")
    before = counts()

    services.account_roles_set(actor=director, user_id=anna.pk, roles=["floor"])

    assert nothing_written(before)


def test_the_last_director_cannot_give_up_the_director_role():
    director = staff("director", username="td")
    staff("director", username="gone").groups.clear()  # once a director, no longer
    before = counts()

    with pytest.raises(Conflict) as refused:
        services.account_roles_set(actor=director, user_id=director.pk, roles=["floor"])

    assert refused.value.code == "last_director"
    assert refused.value.http_status == 409
    assert "td is the last active director" in refused.value.message
    assert roles_of(director) == {"director"}
    assert nothing_written(before)


def test_a_deactivated_director_does_not_count():
    director = staff("director", username="td")
    other = staff("director", username="td2")
    other.is_active = False
    other.save()

    with pytest.raises(Conflict):
        services.account_roles_set(actor=director, user_id=director.pk, roles=[])


def test_a_director_gives_up_the_role_while_another_remains():
    director = staff("director", username="td")
    staff("director", username="td2")

    services.account_roles_set(actor=director, user_id=director.pk, roles=["floor"])

    assert DIRECTOR not in roles_of(director)


def test_a_superuser_is_the_director_that_remains():
    director = staff("director", username="td")
    User.objects.create_superuser("root", password=GOOD_PASSWORD)

    services.account_roles_set(actor=director, user_id=director.pk, roles=[])

    assert roles_of(director) == set()


def test_roles_of_an_unknown_account_are_404():
    director = staff("director", username="td")

    with pytest.raises(NotFound):
        services.account_roles_set(actor=director, user_id=999999, roles=["floor"])


def test_unknown_role_is_refused_and_nothing_changes():
    director = staff("director", username="td")
    anna = staff("floor", username="anna")
    before = counts()

    with pytest.raises(Invalid) as refused:
        services.account_roles_set(actor=director, user_id=anna.pk, roles=["floor", "owner"])

    assert refused.value.fields == {"roles": ["No such role: owner."]}
    assert roles_of(anna) == {"floor"}
    assert nothing_written(before)


# --- Deactivating --------------------------------------------------------------------------


def test_deactivate_and_reactivate_write_their_entries():
    director = staff("director", username="td")
    anna = staff("floor", username="anna")

    services.account_active_set(actor=director, user_id=anna.pk, active=False)
    services.account_active_set(actor=director, user_id=anna.pk, active=True)

    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["staff.deactivate", "staff.activate"]
    anna.refresh_from_db()
    assert anna.is_active


def test_deactivating_oneself_is_refused():
    director = staff("director", username="td")
    staff("director", username="td2")
    before = counts()

    with pytest.raises(Conflict) as refused:
        services.account_active_set(actor=director, user_id=director.pk, active=False)

    assert refused.value.code == "own_account"
    assert nothing_written(before)


def test_deactivating_the_last_active_director_is_refused():
    """From the command line or a future door with no director acting: the guard holds
    whoever asks."""
    director = staff("director", username="td")
    before = counts()

    with pytest.raises(Conflict) as refused:
        services.account_active_set(actor=None, user_id=director.pk, active=False)

    assert refused.value.code == "last_director"
    director.refresh_from_db()
    assert director.is_active
    assert nothing_written(before)


# --- Passwords -----------------------------------------------------------------------------


def test_password_reset_generates_one_and_audits_without_it():
    director = staff("director", username="td")
    anna = staff("floor", username="anna")
    Token.objects.create(user=anna)

    reset = services.account_password_reset(actor=director, user_id=anna.pk)

    anna.refresh_from_db()
    assert reset.user == anna
    assert anna.check_password(reset.password)
    assert not anna.check_password(STAFF_PASSWORD)
    assert not Token.objects.filter(user=anna).exists()  # the old password's API access ends
    entry = AuditEntry.objects.get(action="staff.password_reset")
    assert entry.actor == director and entry.object_id == str(anna.pk)
    assert entry.after == {"password_generated": True, "token_deleted": True}
    assert no_password_in(entry, reset.password)


def test_password_reset_of_ones_own_account_is_refused():
    director = staff("director", username="td")
    before = counts()

    with pytest.raises(Conflict) as refused:
        services.account_password_reset(actor=director, user_id=director.pk)

    assert refused.value.code == "own_account"
    director.refresh_from_db()
    assert director.check_password(STAFF_PASSWORD)
    assert nothing_written(before)


def test_password_change_checks_the_old_one_then_sets_the_new():
    dealer = staff("dealer", username="ben")
    Token.objects.create(user=dealer)

    services.password_change(actor=dealer, old_password=STAFF_PASSWORD, new_password=GOOD_PASSWORD)

    dealer.refresh_from_db()
    assert dealer.check_password(GOOD_PASSWORD)
    assert not Token.objects.filter(user=dealer).exists()
    entry = AuditEntry.objects.get(action="staff.password_change")
    assert entry.actor == dealer and entry.object_id == str(dealer.pk)
    assert entry.before is None and entry.after is None


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("wrong", GOOD_PASSWORD, "old_password"),
        (STAFF_PASSWORD, "short", "new_password"),
        (STAFF_PASSWORD, "12345678", "new_password"),
    ],
)
def test_password_change_refusals_write_nothing(old, new, field):
    dealer = staff("dealer", username="ben")
    before = counts()

    with pytest.raises(Invalid) as refused:
        services.password_change(actor=dealer, old_password=old, new_password=new)

    assert list(refused.value.fields) == [field]
    dealer.refresh_from_db()
    assert dealer.check_password(STAFF_PASSWORD)
    assert nothing_written(before)


# --- A lost first password: manage.py password_reset -----------------------------------------


def test_password_reset_command_prints_a_new_password_for_the_first_director(capsys):
    director = staff("director", username="director")

    call_command("password_reset")

    out = capsys.readouterr().out
    password = out.split("password: ")[1].split()[0]
    director.refresh_from_db()
    assert director.check_password(password)
    entry = AuditEntry.objects.get(action="staff.password_reset")
    assert entry.actor is None and entry.object_id == str(director.pk)


def test_password_reset_command_takes_a_username_and_refuses_an_unknown_one(capsys):
    anna = staff("floor", username="anna")

    call_command("password_reset", "anna")
    password = capsys.readouterr().out.split("password: ")[1].split()[0]
    anna.refresh_from_db()
    assert anna.check_password(password)
    with pytest.raises(CommandError, match='No account "nobody"'):
        call_command("password_reset", "nobody")
