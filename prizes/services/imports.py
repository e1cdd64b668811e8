"""Importing The Tournament Director's save files (issue 22, items 6-8): a finished event
as history (its entries, money, bust-outs, places and prizes paid), and any file as an
event template (structure, payouts, settings). It lives here, in the highest app it
touches: each lower app writes its own part (tournaments: players, entries and ledger
lines; clock: the structure; hands: the bust-outs; prizes: the payout table, payments,
the template and the import's record).

The file is read by tournaments.engine.td3 and understood by td3_event, before anything
is written; one transaction for the whole file, so a refusal anywhere leaves nothing.
"""

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid
from hands.services.imports import eliminations_import
from payouts.models import PayoutLock, PlacesMode
from prizes.messages import td3_message
from prizes.models import EventTemplate, Payment, Td3Draft, Td3Import
from prizes.services import _freeze, _structure_locked
from prizes.services.events import NAME_MAX, _event_from
from tournaments.engine import td3, td3_event
from tournaments.models import TournamentStatus, TransactionKind
from tournaments.selectors import player_proposals
from tournaments.services import tournament_status_write
from tournaments.services.imports import entries_import, players_import
from tournaments.services.ledger import ledger_line_add

MAX_BYTES = td3.MAX_BYTES
EARLIEST = datetime.min.replace(tzinfo=UTC)


def file_read(data: bytes) -> td3_event.Event:
    """The file's event, or Invalid on "file" with the reason in the reader's language."""
    try:
        return td3_event.event_read(data)
    except td3.Td3Error as error:
        raise Invalid({"file": td3_message(error)}) from None


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def already_imported(data: bytes) -> Td3Import | None:
    return Td3Import.objects.filter(sha256=sha256_of(data)).select_related("tournament").first()


def event_title(event: td3_event.Event, file_name: str) -> str:
    title = event.title or file_name.rsplit("/", 1)[-1].removesuffix(".tdt").strip()
    return (title if any(c.isalnum() for c in title) else _("Imported event"))[:NAME_MAX]


def setup_of(event: td3_event.Event) -> dict:
    """The event's setup as prizes.selectors.event_setup gives one (for a template, and
    the history's event): money, stack, re-entries, rebuys and add-on from the file's
    profiles, the blind structure, the payout table following the pool as the program's
    prizes shared it (a house table of shares, when the file's prizes add up)."""
    buy_in = event.buy_in or td3_event.Profile("", 0, 0, 0)
    stack = buy_in.chips or next((e.chips for e in event.entries if e.chips), 0)
    rebuy, addon = event.rebuy, event.addon
    levels = [step for step in event.levels if step.kind == td3_event.LEVEL]
    first_break = next(
        (
            sum(1 for s in event.levels[:index] if s.kind == td3_event.LEVEL)
            for index, step in enumerate(event.levels)
            if step.kind == td3_event.BREAK
        ),
        None,
    )
    rebuys_on = bool(rebuy and rebuy.allowed and rebuy.price and rebuy.chips)
    addon_on = bool(addon and addon.allowed and addon.price and addon.chips and first_break)
    reentries = [e.level for e in event.entries if e.reentry_number > 1 and e.level]
    setup_event = {
        "buy_in": buy_in.price,
        "fee": buy_in.fee,
        "starting_stack": stack or 1,
        "reentry_allowed": bool(reentries) or rebuys_on,
        "reentry_until_level": max(reentries) if reentries else None,
        "rebuy_price": rebuy.price if rebuys_on else 0,
        "rebuy_fee": rebuy.fee if rebuys_on else 0,
        "rebuy_chips": rebuy.chips if rebuys_on else 0,
        "rebuy_until_level": (max((e.level or 1 for e in event.entries), default=1))
        if rebuys_on and event.rebuys
        else None,
        "addon_price": addon.price if addon_on else 0,
        "addon_fee": addon.fee if addon_on else 0,
        "addon_chips": addon.chips if addon_on else 0,
        "addon_at_break_after_level": first_break if addon_on else None,
    }
    steps = [
        {
            "kind": step.kind,
            "minutes": step.minutes,
            "small_blind": step.small_blind,
            "big_blind": step.big_blind,
            "ante": step.ante,
            "ante_type": step.ante_type,
        }
        for step in event.levels
    ]
    clock = {"structure": {"name": event.title, "chip_set": None, "steps": steps}} if levels else {}
    return {"event": setup_event, "clock": clock, "payouts": _payout_settings(event)}


