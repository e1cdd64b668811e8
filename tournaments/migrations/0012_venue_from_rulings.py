# Venues moved from the rulings app (issue 19): an event follows its venue's house
# settings, which the apps below rulings read (the tablet, seating, the clock). The table
# keeps its rulings_ name (db_table), so the model moves by state alone, as the table
# state did in issue 14; rulings 0005 lets go of it. The venue's reading of an unclear
# amount (its one house setting before issue 19) moves into its house settings.

import django.db.models.deletion
from django.db import migrations, models

MODELS = ['venue']


def content_types_move(apps, schema_editor, *, source, target):
    """Give the model's content type to its new app, unless it already has its own."""
    ContentType = apps.get_model('contenttypes', 'ContentType')
    db = schema_editor.connection.alias
    taken = set(
        ContentType.objects.using(db)
        .filter(app_label=target, model__in=MODELS)
        .values_list('model', flat=True)
    )
    ContentType.objects.using(db).filter(app_label=source, model__in=MODELS).exclude(
        model__in=taken
    ).update(app_label=target)


def content_types_to_tournaments(apps, schema_editor):
    content_types_move(apps, schema_editor, source='rulings', target='tournaments')


def content_types_to_rulings(apps, schema_editor):
    content_types_move(apps, schema_editor, source='tournaments', target='rulings')


def unclear_amounts_in(apps, schema_editor):
    Venue = apps.get_model('tournaments', 'Venue')
    for venue in Venue.objects.using(schema_editor.connection.alias).exclude(
        ambiguous_amounts='tda'
    ):
        venue.house_settings = {**venue.house_settings, 'unclear_amount': venue.ambiguous_amounts}
        venue.save(update_fields=['house_settings'])


def unclear_amounts_out(apps, schema_editor):
    Venue = apps.get_model('tournaments', 'Venue')
    for venue in Venue.objects.using(schema_editor.connection.alias):
        reading = venue.house_settings.get('unclear_amount', 'tda')
        venue.ambiguous_amounts = reading if reading in ('tda', 'ifp') else 'tda'
        venue.save(update_fields=['ambiguous_amounts'])


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ("rulings", "0001_rulings"),  # it made the venues table
        ('tournaments', '0011_house_settings'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Venue',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                        ('is_default', models.BooleanField(default=False, verbose_name='default venue')),
                        ('ambiguous_amounts', models.CharField(default='tda', max_length=3)),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                    ],
                    options={
                        'verbose_name': 'venue',
                        'verbose_name_plural': 'venues',
                        'ordering': ['name'],
                        'db_table': 'rulings_venue',
                        'constraints': [models.UniqueConstraint(condition=models.Q(('is_default', True)), fields=('is_default',), name='one_default_venue')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_tournaments, content_types_to_rulings),
        migrations.AddField(
            model_name='venue',
            name='house_settings',
            field=models.JSONField(blank=True, default=dict, verbose_name='house settings'),
        ),
        migrations.RunPython(unclear_amounts_in, unclear_amounts_out),
        migrations.RemoveField(model_name='venue', name='ambiguous_amounts'),
        migrations.AddField(
            model_name='tournament',
            name='venue',
            field=models.ForeignKey(blank=True, help_text='Empty: the default venue.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='events', to='tournaments.venue', verbose_name='venue'),
        ),
    ]
