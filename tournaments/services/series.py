"""A series (festival, issue 17): its name, days and public schedule, and the events it
holds with their event numbers. A flight belongs to its parent event's series: putting
an event into a series takes its flights along (they carry no number of their own).

Each public function is one director's intention: one transaction, one audit entry.
"""

from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Conflict, Invalid, NotFound
from tournaments.models import Series, Tournament
from tournaments.services import _snapshot, tournament_lock, tournament_publish

SERIES_FIELDS = ("name", "slug", "venue", "starts_on", "ends_on", "public", "rotate_seconds")
# A lobby shows each running event for this long at least and at most (web.screens).
ROTATE_MIN, ROTATE_MAX = 5, 300
NUMBER_MAX = 32767  # a PositiveSmallIntegerField


def _series_check(data: dict) -> None:
    """Rules between a series' fields: its last day not before its first, a lobby
    rotation a screen can show."""
    errors: dict[str, str] = {}
    starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
    if starts_on and ends_on and ends_on < starts_on:
        errors["ends_on"] = _("The last day cannot be before the first day.")
    rotate = data.get("rotate_seconds")
    if rotate is not None and not ROTATE_MIN <= rotate <= ROTATE_MAX:
        errors["rotate_seconds"] = _("Between %(min)s and %(max)s seconds.") % {
            "min": ROTATE_MIN,
            "max": ROTATE_MAX,
        }
    if errors:
        raise Invalid(errors)


def _slug_taken(slug: str) -> Conflict:
    message = _("The short name “%(slug)s” is already taken by another series.") % {"slug": slug}
    return Conflict(message, code="slug_taken", data={"slug": [message]})


def _saved(series: Series, *, update_fields=None) -> None:
    """Save, a taken short name (two directors at once) a conflict, nothing written."""
    try:
        with transaction.atomic():
            series.save(update_fields=update_fields)
    except IntegrityError:
        if Series.objects.filter(slug=series.slug).exclude(pk=series.pk).exists():
            raise _slug_taken(series.slug) from None
        raise


def _day(moment) -> object:
    return timezone.localtime(moment).date()


@transaction.atomic
def series_add(*, actor, data: dict) -> Series:
    """A new series.

    Steps: the fields' rules (dates, rotation) → the short name free, else 409 → the
    series saved → audit `series.create`."""
    _series_check(data)
    slug = data.get("slug", "")
    if Series.objects.filter(slug=slug).exists():
        raise _slug_taken(slug)
    series = Series(**{name: data[name] for name in SERIES_FIELDS if name in data})
    _saved(series)
    audit_record(
        actor=actor, action="series.create", obj=series, after=_snapshot(series, SERIES_FIELDS)
    )
    return series


def series_lock(series_id: int | None) -> Series:
    try:
        return Series.objects.select_for_update().get(pk=series_id)
    except Series.DoesNotExist:
        raise NotFound(_("No such series.")) from None


@transaction.atomic
def series_update(*, actor, series_id: int, data: dict) -> Series:
    """A series' name, short name, days, public page or lobby rotation changed.

    Steps: lock the series → the fields' rules → its events still inside its days, else
    400 → the short name free, else 409 → saved → audit `series.update`."""
    series = series_lock(series_id)
    before = _snapshot(series, SERIES_FIELDS)
    merged = {name: getattr(series, name) for name in SERIES_FIELDS} | data
    _series_check(merged)
    outside = _events_outside(series, merged["starts_on"], merged["ends_on"])
    if outside:
        raise Invalid(
            {
                "starts_on": _("Events of this series start outside these days: %(events)s.")
                % {"events": ", ".join(outside)}
            }
        )
    if "slug" in data and Series.objects.filter(slug=data["slug"]).exclude(pk=series.pk).exists():
        raise _slug_taken(data["slug"])
    fields = [name for name in SERIES_FIELDS if name in data]
    for name in fields:
        setattr(series, name, data[name])
    _saved(series, update_fields=fields)
    audit_record(
        actor=actor,
        action="series.update",
        obj=series,
        before=before,
        after=_snapshot(series, SERIES_FIELDS),
    )
    return series


def _events_outside(series: Series, starts_on, ends_on) -> list[str]:
    events = Tournament.objects.filter(series=series, parent__isnull=True).only("name", "start_at")
    return [e.name for e in events if not starts_on <= _day(e.start_at) <= ends_on]


@transaction.atomic
def series_event_set(
    *, actor, tournament_id: int, series_id: int | None, series_number: int | None
) -> Tournament:
    """Put an event into a series with its event number (#3), or take it out (no series).

    Steps: lock the event → not a flight (a flight follows its event), else 409 → the
    series locked, the event's start within its days and the number in range, else 400 →
    the number free in the series, else 409 → the event and its flights saved → audit
    `tournament.series` → live event (the series' schedule page shows it)."""
    tournament = tournament_lock(tournament_id)
    if tournament.parent_id is not None:
        message = _("A flight belongs to its event's series: put the event into the series.")
        raise Conflict(message, code="flight_follows_event")
    series = None
    if series_id is None:
        series_number = None
    else:
        series = series_lock(series_id)
        _event_check(series, tournament, series_number)
    before = {"series": tournament.series_id, "series_number": tournament.series_number}
    tournament.series = series
    tournament.series_number = series_number
    try:
        with transaction.atomic():
            tournament.save(update_fields=["series", "series_number"])
    except IntegrityError:
        raise _number_taken(series_number) from None
    tournament.flights.update(series=series, series_number=None)
    audit_record(
        actor=actor,
        action="tournament.series",
        obj=tournament,
        tournament=tournament,
        before=before,
        after={"series": tournament.series_id, "series_number": series_number},
    )
    tournament_publish(tournament)
    return tournament


def _event_check(series: Series, tournament: Tournament, series_number: int | None) -> None:
    errors: dict[str, str] = {}
    if series_number is not None and not 1 <= series_number <= NUMBER_MAX:
        errors["series_number"] = _("An event number from 1 to %(max)s.") % {"max": NUMBER_MAX}
    if not series.starts_on <= _day(tournament.start_at) <= series.ends_on:
        errors["tournament"] = _(
            "The event starts on %(day)s, outside the series' days (%(first)s to %(last)s)."
        ) % {
            "day": formats.date_format(_day(tournament.start_at), "SHORT_DATE_FORMAT"),
            "first": formats.date_format(series.starts_on, "SHORT_DATE_FORMAT"),
            "last": formats.date_format(series.ends_on, "SHORT_DATE_FORMAT"),
        }
    if errors:
        raise Invalid(errors)
    if series_number is None:
        return
    taken = (
        Tournament.objects.filter(series=series, series_number=series_number)
        .exclude(pk=tournament.pk)
        .exists()
    )
    if taken:
        raise _number_taken(series_number)


def _number_taken(number: int | None) -> Conflict:
    message = _("Event #%(number)s is already in this series.") % {"number": number}
    return Conflict(message, code="series_number_taken", data={"series_number": [message]})
