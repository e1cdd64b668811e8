"""The ledger's running totals (issue 20): `tournament_totals` reads one row kept up to
date by the one writer of lines, and that row must always equal a fresh sum over the
ledger (`ledger_recount`), after every kind of line and reversal: sales, re-entries,
rebuys, add-ons, refunds, tickets used, given back and paid out, flights' lines in
their event's totals, prizes and bounties paid and taken back."""

import pytest

from hands.models import Knockout
from hands.services.busts import entry_bust
from prizes import services as prize_services
from prizes.selectors import results
from prizes.services import bounties as bounty_services
from seating.services import desk
from tournaments.models import LedgerTotals, Ticket, Transaction, TransactionKind
from tournaments.selectors import ledger_recount, ledger_totals_check, tournament_totals
from tournaments.services import tickets
from tournaments.services.ledger import ledger_totals_recount
from tournaments.tests.factories import (
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db


def agree(*events) -> None:
    for event in events:
        assert ledger_totals_check(event) == {}, event.name


def test_an_event_without_lines_has_no_row_and_zero_totals():
    event = tournament()

    totals = tournament_totals(event)

    assert (totals.entries, totals.prize_pool.collected, totals.fees) == (0, 0, 0)
    assert not LedgerTotals.objects.filter(tournament=event).exists()
    agree(event)


def test_sales_rebuys_addons_re_entries_and_refunds_keep_the_totals():
    event = tournament(
        buy_in=10_000,
        fee=1_000,
        bounty_format="knockout",
        bounty=5_000,
        reentry_allowed=True,
        rebuy_until_level=3,
        rebuy_price=5_000,
        rebuy_fee=500,
        rebuy_chips=10_000,
        addon_at_break_after_level=3,
        addon_price=3_000,
        addon_chips=15_000,
    )
    ada = register(event, "Ada").entry
    bo = register(event, "Bo").entry
    agree(event)
    desk.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=ada.pk)
    desk.entry_addon(actor=None, tournament_id=event.pk, entry_id=ada.pk)
    agree(event)
    entry_bust(actor=None, tournament_id=event.pk, entry_id=ada.pk)
    again = desk.entry_register(
        actor=None, tournament_id=event.pk, player_id=ada.player_id, reentry=True
    ).entry
    agree(event)
    desk.entry_cancel(actor=None, tournament_id=event.pk, entry_id=bo.pk)  # refunded
    desk.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=again.pk)
    desk.entry_cancel(actor=None, tournament_id=event.pk, entry_id=again.pk)  # and its rebuy
    agree(event)

    totals = tournament_totals(event)
    assert (totals.entries, totals.reentries, totals.rebuys, totals.addons) == (1, 0, 1, 1)
    assert totals.prize_pool.collected == 10_000 + 5_000 + 3_000
    assert (totals.fees, totals.bounty.collected) == (1_000 + 500, 5_000)


def test_a_flight_s_lines_count_in_its_own_totals_and_its_event_s():
    event = tournament(name="Main Event", buy_in=10_000, fee=1_000)
    day_1a = tournament(name="Day 1A", parent=event, flight_name="1A", buy_in=10_000, fee=1_000)
    day_1b = tournament(name="Day 1B", parent=event, flight_name="1B", buy_in=10_000, fee=1_000)
    register(day_1a, "Ada")
    bo = register(day_1b, "Bo").entry
    register(day_1b, "Cy")
    agree(event, day_1a, day_1b)
    desk.entry_cancel(actor=None, tournament_id=day_1b.pk, entry_id=bo.pk)

    agree(event, day_1a, day_1b)
    totals = tournament_totals(event)
    assert (totals.entries, totals.flight_lines, totals.prize_pool.collected) == (2, 4, 20_000)
    assert (tournament_totals(day_1b).entries, tournament_totals(day_1b).flight_lines) == (1, 0)


def test_tickets_used_given_back_and_paid_out_keep_the_totals():
    target = tournament(name="Main Event", buy_in=10_000, fee=1_000, tickets_refundable=True)
    satellite = tournament(name="Satellite", buy_in=5_000, fee=500, satellite_target=target)
    for name in ("Ada", "Bo", "Cy", "Di", "Ed"):
        register(satellite, name)
    used, cashed = tickets.tickets_issue(actor=None, satellite=satellite)[:2]
    entry = desk.entry_register(
        actor=None, tournament_id=target.pk, player_id=used.holder_id, ticket_id=used.pk
    ).entry
    agree(target, satellite)
    assert (tournament_totals(target).entries, tournament_totals(target).tickets) == (1, 1)

    desk.entry_cancel(actor=None, tournament_id=target.pk, entry_id=entry.pk)  # given back
    agree(target)
    assert (tournament_totals(target).entries, tournament_totals(target).tickets) == (0, 0)
    desk.entry_register(
        actor=None, tournament_id=target.pk, player_id=used.holder_id, ticket_id=used.pk
    )
    tickets.ticket_refund(actor=None, ticket_id=cashed.pk)  # a payout of the satellite's

    agree(target, satellite)
    assert (
        tournament_totals(satellite).prize_pool.paid_out == Ticket.objects.get(pk=cashed.pk).value
    )


def test_a_prize_paid_and_taken_back_keeps_the_totals():
    event = tournament(buy_in=10_000, fee=1_000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:9])
    second = entries[8]
    due = results(event).for_entry(second.pk).prize

    prize_services.prize_pay(actor=staff("cashier"), tournament_id=event.pk, entry_id=second.pk)
    agree(event)
    assert tournament_totals(event).prize_pool.paid_out == due
    prize_services.prize_pay_undo(
        actor=staff("cashier"), tournament_id=event.pk, entry_id=second.pk
    )

    agree(event)
    assert tournament_totals(event).prize_pool.paid_out == 0


def test_a_bounty_paid_and_taken_back_keeps_the_totals():
    event = tournament(buy_in=10_000, fee=1_000, bounty_format="knockout", bounty=5_000)
    ada, bo = field(event, 2)
    entry_bust(actor=None, tournament_id=event.pk, entry_id=bo.pk, eliminators=[ada.pk])
    knockout = Knockout.objects.get(tournament=event)

    bounty_services.bounty_pay(actor=None, tournament_id=event.pk, knockout_id=knockout.pk)
    agree(event)
    assert tournament_totals(event).bounty.paid_out == 5_000
    bounty_services.bounty_pay_undo(actor=None, tournament_id=event.pk, knockout_id=knockout.pk)

    agree(event)
    assert tournament_totals(event).bounty.paid_out == 0


def test_a_line_written_past_the_writer_is_found_and_a_recount_sets_it_right():
    event = tournament(buy_in=10_000, fee=1_000)
    register(event, "Ada")
    Transaction.objects.create(  # not through ledger_line_add: the totals miss it
        tournament=event,
        kind=TransactionKind.BUY_IN,
        amount=11_000,
        prize_share=10_000,
        fee_share=1_000,
    )

    assert ledger_totals_check(event) == {
        "entries": (1, 2),
        "collected": (10_000, 20_000),
        "fees": (1_000, 2_000),
    }
    ledger_totals_recount(tournament=event)
    agree(event)
    assert tournament_totals(event).entries == ledger_recount(event)["entries"] == 2
