"""The code that changes tournaments, players, entries and the ledger.

A public function decorated with @transaction.atomic is one user intention: one
transaction, the tournament row locked where two staff could collide, one audit entry,
live events after commit. The others are tournaments' parts of intentions that reach
higher apps (a bust in hands.services.busts; registration, rebuys and the event's status
in seating.services.desk): they run under the caller's lock, inside its transaction, and
never call up (docs/architecture.md).
"""

import json
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.database.rows import column_set
from floorman.errors import Conflict, Invalid, NotFound
from floorman.names import name_visible
from floorman.versions import screens_changed
from tournaments import engine

# The registry by another name: `tournaments.services.house` is the house settings services.
from tournaments.house import offered as house_offered
from tournaments.messages import refusal_message
from tournaments.models import (
    LOOKUP_CHANGES_KEPT,
    MAX_MONEY,
    Alternate,
    AlternateStatus,
    BountyFormat,
    Entry,
    EntryStatus,
    LookupChange,
    Player,
    Ticket,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
    Venue,
)
from tournaments.selectors import (
    SETUP_FIELDS,
    active_entry_count,
    bounty_due,
    day2_late_sale,
    entry_public,
    event_lines,
    waiting_alternates,
)
from tournaments.services.flights import flight_entry_refuse
from tournaments.services.ledger import ledger_line_add
from tournaments.services.ticket_ledger import ticket_give_back, ticket_line

LOCK_TIMEOUT = "5s"


def refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code), code=code, data=data)


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock the tournament row for this transaction.

    Registrations, busts and money for one tournament queue up behind this lock, so
    counts, entry numbers and capacity are decided one at a time. If the lock is not
    free within LOCK_TIMEOUT the request fails as busy instead of hanging.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(_("No such tournament.")) from None
    live.flight_note(tournament.pk, tournament.parent_id)  # a flight's events reach its event
    # Whatever the caller changes, its screens' cached pages are out of date (a flight's
    # numbers count in its event's).
    screens_changed([tournament.pk, tournament.parent_id])
    return tournament


# The bump and its change log in one statement (PostgreSQL; the rows are locked already).
BUMP_AND_LOG_SQL = """
WITH bumped AS (
    UPDATE tournaments_tournament SET lookup_version = lookup_version + 1
    WHERE id = ANY(%s) RETURNING id, lookup_version
)
INSERT INTO tournaments_lookupchange (tournament_id, slot, version, entries)
SELECT id, lookup_version %% %s, lookup_version, %s::jsonb FROM bumped
ON CONFLICT (tournament_id, slot)
DO UPDATE SET version = EXCLUDED.version, entries = EXCLUDED.entries
"""


