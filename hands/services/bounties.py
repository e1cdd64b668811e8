"""Knockouts (issue 18): who eliminated whom, and the bounty each elimination pays.

The parts a bust's intention runs under its caller's lock (hands.services.busts,
hands.services.hands): the settlement planned before the busts are written
(`knockouts_plan`, so the bust's audit entry can list it), then saved
(`knockouts_save`); a bust undone takes its knockouts back (`knockouts_take_back`);
play ending with one player gives the winner their own bounty (`winner_own_record`).
The floor's correction of a bust's eliminator is an intention of its own
(`knockout_correct`). The rules are hands.engine.bounties.
"""

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import Invalid
from hands.engine import bounties
from hands.models import Elimination, Hand, Knockout, KnockoutSource
from hands.selectors import knockouts_standing, mystery_left
from hands.services.common import refuse
from payouts.selectors import in_the_money, payout_structure
from tournaments.models import (
    BountyFormat,
    Entry,
    EntryStatus,
    MysteryStart,
    Tournament,
)
from tournaments.selectors import entry_public
from tournaments.services import tournament_lock

FORMATS = (BountyFormat.KNOCKOUT, BountyFormat.PROGRESSIVE, BountyFormat.MYSTERY)


def bounty_event(tournament: Tournament) -> bool:
    return tournament.bounty_format in FORMATS


@dataclass
class Plan:
    """One intention's knockouts, planned before its busts are written."""

    rows: list[Knockout] = field(default_factory=list)
    unnamed: list[int] = field(default_factory=list)  # busted entries left unsettled

    def public(self, entry_id: int | None = None) -> list[dict]:
        return [knockout_public(row) for row in self.rows if entry_id in (None, row.busted_id)]


def knockout_public(row: Knockout) -> dict:
    """A knockout as the audit log and the pages show it."""
    return {
        "busted": row.busted_id,
        "winner": row.winner_id,
        "cash": row.cash,
        "added": row.added,
        "draw": row.draw,
        "source": row.source,
    }


# --- naming the eliminators ---------------------------------------------------------------


def eliminators_of_entries(
    tournament: Tournament, busted: Sequence[int], named: Sequence[int] | None
) -> tuple[int, ...]:
    """The eliminators the floor named (entry ids) for busts entered without a logged
    hand: active entries of this event, none of them busted in the same hand; 400 else."""
    named = tuple(dict.fromkeys(named or ()))
    if not named:
        return ()
    if set(named) & set(busted):
        raise Invalid({"eliminators": _("A player cannot eliminate themselves.")})
    active = set(
        Entry.objects.filter(
            tournament=tournament, pk__in=named, status=EntryStatus.ACTIVE
        ).values_list("pk", flat=True)
    )
    strangers = [entry for entry in named if entry not in active]
    if strangers:
        raise Invalid({"eliminators": _("The eliminator must be a player still in this event.")})
    return named


def eliminators_of_seats(
    occupied: Mapping[int, int], busted_seats: Sequence[int], named: Sequence[int] | None
) -> tuple[int, ...]:
    """The eliminators a table's tablet named by seat (`occupied`: seat to entry, the
    players at the table or dealt in the hand): entry ids; 400 for an empty seat or a
    player busted in the same hand."""
    seats = tuple(dict.fromkeys(named or ()))
    for seat in seats:
        if seat in busted_seats:
            raise Invalid(
                {
                    "eliminators": _(
                        "Seat %(seat)s went out in the same hand: it cannot be the eliminator."
                    )
                    % {"seat": seat}
                }
            )
        if seat not in occupied:
            raise Invalid({"eliminators": _("Nobody sits in seat %(seat)s.") % {"seat": seat}})
    return tuple(occupied[seat] for seat in seats)


# --- planning and saving ------------------------------------------------------------------


def house_unit(tournament: Tournament) -> int:
    """The house's smallest payable amount, shared with the payouts (cents)."""
    return max(1, payout_structure(tournament).unit)


def heads(tournament: Tournament, entry_ids) -> dict[int, int]:
    """The bounty on each of these entries' heads now, whether still in or not: the
    event's bounty and, in a progressive knockout, what their standing knockouts added."""
    heads = dict.fromkeys(entry_ids, tournament.bounty)
    if tournament.bounty_format == BountyFormat.PROGRESSIVE and heads:
        for row in knockouts_standing(tournament).filter(winner__in=list(heads)):
            heads[row.winner_id] += row.added
    return heads


