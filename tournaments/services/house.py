"""Saving the house settings (issue 19): a venue's readings where the rule books disagree,
and an event's own choices over its venue's. The readings and their rules live in
`tournaments.house`; these services check a change against it and write it."""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Invalid, NotFound
from floorman.versions import screens_changed
from tournaments import house
from tournaments.models import Tournament, Venue
from tournaments.services import tournament_lock, tournament_publish

MAX_ID = 2**63 - 1


def house_choices_check(changes: object) -> dict[str, str | None]:
    """The changes asked for, {setting: reading or None}: None takes the setting's choice
    back (an event follows its venue again, a venue the TDA). 400 with one message per
    setting for an unknown setting or reading."""
    if not isinstance(changes, dict):
        raise Invalid({"house_settings": _("Give the settings as {setting: reading}.")})
    errors: dict[str, str] = {}
    for key, value in changes.items():
        setting = house.BY_KEY.get(key) if isinstance(key, str) else None
        if setting is None:
            errors[str(key)[:60]] = _("There is no such house setting.")
        elif value is not None and value not in setting.values:
            readings = ", ".join(setting.values)
            errors[key] = _("Choose one of: %(readings)s.") % {"readings": readings}
    if errors:
        raise Invalid(errors)
    return changes


def _merged(current: dict, changes: dict[str, str | None], *, keep_tda: bool) -> dict:
    merged = dict(current)
    for key, value in changes.items():
        if value is None or (value == house.TDA and not keep_tda):
            merged.pop(key, None)
        else:
            merged[key] = value
    return {key: merged[key] for key in house.KEYS if key in merged}


@transaction.atomic
def venue_house_settings_save(*, actor, venue_id: int, changes: object) -> Venue:
    """A venue's readings. The TDA's reading is the default, so a venue keeps only the
    readings that differ from it. The tournaments' part of the intention
    `clock.services.venue_house_settings_save`, whose clocks follow the heads-up reading."""
    checked = house_choices_check(changes)
    venue = Venue.objects.select_for_update().filter(pk=venue_id).first()
    if venue is None:
        raise NotFound(_("No such venue."))
    before = venue.house_settings
    venue.house_settings = _merged(before, checked, keep_tda=False)
    if venue.house_settings != before:
        venue.save(update_fields=["house_settings"])
        audit_record(
            actor=actor,
            action="venue.house_settings",
            obj=venue,
            before=before,
            after=venue.house_settings,
        )
        # What its events' pages built from the readings show (the table map's balance
        # plan and halting, floorman.versions) is out of date: their versions renewed.
        following = Q(venue=venue) | Q(venue__isnull=True) if venue.is_default else Q(venue=venue)
        screens_changed(Tournament.objects.filter(following).values_list("pk", flat=True))
    return venue


@transaction.atomic
def tournament_house_settings_save(
    *, actor, tournament_id: int, changes: object, venue_id: int | None | str = "keep"
) -> Tournament:
    """An event's venue (None: the default venue) and its own readings over the venue's.
    Unlike a venue, an event keeps a TDA reading it chose: its venue may read otherwise.
    The rules apply from the next hand, ruling or seating change on; the clock's heads-up
    reading at once (the intention, `clock.services.house_settings_save`, calls this part
    and then the clock)."""
    checked = house_choices_check(changes)
    venue = None
    if venue_id not in ("keep", None):
        venue = Venue.objects.filter(pk=venue_id).first() if _an_id(venue_id) else None
        if venue is None:
            raise Invalid({"venue": _("There is no such venue.")})
    tournament = tournament_lock(tournament_id)
    before = {"venue": tournament.venue_id, "house_settings": tournament.house_settings}
    fields = []
    if venue_id != "keep" and tournament.venue_id != (venue.pk if venue else None):
        tournament.venue = venue
        fields.append("venue")
    settings = _merged(tournament.house_settings, checked, keep_tda=True)
    if settings != tournament.house_settings:
        tournament.house_settings = settings
        fields.append("house_settings")
    if fields:
        tournament.save(update_fields=fields)
        audit_record(
            actor=actor,
            action="tournament.house_settings",
            obj=tournament,
            before=before,
            after={"venue": tournament.venue_id, "house_settings": tournament.house_settings},
        )
        tournament_publish(tournament)
    return tournament


def _an_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID
