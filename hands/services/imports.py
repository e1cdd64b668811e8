"""The hands app's part of importing another program's event (issue 22): its bust-outs,
without hands. Run inside the caller's transaction (prizes.services.imports.td3_import)
on an event nobody else knows yet: no lock, no audit entry of its own, no live event."""

from floorman.audit import staff_user
from hands.models import Elimination, Knockout, KnockoutSource
from tournaments.models import Entry, Tournament


def eliminations_import(
    *, actor, tournament: Tournament, busts: list[tuple[Entry, list[Entry]]], key: str
) -> None:
    """One elimination per busted entry, in the order given, which places them (the
    first given finishes last: hands.engine.places); each its own hand key, "i<key>-<n>",
    as no hand was logged and nobody shared one. The eliminators the file names become
    knockouts without a bounty (source "import", cash 0): Floorman's one record of who
    eliminated whom (hands.Knockout), which pays nothing outside a bounty event."""
    by = staff_user(actor)
    Elimination.objects.bulk_create(
        Elimination(
            tournament=tournament,
            entry=entry,
            hand_key=f"i{key}-{number}"[:24],
            recorded_by=by,
        )
        for number, (entry, _eliminators) in enumerate(busts, start=1)
    )
    Knockout.objects.bulk_create(
        Knockout(
            tournament=tournament,
            busted=entry,
            winner=winner,
            cash=0,
            source=KnockoutSource.IMPORT,
            recorded_by=by,
        )
        for entry, eliminators in busts
        for winner in dict.fromkeys(eliminators)
        if winner.pk != entry.pk
    )
