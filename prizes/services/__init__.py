"""The only code that changes payout tables, entered places, payments and deals.

The payout table's models and reads are the payouts app's, below the floor that reads
it; its changes are here, because a table paid from or dealt on is final.

Each public function is one user intention: one transaction with the tournament row
locked (a cashier paying and a director editing the table queue up behind it), one
audit entry, live events after commit. Money is never paid from a table that does not
add up to the prize pool, and nobody is paid twice (the Payment row is unique).
"""

import zlib
from collections.abc import Sequence
from dataclasses import replace

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid, NotFound
from hands.services.bounties import own_bounties_record
from payouts.engine import payouts
from payouts.models import (
    Payout,
    PayoutLock,
    PayoutSettings,
    PayoutStructure,
    PayoutTemplate,
    PlacesMode,
)
from payouts.selectors import PayoutTable, lock_reason, payout_table
from prizes.engine import deals
from prizes.messages import refusal_message
from prizes.models import Deal, DealMethod, DealShare, Payment, PlaceEntered
from prizes.selectors import (
    Results,
    deal_refusal,
    payouts_final,
    payouts_public,
    results_event,
    results_for_entry,
    settings_public,
    unpaid_prizes,
)
from seating.services.desk import tournament_status_save
from tournaments.models import (
    Entry,
    EntryStatus,
    Tournament,
    TournamentStatus,
    TransactionKind,
)
from tournaments.selectors import active_entry_count, chips_in_play, tournament_totals
from tournaments.services import (
    entries_chips_count,
    entry_locked,
    ledger_line_add,
    line_reverse,
    tournament_lock,
    tournament_publish,
)
from tournaments.templatetags.floorman_format import money


def refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code), code=code, data=data)


def _publish_payouts(tournament: Tournament, table: PayoutTable | None = None) -> None:
    """`table`: the payout table as the service left it, when it has it."""
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.PAYOUTS_UPDATED,
        data=payouts_public(tournament, table or payout_table(tournament)),
    )


def _publish_results(
    tournament: Tournament, found: Results | None = None, changed: set[int] | None = None
) -> None:
    """`found`: the results as the service left them, when it has them; `changed`: the
    entries whose lines changed, None when it may be many (selectors.results_event). The
    event never reads the whole field (issue 20): the summary and the changed lines only."""
    if found is None:
        if changed is not None and len(changed) != 1:
            changed = None  # one line is read here; several: screens fetch again
        found = results_for_entry(tournament, next(iter(changed)) if changed else None)
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.RESULTS_UPDATED,
        data=results_event(tournament, found, changed),
    )


# --- The payout table --------------------------------------------------------------------


def _structure_locked(tournament: Tournament) -> PayoutStructure:
    structure, _created = PayoutStructure.objects.select_for_update().get_or_create(
        tournament=tournament
    )
    return structure


def _freeze(tournament: Tournament, structure: PayoutStructure, amounts) -> None:
    """Store the lines as they stand: from now on they no longer follow the pool."""
    Payout.objects.filter(tournament=tournament).delete()
    Payout.objects.bulk_create(
        Payout(tournament=tournament, place=place, amount=amount)
        for place, amount in enumerate(amounts, start=1)
    )
    structure.lock = PayoutLock.LOCKED
    structure.save()


def settings_check(data: dict) -> None:
    """Rules between the settings' fields (each field's own range is the form's job)."""
    errors = {}
    if data.get("places_mode") == PlacesMode.FIXED and not data.get("places_fixed"):
        errors["places_fixed"] = _("Give the number of places paid.")
    shares = data.get("shares")
    if shares:
        if sum(shares) != 10_000:
            errors["shares"] = _(
                "The shares add up to %(sum)s basis points; they must add up to 10,000 (100 %%)."
            ) % {"sum": sum(shares)}
        elif any(later > earlier for earlier, later in zip(shares, shares[1:], strict=False)):
            errors["shares"] = _("A place may not pay more than the place above it.")
    if errors:
        raise Invalid(errors)