def lookup_changed(tournament_ids, entry_ids=None) -> None:
    """Entries, names or seats changed: the seat lookup's cached index is out of date.

    Bumped in the changing transaction itself (seating.lookup explains why that is safe),
    with the entries whose rows changed in the change log (LookupChange), so that each
    web process updates its index with those rows instead of rebuilding it; None when
    any row may have changed (the processes rebuild). The one writer of both. Two
    queries, as the bump alone took. Rows are locked in id order so that two renames
    never wait on each other in a circle.
    """
    entries = None if entry_ids is None else json.dumps(sorted(set(entry_ids)))
    if connection.vendor == "postgresql":
        ids = list(
            Tournament.objects.select_for_update()
            .filter(pk__in=tournament_ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if ids:
            with connection.cursor() as cursor:
                cursor.execute(BUMP_AND_LOG_SQL, [ids, LOOKUP_CHANGES_KEPT, entries])
        screens_changed(ids)  # a rename shows on the screens too
        return
    # SQLite locks the whole database for the writer: no rows to lock, no statement that
    # both updates and inserts.
    chosen, params = (
        Tournament.objects.filter(pk__in=tournament_ids).order_by().values("pk").query
    ).sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_tournament SET lookup_version = lookup_version + 1 "
            f"WHERE id IN ({chosen}) RETURNING id, lookup_version",
            params,
        )
        bumped = cursor.fetchall()
    LookupChange.objects.bulk_create(
        [
            LookupChange(
                tournament_id=pk,
                slot=version % LOOKUP_CHANGES_KEPT,
                version=version,
                entries=None if entries is None else json.loads(entries),
            )
            for pk, version in bumped
        ],
        update_conflicts=True,
        unique_fields=["tournament", "slot"],
        update_fields=["version", "entries"],
    )
    screens_changed(pk for pk, _version in bumped)


def _snapshot(obj, fields: tuple[str, ...]) -> dict:
    data = {}
    for name in fields:
        value = getattr(obj, name)
        data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return data


# What a tournament's audit entries show of it: its setup (one list, tournaments.selectors),
# its name, start and level in play.
TOURNAMENT_FIELDS = ("name", *SETUP_FIELDS, "start_at", "current_level", "satellite_target_id")
MONEY_FIELDS = ("buy_in", "fee", "currency")
# Once sold, a rebuy or add-on keeps its price and fee: the ledger's lines must agree.
# Issue 18: the bounty is sold with every buy-in and re-entry; once money or a ticket was
# taken at one price, the bounty format and bounty stay as they are.
BOUNTY_MONEY_FIELDS = ("bounty_format", "bounty")
# How eliminations are settled: fixed once the first knockout was recorded (issue 18), so
# every bounty of the event is settled alike and the mystery draws replay.
BOUNTY_SETTLE_FIELDS = ("bounty_cash_percent", "mystery_start", "mystery_prizes")
REBUY_MONEY_FIELDS = {
    TransactionKind.REBUY: ("rebuy_price", "rebuy_fee"),
    TransactionKind.ADDON: ("addon_price", "addon_fee"),
}


def tournament_check(data: dict) -> None:
    """Rules between fields of a tournament's setup."""
    errors: dict[str, str] = {}
    if not data.get("reentry_allowed"):
        for name in ("reentry_max", "reentry_until_level"):
            if data.get(name) is not None:
                errors[name] = _("Only with re-entries allowed.")
    if data.get("rebuy_until_level") is not None:
        if not data.get("rebuy_price"):
            errors["rebuy_price"] = _("Rebuys need a price.")
        if not data.get("rebuy_chips"):
            errors["rebuy_chips"] = _("Rebuys need a number of chips.")
    if data.get("addon_at_break_after_level") is not None:
        if not data.get("addon_price"):
            errors["addon_price"] = _("The add-on needs a price.")
        if not data.get("addon_chips"):
            errors["addon_chips"] = _("The add-on needs a number of chips.")
    errors.update(_bounty_errors(data))
    if errors:
        raise Invalid(errors)


MYSTERY_PRIZE_COUNT_MAX = 100_000


def _bounty_errors(data: dict) -> dict[str, str]:
    """Issue 18: a knockout or progressive knockout needs a bounty on every entry; a
    mystery bounty event its published list of prizes (each a positive amount and a count
    of none or more), which its bounty money funds; no bounty without a format."""
    errors: dict[str, str] = {}
    bounty_format = data.get("bounty_format") or BountyFormat.NONE
    bounty = data.get("bounty") or 0
    prizes = data.get("mystery_prizes") or []
    if bounty_format not in BountyFormat.values:
        errors["bounty_format"] = _("Unknown bounty format.")
    if bounty < 0:
        errors["bounty"] = _("An amount cannot be negative.")
    elif bounty_format in (BountyFormat.KNOCKOUT, BountyFormat.PROGRESSIVE) and bounty <= 0:
        errors["bounty"] = _("A knockout event needs a bounty on every entry.")
    elif bounty_format == BountyFormat.NONE and bounty:
        errors["bounty"] = _("Only with a bounty format.")
    percent = data.get("bounty_cash_percent")
    if percent is not None and not 0 <= percent <= 100:
        errors["bounty_cash_percent"] = _("A share between 0 and 100 %.")
    if not isinstance(prizes, list) or not all(_mystery_prize_valid(p) for p in prizes):
        errors["mystery_prizes"] = _(
            "Each prize needs a positive amount and a count of none or more."
        )
    elif bounty_format == BountyFormat.MYSTERY and not any(p["count"] for p in prizes):
        errors["mystery_prizes"] = _("A mystery bounty event needs its published list of prizes.")
    elif bounty_format != BountyFormat.MYSTERY and prizes:
        errors["mystery_prizes"] = _("Only for a mystery bounty event.")
    return errors


def _mystery_prize_valid(prize) -> bool:
    if not isinstance(prize, dict) or set(prize) != {"amount", "count"}:
        return False
    amount, count = prize["amount"], prize["count"]
    return (
        type(amount) is int
        and type(count) is int
        and 0 < amount <= MAX_MONEY
        and 0 <= count <= MYSTERY_PRIZE_COUNT_MAX
    )


def satellite_target_check(*, tournament_id: int | None, target_id: int | None) -> None:
    """A satellite's target (issue 17): another event, not finished or cancelled, and not
    a satellite itself (a seat wins a seat, not a seat in a seat); 400 otherwise."""
    if target_id is None:
        return
    target = Tournament.objects.filter(pk=target_id).first()
    message = None
    if target is None:
        message = _("No event with this id.")
    elif target.pk == tournament_id:
        message = _("A satellite cannot win seats in itself.")
    elif target.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        message = _("The target event is finished or cancelled.")
    elif target.satellite_target_id is not None:
        message = _("The target event is a satellite itself.")
    elif tournament_id is not None and target.satellite_target_id == tournament_id:
        message = _("The target event is a satellite of this one.")
    if message:
        raise Invalid({"satellite_target_id": message})


def tournament_public(tournament: Tournament) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "current_level": tournament.current_level,
    }


def tournament_publish(tournament: Tournament) -> None:
    """Tell the live screens the tournament's public state changed."""
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.TOURNAMENT_UPDATED,
        data=tournament_public(tournament),
        series_id=tournament.series_id,  # its series' schedule page (issue 17)
    )


