"""The entries logged so far are chained in the order they were written (id order)."""

from django.db import migrations

from floorman.engine.audit_chain import FIELDS, GENESIS, entry_hash

BATCH = 2000


def chain_fill(apps, schema_editor):
    AuditEntry = apps.get_model("floorman", "AuditEntry")
    columns = ["id", *(name for name in FIELDS if name != "seq")]
    seq, prev, last_id = 0, GENESIS, 0
    while True:
        rows = list(
            AuditEntry.objects.filter(id__gt=last_id).order_by("id").values(*columns)[:BATCH]
        )
        if not rows:
            return
        for row in rows:
            seq += 1
            digest = entry_hash({**row, "seq": seq}, prev)
            AuditEntry.objects.filter(id=row["id"]).update(seq=seq, prev_hash=prev, hash=digest)
            prev, last_id = digest, row["id"]


class Migration(migrations.Migration):
    dependencies = [("floorman", "0003_audit_chain")]

    operations = [migrations.RunPython(chain_fill, migrations.RunPython.noop)]
