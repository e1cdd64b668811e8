"""First-run set-up: a director account, so that a fresh installation can be used."""

from django.contrib.auth.models import Group, User
from django.db import IntegrityError, transaction
from django.db.models import Q

from floorman.roles import DIRECTOR
from floorman.staff.common import password_generate

DIRECTOR_USERNAME = "director"


class DirectorAccountError(RuntimeError):
    """No director exists and the account cannot be created without touching another."""


def director_ensure() -> str | None:
    """Create the first director if there is none; return the new password, else None.

    Steps: make sure the "director" group exists (normally made by a migration); if an
    active member of it or an active superuser (roles.py counts them as directors) exists,
    do nothing; otherwise create user "director" with a fresh random password in the group.
    There is no default password: the caller shows the returned one to the operator once.
    """
    group, _created = Group.objects.get_or_create(name=DIRECTOR)
    directors = User.objects.filter(Q(groups=group) | Q(is_superuser=True), is_active=True)
    if directors.exists():
        return None
    if User.objects.filter(username=DIRECTOR_USERNAME).exists():
        # Someone removed this account from the group or deactivated it on purpose;
        # resetting its password behind their back would be worse than stopping.
        raise DirectorAccountError(
            f'No active director exists, but the user "{DIRECTOR_USERNAME}" does. '
            "Make a director with `manage.py createsuperuser` or reactivate that account."
        )
    password = password_generate(User(username=DIRECTOR_USERNAME))
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=DIRECTOR_USERNAME, password=password)
            user.groups.add(group)
    except IntegrityError:
        # Another process (a second server starting at the same time) was faster.
        return None
    return password