def mystery_open(tournament: Tournament) -> bool:
    """Whether an elimination now draws a mystery bounty (asked before the hand's busts
    are written, so the bubble's bust is not in the money): from the start, on Day 2 (the
    parent event of flights, or an event with Day 2 entries), or once in the money."""
    start = tournament.mystery_start
    if start == MysteryStart.START:
        return True
    if start == MysteryStart.DAY2:
        if tournament.is_flight:
            return False
        return (
            tournament.flights.exists()
            or Entry.objects.filter(tournament=tournament, from_bag__isnull=False).exists()
        )
    if start == MysteryStart.MONEY:
        return in_the_money(tournament)
    return False


def knockouts_plan(
    *,
    actor,
    tournament: Tournament,
    hand: Hand | None,
    busts: Mapping[int, Sequence[int]],
    source: str,
    stacks: Mapping[int, int] | None = None,
) -> Plan:
    """The knockouts of one hand's busts (or a bust entered without its hand): `busts`
    maps each busted entry to its eliminators (entry ids, in odd-unit order; none when
    nobody was named: the bust stays unsettled). Nothing is written but the mystery
    seed; `knockouts_save` writes the rows once the busts are recorded."""
    plan = Plan()
    if not bounty_event(tournament) or not busts:
        return plan
    plan.unnamed = [entry for entry, named in busts.items() if not named]
    named = {entry: tuple(found) for entry, found in busts.items() if found}
    if not named:
        return plan
    stacks = dict(stacks or {})
    missing = [entry for entry in named if entry not in stacks]
    if missing:
        stacks.update(Entry.objects.filter(pk__in=missing).values_list("pk", "chips"))
    hand_elims = [
        bounties.Elimination(busted, eliminators, stacks.get(busted, 0))
        for busted, eliminators in named.items()
    ]
    unit = house_unit(tournament)
    recorded_by = staff_user(actor)

    def row(payment: bounties.BountyPayment, draw: int | None = None) -> Knockout:
        return Knockout(
            tournament=tournament,
            busted_id=payment.busted,
            winner_id=payment.to,
            hand=hand,
            cash=payment.cash,
            added=payment.added,
            draw=draw,
            source=source,
            recorded_by=recorded_by,
        )

    fmt = tournament.bounty_format
    if fmt == BountyFormat.KNOCKOUT:
        fixed = dict.fromkeys(named, tournament.bounty)
        plan.rows = [row(p) for p in bounties.knockout_payments(hand_elims, fixed, unit)]
    elif fmt == BountyFormat.PROGRESSIVE:
        ids = set(named) | {winner for found in named.values() for winner in found}
        settled = bounties.pko_hand(
            heads(tournament, ids),
            hand_elims,
            cash_percent=tournament.bounty_cash_percent,
            unit=unit,
        )
        plan.rows = [row(p) for p in settled.payments]
    elif fmt == BountyFormat.MYSTERY and mystery_open(tournament):
        plan.rows = _mystery_rows(tournament, hand_elims, unit, row)
    return plan


def _mystery_rows(tournament: Tournament, hand_elims, unit: int, row) -> list[Knockout]:
    """One draw per elimination, in settle order, numbered on from the event's last draw
    (reversed ones too, so a number is never drawn twice); each from its own generator,
    `random.Random(f"{seed}:{draw}")`, over the prizes left then: replayable
    (hands.selectors.mystery_replay_check). No prize left, no draw."""
    left = mystery_left(tournament)
    if not left:
        return []
    if not tournament.mystery_seed:
        tournament.mystery_seed = secrets.token_hex(16)
        tournament.save(update_fields=["mystery_seed"])
    last = (
        Knockout.objects.filter(tournament=tournament, draw__isnull=False)
        .order_by("-draw")
        .values_list("draw", flat=True)
        .first()
    )
    number = last or 0
    rows = []
    for elimination in bounties.settle_order(hand_elims):
        if not left:
            break
        number += 1
        rng = random.Random(f"{tournament.mystery_seed}:{number}")
        payments, left = bounties.mystery_payments(elimination, left, rng, unit)
        rows.extend(row(payment, number) for payment in payments)
    return rows


def knockouts_save(plan: Plan) -> list[Knockout]:
    """Write the planned knockouts (after the busts they settle)."""
    return Knockout.objects.bulk_create(plan.rows) if plan.rows else []


# --- taking back --------------------------------------------------------------------------


def _refuse_if_paid(rows) -> None:
    """A bounty paid at the cage (prizes.BountyPayment, `Knockout.payment`) is taken back
    there first: prizes is above hands, so it is asked by name only."""
    paid = Knockout.objects.filter(pk__in=[row.pk for row in rows], payment__isnull=False)
    if paid.exists():
        raise refuse("bounty_paid")


