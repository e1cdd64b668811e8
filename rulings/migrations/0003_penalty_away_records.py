"""Every missed-hands or missed-rounds penalty given so far gets its away record
(hands.Away) with the counts, status and end it kept itself, in the order the penalties
were given (penalties given together are served in that order). Reversible: going back
copies the counts onto the penalties and removes the records."""

from django.db import migrations

SERVED_AWAY = ("missed_hands", "missed_rounds")


def forwards(apps, schema_editor):
    Penalty = apps.get_model("rulings", "Penalty")
    Away = apps.get_model("hands", "Away")
    given = Penalty.objects.filter(kind__in=SERVED_AWAY, away__isnull=True)
    for penalty in given.order_by("at", "id"):
        ended_at = None
        if penalty.status != "serving":
            ended_at = penalty.ended_at or penalty.at
        penalty.away = Away.objects.create(
            tournament_id=penalty.tournament_id,
            entry_id=penalty.entry_id,
            # A penalty served away was always given at a seat; 0 is no table.
            table_number=penalty.table_number or 0,
            after_hand=penalty.after_hand,
            hands=penalty.hands,
            hands_missed=min(penalty.hands_served, penalty.hands),
            started_at=penalty.at,
            ended_at=ended_at,
            cancelled=penalty.status == "cancelled",
        )
        penalty.save(update_fields=["away"])


def backwards(apps, schema_editor):
    Penalty = apps.get_model("rulings", "Penalty")
    Away = apps.get_model("hands", "Away")
    records = []
    for penalty in Penalty.objects.select_related("away"):
        away = penalty.away
        if away is None:  # a warning or a disqualification: over once given
            penalty.status, penalty.hands_served, penalty.ended_at = "served", 0, penalty.at
        else:
            penalty.hands_served = away.hands_missed
            penalty.ended_at = away.ended_at
            if away.cancelled:
                penalty.status = "cancelled"
            else:
                penalty.status = "serving" if away.ended_at is None else "served"
            penalty.away = None
            records.append(away.pk)
        penalty.save(update_fields=["status", "hands_served", "ended_at", "away"])
    Away.objects.filter(pk__in=records).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('hands', '0003_away'),
        ('rulings', '0002_penalty_away'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
