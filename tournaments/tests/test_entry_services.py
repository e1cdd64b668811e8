"""The entry services, called directly: what the cashier and the floor see happen.

Each sale, bust or refund is checked by the entry's status and chips, the ledger's lines
and the audit entry it leaves; each refusal by its code, and by the fact that it writes
nothing at all (no ledger line, no audit entry, no entry, no alternate).
"""

import pytest

from floorman.errors import Conflict, NotFound
from floorman.models import AuditEntry
from hands.services import busts as bust_services
from seating.services import desk as desk_intentions
from tournaments import services
from tournaments.models import Alternate, Entry, Tournament, Transaction
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db

BUY_IN = 10000 + 1000  # the factory's €100 + €10
STACK = 20000


def ledger(event) -> list[tuple]:
    """(kind, amount, prize share, fee share, entry, reversed line) in order."""
    return list(
        Transaction.objects.filter(tournament=event)
        .order_by("pk")
        .values_list("kind", "amount", "prize_share", "fee_share", "entry_id", "reverses_id")
    )


def last_audit(event) -> AuditEntry:
    return AuditEntry.objects.filter(tournament=event).latest("pk")


def stored(event) -> dict:
    """Everything an entry service may write for `event`."""
    return {
        "ledger": ledger(event),
        "audit": list(AuditEntry.objects.filter(tournament=event).values_list("pk", flat=True)),
        "entries": list(Entry.objects.filter(tournament=event).order_by("pk").values()),
        "alternates": list(Alternate.objects.filter(tournament=event).order_by("pk").values()),
    }


def refused(event, code: str, service, **kwargs) -> None:
    """The service refuses with `code` and leaves every row as it was."""
    before = stored(event)
    with pytest.raises(Conflict) as refusal:
        service(tournament_id=event.pk, **kwargs)
    assert refusal.value.code == code
    assert stored(event) == before


def at_level(event, level: int, **changes) -> Tournament:
    """Play in `level`, with the given rules changed."""
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=level, **changes)
    event.refresh_from_db()
    return event


def sold(event, name: str, *, actor=None, reentry: bool = False) -> Entry:
    entry = register(event, name, actor=actor, reentry=reentry).entry
    assert entry is not None
    return entry


def bust(event, entry: Entry) -> Entry:
    return bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)


# --- Registration (buy-in and re-entry) ---------------------------------------------------------


def test_register_sells_a_buy_in_with_a_full_stack():
    event = tournament()
    cashier = staff("cashier")

    result = desk_intentions.entry_register(
        actor=cashier, tournament_id=event.pk, player_data={"name": "Anna Berger"}
    )

    entry = result.entry
    assert result.alternate is None
    assert (entry.number, entry.reentry_number, entry.status, entry.chips) == (
        1,
        1,
        "active",
        STACK,
    )
    assert entry.registered_by == cashier
    assert ledger(event) == [("buy_in", BUY_IN, 10000, 1000, entry.pk, None)]
    audit = last_audit(event)
    assert (audit.action, audit.actor, audit.object_id) == (
        "entry.register",
        cashier,
        str(entry.pk),
    )
    assert audit.after["player"] == entry.player_id and audit.after["chips"] == STACK


def test_register_a_known_player_by_id():
    event = tournament()
    anna = sold(tournament(name="Yesterday"), "Anna Berger").player

    entry = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=anna.pk
    ).entry

    assert entry.player == anna
    assert ledger(event) == [("buy_in", BUY_IN, 10000, 1000, entry.pk, None)]


def test_reentry_after_a_bust_is_a_new_entry_with_a_full_stack():
    """TDA 8-A: a re-entry is a new entry, with the starting stack, paid again."""
    event = tournament(reentry_allowed=True)
    first = sold(event, "Anna Berger")
    bust(event, first)

    second = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=first.player_id, reentry=True
    ).entry

    assert (second.number, second.reentry_number, second.chips) == (2, 2, STACK)
    assert ledger(event)[-1] == ("reentry", BUY_IN, 10000, 1000, second.pk, None)
    assert last_audit(event).action == "entry.reenter"


def test_register_is_refused_once_registration_has_closed():
    event = at_level(tournament(), 3, late_reg_until_level=2)

    refused(
        event,
        "registration_closed",
        desk_intentions.entry_register,
        actor=None,
        player_data={"name": "Late Larry"},
    )


def test_register_is_open_in_late_registration():
    event = at_level(tournament(), 2, late_reg_until_level=2)

    assert sold(event, "Late Larry").status == "active"