def tournament_add(*, data: dict) -> Tournament:
    """A new event from its setup, planned: the tournaments' part of creating one, by
    hand (tournament_create) or as a copy of another event or of a saved event template
    (prizes.services.events). Nothing else of another event comes with it."""
    tournament_check(data)
    satellite_target_check(tournament_id=None, target_id=data.get("satellite_target_id"))
    tournament = Tournament.objects.create(
        **{k: v for k, v in data.items() if k in TOURNAMENT_FIELDS and k != "current_level"},
        **_house_of_setup(data),
    )
    if "current_level" in data:
        tournament_level_set(tournament=tournament, level=data["current_level"])
    return tournament


def _house_of_setup(data: dict) -> dict:
    """A copy's or template's venue and house settings (issue 19), as far as they still
    hold: a venue since deleted, or a reading no longer offered, is left out."""
    venue_id = data.get("venue_id")
    venue = Venue.objects.filter(pk=venue_id).first() if isinstance(venue_id, int) else None
    chosen = data.get("house_settings")
    readings = house_offered(chosen if isinstance(chosen, dict) else None)
    return {"venue": venue, "house_settings": readings}


@transaction.atomic
def tournament_create(*, actor, data: dict) -> Tournament:
    tournament = tournament_add(data=data)
    audit_record(
        actor=actor,
        action="tournament.create",
        obj=tournament,
        tournament=tournament,
        after=_snapshot(tournament, TOURNAMENT_FIELDS),
    )
    return tournament


def tournament_update(*, actor, tournament: Tournament, data: dict) -> Tournament:
    """The tournaments' part of the director's edit (hands.services.busts.tournament_edit),
    under the caller's lock: the checks, the fields saved, the audit entry and the live
    event."""
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise refuse("tournament_closed")
    before = _snapshot(tournament, TOURNAMENT_FIELDS)
    merged = {**before, **data}
    tournament_check(merged)
    if data.get("satellite_target_id", tournament.satellite_target_id) != (
        tournament.satellite_target_id
    ):
        satellite_target_check(tournament_id=tournament.pk, target_id=data["satellite_target_id"])
        if tournament.satellites.exists() and data["satellite_target_id"] is not None:
            raise Invalid({"satellite_target_id": _("Satellites win seats in this event.")})
    money_changes = any(name in data and data[name] != before[name] for name in MONEY_FIELDS)
    if money_changes and tournament.transactions.exists():
        raise refuse("money_taken")
    if any(name in data and data[name] != before[name] for name in BOUNTY_MONEY_FIELDS):
        # Issue 18: bounties were sold (or a satellite's tickets priced) at the old price.
        sold = Transaction.objects.filter(event_lines(tournament)).exists()
        if sold or Ticket.objects.filter(target=tournament).exists():
            raise refuse("bounty_money_taken")
    if any(name in data and data[name] != before[name] for name in BOUNTY_SETTLE_FIELDS):
        # hands.Knockout names its winner's entry (Entry.knockouts): no import upwards.
        settled = Entry.objects.filter(tournament=tournament, knockouts__isnull=False)
        if tournament.mystery_seed or settled.exists():
            raise refuse("bounties_settled")
    for kind, names in REBUY_MONEY_FIELDS.items():
        changed = any(name in data and data[name] != before[name] for name in names)
        if changed and tournament.transactions.filter(kind=kind).exists():
            raise refuse("money_taken")
    capacity = merged.get("capacity")
    if capacity is not None and capacity < active_entry_count(tournament):
        raise refuse("capacity_below_active")
    # The level has its own writer (tournament_level_set): the clock sets it as well.
    fields = [name for name in data if name in TOURNAMENT_FIELDS and name != "current_level"]
    for name in fields:
        setattr(tournament, name, data[name])
    tournament.save(update_fields=fields)
    if "current_level" in data:
        tournament_level_set(tournament=tournament, level=data["current_level"])
    audit_record(
        actor=actor,
        action="tournament.update",
        obj=tournament,
        tournament=tournament,
        before=before,
        after=_snapshot(tournament, TOURNAMENT_FIELDS),
    )
    tournament_publish(tournament)
    return tournament


def tournament_level_set(*, tournament: Tournament, level: int) -> None:
    """The one writer of `Tournament.current_level`, the level that lists show and
    registration deadlines read while no clock has started (tournaments.selectors
    rules_at, clock.selectors level_in_play). Without a clock the director keeps it by
    hand (tournament_update); with one, the clock is the truth and sets it at every
    change and level end (clock.services, which builds on tournaments and calls down).

    A conditional update: unchanged levels write nothing, and a stale copy of the row
    held elsewhere never writes an old level back."""
    Tournament.objects.filter(pk=tournament.pk).exclude(current_level=level).update(
        current_level=level
    )
    tournament.current_level = level


@dataclass(frozen=True)
class StatusChange:
    """A status change checked and paid back, for its audit entry once it is saved."""

    before: str
    status: str
    refunded: int