def _refuse_if_collected(tournament: Tournament, entry_ids) -> None:
    """PKO: a bounty grown by these entries' knockouts must still be on their heads; once
    collected (they went out since with their bounty settled, or won their own at the
    end), changing what it grew by would change a later knockout."""
    if tournament.bounty_format != BountyFormat.PROGRESSIVE:
        return
    collected = knockouts_standing(tournament).filter(busted__in=list(entry_ids))
    if collected.exists():
        raise refuse("bounty_collected")


def _reverse(rows, actor) -> None:
    Knockout.objects.filter(pk__in=[row.pk for row in rows]).update(
        reversed_at=timezone.now(), reversed_by=staff_user(actor)
    )


def _bust_rows(tournament: Tournament, entry_id: int) -> list[Knockout]:
    standing = knockouts_standing(tournament).filter(busted_id=entry_id)
    return list(standing.exclude(source=KnockoutSource.WINNER))


def knockouts_of_bust(tournament: Tournament, entry_id: int) -> list[dict]:
    """The standing knockouts of one bust, as the audit log lists them."""
    return [knockout_public(row) for row in _bust_rows(tournament, entry_id)]


def knockouts_take_back(*, actor, tournament: Tournament, entry: Entry) -> list[dict]:
    """A bust undone (hands.services.busts.bust_back): its knockouts are reversed, a
    mystery prize drawn goes back to the pool; 409 once paid at the cage, or in a PKO
    once the eliminator's grown bounty was collected. The winner's own bounty, when the
    undo lets play run again, is reversed first (`winner_own_take_back`)."""
    if not bounty_event(tournament):
        return []
    rows = _bust_rows(tournament, entry.pk)
    if not rows:
        return []
    _refuse_if_paid(rows)
    _refuse_if_collected(tournament, {row.winner_id for row in rows})
    _reverse(rows, actor)
    return [knockout_public(row) for row in rows]


def winner_own_record(*, actor, tournament: Tournament) -> Knockout | None:
    """Play ended with one player (hands.services.busts.play_end): the winner collects
    their own bounty (`pko_winner`), a knockout of themselves; in a plain knockout event
    the fixed bounty on their head. Nothing in a mystery bounty event (drawn prizes)."""
    if tournament.bounty_format not in (BountyFormat.KNOCKOUT, BountyFormat.PROGRESSIVE):
        return None
    winner = (
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
        .values_list("pk", flat=True)
        .first()
    )
    if winner is None:
        return None
    payment = bounties.pko_winner(heads(tournament, [winner]), winner)
    return Knockout.objects.create(
        tournament=tournament,
        busted_id=winner,
        winner_id=winner,
        cash=payment.cash,
        source=KnockoutSource.WINNER,
        recorded_by=staff_user(actor),
    )


def own_bounties_record(*, actor, tournament: Tournament, entry_ids) -> list[Knockout]:
    """A deal that ends a knockout or PKO event (prizes.services.deal_record, under its
    lock): each player in the deal collects the bounty on their own head, as the winner
    does at the end (source winner), unless the deal shares the bounties otherwise."""
    if tournament.bounty_format not in (BountyFormat.KNOCKOUT, BountyFormat.PROGRESSIVE):
        return []
    own = heads(tournament, entry_ids)
    return Knockout.objects.bulk_create(
        Knockout(
            tournament=tournament,
            busted_id=entry_id,
            winner_id=entry_id,
            cash=bounty,
            source=KnockoutSource.WINNER,
            recorded_by=staff_user(actor),
        )
        for entry_id, bounty in own.items()
    )


def winner_own_take_back(*, actor, tournament: Tournament) -> list[dict]:
    """Play runs again (a bust undone): the winner's own bounty is reversed; 409 once
    paid."""
    if not bounty_event(tournament):
        return []
    rows = list(knockouts_standing(tournament).filter(source=KnockoutSource.WINNER))
    if rows:
        _refuse_if_paid(rows)
        _reverse(rows, actor)
    return [knockout_public(row) for row in rows]


# --- the floor's correction ---------------------------------------------------------------