def test_a_player_with_an_active_entry_is_refused_a_second():
    event = tournament(reentry_allowed=True)
    anna = sold(event, "Anna Berger")

    for reentry in (False, True):
        refused(
            event,
            "already_active",
            desk_intentions.entry_register,
            actor=None,
            player_id=anna.player_id,
            reentry=reentry,
        )


def test_a_busted_player_must_be_sold_a_reentry():
    event = tournament(reentry_allowed=True)
    anna = sold(event, "Anna Berger")
    bust(event, anna)

    refused(
        event,
        "reentry_required",
        desk_intentions.entry_register,
        actor=None,
        player_id=anna.player_id,
    )


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"reentry_allowed": False}, "reentry_not_allowed"),
        ({"reentry_allowed": True, "reentry_max": 0}, "reentry_limit"),
        ({"reentry_allowed": True, "reentry_until_level": 1}, "reentry_closed"),
    ],
)
def test_reentry_refusals(rules, code):
    event = tournament()
    anna = sold(event, "Anna Berger")
    bust(event, anna)
    at_level(event, 2, late_reg_until_level=4, **rules)

    refused(
        event,
        code,
        desk_intentions.entry_register,
        actor=None,
        player_id=anna.player_id,
        reentry=True,
    )


def test_reentry_refused_once_the_field_is_in_the_money():
    """Casino §12: the desk reads the payout table under its lock (payouts) and the sale
    refuses the re-entry once the players left have reached the paid places."""
    event = tournament(reentry_allowed=True)
    entries = [sold(event, f"Player {n}") for n in range(10)]
    at_level(event, 2, late_reg_until_level=4)
    for entry in entries[:8]:
        bust(event, entry)  # two of ten left: 15 % of ten pays two

    refused(
        event,
        "reentry_in_the_money",
        desk_intentions.entry_register,
        actor=None,
        player_id=entries[0].player_id,
        reentry=True,
    )


def test_sold_out_puts_the_player_on_the_alternates_list_without_money():
    """Casino §8b: no place, no money taken; the player waits in line."""
    event = tournament(capacity=1)
    seated = sold(event, "Anna Berger")

    result = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_data={"name": "Ben Cohen"}
    )

    assert result.entry is None
    assert (result.alternate.position, result.alternate.status) == (1, "waiting")
    assert ledger(event) == [("buy_in", BUY_IN, 10000, 1000, seated.pk, None)]
    audit = last_audit(event)
    assert (audit.action, audit.after) == (
        "alternate.add",
        {"player": result.alternate.player_id, "position": 1},
    )


def test_a_waiting_alternate_is_refused_a_second_place_in_line():
    event = tournament(capacity=1)
    sold(event, "Anna Berger")
    ben = register(event, "Ben Cohen").alternate

    refused(
        event,
        "already_alternate",
        desk_intentions.entry_register,
        actor=None,
        player_id=ben.player_id,
    )


# --- Rebuys and add-ons -------------------------------------------------------------------------

REBUYS = {"rebuy_until_level": 4, "rebuy_price": 5000, "rebuy_fee": 500, "rebuy_chips": 20000}
ADDON = {"addon_at_break_after_level": 4, "addon_price": 5000, "addon_fee": 0, "addon_chips": 30000}


def test_rebuy_adds_chips_and_a_ledger_line():
    event = tournament(**REBUYS)
    entry = sold(event, "Anna Berger")
    cashier = staff("cashier")

    entry = desk_intentions.entry_rebuy(actor=cashier, tournament_id=event.pk, entry_id=entry.pk)

    assert (entry.rebuys, entry.chips) == (1, STACK + 20000)
    assert ledger(event)[-1] == ("rebuy", 5500, 5000, 500, entry.pk, None)
    audit = last_audit(event)
    assert (audit.action, audit.actor) == ("entry.rebuy", cashier)
    assert (audit.before["chips"], audit.after["chips"]) == (STACK, STACK + 20000)


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({}, "rebuy_not_offered"),
        ({**REBUYS, "rebuy_until_level": 1}, "rebuy_closed"),
        ({**REBUYS, "rebuy_max": 0}, "rebuy_limit"),
    ],
)
def test_rebuy_refusals(rules, code):
    event = tournament(late_reg_until_level=4)
    entry = sold(event, "Anna Berger")
    at_level(event, 2, **rules)

    refused(event, code, desk_intentions.entry_rebuy, actor=None, entry_id=entry.pk)


def test_a_busted_entry_is_refused_a_rebuy_and_an_addon():
    event = tournament(**REBUYS, **ADDON)
    entry = sold(event, "Anna Berger")
    bust(event, entry)

    refused(event, "entry_not_active", desk_intentions.entry_rebuy, actor=None, entry_id=entry.pk)
    refused(event, "entry_not_active", desk_intentions.entry_addon, actor=None, entry_id=entry.pk)