def tournament_status_change(*, actor, tournament: Tournament, status: str) -> StatusChange:
    """The tournament's part of a status change (planned → registering → running →
    finished, or cancelled), under the caller's lock: the check and, for a cancelled
    event, the refunds (casino §7: every payment still standing is reversed). Saving the
    status and winding up the event are the caller's (seating.services.desk), then
    `tournament_status_record`."""
    if status not in TournamentStatus.values:
        raise Invalid({"status": _("Unknown status.")})
    refusal = engine.transition_refusal(
        tournament.status, status, active_entries=active_entry_count(tournament)
    )
    if refusal:
        raise refuse(refusal)
    before = tournament.status
    refunded = 0
    if status == TournamentStatus.CANCELLED:
        if tournament.transactions.filter(kind=TransactionKind.PAYOUT).exists():
            raise refuse("prizes_paid")
        refunded = _refund_lines(
            actor=actor, lines=Transaction.objects.filter(tournament=tournament)
        )
        tournament.entries.filter(status=EntryStatus.ACTIVE).update(status=EntryStatus.CANCELLED)
        lookup_changed([tournament.pk])
        waiting_alternates(tournament).update(status=AlternateStatus.WITHDRAWN)
    return StatusChange(before=before, status=status, refunded=refunded)


def tournament_status_write(*, tournament: Tournament, status: str) -> None:
    """The one writer of `Tournament.status`, under the caller's lock, for a status
    already allowed: the desk's change and a deal's end (seating.services.desk
    tournament_status_save, which also winds up an event that is over), play beginning
    (`tournament_start`) and the deciding bust undone (`tournament_reopen`)."""
    tournament.status = status
    tournament.save(update_fields=["status"])


def tournament_start(*, actor, tournament: Tournament) -> bool:
    """The tournaments' part of play beginning, under the caller's lock: the clock's
    start (clock.services) and, where the house says so, the seat draw (seating). A
    registering event with two players or more is running from now on: the status, its
    audit entry and live event. False where it is not registering, or short of players
    (the clock then runs alone, and the desk still starts the event by hand)."""
    if tournament.status != TournamentStatus.REGISTERING:
        return False  # no count needed: the usual case, at every clock action
    if not engine.play_begins(tournament.status, active_entries=active_entry_count(tournament)):
        return False
    _tournament_runs(actor=actor, tournament=tournament)
    return True


def tournament_reopen(*, actor, tournament: Tournament) -> bool:
    """The tournaments' part of undoing the bust that decided the event
    (hands.services.busts.entry_bust_undo), under the caller's lock: a finished event
    runs again. False where it was not finished."""
    if tournament.status != TournamentStatus.FINISHED:
        return False
    _tournament_runs(actor=actor, tournament=tournament)
    return True


def _tournament_runs(*, actor, tournament: Tournament) -> None:
    """Play begins, or begins again: the status written, audited and shown."""
    change = StatusChange(before=tournament.status, status=TournamentStatus.RUNNING, refunded=0)
    tournament_status_write(tournament=tournament, status=TournamentStatus.RUNNING)
    tournament_status_record(actor=actor, tournament=tournament, change=change)


def tournament_status_record(*, actor, tournament: Tournament, change: StatusChange) -> None:
    """The audit entry and the live event of a status change, once saved and wound up."""
    audit_record(
        actor=actor,
        action=f"tournament.{change.status}",
        obj=tournament,
        tournament=tournament,
        before={"status": change.before},
        after={"status": change.status, "refunded": change.refunded},
    )
    tournament_publish(tournament)


# --- Players -----------------------------------------------------------------

PLAYER_FIELDS = (
    "name",
    "nickname",
    "country",
    "birth_year",
    "email",
    "phone",
    "accessible_seat",
)


def player_match(
    *, name: str, birth_year: int | None = None, email: str = "", exclude_id: int | None = None
) -> Player | None:
    """Duplicate detection: the same email, or the same name and birth year, is one person.

    `exclude_id` leaves out the player being edited, who always matches themselves.
    """
    condition = Q()
    if email:
        condition |= Q(email__iexact=email)
    if birth_year is not None:
        condition |= Q(name__iexact=name.strip(), birth_year=birth_year)
    if not condition:
        return None
    players = Player.objects.filter(condition)
    if exclude_id is not None:
        players = players.exclude(pk=exclude_id)
    return players.order_by("id").first()


def _player_get_or_create(data: dict) -> tuple[Player, bool]:
    data = {k: v for k, v in data.items() if k in PLAYER_FIELDS and v is not None}
    data["name"] = data.get("name", "").strip()
    if not name_visible(data["name"]):  # blank, or only invisible characters (issue 15)
        raise Invalid({"player": _("A player needs a name.")})
    existing = player_match(
        name=data["name"], birth_year=data.get("birth_year"), email=data.get("email", "")
    )
    if existing:
        return existing, False
    try:
        # A savepoint, so that a desk racing us to create the same person is no error.
        with transaction.atomic():
            return Player.objects.create(**data), True
    except IntegrityError:
        existing = player_match(
            name=data["name"], birth_year=data.get("birth_year"), email=data.get("email", "")
        )
        if existing is None:
            raise
        return existing, False


