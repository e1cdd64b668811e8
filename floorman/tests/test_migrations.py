"""The migrations describe the models: a model changed or moved between apps without its
migration (docs/architecture.md: payouts took its tables over from prizes by state
alone) fails here."""

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_no_model_change_lacks_its_migration():
    # --check exits with status 1 when makemigrations would write a migration.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
