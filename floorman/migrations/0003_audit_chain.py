"""The audit log becomes a hash chain (floorman.engine.audit_chain).

The tournament and the actor lose their database constraints: deleting a tournament or a
user must not cascade into the append-only log, and appending takes no lock on them.
`at` is set by the audit helper before the entry is hashed (no longer on insert).
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("floorman", "0002_roles"),
        ("tournaments", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="tournament",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name="audit_entries", to="tournaments.tournament", verbose_name="tournament"),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="actor",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="by"),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name="time"),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="seq",
            field=models.PositiveBigIntegerField(null=True, verbose_name="number"),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="prev_hash",
            field=models.CharField(default="", max_length=64, verbose_name="previous hash"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditentry",
            name="hash",
            field=models.CharField(default="", max_length=64, verbose_name="hash"),
            preserve_default=False,
        ),
    ]