def test_addon_adds_chips_and_a_ledger_line_once():
    event = tournament(**ADDON)
    entry = sold(event, "Anna Berger")

    entry = desk_intentions.entry_addon(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    assert (entry.addon, entry.chips) == (True, STACK + 30000)
    assert ledger(event)[-1] == ("addon", 5000, 5000, 0, entry.pk, None)
    assert last_audit(event).action == "entry.addon"
    refused(event, "addon_taken", desk_intentions.entry_addon, actor=None, entry_id=entry.pk)


@pytest.mark.parametrize(
    ("rules", "code"),
    [({}, "addon_not_offered"), ({**ADDON, "addon_at_break_after_level": 1}, "addon_closed")],
)
def test_addon_refusals(rules, code):
    event = tournament(late_reg_until_level=4)
    entry = sold(event, "Anna Berger")
    at_level(event, 2, **rules)

    refused(event, code, desk_intentions.entry_addon, actor=None, entry_id=entry.pk)


# --- Cancelling (refund) ------------------------------------------------------------------------


def test_cancel_refunds_every_line_by_reversing_it():
    """Money is never deleted: each payment gets its reversing refund line."""
    event = tournament(**REBUYS)
    entry = sold(event, "Anna Berger")
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=entry.pk)
    buy_in, rebuy = Transaction.objects.filter(entry=entry).order_by("pk")

    entry = desk_intentions.entry_cancel(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    assert entry.status == "cancelled"
    assert ledger(event)[2:] == [
        ("refund", -BUY_IN, -10000, -1000, entry.pk, buy_in.pk),
        ("refund", -5500, -5000, -500, entry.pk, rebuy.pk),
    ]
    audit = last_audit(event)
    assert (audit.action, audit.after["refunded"]) == ("entry.cancel", BUY_IN + 5500)


def test_cancel_of_a_busted_entry_is_refused():
    event = tournament()
    entry = sold(event, "Anna Berger")
    bust(event, entry)

    refused(event, "entry_not_active", desk_intentions.entry_cancel, actor=None, entry_id=entry.pk)


# --- Busts and their undoing --------------------------------------------------------------------


def test_bust_takes_the_entry_out_without_money():
    event = tournament()
    entry = sold(event, "Anna Berger")
    floor = staff("floor")

    entry = bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk)

    assert entry.status == "busted" and entry.busted_at is not None
    assert len(ledger(event)) == 1  # the buy-in only
    audit = last_audit(event)
    assert (audit.action, audit.actor, audit.before["status"], audit.after["status"]) == (
        "entry.bust",
        floor,
        "active",
        "busted",
    )


def test_bust_of_an_entry_already_out_is_refused():
    event = tournament()
    entry = bust(event, sold(event, "Anna Berger"))

    refused(event, "entry_not_active", bust_services.entry_bust, actor=None, entry_id=entry.pk)


def test_bust_undo_puts_the_entry_back_in_play():
    event = tournament()
    entry = bust(event, sold(event, "Anna Berger"))

    entry = bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    assert (entry.status, entry.busted_at, entry.chips) == ("active", None, STACK)
    assert len(ledger(event)) == 1
    audit = last_audit(event)
    assert (audit.action, audit.after["alternate_withdrawn"]) == ("entry.bust_undo", False)


def test_bust_undo_of_an_active_entry_is_refused():
    event = tournament()
    entry = sold(event, "Anna Berger")

    refused(event, "entry_not_busted", bust_services.entry_bust_undo, actor=None, entry_id=entry.pk)


def test_bust_undo_after_the_player_reentered_is_refused():
    event = tournament(reentry_allowed=True)
    first = bust(event, sold(event, "Anna Berger"))
    desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=first.player_id, reentry=True
    )

    refused(event, "player_reentered", bust_services.entry_bust_undo, actor=None, entry_id=first.pk)


def test_bust_undo_once_the_freed_place_is_sold_is_refused():
    event = tournament(capacity=1)
    anna = bust(event, sold(event, "Anna Berger"))
    sold(event, "Ben Cohen")

    refused(event, "place_taken", bust_services.entry_bust_undo, actor=None, entry_id=anna.pk)


@pytest.mark.parametrize(
    "service",
    [
        bust_services.entry_bust,
        bust_services.entry_bust_undo,
        desk_intentions.entry_rebuy,
        desk_intentions.entry_addon,
        desk_intentions.entry_cancel,
    ],
)
def test_an_entry_of_another_tournament_is_not_found(service):
    event = tournament(**REBUYS, **ADDON)
    other = sold(tournament(name="Other"), "Anna Berger")
    before = stored(event)

    with pytest.raises(NotFound):
        service(actor=None, tournament_id=event.pk, entry_id=other.pk)
    assert stored(event) == before