def _payout_settings(event: td3_event.Event) -> dict:
    """The file's prizes as the house's shares per place (basis points, best first), when
    they are whole, fall from place to place and pay the whole pool."""
    amounts = [event.payouts.get(place, 0) for place in range(1, max(event.payouts, default=0) + 1)]
    total = sum(amounts)
    if not total or any(later > earlier for earlier, later in pairwise(amounts)):
        return {}
    shares = [amount * 10_000 // total for amount in amounts]
    shares[0] += 10_000 - sum(shares)
    if any(later > earlier for earlier, later in pairwise(shares)):
        return {}
    return {"shares": shares, "places_mode": PlacesMode.FIXED, "places_fixed": len(shares)}


@dataclass(frozen=True)
class Imported:
    record: Td3Import
    event: td3_event.Event


def _template_name(title: str) -> str:
    """The file's title, made free among the templates (an import replaces none)."""
    name, number = title, 1
    while EventTemplate.objects.filter(name=name).exists():
        number += 1
        suffix = f" ({number})"
        name = title[: NAME_MAX - len(suffix)] + suffix
    return name


DRAFTS_KEPT = timedelta(days=1)


@transaction.atomic
def td3_draft_keep(*, actor, data: bytes, file_name: str) -> Td3Draft:
    """Keep an uploaded file for its review page. One waiting file per director: the one
    before goes, as do those left for longer than a day. Not audited: nothing is
    imported until the confirmation (td3_import, which removes the draft)."""
    Td3Draft.objects.filter(uploaded_by=actor).delete()
    Td3Draft.objects.filter(uploaded_at__lt=timezone.now() - DRAFTS_KEPT).delete()
    return Td3Draft.objects.create(data=data, file_name=file_name[:255], uploaded_by=actor)


def td3_draft_drop(*, draft_id: int) -> None:
    """A waiting file that can no longer be read is dropped."""
    Td3Draft.objects.filter(pk=draft_id).delete()


@transaction.atomic
def td3_import(
    *,
    actor,
    data: bytes,
    file_name: str,
    history: bool = True,
    template: bool = False,
    contacts: bool = False,
    players: dict[str, int | None] | None = None,
    draft_id: int | None = None,
) -> Imported:
    """Import a Tournament Director save file, in one transaction.

    1. The file read and understood (tournaments.engine.td3, td3_event): a damaged file,
       or one that makes no sense, is refused (400 on "file") before anything is written.
    2. The same file imported before (by its SHA-256), or, as history, the same event
       (the file's tournament id): 409, nothing written. The record is written first, so
       that two imports of one file at once queue on its unique key.
    3. As history (a finished event only, else 400): the event from the file's setup,
       as a copy is made (prizes.services.events._event_from: clock with its structure,
       payout settings, seating, hand-for-hand), dated at its first buy-in.
    4. The players (tournaments.services.imports.players_import): `players` names each
       file id's player (None: a new one); without it, the proposals (the link from an
       earlier import, then the same name). Contact data only with `contacts`.
    5. The entries with their buy-ins, re-entries, rebuys and add-ons as ledger lines
       (entries_import).
    6. The bust-outs (hands.services.imports.eliminations_import) in the order that gives
       each player's last entry the file's place: first the entries a player re-entered
       after, then the others as the program placed them; the eliminators as knockouts
       without a bounty.
    7. The payout table, frozen at the file's prizes, and each prize paid (a PAYOUT line
       and its Payment on the player's last entry).
    8. The event finished (tournament_status_write: its one writer).
    9. As a template: an EventTemplate with the setup, under a name not taken.
    10. One audit entry, td3.import; the file's draft (its review page's) removed.
    """
    event = file_read(data)
    if not history and not template:
        raise Invalid({"history": _("Import the event as history, as a template, or both.")})
    if history and not event.finished:
        raise Invalid(
            {
                "history": _(
                    "The event in this file is not finished (not every player has a place): "
                    "it can only become a template."
                )
            }
        )
    sha256 = sha256_of(data)
    found = already_imported(data)
    if found is not None:
        raise _already(found)
    title = event_title(event, file_name)
    try:
        with transaction.atomic():
            record = Td3Import.objects.create(
                sha256=sha256,
                file_name=file_name[:255],
                version=event.version,
                file_tournament_id=event.file_id,
                title=title,
                league=event.league,
                season=event.season,
                imported_by=staff_user(actor),
            )
    except IntegrityError:
        raise _already(already_imported(data)) from None
    setup = setup_of(event)
    counts = {
        "players": len(event.people),
        "entries": len(event.entries),
        "reentries": event.reentries,
        "rebuys": event.rebuys,
        "addons": event.addons,
        "busts": event.busts,
        "places": len(event.places),
        "prize_pool": event.prize_pool,
    }
    if history:
        record.tournament = _history(actor, event, setup, title, players, contacts, record.pk)
    if template:
        record.template = EventTemplate.objects.create(
            name=_template_name(title),
            setup={**setup, "seating": {}, "hand_for_hand": {}},
            saved_from=title,
            saved_by=staff_user(actor),
        )
    record.counts = counts
    try:
        with transaction.atomic():
            record.save(update_fields=["tournament", "template", "counts"])
    except IntegrityError:  # the same event imported as history from another file
        raise _already(
            Td3Import.objects.filter(file_tournament_id=event.file_id, tournament__isnull=False)
            .select_related("tournament")
            .first()
        ) from None
    audit_record(
        actor=actor,
        action="td3.import",
        obj=record,
        tournament=record.tournament,
        after={
            "file": record.file_name,
            "sha256": sha256,
            "version": event.version,
            "league": event.league,
            "season": event.season,
            "tournament": record.tournament_id,
            "template": record.template_id,
            "contacts": contacts,
            **counts,
        },
    )
    if draft_id is not None:
        Td3Draft.objects.filter(pk=draft_id).delete()
    return Imported(record=record, event=event)


def _already(found: Td3Import | None) -> Conflict:
    where = found.tournament.name if found and found.tournament else (found.title if found else "")
    return Conflict(
        _("This file was imported already (as “%(name)s”): nothing was changed.") % {"name": where},
        code="td3_already_imported",
        data={
            "import": found.pk if found else None,
            "tournament": found.tournament_id if found else None,
        },
    )


def _history(actor, event, setup, title, chosen, contacts, key):
    """Steps 3 to 8: the finished event with everything that happened in it."""
    ended = max(
        (e.bust.at for e in event.entries if e.bust is not None and e.bust.at), default=None
    )
    start_at: datetime = event.start_at or timezone.now()
    tournament = _event_from(setup, name=title, start_at=start_at, tables=False)
    if chosen is None:
        chosen = {
            p.file_id: p.player.pk if p.player else None for p in player_proposals(event.people)
        }
    players = players_import(people=list(event.people), chosen=chosen, contacts=contacts)
    _players_distinct(event, players)
    entries = entries_import(
        actor=actor,
        tournament=tournament,
        rows=list(event.entries),
        players=players,
        ended_at=ended,
    )
    rows = list(zip(event.entries, entries, strict=True))
    last = {row.player: entry for row, entry in rows}  # each player's last entry
    eliminations_import(
        actor=actor, tournament=tournament, busts=_busts_in_order(event, rows, last), key=str(key)
    )
    _prizes_paid(actor, tournament, event, last)
    tournament_status_write(tournament=tournament, status=TournamentStatus.FINISHED)
    return tournament


def _players_distinct(event, players) -> None:
    """Two of the file's people as one player would give that player two entries in
    play at once, or two first entries: the director chooses again."""
    seen: dict[int, str] = {}
    for person in event.people:
        pk = players[person.file_id].pk
        if pk in seen:
            raise Invalid(
                {
                    f"player_{person.file_id}": _(
                        "%(one)s and %(other)s cannot both be the same player."
                    )
                    % {"one": seen[pk], "other": person.name}
                }
            )
        seen[pk] = person.name


def _entry_at(rows, file_id: str, at):
    """The eliminator's entry in play at the bust's time: bought before it and not out
    before it; else their last entry."""
    theirs = [(row, entry) for row, entry in rows if row.player == file_id]
    for row, entry in theirs:
        bought = row.at is None or at is None or row.at <= at
        out = (
            row.bust is not None and row.bust.at is not None and at is not None and row.bust.at < at
        )
        if bought and not out:
            return entry
    return theirs[-1][1] if theirs else None


def _busts_in_order(event, rows, last) -> list:
    """The busts in the order that places them as the file does (hands.engine.places:
    the first recorded finishes last): the entries re-entered after come first, by
    time; then each player's last entry from the worst place to the best."""
    earlier = sorted(
        ((row, entry) for row, entry in rows if row.bust is not None and last[row.player] != entry),
        key=lambda pair: pair[0].bust.at or EARLIEST,
    )
    final = sorted(
        (
            (row, entry)
            for row, entry in rows
            if row.bust is not None and last[row.player] == entry and row.player in event.places
        ),
        key=lambda pair: -event.places[pair[0].player],
    )
    busts = []
    for row, entry in [*earlier, *final]:
        eliminators = [
            found
            for file_id in row.bust.eliminators
            if (found := _entry_at(rows, file_id, row.bust.at)) is not None
        ]
        busts.append((entry, eliminators))
    return busts


def _prizes_paid(actor, tournament, event, last) -> None:
    """Step 7: the table frozen at the file's prizes, every prize paid as a PAYOUT line
    and its Payment (prizes' own rows; the ledger's line through its one writer)."""
    if not event.payouts:
        return
    structure = _structure_locked(tournament)
    amounts = [event.payouts.get(p, 0) for p in range(1, max(event.payouts) + 1)]
    _freeze(tournament, structure, amounts)
    structure.edited = True
    structure.lock = PayoutLock.LOCKED
    structure.save(update_fields=["edited", "lock"])
    for file_id, amount in event.prizes_won.items():
        entry = last.get(file_id)
        if entry is None or amount <= 0:
            continue
        line = ledger_line_add(
            tournament=tournament,
            entry=entry,
            kind=TransactionKind.PAYOUT,
            amount=-amount,
            prize_share=-amount,
            fee_share=0,
            cashier=staff_user(actor),
        )
        Payment.objects.create(entry=entry, line=line)
