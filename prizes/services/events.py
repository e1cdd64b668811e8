"""Events made from other events, as a director's desktop program makes them: a copy of
an event, and the house's saved event templates (save one, start an event from one,
delete one).

A copy or a template takes an event's setup, each app's part as that app reads it
(prizes.selectors.event_setup): the event's settings, the clock's settings and the steps
of its blind structure, the payout settings, the seating settings and the table layout,
hand-for-hand's settings. Never the entries, players, hands, payments or results. A new
event is made from a setup by each app's part in turn (`_event_from`), in the one
transaction of the intention. They live here, in the highest app they touch: the payout
settings are prizes' to write.
"""

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from clock.services import clock_prepare
from floorman.audit import audit_record, staff_user
from floorman.errors import Invalid, NotFound
from floorman.names import name_visible
from hands.services.hand_for_hand import h4h_prepare
from prizes.models import EventTemplate
from prizes.selectors import event_setup
from prizes.services import payouts_prepare
from seating.services import seating_prepare
from tournaments.engine.flights import flight_title
from tournaments.models import Tournament
from tournaments.services import tournament_add, tournament_lock
from tournaments.services.flights import flight_link

NAME_MAX = 120  # Tournament.name, EventTemplate.name
FLIGHT_NAME_MAX = 20  # Tournament.flight_name


def _name_checked(name: str, field: str = "name") -> str:
    name = (name or "").replace("\x00", "").strip()
    if not name_visible(name):
        raise Invalid({field: _("A name needs at least one visible letter or digit.")})
    if len(name) > NAME_MAX:
        raise Invalid({field: _("At most %(most)s characters.") % {"most": NAME_MAX}})
    return name


def _event_from(setup: dict, *, name: str, start_at: datetime, tables: bool) -> Tournament:
    """A new planned event from a setup, each app's part in turn:

    1. The event with its settings, its own name and start (tournaments).
    2. Its clock, not started, with the house settings and a blind structure of its own
       built from the setup's steps (clock).
    3. The payout settings; the table follows the prize pool (prizes).
    4. The seating settings and, with `tables`, the tables with their seats and the
       break order, nobody seated; refused if another event has one of them in play
       (seating).
    5. Hand-for-hand's settings (hands).
    """
    tournament = tournament_add(
        data={**(setup.get("event") or {}), "name": _name_checked(name), "start_at": start_at}
    )
    clock_prepare(tournament=tournament, setup=setup.get("clock") or {})
    payouts_prepare(tournament=tournament, settings=setup.get("payouts") or {})
    seating_prepare(tournament=tournament, setup=setup.get("seating") or {}, tables=tables)
    h4h_prepare(tournament=tournament, settings=setup.get("hand_for_hand") or {})
    return tournament


def _made(tournament: Tournament, setup: dict, tables: bool) -> dict:
    """What the audit entry says was made."""
    structure = (setup.get("clock") or {}).get("structure")
    return {
        "name": tournament.name,
        "start_at": tournament.start_at.isoformat(),
        "structure": structure["name"] if structure else None,
        "tables": [t["number"] for t in (setup.get("seating") or {}).get("tables", [])]
        if tables
        else [],
    }


@transaction.atomic
def event_copy(
    *, actor, tournament_id: int, name: str, start_at: datetime, tables: bool = True
) -> Tournament:
    """Copy an event under a new name and start: a planned event with the same setup.

    1. Lock the event copied, so that its setup is read as it stands.
    2. Its setup, each app's part (prizes.selectors.event_setup).
    3. The new event from it (`_event_from`): its own copy of the blind structure, so
       that changing one event's structure never changes the other's.
    4. One audit entry, on the new event.
    """
    source = tournament_lock(tournament_id)
    setup = event_setup(source)
    tournament = _event_from(setup, name=name, start_at=start_at, tables=tables)
    audit_record(
        actor=actor,
        action="tournament.copy",
        obj=tournament,
        tournament=tournament,
        after={"copied_from": source.pk, **_made(tournament, setup, tables)},
    )
    return tournament


