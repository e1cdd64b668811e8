"""The bounty money in the ledger (issue 18): the bounty part of each buy-in and re-entry
is kept apart from the prize pool (`Transaction.bounty_share`), reversed with a refund,
carried by a satellite's ticket, and never counted in the prize pool the payouts split."""

from datetime import timedelta

import pytest
from django.utils import timezone

from floorman.errors import Conflict, Invalid
from hands.services.busts import entry_bust, tournament_edit
from payouts.selectors import payout_table, seat_value
from prizes.services import events
from seating.services import desk
from tournaments import services
from tournaments.models import (
    EntryStatus,
    Ticket,
    TicketStatus,
    Transaction,
    TransactionKind,
)
from tournaments.selectors import bounty_money, tournament_setup, tournament_totals
from tournaments.services import tickets
from tournaments.services.ledger import ledger_line_add
from tournaments.tests.factories import register, tournament

pytestmark = pytest.mark.django_db


def knockout(**overrides):
    """A €100 + €100 bounty + €10 knockout event with re-entries and a rebuy."""
    data = {
        "name": "Knockout",
        "bounty_format": "knockout",
        "bounty": 10_000,
        "reentry_allowed": True,
        "rebuy_until_level": 3,
        "rebuy_price": 5_000,
        "rebuy_chips": 10_000,
    }
    return tournament(**{**data, **overrides})


def shares(line):
    return (line.kind, line.amount, line.prize_share, line.fee_share, line.bounty_share)


def bounty_paid(event, entry, amount):
    """A bounty paid at the cage, as the cashier's BOUNTY line records it."""
    return ledger_line_add(
        tournament=event,
        entry=entry,
        kind=TransactionKind.BOUNTY,
        amount=-amount,
        prize_share=0,
        fee_share=0,
        bounty_share=-amount,
    )


# --- Sales ---------------------------------------------------------------------------------


def test_a_knockout_buy_in_pays_buy_in_fee_and_bounty_in_one_line():
    event = knockout()

    entry = register(event, "Ada").entry

    line = Transaction.objects.get(entry=entry)
    assert shares(line) == ("buy_in", 21_000, 10_000, 1_000, 10_000)


def test_a_re_entry_pays_the_bounty_again_a_rebuy_carries_none():
    event = knockout()
    first = register(event, "Ada").entry
    desk.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=first.pk)
    entry_bust(actor=None, tournament_id=event.pk, entry_id=first.pk)
    again = desk.entry_register(
        actor=None, tournament_id=event.pk, player_id=first.player_id, reentry=True
    ).entry

    rebuy = Transaction.objects.get(entry=first, kind=TransactionKind.REBUY)
    assert shares(rebuy) == ("rebuy", 5_000, 5_000, 0, 0)
    reentry = Transaction.objects.get(entry=again)
    assert shares(reentry) == ("reentry", 21_000, 10_000, 1_000, 10_000)


def test_an_event_without_bounties_sells_no_bounty():
    entry = register(tournament(), "Ada").entry

    assert Transaction.objects.get(entry=entry).bounty_share == 0


def test_a_mystery_bounty_event_funds_its_prize_list_with_the_bounty_part():
    event = tournament(
        bounty_format="mystery",
        bounty=5_000,
        mystery_prizes=[{"amount": 20_000, "count": 1}, {"amount": 2_500, "count": 4}],
    )

    entry = register(event, "Ada").entry

    assert shares(Transaction.objects.get(entry=entry)) == ("buy_in", 16_000, 10_000, 1_000, 5_000)


# --- Refunds ---------------------------------------------------------------------------------


