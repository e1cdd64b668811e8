# A penalty served away from the table points to its away record (hands.Away). The
# next migration fills it in for the penalties given so far; the one after removes the
# counts the penalty kept itself. Three migrations, each in its own transaction:
# PostgreSQL refuses to alter a table whose rows were changed earlier in the same one.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('hands', '0003_away'),
        ('rulings', '0001_rulings'),
    ]

    operations = [
        migrations.AddField(
            model_name='penalty',
            name='away',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='penalty', to='hands.away', verbose_name='hands sat out'),
        ),
    ]
