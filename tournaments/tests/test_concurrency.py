"""Two desks acting at the same moment must not corrupt a tournament (real transactions)."""

import pytest

from floorman.tests.concurrency import at_once
from hands.services import busts as bust_services
from seating.services import desk as desk_intentions
from tournaments import services
from tournaments.models import Alternate, Entry, EntryStatus, Transaction
from tournaments.tests.factories import register, staff, tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_cashiers_selling_the_last_place_make_one_entry_and_one_alternate():
    event = tournament(capacity=3)
    for name in ("Ada", "Bo"):
        register(event, name)
    desk_a, desk_b = staff("cashier"), staff("cashier")

    results = at_once(
        lambda: register(event, "Cara", actor=desk_a),
        lambda: register(event, "Dino", actor=desk_b),
    )

    assert all(isinstance(r, services.Registration) for r in results), results
    entered = [r.entry for r in results if r.entry]
    waiting = [r.alternate for r in results if r.alternate]
    assert len(entered) == 1 and len(waiting) == 1
    assert Entry.objects.filter(tournament=event, status=EntryStatus.ACTIVE).count() == 3
    assert Alternate.objects.get(tournament=event).position == 1
    assert Transaction.objects.filter(tournament=event).count() == 3


def test_same_player_registered_at_two_desks_gets_one_entry():
    event = tournament()
    player = services.player_create(actor=None, data={"name": "Eve", "birth_year": 1990})

    def sell():
        return desk_intentions.entry_register(
            actor=None, tournament_id=event.pk, player_id=player.pk
        )

    results = at_once(sell, sell)

    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["already_active", "ok"]
    assert Entry.objects.filter(tournament=event, player=player).count() == 1


def test_new_player_typed_at_two_desks_is_one_person():
    event = tournament()

    results = at_once(
        lambda: register(event, "Finn Gray", email="finn@example.com"),
        lambda: register(event, "Finn Gray", email="FINN@example.com"),
    )

    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["already_active", "ok"]
    assert Entry.objects.filter(tournament=event).values("player").distinct().count() == 1


def test_entry_numbers_stay_unique_under_parallel_desks():
    event = tournament()
    results = at_once(*[(lambda n=n: register(event, f"Player {n}")) for n in range(6)])

    assert all(isinstance(r, services.Registration) for r in results), results
    numbers = sorted(Entry.objects.filter(tournament=event).values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5, 6]


def test_bust_and_undo_at_once_leave_a_consistent_entry():
    event = tournament()
    entry = register(event, "Hana").entry
    floor = staff("floor")

    results = at_once(
        lambda: bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk),
        lambda: bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk),
    )

    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["entry_not_active", "ok"]
    assert event.audit_entries.filter(action="entry.bust").count() == 1


def test_two_cashiers_paying_one_entry_pay_it_once():
    from prizes import services as prize_services
    from prizes.models import Payment
    from tournaments.tests.factories import bust_in_order, field, registration_closed

    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:9])  # the runner-up is out: second place
    runner_up = entries[8]
    desk_a, desk_b = staff("cashier"), staff("cashier")

    results = at_once(
        lambda: prize_services.prize_pay(
            actor=desk_a, tournament_id=event.pk, entry_id=runner_up.pk
        ),
        lambda: prize_services.prize_pay(
            actor=desk_b, tournament_id=event.pk, entry_id=runner_up.pk
        ),
    )

    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["already_paid", "ok"]
    assert Payment.objects.filter(entry=runner_up).count() == 1
    assert Transaction.objects.filter(tournament=event, kind="payout").count() == 1


def test_director_editing_the_table_while_a_prize_is_paid():
    """Either the prize is paid from the old table and the edit is refused, or the edit
    comes first and the prize is paid from the new table: never a mix."""
    from payouts.selectors import payout_table
    from prizes import services as prize_services
    from prizes.selectors import results
    from tournaments.tests.factories import bust_in_order, field, registration_closed

    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    director = staff("director")
    prize_services.payouts_update(actor=director, tournament_id=event.pk, locked=False)
    bust_in_order(event, *entries[:9])

    outcome = at_once(
        lambda: prize_services.prize_pay(
            actor=staff("cashier"), tournament_id=event.pk, entry_id=entries[8].pk
        ),
        lambda: prize_services.payouts_update(
            actor=director, tournament_id=event.pk, lines=[70000, 30000]
        ),
    )

    paid = -Transaction.objects.get(tournament=event, kind="payout").amount
    assert not isinstance(outcome[0], Exception), outcome
    assert paid == results(event).for_entry(entries[8].pk).prize
    assert paid == payout_table(event).amounts[1]
    if isinstance(outcome[1], Exception):
        assert outcome[1].code == "payouts_paid"
    else:
        assert paid == 30000
