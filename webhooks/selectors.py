"""Reads of the webhooks app (issue 22)."""

from django.db.models import Q, QuerySet

from floorman import versions
from tournaments.models import Tournament, Venue
from webhooks.models import Delivery, DeliveryStatus, Endpoint

# The house's "is any endpoint active?" kept per version (floorman.versions), so that a
# floor action in a house without webhooks costs no query: every change of an endpoint
# renews the version (webhooks.services), in its transaction and on commit.
KIND = "webhooks"
HOUSE = 0  # the versions are per tournament; the house's flag is filed under none
ACTIVE_KEY = "webhooks:any-active"


def any_active() -> bool:
    """Whether any endpoint in the house is active: one cache round trip, and a query
    only when the version changed since this process last read it."""
    return versions.screen_cached(
        ACTIVE_KEY,
        HOUSE,
        lambda: Endpoint.objects.filter(active=True).exists(),
        kinds=(KIND,),
    )


def endpoints_changed() -> None:
    versions.screens_changed([HOUSE], kind=KIND)


def endpoints_for(tournament: Tournament, venue_id: int | None) -> list[Endpoint]:
    """The active endpoints that hear of `tournament`: its own, its parent event's (a
    flight), and its venue's (`venue_id`: the event's, or the default venue's)."""
    scope = Q(tournament_id=tournament.pk)
    if tournament.parent_id is not None:
        scope |= Q(tournament_id=tournament.parent_id)
    if venue_id is not None:
        scope |= Q(venue_id=venue_id)
    return list(Endpoint.objects.filter(scope, active=True).order_by("pk"))


def venue_of(tournament: Tournament) -> int | None:
    """The venue whose endpoints hear of the event: its own, else its parent's (a flight
    follows its event), else the default venue."""
    if tournament.venue_id is not None:
        return tournament.venue_id
    if tournament.parent_id is not None:
        parent_venue = (
            Tournament.objects.filter(pk=tournament.parent_id)
            .values_list("venue_id", flat=True)
            .first()
        )
        if parent_venue is not None:
            return parent_venue
    return Venue.objects.filter(is_default=True).values_list("pk", flat=True).first()


def endpoints_of(*, venue: Venue | None = None, tournament: Tournament | None = None):
    """A venue's or an event's endpoints, oldest first (one query)."""
    found = Endpoint.objects.all()
    if venue is not None:
        found = found.filter(venue=venue)
    if tournament is not None:
        found = found.filter(tournament=tournament)
    return found.select_related("venue", "tournament").order_by("pk")


def endpoints_all() -> QuerySet[Endpoint]:
    return Endpoint.objects.select_related("venue", "tournament").order_by("pk")


def deliveries_of(endpoint: Endpoint, *, status: str = "") -> QuerySet[Delivery]:
    """The endpoint's delivery log, newest first; `status` filters (dead: the dead letters)."""
    found = Delivery.objects.filter(endpoint=endpoint).defer("payload")
    if status:
        found = found.filter(status=status)
    return found.order_by("-pk")


def dead_letters_count(endpoint: Endpoint) -> int:
    return Delivery.objects.filter(endpoint=endpoint, status=DeliveryStatus.DEAD).count()