def lines_check(amounts: list[int], table: PayoutTable, currency: str) -> None:
    """A table the TD typed: it must pay the whole prize pool, best place most."""
    for problem in payouts.problems(amounts, table.pool.total):
        if problem.code == payouts.SUM:
            message = _(
                "The lines add up to %(lines)s but the prize pool is %(pool)s: "
                "%(difference)s %(direction)s."
            ) % {
                "lines": money(sum(amounts), currency),
                "pool": money(table.pool.total, currency),
                "difference": money(abs(problem.difference), currency),
                "direction": _("too much") if problem.difference > 0 else _("too little"),
            }
        elif problem.code == payouts.INCREASING:
            message = _("Place %(place)s pays more than the place above it.") % {
                "place": problem.place
            }
        else:
            message = _("Place %(place)s pays less than nothing.") % {"place": problem.place}
        raise Invalid({"lines": message})


@transaction.atomic
def payouts_update(
    *,
    actor,
    tournament_id: int,
    settings: dict | None = None,
    lines: list[int] | None = None,
    locked: bool | None = None,
    template: PayoutTemplate | None = None,
) -> PayoutTable:
    """Change the payout settings (a saved `template`'s, then `settings` over them),
    type the lines, lock or unlock the table.

    Typed lines freeze the table (it no longer follows the pool); unlocking lets it
    follow the pool again. Once a prize has been paid from it, the table is final."""
    if template is not None:
        settings = {**template.settings_dict(), **(settings or {})}
    tournament = tournament_lock(tournament_id)
    structure = _structure_locked(tournament)
    before = {**settings_public(structure), "lock": structure.lock}
    final = payouts_final(tournament)
    if final:
        raise refuse(final)
    if locked is False:
        Payout.objects.filter(tournament=tournament).delete()
        structure.lock = PayoutLock.UNLOCKED
        structure.edited = False
    elif (
        settings
        and lock_reason(tournament, structure) is not None
        and _settings_change(structure, settings)
    ):
        raise refuse("payouts_locked")
    if settings:
        settings_check({**structure.settings_dict(), **settings})
        for name, value in settings.items():
            if name in PayoutSettings.SETTINGS:
                setattr(structure, name, value)
    structure.save()
    if lines is not None and tournament.satellite_target_id:
        raise refuse("payouts_satellite")  # seats and cash follow the pool (issue 17)
    if lines is not None:
        table = payout_table(tournament)
        lines_check(lines, table, tournament.currency)
        structure.edited = True
        _freeze(tournament, structure, lines)
    elif locked:
        _freeze(tournament, structure, payout_table(tournament).amounts)
    table = payout_table(tournament)
    audit_record(
        actor=actor,
        action="payouts.update",
        obj=structure,
        tournament=tournament,
        before=before,
        after={
            **settings_public(structure),
            "lock": structure.lock,
            "lines": list(table.amounts) if structure.frozen else None,
        },
    )
    _publish_payouts(tournament)
    return table


def payouts_prepare(*, tournament: Tournament, settings: dict) -> PayoutStructure:
    """A new event's payout settings (payouts.selectors.payout_setup of the event copied,
    or as a saved event template keeps them); its table follows the prize pool. Prizes'
    part of prizes.services.events, in its transaction."""
    values = {
        name: PayoutStructure._meta.get_field(name).to_python(settings[name])
        for name in PayoutSettings.SETTINGS
        if name in settings
    }
    return PayoutStructure.objects.create(tournament=tournament, **values)


def _settings_change(structure: PayoutStructure, settings: dict) -> bool:
    return any(getattr(structure, name) != value for name, value in settings.items())


@transaction.atomic
def template_save(*, actor, tournament_id: int, name: str) -> PayoutTemplate:
    """Keep this tournament's settings under a name, for the house's next events."""
    tournament = tournament_lock(tournament_id)
    structure = _structure_locked(tournament)
    template, _created = PayoutTemplate.objects.update_or_create(
        name=name.strip(), defaults=structure.settings_dict()
    )
    audit_record(
        actor=actor,
        action="payouts.template_save",
        obj=template,
        tournament=tournament,
        after=settings_public(template),
    )
    return template


def template_apply(*, actor, tournament_id: int, template_id: int) -> PayoutTable:
    template = PayoutTemplate.objects.filter(pk=template_id).first()
    if template is None:
        raise NotFound(_("No such payout template."))
    return payouts_update(actor=actor, tournament_id=tournament_id, template=template)


