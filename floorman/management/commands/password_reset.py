"""`manage.py password_reset [username]`: a lost password, the first director's above all.

Gives the account (by default "director", the one `make run` creates on its first
start) a new generated password and prints it once, through the same service as the
Staff page's "Reset password" (audited, by nobody: the system). To type a password
instead, Django's `manage.py changepassword <username>` asks for one.
"""

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from floorman.bootstrap import DIRECTOR_USERNAME
from floorman.staff import account_password_reset


class Command(BaseCommand):
    help = "Give an account a new generated password and print it once (default: director)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "username", nargs="?", default=DIRECTOR_USERNAME, help="The account's username."
        )

    def handle(self, *args, username: str, **options) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(
                f'No account "{username}". Make a director with `manage.py createsuperuser`.'
            )
        reset = account_password_reset(actor=None, user_id=user.pk)
        line = "=" * 64
        self.stdout.write(
            self.style.WARNING(
                f"{line}\n"
                f"A new password for {username}.\n\n"
                f"    username: {username}\n"
                f"    password: {reset.password}\n\n"
                "This password is shown only this once. Sign in with it and change it\n"
                "(Change password, in the top bar).\n"
                f"{line}"
            )
        )
        if not user.is_active:
            self.stdout.write(
                self.style.ERROR(
                    f"The account {username} is deactivated: a director reactivates it on the "
                    "Staff page, or `manage.py createsuperuser` makes a new director."
                )
            )