@transaction.atomic
def player_create(*, actor, data: dict) -> Player:
    player, created = _player_get_or_create(data)
    if created:
        audit_record(
            actor=actor, action="player.create", obj=player, after=_snapshot(player, PLAYER_FIELDS)
        )
    return player


def _player_locked(player_id: int) -> Player:
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(_("No such player."))
    return player


@transaction.atomic
def player_update(*, actor, player_id: int, data: dict) -> Player:
    player = _player_locked(player_id)
    before = _snapshot(player, PLAYER_FIELDS)
    for name in PLAYER_FIELDS:
        if name in data:
            setattr(player, name, data[name])
    other = player_match(
        name=player.name, birth_year=player.birth_year, email=player.email, exclude_id=player.pk
    )
    duplicate = Conflict(
        _("Another player has this email, or this name and birth year."), code="duplicate_player"
    )
    if other:
        raise duplicate
    try:
        with transaction.atomic():  # another desk may have saved the same person meanwhile
            player.save()
    except IntegrityError:
        raise duplicate from None
    lookup_changed(player.entries.values("tournament_id"))
    audit_record(
        actor=actor,
        action="player.update",
        obj=player,
        before=before,
        after=_snapshot(player, PLAYER_FIELDS),
    )
    return player


@transaction.atomic
def player_id_check(*, actor, player_id: int) -> Player:
    """Record that staff saw the player's photo ID (TDA 4; casino §9 on each day)."""
    player = _player_locked(player_id)
    player.id_checked_at = timezone.now()
    player.save(update_fields=["id_checked_at"])
    audit_record(
        actor=actor,
        action="player.id_check",
        obj=player,
        after={"id_checked_at": player.id_checked_at.isoformat()},
    )
    return player


# --- Registration ----------------------------------------------------------------


@dataclass(frozen=True)
class Registration:
    """The outcome at the desk: an entry, or (sold out) a place on the alternates list."""

    entry: Entry | None = None
    alternate: Alternate | None = None


def player_resolve(*, player_id: int | None, player_data: dict | None) -> Player:
    """The player a desk names: by id, or found or created from their details. Needs no
    lock, so registration resolves the player before it queues for the tournament."""
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise Invalid({"player_id": _("No player with this id.")})
        return player
    if player_data is None:
        raise Invalid({"player": _("Give a player or a player_id.")})
    return _player_get_or_create(player_data)[0]


def _reentry_number(
    tournament: Tournament,
    player: Player,
    *,
    reentry: bool,
    rules: engine.Rules,
    in_the_money: Callable[[], bool],
) -> int:
    """Check the player's earlier entries; return the number of the new one (TDA 8-A).
    No re-entry once the field is `in_the_money` (casino §12): asked of re-entries only."""
    earlier = list(
        tournament.entries.filter(player=player)
        .exclude(status=EntryStatus.CANCELLED)
        .values_list("status", "reentry_number")
    )
    if any(status == EntryStatus.ACTIVE for status, _number in earlier):
        raise refuse("already_active")
    if not earlier:
        if reentry:
            raise Invalid({"reentry": _("The player has no earlier entry to re-enter.")})
        return 1
    if not reentry:
        raise refuse("reentry_required")
    refusal = engine.reentry_refusal(
        rules,
        previous_entries=len(earlier),
        in_the_money=in_the_money(),
    )
    if refusal:
        raise refuse(refusal)
    return len(earlier) + 1


def _entry_create(
    *,
    actor,
    tournament: Tournament,
    player: Player,
    reentry_number: int,
    chips: int | None = None,
    ticket: Ticket | None = None,
) -> Entry:
    number = (tournament.entries.aggregate(n=Max("number"))["n"] or 0) + 1
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        number=number,
        reentry_number=reentry_number,
        # TDA 8-A: a full stack, re-entries too; into Day 2 the house's Day 2 stack.
        chips=chips or tournament.starting_stack,
        registered_by=staff_user(actor),
    )
    if ticket is not None:  # a seat won in a satellite: no money (issue 17)
        ticket_line(actor=actor, tournament=tournament, entry=entry, ticket=ticket)
        lookup_changed([tournament.pk], [entry.pk])
        return entry
    # A buy-in and a re-entry pay the bounty with them (issue 18), kept apart from the
    # prize pool: a knockout's bounty on the player's head, a mystery event's prize list.
    bounty = bounty_due(tournament)
    ledger_line_add(
        tournament=tournament,
        entry=entry,
        kind=TransactionKind.REENTRY if reentry_number > 1 else TransactionKind.BUY_IN,
        amount=tournament.buy_in + tournament.fee + bounty,
        prize_share=tournament.buy_in,
        fee_share=tournament.fee,
        bounty_share=bounty,
        cashier=staff_user(actor),
    )
    lookup_changed([tournament.pk], [entry.pk])
    return entry


