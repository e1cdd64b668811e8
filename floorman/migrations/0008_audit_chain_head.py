"""The audit chain's head is read under the chain lock in one statement
(floorman.database.chain)."""

from django.db import migrations

from floorman.database import chain


class Migration(migrations.Migration):
    dependencies = [("floorman", "0007_merge_0004_api_keys_0006_audit_append_only")]

    operations = [migrations.RunPython(chain.install, chain.remove)]
