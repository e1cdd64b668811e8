# The clock's house rules become the event's house settings (issue 19): what each clock
# had chosen moves into its event's `house_settings`, so the house keeps its choice.
#
#   halve_heads_up                       -> heads_up_level "casino" (casino §31)
#   player_clock_unfacing "fold"         -> clock_expired_no_bet "dead" (casino §27: a
#                                           hand out of time is dead, i.e. folded)
#   a player clock longer than 30 s      -> player_clock "casino" (one minute, casino §27;
#                                           IFP's 60 + 10 had no reading of its own)
#   30 s with 5, folded (the "casino
#   turbo" preset of the console)        -> player_clock "casino" and the clock's turbo
#   a day-end draw already made          -> day_end_draw "casino" (casino §28)
#
# Only choices other than the TDA's are written, and never over a choice the event made
# itself on the settings page. Going back writes each event's readings (its own, else its
# venue's) into the clock's fields again.

from django.db import migrations, models

TDA = 'tda'
CASINO = 'casino'


def _event_choose(settings: dict, key: str, value: str) -> bool:
    if value == TDA or key in settings:
        return False
    settings[key] = value
    return True


def readings_of(clock) -> dict:
    """The non-TDA readings an old clock's fields stand for."""
    readings = {}
    folded = clock.player_clock_unfacing == 'fold'
    if clock.halve_heads_up:
        readings['heads_up_level'] = CASINO
    if folded:
        readings['clock_expired_no_bet'] = 'dead'
    if clock.player_clock_seconds > 30 or (
        folded and (clock.player_clock_seconds, clock.player_clock_countdown) == (30, 5)
    ):
        readings['player_clock'] = CASINO
    if clock.day_end_seed:
        readings['day_end_draw'] = CASINO
    return readings


def clock_settings_to_house(apps, schema_editor):
    Clock = apps.get_model('clock', 'Clock')
    PlayerClock = apps.get_model('clock', 'PlayerClock')
    Tournament = apps.get_model('tournaments', 'Tournament')
    db = schema_editor.connection.alias
    for clock in Clock.objects.using(db).iterator():
        readings = readings_of(clock)
        if (clock.player_clock_seconds, clock.player_clock_countdown) == (30, 5) and (
            readings.get('player_clock') == CASINO
        ):
            clock.turbo = True
            clock.save(update_fields=['turbo'])
        if not readings:
            continue
        tournament = Tournament.objects.using(db).get(pk=clock.tournament_id)
        settings = dict(tournament.house_settings or {})
        changed = [_event_choose(settings, key, value) for key, value in readings.items()]
        if any(changed):
            tournament.house_settings = settings
            tournament.save(update_fields=['house_settings'])
    for player_clock in PlayerClock.objects.using(db).iterator():
        player_clock.time_reading = CASINO if player_clock.seconds > 30 else TDA
        player_clock.no_bet = 'dead' if player_clock.unfacing == 'fold' else TDA
        player_clock.save(update_fields=['time_reading', 'no_bet'])


def house_to_clock_settings(apps, schema_editor):
    Clock = apps.get_model('clock', 'Clock')
    PlayerClock = apps.get_model('clock', 'PlayerClock')
    Venue = apps.get_model('tournaments', 'Venue')
    db = schema_editor.connection.alias
    default = (
        Venue.objects.using(db).filter(is_default=True).first()
        or Venue.objects.using(db).order_by('name').first()
    )
    for clock in Clock.objects.using(db).select_related('tournament__venue').iterator():
        tournament = clock.tournament
        venue = tournament.venue if tournament.venue_id else default
        readings = {**(venue.house_settings if venue else {}), **tournament.house_settings}
        casino_clock = readings.get('player_clock') == CASINO
        clock.halve_heads_up = readings.get('heads_up_level') == CASINO
        clock.player_clock_unfacing = (
            'fold' if readings.get('clock_expired_no_bet') == 'dead' else 'check'
        )
        clock.player_clock_seconds, clock.player_clock_countdown = (
            (60, 10) if casino_clock and not clock.turbo else (30, 5)
        )
        clock.save(
            update_fields=[
                'halve_heads_up',
                'player_clock_unfacing',
                'player_clock_seconds',
                'player_clock_countdown',
            ]
        )
    for player_clock in PlayerClock.objects.using(db).iterator():
        player_clock.unfacing = 'fold' if player_clock.no_bet == 'dead' else 'check'
        player_clock.save(update_fields=['unfacing'])


class Migration(migrations.Migration):

    dependencies = [
        ('clock', '0002_templates'),
        ('tournaments', '0012_venue_from_rulings'),
    ]

    operations = [
        migrations.AddField(
            model_name='clock',
            name='turbo',
            field=models.BooleanField(
                default=False,
                help_text=(
                    'Casino §27: where the house follows it, a player on the clock in a turbo '
                    'event has 30 seconds with a 5-second countdown.'
                ),
                verbose_name='turbo event',
            ),
        ),
        migrations.AddField(
            model_name='playerclock',
            name='time_reading',
            field=models.CharField(default='tda', max_length=10),
        ),
        migrations.AddField(
            model_name='playerclock',
            name='no_bet',
            field=models.CharField(default='tda', max_length=10),
        ),
        migrations.RunPython(clock_settings_to_house, house_to_clock_settings),
        migrations.RemoveConstraint(
            model_name='clock',
            name='player_clock_countdown_within_time',
        ),
        migrations.RemoveField(model_name='clock', name='halve_heads_up'),
        migrations.RemoveField(model_name='clock', name='player_clock_seconds'),
        migrations.RemoveField(model_name='clock', name='player_clock_countdown'),
        migrations.RemoveField(model_name='clock', name='player_clock_unfacing'),
        # A default first, so that going back can add the column to the rows there are.
        migrations.AlterField(
            model_name='playerclock',
            name='unfacing',
            field=models.CharField(
                choices=[
                    ('check', 'The hand is checked (TDA 29)'),
                    ('fold', 'The hand is folded (IFP)'),
                ],
                default='check',
                max_length=5,
            ),
        ),
        migrations.RemoveField(model_name='playerclock', name='unfacing'),
    ]
