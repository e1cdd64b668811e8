# Venues moved to the tournaments app (issue 19; tournaments 0012 takes the model over
# with its table). The house rules point to it there; only the state changes here.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rulings', '0004_penalty_counts_from_away'),
        ('tournaments', '0012_venue_from_rulings'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='houserule',
                    name='venue',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rules', to='tournaments.venue'),
                ),
                migrations.DeleteModel(name='Venue'),
            ],
            database_operations=[],
        ),
    ]