def _alternate_add(
    *, tournament: Tournament, player: Player, reentry: bool, ticket: Ticket | None
) -> Alternate:
    if waiting_alternates(tournament).filter(player=player).exists():
        raise refuse("already_alternate")
    position = (tournament.alternates.aggregate(n=Max("position"))["n"] or 0) + 1
    return Alternate.objects.create(
        tournament=tournament, player=player, position=position, reentry=reentry, ticket=ticket
    )


def _alternates_public(tournament: Tournament) -> dict:
    return {
        "waiting": [
            {"position": a.position, "player": {"id": a.player_id, "name": a.player.name}}
            for a in waiting_alternates(tournament)
        ]
    }


def _publish_alternates(tournament: Tournament) -> None:
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.ALTERNATES_UPDATED,
        data=_alternates_public(tournament),
    )


def entry_sell(
    *,
    actor,
    tournament: Tournament,
    player: Player,
    reentry: bool,
    rules: engine.Rules,
    in_the_money: Callable[[], bool],
    ticket: Ticket | None = None,
) -> Registration:
    """The tournaments' part of registration, under the caller's lock: sell a buy-in or
    re-entry (TDA 8-A), or, when sold out, put the player on the alternates list. The
    late seat is the caller's (seating.services.desk.entry_register); `rules` are the
    deadlines against the level in play (clock.selectors.entry_rules), `in_the_money`
    asks whether the players left have reached the paid places
    (payouts.selectors.in_the_money), which ends re-entries (casino §12): it is asked of a
    re-entry only, as the payout table costs queries a first buy-in does not need.
    `ticket`, locked by the caller (tickets.ticket_take), pays instead of money: the
    entry's line is a TICKET (`ticket_ledger.ticket_line`). Sold out, the player waits
    on the alternates list with the ticket, unused until they are let in
    (`alternate_admit`)."""
    late_refusal, stack = day2_late_sale(tournament)  # an event with flights: Day 2 (issue 17)
    refusal = late_refusal or engine.registration_refusal(rules)
    if refusal:
        raise refuse(refusal)
    flight_entry_refuse(tournament, player)  # issue 17: entering a later flight
    reentry_number = _reentry_number(
        tournament, player, reentry=reentry, rules=rules, in_the_money=in_the_money
    )
    free = rules.capacity is None or engine.has_free_place(
        rules,
        active_entries=active_entry_count(tournament),
        waiting_alternates=waiting_alternates(tournament).count(),
    )
    paid = {"ticket": ticket.pk} if ticket is not None else {}
    if not free:
        alternate = _alternate_add(
            tournament=tournament, player=player, reentry=reentry_number > 1, ticket=ticket
        )
        audit_record(
            actor=actor,
            action="alternate.add",
            obj=alternate,
            tournament=tournament,
            after={"player": player.pk, "position": alternate.position, **paid},
        )
        _publish_alternates(tournament)
        return Registration(alternate=alternate)
    entry = _entry_create(
        actor=actor,
        tournament=tournament,
        player=player,
        reentry_number=reentry_number,
        chips=stack,
        ticket=ticket,
    )
    audit_record(
        actor=actor,
        action="entry.reenter" if entry.is_reentry else "entry.register",
        obj=entry,
        tournament=tournament,
        after={**_snapshot(entry, ENTRY_FIELDS), "player": player.pk, **paid},
    )
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.ENTRY_REGISTERED,
        data=entry_public(entry, chips=tournament.chip_counts_public),
    )
    return Registration(entry=entry)


ENTRY_FIELDS = ("number", "reentry_number", "status", "chips", "rebuys", "addon")


def entry_locked(tournament: Tournament, entry_id: int) -> Entry:
    entry = Entry.objects.select_for_update().filter(tournament=tournament, pk=entry_id).first()
    if entry is None:
        raise NotFound(_("No such entry in this tournament."))
    return entry


def _entry_changed(
    *, actor, action: str, tournament: Tournament, entry: Entry, before: dict, **extra
) -> Entry:
    entry.save()
    lookup_changed([tournament.pk], [entry.pk])
    audit_record(
        actor=actor,
        action=action,
        obj=entry,
        tournament=tournament,
        before=before,
        after={**_snapshot(entry, ENTRY_FIELDS), **extra},
    )
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.ENTRY_UPDATED,
        data=entry_public(entry, chips=tournament.chip_counts_public),
    )
    return entry


def entry_out(*, actor, tournament: Tournament, entry: Entry, status: str, **audited) -> Entry:
    """The entry's part of leaving play, busted (hands.services.busts.entry_bust) or
    disqualified (TDA 71-D, rulings): its status and time, the audit entry, the live
    event. Under the caller's lock; freeing the seat and telling the clock are the
    caller's. `audited`: what the caller adds to the audit entry (a bust's knockouts)."""
    if entry.status != EntryStatus.ACTIVE:
        raise refuse("entry_not_active")
    before = _snapshot(entry, ENTRY_FIELDS)
    entry.status = status
    entry.busted_at = timezone.now()
    action = "entry.bust" if status == EntryStatus.BUSTED else f"entry.{status}"
    return _entry_changed(
        actor=actor, action=action, tournament=tournament, entry=entry, before=before, **audited
    )


