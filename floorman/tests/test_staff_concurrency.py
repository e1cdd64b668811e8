"""Two directors at the same moment (real transactions, PostgreSQL): the staff always
keeps an active director, and one username is one account."""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from floorman import staff as services
from floorman.errors import Conflict, Invalid
from floorman.roles import user_roles
from tournaments.tests.factories import staff

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_directors_taking_each_others_role_at_once_leave_one():
    """The first takes the second's role and has not committed yet; the second, taking
    the first's, waits for the directors' lock, then sees that it would be the last."""
    td, td2 = staff("director", username="td"), staff("director", username="td2")
    first_done, commit = threading.Event(), threading.Event()
    second: dict = {}

    def first():
        try:
            with transaction.atomic():
                services.account_roles_set(actor=td, user_id=td2.pk, roles=[])
                first_done.set()
                commit.wait(timeout=30)
        finally:
            connection.close()

    def then_second():
        try:
            services.account_roles_set(actor=td2, user_id=td.pk, roles=[])
            second["outcome"] = "done"
        except Conflict as exc:
            second["outcome"] = exc.code
        finally:
            connection.close()

    one = threading.Thread(target=first)
    one.start()
    assert first_done.wait(timeout=30)
    two = threading.Thread(target=then_second)
    two.start()
    two.join(timeout=1)
    waited = two.is_alive()  # behind the first's lock
    commit.set()
    one.join(timeout=30)
    two.join(timeout=30)

    assert waited
    assert second["outcome"] == "last_director"
    assert user_roles(User.objects.get(pk=td.pk)) == {"director"}
    assert user_roles(User.objects.get(pk=td2.pk)) == set()


def test_one_username_created_twice_at_once_is_one_account():
    director = staff("director", username="td")
    start = threading.Barrier(2)
    results: list = [None, None]

    def create(index):
        try:
            start.wait()
            results[index] = services.account_create(actor=director, username="anna", roles=[])
        except Invalid as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    refused = [r for r in results if isinstance(r, Invalid)]
    assert len(refused) == 1, results
    assert refused[0].fields == {"username": ["This username is taken."]}
    assert User.objects.filter(username="anna").count() == 1
