"""The tournaments' part of importing another program's event (issue 22): its players,
found or made and linked to the file's ids, and its entries with their ledger lines.
Plain functions run inside the caller's transaction (prizes.services.imports.td3_import),
on an event nobody else knows yet; they write no audit entry of their own (the import
writes one for the whole file) and send no live event (no screen shows the event yet).
"""

from datetime import datetime

from django.utils import timezone

from floorman.audit import staff_user
from tournaments.engine import td3_event
from tournaments.models import (
    Entry,
    EntryStatus,
    Player,
    PlayerLink,
    Tournament,
    TransactionKind,
)
from tournaments.services.ledger import ledger_line_add


def players_import(
    *,
    people: list[td3_event.Person],
    chosen: dict[str, int | None],
    contacts: bool,
    source: str = PlayerLink.Source.TD3,
) -> dict[str, Player]:
    """The file's people as players, {file id: Player}: the one `chosen` names (by id),
    else a new player with the file's name and nickname, and its email and phone only
    with `contacts` (an email another player has already is left out: one person per
    email). Each file id is linked to its player unless it was linked already."""
    wanted = {pk for pk in chosen.values() if pk is not None}
    existing = Player.objects.in_bulk(wanted)
    taken = {
        email.lower()
        for email in Player.objects.exclude(email="").values_list("email", flat=True)
        if contacts and email
    }
    found: dict[str, Player] = {}
    for person in people:
        player = existing.get(chosen.get(person.file_id))
        if player is None:
            email = person.email if contacts and person.email.lower() not in taken else ""
            taken.add(email.lower())
            player = Player.objects.create(
                name=person.name,
                nickname=person.nickname,
                email=email,
                phone=person.phone if contacts else "",
            )
        found[person.file_id] = player
    linked = set(
        PlayerLink.objects.filter(source=source, external_id__in=list(found)).values_list(
            "external_id", flat=True
        )
    )
    PlayerLink.objects.bulk_create(
        PlayerLink(source=source, external_id=file_id, player=player)
        for file_id, player in found.items()
        if file_id not in linked
    )
    return found


def entries_import(
    *,
    actor,
    tournament: Tournament,
    rows: list[td3_event.EntryRow],
    players: dict[str, Player],
    ended_at: datetime | None,
) -> list[Entry]:
    """Every entry of the file, numbered in the order bought, busted or still in play,
    with its rebuys and add-ons and their ledger lines (through the ledger's one
    writer: buy-in or re-entry, then each rebuy and add-on, prize money and fee apart).
    A bust without a time is dated `ended_at`."""
    cashier = staff_user(actor)
    entries = []
    for number, row in enumerate(rows, start=1):
        purchases = row.purchases
        busted = row.bust is not None
        entry = Entry.objects.create(
            tournament=tournament,
            player=players[row.player],
            number=number,
            reentry_number=row.reentry_number,
            status=EntryStatus.BUSTED if busted else EntryStatus.ACTIVE,
            chips=0 if busted else row.chips + sum(p.chips for p in purchases),
            rebuys=sum(1 for p in purchases if p.kind == "rebuy"),
            addon=any(p.kind == "addon" for p in purchases),
            registered_by=cashier,
            busted_at=(row.bust.at or ended_at or timezone.now()) if busted else None,
        )
        if row.at is not None:  # the file's time, not the import's (auto_now_add)
            Entry.objects.filter(pk=entry.pk).update(registered_at=row.at)
        ledger_line_add(
            tournament=tournament,
            entry=entry,
            kind=TransactionKind.REENTRY if row.reentry_number > 1 else TransactionKind.BUY_IN,
            amount=row.price + row.fee,
            prize_share=row.price,
            fee_share=row.fee,
            cashier=cashier,
        )
        for purchase in purchases:
            ledger_line_add(
                tournament=tournament,
                entry=entry,
                kind=TransactionKind.REBUY if purchase.kind == "rebuy" else TransactionKind.ADDON,
                amount=purchase.price + purchase.fee,
                prize_share=purchase.price,
                fee_share=purchase.fee,
                cashier=cashier,
            )
        entries.append(entry)
    return entries