def entry_back(*, actor, tournament: Tournament, entry: Entry, **audited) -> Entry:
    """The entry's part of undoing a bust entered by mistake, while the place it freed
    is still free: the checks, its status, the alternates list, the audit entry and the
    live event. Under the caller's lock (hands.services.busts.entry_bust_undo), which
    also takes back the place and the seat. `audited`: what the caller adds to the audit
    entry (the bust's knockouts it reverses)."""
    if entry.status != EntryStatus.BUSTED:
        raise refuse("entry_not_busted")
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        # A satellite's play stopped with as many players as seats (issue 17).
        left = Ticket.objects.filter(satellite=tournament, won_by__isnull=False).count()
        refusal = engine.bust_undo_refusal(
            tournament.status,
            active_entries=active_entry_count(tournament),
            left_at_end=left or 1,
        )
        if refusal:
            raise refuse(refusal)
    if hasattr(entry, "payment"):
        raise refuse("entry_paid")
    if tournament.entries.filter(player=entry.player, status=EntryStatus.ACTIVE).exists():
        raise refuse("player_reentered")
    free = engine.free_places(tournament.capacity, active_entries=active_entry_count(tournament))
    if free == 0:
        raise refuse("place_taken")
    before = _snapshot(entry, ENTRY_FIELDS)
    entry.status = EntryStatus.ACTIVE
    entry.busted_at = None
    # A player back in play needs no re-entry: leave the alternates list, or the list
    # would be blocked by someone who can no longer enter.
    withdrawn = (
        waiting_alternates(tournament)
        .filter(player=entry.player)
        .update(status=AlternateStatus.WITHDRAWN)
    )
    if withdrawn:
        _publish_alternates(tournament)
    entry = _entry_changed(
        actor=actor,
        action="entry.bust_undo",
        tournament=tournament,
        entry=entry,
        before=before,
        alternate_withdrawn=bool(withdrawn),
        **audited,
    )
    return entry


def _refund_lines(*, actor, lines) -> int:
    """Reverse every payment among `lines` not reversed yet; return the total refunded in
    cash. A line paid with a ticket is reversed by a TICKET line and gives the ticket
    back, never cash (issue 17)."""
    total = 0
    payments = lines.exclude(kind__in=[TransactionKind.REFUND, TransactionKind.PAYOUT]).filter(
        reversed_by__isnull=True, reverses__isnull=True
    )
    for line in payments:
        if line.kind == TransactionKind.TICKET:
            line_reverse(actor=actor, line=line, kind=TransactionKind.TICKET)
            ticket_give_back(line.ticket_id)
            continue
        line_reverse(actor=actor, line=line, kind=TransactionKind.REFUND)
        total += line.amount
    return total


def line_reverse(*, actor, line: Transaction, kind: str) -> Transaction:
    """The ledger line that takes `line` back: money is never deleted, only reversed."""
    return ledger_line_add(
        tournament_id=line.tournament_id,
        entry_id=line.entry_id,
        kind=kind,
        amount=-line.amount,
        prize_share=-line.prize_share,
        fee_share=-line.fee_share,
        bounty_share=-line.bounty_share,  # a refunded buy-in takes its bounty back (issue 18)
        reverses=line,
        ticket_id=line.ticket_id,
        cashier=staff_user(actor),
    )


def entry_refund(*, actor, tournament: Tournament, entry: Entry) -> Entry:
    """The entry's part of taking back an entry sold by mistake, under the caller's lock
    (seating.services.desk.entry_cancel, which frees its seat): refund it by reversing
    its lines, keep the record."""
    if entry.status != EntryStatus.ACTIVE:
        raise refuse("entry_not_active")
    before = _snapshot(entry, ENTRY_FIELDS)
    refunded = _refund_lines(actor=actor, lines=entry.transactions.all())
    entry.status = EntryStatus.CANCELLED
    return _entry_changed(
        actor=actor,
        action="entry.cancel",
        tournament=tournament,
        entry=entry,
        before=before,
        refunded=refunded,
    )


def entries_chips_count(*, tournament: Tournament, counts: dict[int, int]) -> None:
    """Stacks as counted, {entry id: chips}, under the caller's lock: after a hand
    (hands.services.hands) or agreed on in a deal (prizes). With the sales below, the one
    place that writes `Entry.chips`; the count is audited with the intention that took it
    (hand.finish, deal.record)."""
    if not counts:
        return
    # One statement for a table's stacks, not one per player (issue 20: a whole event).
    column_set(Entry, "chips", counts, tournament=tournament.pk)


