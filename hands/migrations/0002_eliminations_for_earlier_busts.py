"""Entries busted before hands were logged get their bust-out record, in the order they
busted, so that their places count (hands.selectors.finishing_places)."""

from django.db import migrations


def forwards(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Elimination = apps.get_model("hands", "Elimination")
    busted = Entry.objects.filter(status="busted", elimination__isnull=True)
    Elimination.objects.bulk_create(
        Elimination(
            tournament_id=entry.tournament_id,
            entry_id=entry.pk,
            hand_key=f"e{entry.pk}",
            stack=entry.chips,
        )
        for entry in busted.order_by("busted_at", "pk")
    )


class Migration(migrations.Migration):
    dependencies = [("hands", "0001_initial"), ("tournaments", "0005_tournament_lookup_version")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