# --- Alternates ---------------------------------------------------------------------------------


def test_enter_next_sells_the_freed_place_to_the_first_alternate():
    """Casino §8b: the first in line pays now and gets the next entry number."""
    event = tournament(capacity=1)
    anna = sold(event, "Anna Berger")
    ben = register(event, "Ben Cohen").alternate
    register(event, "Cleo Dahl")
    bust(event, anna)
    cashier = staff("cashier")

    entry = desk_intentions.alternate_enter_next(actor=cashier, tournament_id=event.pk)

    assert (entry.player_id, entry.number, entry.status, entry.chips) == (
        ben.player_id,
        2,
        "active",
        STACK,
    )
    assert ledger(event)[-1] == ("buy_in", BUY_IN, 10000, 1000, entry.pk, None)
    ben.refresh_from_db()
    assert (ben.status, ben.entry) == ("seated", entry)
    audit = last_audit(event)
    assert (audit.action, audit.actor, audit.before) == (
        "alternate.enter",
        cashier,
        {"alternate_position": 1},
    )


def test_enter_next_without_a_free_place_is_refused():
    event = tournament(capacity=1)
    sold(event, "Anna Berger")
    register(event, "Ben Cohen")

    refused(event, "no_free_place", desk_intentions.alternate_enter_next, actor=None)


def test_enter_next_with_nobody_waiting_is_refused():
    event = tournament(capacity=1)
    bust(event, sold(event, "Anna Berger"))

    refused(event, "no_alternate", desk_intentions.alternate_enter_next, actor=None)


def test_enter_next_after_registration_closed_is_refused():
    event = tournament(capacity=1)
    anna = sold(event, "Anna Berger")
    register(event, "Ben Cohen")
    bust(event, anna)
    at_level(event, 3, late_reg_until_level=2)

    refused(event, "registration_closed", desk_intentions.alternate_enter_next, actor=None)


def test_enter_next_refuses_a_reentry_once_the_field_is_in_the_money():
    """Casino §12: an alternate waiting to re-enter is refused once the players left have
    reached the paid places, as at the desk's sale."""
    event = tournament(capacity=10, reentry_allowed=True)
    entries = [sold(event, f"Player {n}") for n in range(10)]
    at_level(event, 2, late_reg_until_level=4)
    bust(event, entries[0])
    sold(event, "Anna Berger")  # sold out again
    line = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=entries[0].player_id, reentry=True
    ).alternate
    assert line.reentry
    for entry in entries[1:9]:
        bust(event, entry)  # two of eleven left: 15 % of eleven pays two

    refused(event, "reentry_in_the_money", desk_intentions.alternate_enter_next, actor=None)


def test_withdraw_takes_the_alternate_out_of_line():
    event = tournament(capacity=1)
    sold(event, "Anna Berger")
    ben = register(event, "Ben Cohen").alternate

    withdrawn = services.alternate_withdraw(actor=None, tournament_id=event.pk, alternate_id=ben.pk)

    assert withdrawn.status == "withdrawn"
    audit = last_audit(event)
    assert (audit.action, audit.before, audit.after) == (
        "alternate.withdraw",
        {"status": "waiting"},
        {"status": "withdrawn"},
    )
    assert len(ledger(event)) == 1


def test_withdraw_of_an_alternate_no_longer_waiting_is_not_found():
    event = tournament(capacity=1)
    sold(event, "Anna Berger")
    ben = register(event, "Ben Cohen").alternate
    services.alternate_withdraw(actor=None, tournament_id=event.pk, alternate_id=ben.pk)
    before = stored(event)

    with pytest.raises(NotFound):
        services.alternate_withdraw(actor=None, tournament_id=event.pk, alternate_id=ben.pk)
    assert stored(event) == before


def test_bust_undo_withdraws_the_player_from_the_alternates_list():
    """A player back in play needs no re-entry: waiting would block the line."""
    event = tournament(capacity=2, reentry_allowed=True)
    anna = bust(event, sold(event, "Anna Berger"))
    sold(event, "Ben Cohen")
    sold(event, "Cleo Dahl")  # sold out now
    line = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=anna.player_id, reentry=True
    ).alternate
    bust_services.entry_bust(
        actor=None, tournament_id=event.pk, entry_id=Entry.objects.get(player__name="Cleo Dahl").pk
    )

    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    line.refresh_from_db()
    assert line.status == "withdrawn"
    assert last_audit(event).after["alternate_withdrawn"] is True
