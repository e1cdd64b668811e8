"""Day 2 of an event with flights (issue 17): the bag a player who survived two flights
plays with, and the tournaments' parts of Day 2's start (seating.services.day2).

The survivor rule itself is pure (tournaments.engine.day2). A forfeited bag is kept with
its reason, never deleted.
"""

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, NotFound
from tournaments.engine import day2 as day2_engine
from tournaments.messages import day2_refusal
from tournaments.models import (
    Bag,
    BagStatus,
    Entry,
    SurvivorKeeps,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import bag_label, day2_started
from tournaments.services import lookup_changed, tournament_lock, tournament_publish


def day2_refuse(code: str, **data) -> Conflict:
    return Conflict(day2_refusal(code, **data), code=code, data=data)


@transaction.atomic
def bag_choose(*, actor, bag_id: int) -> Bag:
    """A player who survived two flights says which bag plays Day 2, where the house
    lets the player choose (`survivor_keeps`: choose).

    1. The bag and its event found; lock the event (once).
    2. The checks: the house lets players choose, Day 2 has not begun, the player has
       another bag in the event's flights (their bags locked).
    3. The chosen bag stays sealed (one forfeited by an earlier choice is sealed again);
       the player's other bags are forfeited, the reason recorded (never deleted).
    4. The audit entry; the live event on commit.
    """
    bag = Bag.objects.select_related("flight", "entry").filter(pk=bag_id).first()
    if bag is None or bag.flight.parent_id is None:
        raise NotFound(_("No such bag."))
    event = tournament_lock(bag.flight.parent_id)
    if event.survivor_keeps != SurvivorKeeps.CHOOSE:
        raise day2_refuse("bag_choice_not_allowed")
    if event.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise day2_refuse("tournament_closed")
    if day2_started(event):
        raise day2_refuse("day2_started")
    own = list(
        Bag.objects.select_for_update(of=("self",))
        .select_related("flight")
        .filter(flight__parent=event, entry__player_id=bag.entry.player_id)
        .order_by("pk")
    )
    if len(own) < 2:
        raise day2_refuse("bag_choice_single")
    chosen = next(b for b in own if b.pk == bag.pk)
    label = bag_label(chosen.flight, chosen)
    before = {str(b.pk): b.status for b in own}
    forfeited = []
    for other in own:
        if other.pk == chosen.pk:
            other.status, other.forfeit_reason = BagStatus.SEALED, ""
        else:
            other.status = BagStatus.FORFEITED
            other.forfeit_reason = _("The player chose bag %(bag)s for Day 2.") % {"bag": label}
            forfeited.append(other.pk)
    Bag.objects.bulk_update(own, ["status", "forfeit_reason"])
    audit_record(
        actor=actor,
        action="bag.choose",
        obj=chosen,
        tournament=event,
        before={"bags": before},
        after={"kept": chosen.pk, "forfeited": forfeited, "player": chosen.entry.player_id},
    )
    tournament_publish(event)
    return chosen


# --- The tournaments' parts of Day 2's start (seating.services.day2.day2_start) -------------

FORFEIT_REASONS = {
    day2_engine.LARGER: gettext_noop(
        "Survived another flight: the larger stack, bag %(bag)s, plays Day 2."
    ),
    day2_engine.FIRST: gettext_noop(
        "Survived another flight: the first flight's stack, bag %(bag)s, plays Day 2."
    ),
}


def day2_flights_lock(event: Tournament) -> list[Tournament]:
    """The event's flights locked in one order (by id), under the event's lock that the
    caller holds: no flight's bags change while Day 2 starts. Their ends of day come
    with them."""
    locked = list(
        Tournament.objects.select_for_update(of=("self",))
        .filter(parent=event)
        .select_related("flight_end")
        .order_by("pk")
    )
    return sorted(locked, key=lambda f: (f.start_at, f.pk))


def day2_bags_settle(
    *, event: Tournament, flights: list[Tournament]
) -> tuple[day2_engine.Outcome, list[Bag], list[Bag]]:
    """The survivor rule applied, under the caller's lock: the bags still sealed in the
    event's flights (locked), the bag each player keeps (tournaments.engine.day2) and
    the others forfeited with their reason. Returns the outcome, the bags carried (first
    flight first, by bag number) and the bags forfeited now; a refusal is the caller's
    (the outcome says who must still choose), and nothing is written then."""
    order = {f.pk: i for i, f in enumerate(flights)}
    sealed = list(
        Bag.objects.select_for_update(of=("self",))
        .select_related("entry")
        .filter(flight__in=flights, status=BagStatus.SEALED)
        .order_by("pk")
    )
    outcome = day2_engine.survivors(
        [day2_engine.BagView(b.pk, b.entry.player_id, b.chips, order[b.flight_id]) for b in sealed],
        event.survivor_keeps,
    )
    if not outcome.ready:
        return outcome, [], []
    by_pk = {b.pk: b for b in sealed}
    by_flight = {f.pk: f for f in flights}
    forfeited = []
    for forfeit in outcome.forfeits:
        bag, kept = by_pk[forfeit.bag], by_pk[forfeit.kept]
        bag.status = BagStatus.FORFEITED
        # Kept in the house's language of record: a reason on file, not a page's text.
        bag.forfeit_reason = _(FORFEIT_REASONS[forfeit.why]) % {
            "bag": bag_label(by_flight[kept.flight_id], kept)
        }
        forfeited.append(bag)
    carried = sorted(
        (by_pk[pk] for pk in outcome.carried), key=lambda b: (order[b.flight_id], b.number)
    )
    return outcome, carried, forfeited


def day2_entries_create(
    *, actor, event: Tournament, carried: list[Bag], forfeited: list[Bag]
) -> list[Entry]:
    """One Day 2 entry on the event per bag carried, with the bag's chips, under the
    caller's lock; the bag marks it (`Bag.day2_entry`, on to Day 2) and the forfeited
    bags are saved with their reasons. No ledger line: the money was paid in the
    flight. The audit entry is the caller's (day2.start)."""
    number = (event.entries.aggregate(n=Max("number"))["n"] or 0) + 1
    staff = staff_user(actor)
    entries = Entry.objects.bulk_create(
        [
            Entry(
                tournament=event,
                player_id=bag.entry.player_id,
                number=number + i,
                reentry_number=1,
                chips=bag.chips,
                registered_by=staff,
            )
            for i, bag in enumerate(carried)
        ]
    )
    for bag, entry in zip(carried, entries, strict=True):
        bag.status, bag.day2_entry = BagStatus.CARRIED, entry
    Bag.objects.bulk_update(carried, ["status", "day2_entry"])
    Bag.objects.bulk_update(forfeited, ["status", "forfeit_reason"])
    lookup_changed([event.pk])
    return entries
