"""The database refuses UPDATE and DELETE on the audit log (and TRUNCATE on PostgreSQL):
triggers, see floorman.database.guard."""

from django.db import migrations

from floorman.database import guard


class Migration(migrations.Migration):
    dependencies = [("floorman", "0005_audit_chain_required")]

    operations = [migrations.RunPython(guard.install, guard.remove)]