# --- Places the director enters --------------------------------------------------------


@transaction.atomic
def place_enter(*, actor, tournament_id: int, entry_id: int, place: int | None) -> Entry:
    """Set an entry's finishing place by hand (None: back to what the bust-outs say).
    Entries given the same place share it and the places after it (RP-8 A)."""
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first()
    if entry is None or entry.status == EntryStatus.CANCELLED:
        raise NotFound(_("No such entry in this tournament."))
    if Payment.objects.filter(entry=entry).exists():
        raise refuse("entry_paid")
    if (
        place is not None
        and place > tournament.entries.exclude(status=EntryStatus.CANCELLED).count()
    ):
        raise Invalid({"place": _("No place beyond the number of entries.")})
    before = PlaceEntered.objects.filter(entry=entry).values_list("place", flat=True).first()
    if place is None:
        PlaceEntered.objects.filter(entry=entry).delete()
    else:
        PlaceEntered.objects.update_or_create(
            entry=entry, defaults={"tournament": tournament, "place": place}
        )
    audit_record(
        actor=actor,
        action="result.place",
        obj=entry,
        tournament=tournament,
        before={"place": before},
        after={"place": place},
    )
    _publish_results(tournament)
    return entry


# --- Paying prizes ------------------------------------------------------------------------


@transaction.atomic
def prize_pay(*, actor, tournament_id: int, entry_id: int, expected: int | None = None) -> Payment:
    """The cashier pays an entry its prize: a payout line in the ledger. `expected`: the
    amount the cashier's screen showed; if the prize has changed since, nothing is paid."""
    tournament = tournament_lock(tournament_id)
    entry = entry_locked(tournament, entry_id)
    if Payment.objects.filter(entry=entry).exists():
        raise refuse("already_paid")
    totals = tournament_totals(tournament)
    # The one line paid, not the whole field (issue 20): the same figures as the results.
    found = results_for_entry(tournament, entry.pk, payout_table(tournament, totals))
    row = found.for_entry(entry.pk)
    if row is None:
        raise refuse("no_place")
    if row.conflict:
        raise refuse("results_conflict")
    if not found.table.balanced:
        raise refuse("payouts_unbalanced", difference=found.table.difference)
    if row.prize <= 0:
        raise refuse("not_in_the_money")
    if expected is not None and expected != row.prize:
        raise Conflict(
            _("The prize due is now %(amount)s: check it and pay again.")
            % {"amount": money(row.prize, tournament.currency)},
            code="prize_changed",
            data={"prize": row.prize},
        )
    froze = not found.table.structure.frozen
    if froze:
        # Money leaves by this table: it must never change under the prizes paid.
        structure = _structure_locked(tournament)
        _freeze(tournament, structure, found.table.amounts)
    line = ledger_line_add(
        tournament=tournament,
        entry=entry,
        kind=TransactionKind.PAYOUT,
        amount=-row.prize,
        prize_share=-row.prize,
        fee_share=0,
        cashier=staff_user(actor),
    )
    try:
        with transaction.atomic():
            payment = Payment.objects.create(entry=entry, line=line)
    except IntegrityError:
        raise refuse("already_paid") from None
    audit_record(
        actor=actor,
        action="prize.pay",
        obj=entry,
        tournament=tournament,
        after={"amount": row.prize, "place": row.place, "line": line.pk},
    )
    row.paid = row.prize
    _publish_results(tournament, found, changed={entry.pk})
    # The ledger as it stands now differs by this one payout line: the totals are not
    # summed over it again (at 10,000 entries the sum was a third of a payment's time).
    pool = replace(totals.prize_pool, paid_out=totals.prize_pool.paid_out + row.prize)
    if froze:  # the table is now locked: read it as it stands
        table = payout_table(tournament, replace(totals, prize_pool=pool))
    else:  # frozen before: the same lines, only the money paid out differs
        table = replace(found.table, pool=pool)
    _publish_payouts(tournament, table)
    return payment


