"""Bounty events and their knockouts for the cashier's tests (issue 18).

Knockouts are recorded by the hands app's bust services; here they are written directly
(the model is stable), so that paying and showing them is tested on its own."""

from django.utils import timezone

from floorman.versions import screens_changed
from hands.models import Knockout, KnockoutSource
from tournaments.models import EntryStatus, Tournament
from tournaments.tests.factories import field, tournament


def bounty_event(bounty_format: str = "knockout", *, bounty: int = 5000, count: int = 6, **more):
    """A €100 + €10 event with a €50 bounty on every head (`bounty_format`), and its field."""
    event = tournament(bounty_format=bounty_format, bounty=bounty, **more)
    return event, field(event, count)


def knockout(
    event: Tournament,
    busted,
    winner,
    *,
    cash: int | None = None,
    added: int = 0,
    draw: int | None = None,
    source: str = KnockoutSource.FLOOR,
    hand=None,
    bust: bool = True,
) -> Knockout:
    """`winner` knocked `busted` out; `cash` the event's bounty unless given. With
    `bust`, the busted entry is out (the winner's own bounty at the end is not a bust)."""
    if bust and busted.pk != winner.pk:
        type(busted).objects.filter(pk=busted.pk).update(status=EntryStatus.BUSTED)
    screens_changed([event.pk])  # as the bust's service does, under the event's lock
    return Knockout.objects.create(
        tournament=event,
        busted=busted,
        winner=winner,
        hand=hand,
        cash=event.bounty if cash is None else cash,
        added=added,
        draw=draw,
        source=source,
    )


def reversed_knockout(event: Tournament, busted, winner, **kwargs) -> Knockout:
    """A knockout a correction took back (the hands app's: `reversed_at` set)."""
    found = knockout(event, busted, winner, **kwargs)
    Knockout.objects.filter(pk=found.pk).update(reversed_at=timezone.now())
    found.refresh_from_db()
    return found
