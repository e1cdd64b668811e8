"""Chips the floor takes out of play (issue 19): a stack forfeited for a re-entry (TDA
8-B), chips held or carried out of view (TDA 63), lost and found chips nobody owns (TDA
64). Each removal is kept as a `ChipRemoval` and lowers every chips-in-play figure
(`tournaments.selectors.chips_in_play`); taken from a player's stack, it lowers that
stack too, written through the one writer of `Entry.chips` (`entries_chips_count`)."""

from django.db import transaction
from django.utils.translation import gettext as _

from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid
from tournaments.engine import removals as engine
from tournaments.messages import refusal_message
from tournaments.models import (
    MAX_CHIPS,
    ChipCount,
    ChipRemoval,
    EntryStatus,
    TournamentStatus,
)
from tournaments.selectors import entry_public, removal_public
from tournaments.services import entries_chips_count, entry_locked, tournament_lock
from tournaments.services.flights import flight_play_refuse

NOTE_MAX = 300  # ChipRemoval.note
OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code, data=data)


def _checked(*, reason, amount, entry_id, note) -> None:
    """The input's shape and the reason's owner rule (TDA 8-B, 63: a player's; 64: none's),
    before any lock: bad input is refused with 400 and field messages."""
    errors = {}
    if reason not in engine.REASONS:
        errors["reason"] = _("Say why the chips leave play: TDA 8-B, 63 or 64.")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_CHIPS:
        errors["amount"] = _("Between 1 and %(most)s chips.") % {"most": f"{MAX_CHIPS:,}"}
    if not isinstance(note, str) or len(note) > NOTE_MAX:
        errors["note"] = _("At most %(most)s characters.") % {"most": NOTE_MAX}
    if entry_id is not None and (isinstance(entry_id, bool) or not isinstance(entry_id, int)):
        errors["entry"] = _("Name the entry by its id.")
    if not errors:
        owner = engine.owner_error(reason=reason, has_entry=entry_id is not None)
        if owner == "entry_needed":
            errors["entry"] = _(
                "Name the player whose chips are forfeited (TDA 8-B, 63): they come off "
                "that player's stack."
            )
        elif owner == "no_owner":
            errors["entry"] = _(
                "Lost and found chips are taken out of play only when nobody can be shown to "
                "own them (TDA 64): name no player."
            )
    if errors:
        raise Invalid(errors)


@transaction.atomic
def chips_remove(
    *, actor, tournament_id: int, reason: str, amount: int, entry_id: int | None = None, note=""
) -> ChipRemoval:
    """The floor takes chips out of play (TDA 8-B, 63, 64).

    1. The input checked (400): a reason, 1 or more chips, a note of at most 300
       characters; TDA 8-B and 63 name the player whose stack they come off, TDA 64 none.
    2. Lock the tournament: not over, not a flight that has stopped (its chips are bagged
       and checked against its end's figure).
    3. From a player's stack: the entry in this event (404) and still in play (409), with
       at least that many chips (409 `removal_over_stack`); their stack goes down by the
       amount, and their latest count is noted, so the count check takes the chips off it.
    4. The removal kept; one audit entry (`chips.remove`); the screens told on commit (the
       player's entry, and the counts: the chips in play went down).
    """
    _checked(reason=reason, amount=amount, entry_id=entry_id, note=note)
    tournament = tournament_lock(tournament_id)
    flight_play_refuse(tournament)
    if tournament.status in OVER:
        raise _refuse("removal_over")
    entry = None
    count_before = None
    if entry_id is not None:
        entry = entry_locked(tournament, entry_id)
        if entry.status != EntryStatus.ACTIVE:
            raise _refuse("entry_not_active")
        code = engine.stack_refusal(stack=entry.chips, amount=amount)
        if code:
            raise _refuse(code, chips=f"{entry.chips:,}")
        count_before = ChipCount.objects.filter(entry=entry).order_by("-counted_at", "-id").first()
        entries_chips_count(tournament=tournament, counts={entry.pk: entry.chips - amount})
        entry.refresh_from_db(fields=["chips"])
    removal = ChipRemoval.objects.create(
        tournament=tournament,
        entry=entry,
        amount=amount,
        reason=reason,
        note=note,
        count_before=count_before,
        removed_by=staff_user(actor),
    )
    audit_record(
        actor=actor,
        action="chips.remove",
        obj=removal,
        tournament=tournament,
        after={
            **{k: v for k, v in removal_public(removal).items() if k != "removed_at"},
            "stack_after": entry.chips if entry else None,
        },
    )
    if entry is not None:
        live.live_publish(
            tournament_id=tournament.pk,
            kind=live.ENTRY_UPDATED,
            data=entry_public(entry, chips=tournament.chip_counts_public),
        )
    live.live_publish(
        tournament_id=tournament.pk, kind=live.COUNTS_UPDATED, data={"removed": removal.pk}
    )
    return removal