def rebuy_sell(*, actor, tournament: Tournament, entry: Entry, rules: engine.Rules) -> Entry:
    """A rebuy while the rules allow it (`rules`: the deadlines against the level in play),
    under the caller's lock (seating.services.desk.entry_rebuy)."""
    refusal = engine.rebuy_refusal(
        rules,
        entry_active=entry.status == EntryStatus.ACTIVE,
        rebuys_taken=entry.rebuys,
    )
    if refusal:
        raise refuse(refusal)
    before = _snapshot(entry, ENTRY_FIELDS)
    entry.rebuys += 1
    entry.chips += tournament.rebuy_chips
    _money_in(
        actor=actor,
        entry=entry,
        kind=TransactionKind.REBUY,
        price=tournament.rebuy_price,
        fee=tournament.rebuy_fee,
    )
    return _entry_changed(
        actor=actor, action="entry.rebuy", tournament=tournament, entry=entry, before=before
    )


def addon_sell(*, actor, tournament: Tournament, entry: Entry, rules: engine.Rules) -> Entry:
    """The add-on, once, at its break (`rules`: the deadlines against the level in play),
    under the caller's lock (seating.services.desk.entry_addon)."""
    refusal = engine.addon_refusal(
        rules,
        entry_active=entry.status == EntryStatus.ACTIVE,
        addon_taken=entry.addon,
    )
    if refusal:
        raise refuse(refusal)
    before = _snapshot(entry, ENTRY_FIELDS)
    entry.addon = True
    entry.chips += tournament.addon_chips
    _money_in(
        actor=actor,
        entry=entry,
        kind=TransactionKind.ADDON,
        price=tournament.addon_price,
        fee=tournament.addon_fee,
    )
    return _entry_changed(
        actor=actor, action="entry.addon", tournament=tournament, entry=entry, before=before
    )


def _money_in(*, actor, entry: Entry, kind: str, price: int, fee: int) -> None:
    # The price goes whole into the prize pool; the house fee, if any, is on top. A rebuy
    # or an add-on carries no bounty (issue 18): the bounty is on the entry, bought once
    # with its buy-in or re-entry.
    ledger_line_add(
        tournament_id=entry.tournament_id,
        entry=entry,
        kind=kind,
        amount=price + fee,
        prize_share=price,
        fee_share=fee,
        cashier=staff_user(actor),
    )


# --- Alternates ----------------------------------------------------------------------


def alternate_admit(
    *,
    actor,
    tournament: Tournament,
    rules: engine.Rules,
    in_the_money: Callable[[], bool],
    ticket_for: Callable[[Alternate], Ticket | None] = lambda alternate: None,
) -> Entry:
    """The tournaments' part of letting the first alternate in line into a freed place
    (casino §8b), who pays now; under the caller's lock
    (seating.services.desk.alternate_enter_next, which seats them). `rules` and
    `in_the_money` as for `entry_sell`: an alternate waiting to re-enter is refused once
    the field is in the money (casino §12). `ticket_for` asks the caller for the ticket
    the alternate pays with, checked and locked (issue 17; None: money): the line is
    then a TICKET, as at the desk."""
    refusal = engine.registration_refusal(rules)
    if refusal:
        raise refuse(refusal)
    alternate = waiting_alternates(tournament).select_for_update(of=("self",)).first()
    if alternate is None:
        raise refuse("no_alternate")
    free = engine.free_places(tournament.capacity, active_entries=active_entry_count(tournament))
    if free == 0:
        raise refuse("no_free_place")
    reentry_number = _reentry_number(
        tournament,
        alternate.player,
        reentry=alternate.reentry,
        rules=rules,
        in_the_money=in_the_money,
    )
    ticket = ticket_for(alternate)
    entry = _entry_create(
        actor=actor,
        tournament=tournament,
        player=alternate.player,
        reentry_number=reentry_number,
        ticket=ticket,
    )
    alternate.status = AlternateStatus.SEATED
    alternate.entry = entry
    alternate.save(update_fields=["status", "entry"])
    audit_record(
        actor=actor,
        action="alternate.enter",
        obj=entry,
        tournament=tournament,
        before={"alternate_position": alternate.position},
        after={
            **_snapshot(entry, ENTRY_FIELDS),
            "player": alternate.player_id,
            **({"ticket": ticket.pk} if ticket is not None else {}),
        },
    )
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.ENTRY_REGISTERED,
        data=entry_public(entry, chips=tournament.chip_counts_public),
    )
    _publish_alternates(tournament)
    return entry


@transaction.atomic
def alternate_withdraw(*, actor, tournament_id: int, alternate_id: int) -> Alternate:
    tournament = tournament_lock(tournament_id)
    alternate = waiting_alternates(tournament).filter(pk=alternate_id).first()
    if alternate is None:
        raise NotFound(_("No such waiting alternate."))
    alternate.status = AlternateStatus.WITHDRAWN
    alternate.save(update_fields=["status"])
    audit_record(
        actor=actor,
        action="alternate.withdraw",
        obj=alternate,
        tournament=tournament,
        before={"status": AlternateStatus.WAITING},
        after={"status": AlternateStatus.WITHDRAWN},
    )
    _publish_alternates(tournament)
    return alternate