@transaction.atomic
def event_template_save(*, actor, tournament_id: int, name: str) -> EventTemplate:
    """Keep an event's setup under a name, for the house's next events. A template of
    the same name is replaced.

    1. Lock the event, so that its setup is read as it stands.
    2. Its setup (prizes.selectors.event_setup), saved as the template.
    3. One audit entry, on the event.
    """
    name = _name_checked(name)
    source = tournament_lock(tournament_id)
    template, created = EventTemplate.objects.update_or_create(
        name=name,
        defaults={
            "setup": event_setup(source),
            "saved_from": source.name,
            "saved_by": staff_user(actor),
        },
    )
    audit_record(
        actor=actor,
        action="event_template.save",
        obj=template,
        tournament=source,
        after={"name": template.name, "replaced": not created},
    )
    return template


def _template_locked(template_id: int) -> EventTemplate:
    # Locked: a template deleted at the same moment is either used whole or not found.
    template = EventTemplate.objects.select_for_update().filter(pk=template_id).first()
    if template is None:
        raise NotFound(_("No such event template."))
    return template


@transaction.atomic
def event_template_start(
    *, actor, template_id: int, name: str, start_at: datetime, tables: bool = True
) -> Tournament:
    """Start a new event from a saved event template.

    1. Lock the template.
    2. The new event from its setup (`_event_from`).
    3. One audit entry, on the new event.
    """
    template = _template_locked(template_id)
    tournament = _event_from(template.setup, name=name, start_at=start_at, tables=tables)
    audit_record(
        actor=actor,
        action="tournament.from_template",
        obj=tournament,
        tournament=tournament,
        after={"template": template.name, **_made(tournament, template.setup, tables)},
    )
    return tournament


@transaction.atomic
def event_template_delete(*, actor, template_id: int) -> None:
    """Delete a saved event template. The events started from it stay as they are."""
    template = _template_locked(template_id)
    audit_record(
        actor=actor,
        action="event_template.delete",
        obj=template,
        before={"name": template.name, "saved_from": template.saved_from},
    )
    template.delete()


# --- Flights (issue 17) -------------------------------------------------------------------


def _flight_name_checked(name: str) -> str:
    name = _name_checked(name, "flight_name")
    if len(name) > FLIGHT_NAME_MAX:
        raise Invalid(
            {"flight_name": _("At most %(most)s characters.") % {"most": FLIGHT_NAME_MAX}}
        )
    return name


@transaction.atomic
def flight_add(*, actor, event_id: int, flight_name: str, start_at: datetime) -> Tournament:
    """Add a starting flight to an event ("Day 1A"): a tournament of its own (tables,
    clock, registration, seating) whose survivors play the event's Day 2.

    1. The flight's name checked, then the event locked: two desks adding the same
       flight at once queue up, and the second is refused.
    2. The flight from the event's setup, as a copy is made (`_event_from`): its
       structure, stack and settings come from the event. Not its tables: the event
       holds them for its Day 2, and the floor adds the flight's own.
    3. It becomes the event's flight, in its series, named "Event – Day 1A"
       (tournaments.services.flights.flight_link): refused (409, nothing kept) for a
       flight of a flight, a satellite as the event, a name its flights already have.
    4. One audit entry (tournament.flight_add), on the flight.
    """
    flight_name = _flight_name_checked(flight_name)
    parent = tournament_lock(event_id)
    name = flight_title(parent.name, flight_name)
    if len(name) > NAME_MAX:
        raise Invalid(
            {"flight_name": _("The event's name and the flight's are too long together.")}
        )
    setup = event_setup(parent)
    # No tables: the event's own are the venue's tables it holds (for its Day 2); the
    # floor adds the flight's day's tables to it (seating.services.table_add).
    flight = _event_from(setup, name=name, start_at=start_at, tables=False)
    flight_link(tournament=flight, parent=parent, flight_name=flight_name)
    audit_record(
        actor=actor,
        action="tournament.flight_add",
        obj=flight,
        tournament=flight,
        after={"event": parent.pk, "flight_name": flight_name, **_made(flight, setup, False)},
    )
    return flight