@transaction.atomic
def knockout_correct(
    *, actor, tournament_id: int, busted_entry_id: int, eliminator_ids: Sequence[int]
) -> list[Knockout]:
    """The floor names who eliminated a busted player, or corrects it (the desk's
    entries page, the API): a bust entered without its eliminator, or settled wrongly.

    1. Lock the tournament; a bounty event, the entry busted in it (else 400/409).
    2. The eliminators checked: entries of this event, not the busted player, not out
       in the same hand nor before it (400); in a PKO still in play (409).
    3. The bust's standing knockouts: 409 if one was paid at the cage (take the payment
       back there first), or in a PKO if an eliminator's grown bounty was collected since.
    4. They are reversed (kept, `reversed_at`/`by`) and the bust settled again with the
       eliminators named (source floor): the same bounty; a mystery bounty keeps the prize
       of its draw, an unsettled one draws now where the start point is reached.
    5. One audit entry (`knockout.correct`) with the knockouts before and after.
    """
    tournament = tournament_lock(tournament_id)
    if not bounty_event(tournament):
        raise refuse("no_bounties")
    busted = Entry.objects.filter(
        tournament=tournament, pk=busted_entry_id, status=EntryStatus.BUSTED
    ).first()
    elimination = Elimination.objects.filter(
        tournament=tournament, entry_id=busted_entry_id
    ).first()
    if busted is None or elimination is None:
        raise Invalid({"entry": _("That player has not gone out of this event.")})
    named = _correction_eliminators(tournament, elimination, eliminator_ids)
    old = _bust_rows(tournament, busted.pk)
    _refuse_if_paid(old)
    _refuse_if_collected(tournament, {row.winner_id for row in old} | set(named))
    _reverse(old, actor)
    new = _settle_again(actor, tournament, elimination, named, old)
    audit_record(
        actor=actor,
        action="knockout.correct",
        obj=busted,
        tournament=tournament,
        before={"knockouts": [knockout_public(row) for row in old]},
        after={"knockouts": [knockout_public(row) for row in new]},
    )
    # The pages showing the entry (results, the player's page) read it again.
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.ENTRY_UPDATED,
        data=entry_public(busted, chips=tournament.chip_counts_public),
    )
    return new


def _correction_eliminators(tournament, elimination: Elimination, named) -> tuple[int, ...]:
    named = tuple(dict.fromkeys(named or ()))
    if not named:
        raise Invalid({"eliminators": _("Name the player (or players) who won the pot.")})
    if elimination.entry_id in named:
        raise Invalid({"eliminators": _("A player cannot eliminate themselves.")})
    entries = {
        entry.pk: entry for entry in Entry.objects.filter(tournament=tournament, pk__in=named)
    }
    if len(entries) != len(named):
        raise Invalid({"eliminators": _("The eliminator must be a player of this event.")})
    out = {
        row.entry_id: row
        for row in Elimination.objects.filter(tournament=tournament, entry_id__in=named)
    }
    for entry_id in named:
        row = out.get(entry_id)
        if entries[entry_id].status == EntryStatus.ACTIVE and row is None:
            continue
        if row is None:  # out some other way (disqualified, cancelled)
            raise Invalid({"eliminators": _("The eliminator must be a player of this event.")})
        if row.hand_key == elimination.hand_key:
            raise Invalid(
                {"eliminators": _("That player went out in the same hand: not the eliminator.")}
            )
        if (row.recorded_at, row.pk) < (elimination.recorded_at, elimination.pk):
            raise Invalid(
                {"eliminators": _("That player had gone out before: not the eliminator.")}
            )
        if tournament.bounty_format == BountyFormat.PROGRESSIVE:
            raise refuse("bounty_collected")
    return named


def _settle_again(actor, tournament, elimination, named, old) -> list[Knockout]:
    hand = elimination.hand
    recorded_by = staff_user(actor)
    busted = elimination.entry_id
    unit = house_unit(tournament)
    if tournament.bounty_format == BountyFormat.MYSTERY and any(r.draw for r in old):
        prize = sum(row.cash for row in old)
        draw = old[0].draw
        shares = bounties.bounty_shares(prize, named, unit)
        rows = [
            Knockout(
                tournament=tournament,
                busted_id=busted,
                winner_id=winner,
                hand=hand,
                cash=cash,
                draw=draw,
                source=KnockoutSource.FLOOR,
                recorded_by=recorded_by,
            )
            for winner, cash in shares.items()
        ]
        return Knockout.objects.bulk_create(rows)
    if tournament.bounty_format == BountyFormat.PROGRESSIVE:
        # The bounty on the busted head when they went out: what stands (reversed now).
        ids = {busted, *named}
        head = heads(tournament, ids)
        settled = bounties.pko_hand(
            head,
            [bounties.Elimination(busted, named, elimination.stack)],
            cash_percent=tournament.bounty_cash_percent,
            unit=unit,
        )
        rows = [
            Knockout(
                tournament=tournament,
                busted_id=busted,
                winner_id=p.to,
                hand=hand,
                cash=p.cash,
                added=p.added,
                source=KnockoutSource.FLOOR,
                recorded_by=recorded_by,
            )
            for p in settled.payments
        ]
        return Knockout.objects.bulk_create(rows)
    plan = knockouts_plan(
        actor=actor,
        tournament=tournament,
        hand=hand,
        busts={busted: named},
        source=KnockoutSource.FLOOR,
        stacks={busted: elimination.stack},
    )
    return knockouts_save(plan)