def test_a_refund_reverses_the_bounty_share_too():
    event = knockout()
    entry = register(event, "Ada").entry

    desk.entry_cancel(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    refund = Transaction.objects.get(entry=entry, kind=TransactionKind.REFUND)
    assert shares(refund) == ("refund", -21_000, -10_000, -1_000, -10_000)
    assert bounty_money(event).collected == 0


def test_cancelling_a_knockout_event_gives_every_bounty_back():
    event = knockout()
    register(event, "Ada")
    register(event, "Bo")

    desk.tournament_status_set(actor=None, tournament_id=event.pk, status="cancelled")

    totals = tournament_totals(event)
    assert (totals.prize_pool.collected, totals.fees, totals.bounty.collected) == (0, 0, 0)


# --- Totals ------------------------------------------------------------------------------------


def test_the_prize_pool_never_holds_the_bounty_money():
    event = knockout(guarantee=0)
    ada = register(event, "Ada").entry
    register(event, "Bo")
    register(event, "Cy")

    bounty_paid(event, ada, 10_000)  # Ada knocked someone out

    totals = tournament_totals(event)
    assert totals.prize_pool.total == 30_000
    assert totals.prize_pool.paid_out == 0  # a bounty is not a prize
    assert (totals.bounty.collected, totals.bounty.paid_out, totals.bounty.left) == (
        30_000,
        10_000,
        20_000,
    )
    assert payout_table(event).pool.total == 30_000  # the payouts split the prizes only


def test_a_bounty_paid_by_mistake_and_taken_back_is_left_again():
    event = knockout()
    ada = register(event, "Ada").entry
    line = bounty_paid(event, ada, 10_000)

    services.line_reverse(actor=None, line=line, kind=TransactionKind.BOUNTY)

    assert bounty_money(event).paid_out == 0
    assert bounty_money(event).left == 10_000


def test_an_event_with_flights_counts_its_flights_bounty_money(django_assert_num_queries):
    event = knockout(name="Main Event")
    day_1a = knockout(name="Day 1A", parent=event, flight_name="1A")
    day_1b = knockout(name="Day 1B", parent=event, flight_name="1B")
    register(day_1a, "Ada")
    register(day_1b, "Bo")

    with django_assert_num_queries(1):
        money = bounty_money(event)

    assert money.collected == 20_000
    assert bounty_money(day_1a).collected == 10_000  # a flight's own stay its own
    assert tournament_totals(event).bounty.collected == 20_000


# --- Tickets -----------------------------------------------------------------------------------


def satellite_won_by(target, *names):
    satellite = tournament(name="Satellite", buy_in=5_000, fee=500, satellite_target=target)
    for name in names:
        register(satellite, name)
    return satellite


def test_a_satellite_seat_in_a_bounty_event_is_worth_buy_in_fee_and_bounty():
    target = knockout(name="Main Event")
    satellite = satellite_won_by(target, "Ada", "Bo")

    issued = tickets.tickets_issue(actor=None, satellite=satellite)

    assert {(t.buy_in, t.fee, t.bounty, t.value) for t in issued} == {
        (10_000, 1_000, 10_000, 21_000)
    }
    assert seat_value(satellite) == 21_000  # the satellite's pool buys seats at that price


def test_entering_with_a_ticket_brings_its_bounty_into_the_bounty_money():
    target = knockout(name="Main Event")
    satellite = satellite_won_by(target, "Ada")
    ticket = tickets.tickets_issue(actor=None, satellite=satellite)[0]

    entry = desk.entry_register(
        actor=None, tournament_id=target.pk, player_id=ticket.holder_id, ticket_id=ticket.pk
    ).entry

    line = Transaction.objects.get(entry=entry)
    assert shares(line) == ("ticket", 20_000, 10_000, 0, 10_000)
    totals = tournament_totals(target)
    assert (totals.prize_pool.collected, totals.fees, totals.bounty.collected) == (
        10_000,
        0,
        10_000,
    )

    desk.entry_cancel(actor=None, tournament_id=target.pk, entry_id=entry.pk)

    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.ISSUED
    assert bounty_money(target).collected == 0


def test_a_ticket_refunded_as_cash_pays_its_whole_value():
    target = knockout(name="Main Event", tickets_refundable=True)
    satellite = satellite_won_by(target, "Ada")
    ticket = tickets.tickets_issue(actor=None, satellite=satellite)[0]

    tickets.ticket_refund(actor=None, ticket_id=ticket.pk)

    payout = Transaction.objects.get(ticket=ticket, kind=TransactionKind.PAYOUT)
    assert (payout.tournament_id, payout.amount) == (satellite.pk, -21_000)
    assert bounty_money(target).collected == 0  # the target's bounty money is untouched


# --- Settings ----------------------------------------------------------------------------------


def setup(**overrides) -> dict:
    return {
        "name": "Bounty Builder",
        "buy_in": 10_000,
        "fee": 1_000,
        "currency": "EUR",
        "starting_stack": 20_000,
        "start_at": timezone.now() + timedelta(days=1),
        **overrides,
    }


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"bounty_format": "knockout", "bounty": 0}, "bounty"),
        ({"bounty_format": "pko"}, "bounty"),
        ({"bounty": 5_000}, "bounty"),  # a bounty without a format
        ({"bounty_format": "mystery", "bounty": 5_000}, "mystery_prizes"),
        (
            {"bounty_format": "knockout", "bounty": 5_000, "mystery_prizes": [{"amount": 1}]},
            "mystery_prizes",
        ),
        (
            {
                "bounty_format": "mystery",
                "bounty": 5_000,
                "mystery_prizes": [{"amount": 0, "count": 3}],
            },
            "mystery_prizes",
        ),
        (
            {
                "bounty_format": "mystery",
                "bounty": 5_000,
                "mystery_prizes": [{"amount": 500, "count": -1}],
            },
            "mystery_prizes",
        ),
        (
            {"bounty_format": "pko", "bounty": 5_000, "bounty_cash_percent": 101},
            "bounty_cash_percent",
        ),
        ({"bounty_format": "bingo"}, "bounty_format"),
    ],
)
def test_bounty_settings_that_do_not_hold_together_are_refused(overrides, field):
    with pytest.raises(Invalid) as refused:
        services.tournament_create(actor=None, data=setup(**overrides))

    assert field in refused.value.fields


