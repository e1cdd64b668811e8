"""The rules of taking chips out of play (issue 19), without a database: TDA 8-B and 63
take a named player's chips, no more than their stack; TDA 64's chips have no owner."""

import pytest

from rulings.engine import found_chips
from tournaments.engine import removals
from tournaments.models import RemovalReason


@pytest.mark.parametrize("reason", ["reentry_forfeit", "out_of_view"])
def test_a_forfeit_tda_8b_or_chips_out_of_view_tda_63_name_the_player(reason):
    assert removals.owner_error(reason=reason, has_entry=False) == "entry_needed"
    assert removals.owner_error(reason=reason, has_entry=True) is None


def test_lost_and_found_chips_tda_64_name_nobody():
    assert removals.owner_error(reason="lost_and_found", has_entry=True) == "no_owner"
    assert removals.owner_error(reason="lost_and_found", has_entry=False) is None


@pytest.mark.parametrize(
    "amount, refusal", [(19_999, None), (20_000, None), (20_001, "removal_over_stack")]
)
def test_no_more_comes_off_a_stack_than_it_holds(amount, refusal):
    assert removals.stack_refusal(stack=20_000, amount=amount) == refusal


def test_the_reasons_are_the_models_and_the_chips_found_calculators_situations():
    assert set(removals.REASONS) == set(RemovalReason.values)
    assert set(removals.REASONS) <= set(found_chips.SITUATIONS)
    assert removals.RULES == {
        "reentry_forfeit": "TDA 8-B",
        "out_of_view": "TDA 63",
        "lost_and_found": "TDA 64",
    }