@transaction.atomic
def prize_pay_undo(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """Take back a payment made by mistake: the ledger line is reversed, not removed."""
    tournament = tournament_lock(tournament_id)
    entry = entry_locked(tournament, entry_id)
    payment = Payment.objects.filter(entry=entry).select_related("line").first()
    if payment is None:
        raise refuse("not_paid")
    line = payment.line
    line_reverse(actor=actor, line=line, kind=TransactionKind.PAYOUT)
    payment.delete()
    audit_record(
        actor=actor,
        action="prize.pay_undo",
        obj=entry,
        tournament=tournament,
        before={"amount": -line.amount, "line": line.pk},
    )
    table = payout_table(tournament)
    _publish_results(tournament, results_for_entry(tournament, entry.pk, table), {entry.pk})
    _publish_payouts(tournament, table)
    return entry


# --- Deals (casino §6) ----------------------------------------------------------------


def _chips_check(tournament: Tournament, chips: list[int]) -> None:
    in_play = chips_in_play(tournament)
    if sum(chips) != in_play:
        raise Invalid(
            {
                "chips": _(
                    "The chip counts add up to %(counted)s, but %(in_play)s chips are in "
                    "play: count again."
                )
                % {"counted": f"{sum(chips):,}", "in_play": f"{in_play:,}"}
            }
        )


def _players_check(tournament: Tournament, count: int) -> None:
    left = active_entry_count(tournament)
    if count != left:
        raise Invalid(
            {
                "chips": _("%(left)s players are left: give one chip count for each.")
                % {"left": left}
            }
        )


def deal_figures(
    method: str, chips: list[int], prizes: list[int], *, save: int = 0, unit: int = 1
) -> list[int]:
    """What each player gets under `method`, in the order given (engine.deals).

    Beyond 20 players ICM is worked out by sampling; the seed comes from the counts and
    prizes, so the same figures come back every time the same deal is calculated."""
    seed = zlib.crc32(repr((method, chips, prizes, save)).encode())
    if method == DealMethod.ICM:
        return deals.icm_deal(chips, prizes, unit=unit, seed=seed)
    if method == DealMethod.CHIP_CHOP:
        return deals.chip_chop(chips, prizes, unit=unit)
    if method == DealMethod.SAVE:
        return deals.save_deal(chips, prizes, save, unit=unit, seed=seed)
    raise ValueError(method)


def deal_calculate(
    *,
    tournament_id: int,
    method: str,
    chips: list[int],
    prizes: list[int] | None = None,
    save: int | None = None,
) -> dict:
    """Casino §6: the figures for a deal, changing nothing. Prizes default to the places
    the players left still play for."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    if tournament.status != TournamentStatus.RUNNING:
        raise refuse("deal_not_running")
    _players_check(tournament, len(chips))
    _chips_check(tournament, chips)
    table = payout_table(tournament)
    if prizes is None:
        if not table.balanced:
            raise refuse("payouts_unbalanced", difference=table.difference)
        prizes = unpaid_prizes(table, len(chips))
    save = save or 0
    _deal_terms_check(tournament, method, len(chips), prizes, save)
    # To the house unit, as the payout table is (issue 16: €1, not cents); what the
    # prizes hold below one unit goes to the biggest share, so the total stays exact.
    amounts = deal_figures(method, chips, prizes, save=save, unit=table.structure.unit)
    return {
        "method": method,
        "prizes": prizes,
        "left_to_play": save if method == DealMethod.SAVE else 0,
        "players": [
            {"chips": count, "amount": amount} for count, amount in zip(chips, amounts, strict=True)
        ],
    }


def deal_figures_by_method(
    *, tournament_id: int, methods: Sequence[str], chips: list[int], save: int
) -> dict[str, dict]:
    """Casino §6: the figures of each of `methods` for these chips, in that order, to be
    shown side by side; the save method only when an amount is left for the winner.
    Changes nothing; what deal_calculate refuses is raised as it raises it."""
    figures = {}
    for method in methods:
        if method == DealMethod.SAVE and not save:
            continue
        figures[method] = deal_calculate(
            tournament_id=tournament_id,
            method=method,
            chips=chips,
            save=save if method == DealMethod.SAVE else None,
        )
    return figures


def _deal_terms_check(
    tournament: Tournament, method: str, players: int, prizes: list[int], save: int
) -> None:
    """What the deal engine needs, checked here so the desk reads why in its language."""
    if len(prizes) > players:
        raise Invalid(
            {
                "prizes": _("%(players)s players are left: at most %(players)s prizes.")
                % {"players": players}
            }
        )
    if any(later > earlier for earlier, later in zip(prizes, prizes[1:], strict=False)):
        raise Invalid({"prizes": _("A place may not pay more than the place above it.")})
    if method == DealMethod.SAVE:
        most = deals.save_most(prizes)
        if save <= 0:
            raise Invalid({"save": _("Give the amount left for the winner.")})
        if save > most:
            raise Invalid(
                {
                    "save": _(
                        "At most %(most)s can be left for the winner: first prize less second."
                    )
                    % {"most": money(most, tournament.currency)}
                }
            )


@transaction.atomic
def deal_record(
    *,
    actor,
    tournament_id: int,
    method: str,
    players: list[dict],
    save: int = 0,
    continue_play: bool = False,
) -> Deal:
    """Record the deal every player left agreed to (casino §6). `players`: one
    {"entry", "chips", "amount"} each; the amounts may differ from the method's figures
    (players round them) but must share out exactly the prizes still to be won, less
    what is left to play for. Without play continuing, the tournament is finished."""
    tournament = tournament_lock(tournament_id)
    refusal = deal_refusal(tournament)
    if refusal:
        raise refuse(refusal)
    active = {
        e.pk: e for e in tournament.entries.select_for_update().filter(status=EntryStatus.ACTIVE)
    }
    given = [p["entry"] for p in players]
    if sorted(given) != sorted(active):
        raise Invalid({"players": _("Give every player still in the tournament, once each.")})
    chips = [p["chips"] for p in players]
    _chips_check(tournament, chips)
    if save and not continue_play:
        raise Invalid({"save": _("An amount left to play for needs play to go on.")})
    table = payout_table(tournament)
    if not table.balanced:
        raise refuse("payouts_unbalanced", difference=table.difference)
    prizes = unpaid_prizes(table, len(players))
    amounts = [p["amount"] for p in players]
    shared = sum(amounts) + save
    if shared != sum(prizes):
        raise Invalid(
            {
                "amounts": _(
                    "The deal shares out %(shared)s, but %(prizes)s is still to be won: "
                    "a difference of %(difference)s."
                )
                % {
                    "shared": money(shared, tournament.currency),
                    "prizes": money(sum(prizes), tournament.currency),
                    "difference": money(shared - sum(prizes), tournament.currency),
                }
            }
        )
    _deal_terms_check(tournament, method, len(players), prizes, save)
    calculated = _calculated(method, chips, prizes, save, unit=table.structure.unit)
    deal = Deal.objects.create(
        tournament=tournament,
        method=method,
        prizes=prizes,
        left_to_play=save,
        ends_tournament=not continue_play,
        created_by=staff_user(actor),
    )
    DealShare.objects.bulk_create(
        DealShare(
            deal=deal,
            entry_id=p["entry"],
            chips=p["chips"],
            amount=p["amount"],
            calculated=figure,
        )
        for p, figure in zip(players, calculated, strict=True)
    )
    # The counts agreed on are the stacks from now on.
    entries_chips_count(tournament=tournament, counts={p["entry"]: p["chips"] for p in players})
    structure = _structure_locked(tournament)
    if not structure.frozen:
        _freeze(tournament, structure, table.amounts)
    own = []
    if not continue_play:
        tournament_status_save(actor=actor, tournament=tournament, status=TournamentStatus.FINISHED)
        # Issue 18: each player in a deal that ends a knockout or PKO event collects the
        # bounty on their own head, as the winner does when play ends.
        own = own_bounties_record(actor=actor, tournament=tournament, entry_ids=list(active))
    audit_record(
        actor=actor,
        action="deal.record",
        obj=deal,
        tournament=tournament,
        after={
            "method": method,
            "left_to_play": save,
            "ends_tournament": not continue_play,
            "players": players,
            **({"own_bounties": [[row.winner_id, row.cash] for row in own]} if own else {}),
        },
    )
    if not continue_play:
        tournament_publish(tournament)
    _publish_results(tournament)
    return deal


def _calculated(method: str, chips: list[int], prizes: list[int], save: int, *, unit: int) -> list:
    if method == DealMethod.CUSTOM:
        return [None] * len(chips)
    return deal_figures(method, chips, prizes, save=save, unit=unit)
