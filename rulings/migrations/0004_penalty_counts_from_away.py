# The penalty's status, hands served and end are read from its away record now: the
# hands app is their one writer.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('rulings', '0003_penalty_away_records'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='penalty',
            name='penalty_served_at_most',
        ),
        migrations.RemoveField(
            model_name='penalty',
            name='ended_at',
        ),
        migrations.RemoveField(
            model_name='penalty',
            name='hands_served',
        ),
        migrations.RemoveField(
            model_name='penalty',
            name='status',
        ),
    ]