def test_a_progressive_knockout_with_its_cash_share_is_accepted():
    event = services.tournament_create(
        actor=None, data=setup(bounty_format="pko", bounty=10_000, bounty_cash_percent=40)
    )

    assert (event.bounty_format, event.bounty, event.bounty_cash_percent) == ("pko", 10_000, 40)


def test_the_bounty_cannot_change_once_entries_were_sold():
    event = knockout()
    register(event, "Ada")

    for change in (
        {"bounty": 20_000},
        {"bounty_format": "pko"},
        {"bounty_format": "", "bounty": 0},
    ):
        with pytest.raises(Conflict) as refused:
            tournament_edit(actor=None, tournament_id=event.pk, data=change)
        assert refused.value.code == "bounty_money_taken"
    event.refresh_from_db()
    assert (event.bounty_format, event.bounty) == ("knockout", 10_000)
    # What was not sold may still change: the RP-22 policy, the PKO share.
    tournament_edit(actor=None, tournament_id=event.pk, data={"non_betting_items": "call"})


def test_the_bounty_cannot_change_once_a_satellite_priced_the_tickets():
    target = knockout(name="Main Event")
    tickets.tickets_issue(actor=None, satellite=satellite_won_by(target, "Ada"))

    with pytest.raises(Conflict):
        tournament_edit(actor=None, tournament_id=target.pk, data={"bounty": 5_000})


def test_the_bounty_may_change_before_any_sale():
    event = knockout()

    tournament_edit(actor=None, tournament_id=event.pk, data={"bounty": 20_000})

    event.refresh_from_db()
    assert event.bounty == 20_000
    assert shares(Transaction.objects.get(entry=register(event, "Ada").entry))[4] == 20_000


def test_a_copy_and_a_template_carry_the_bounty_settings():
    prizes = [{"amount": 100_000, "count": 1}, {"amount": 5_000, "count": 20}]
    event = tournament(
        name="Mystery Monday",
        bounty_format="mystery",
        bounty=10_000,
        mystery_start="day2",
        mystery_prizes=prizes,
        non_betting_items="all_in",
        chip_counts_public=False,
    )

    copy = events.event_copy(
        actor=None,
        tournament_id=event.pk,
        name="Mystery Monday II",
        start_at=timezone.now() + timedelta(days=7),
    )

    assert (
        copy.bounty_format,
        copy.bounty,
        copy.mystery_start,
        copy.mystery_prizes,
        copy.non_betting_items,
        copy.chip_counts_public,
    ) == ("mystery", 10_000, "day2", prizes, "all_in", False)
    assert tournament_setup(event)["mystery_prizes"] == prizes
    assert copy.entries.filter(status=EntryStatus.ACTIVE).count() == 0
    assert not Ticket.objects.filter(target=copy).exists()


def test_the_cash_share_is_fixed_once_a_knockout_was_recorded():
    event = knockout(bounty_format="pko")
    anna, ben = (register(event, name).entry for name in ("Anna", "Ben"))
    tournament_edit(actor=None, tournament_id=event.pk, data={"bounty_cash_percent": 40})

    entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk, eliminators=[ben.pk])

    with pytest.raises(Conflict) as refused:
        tournament_edit(actor=None, tournament_id=event.pk, data={"bounty_cash_percent": 60})
    assert refused.value.code == "bounties_settled"
    event.refresh_from_db()
    assert event.bounty_cash_percent == 40
