"""The rules for errors found during a hand, without a database: substantial action
(TDA 36), the button in the wrong place (TDA 34-A; casino §16 c), a hand at the wrong
level (TDA 23) and what starts a hand (TDA 23; casino §25, §32)."""

import pytest

from hands.engine import corrections as rules


@pytest.mark.parametrize(
    ("kinds", "substantial"),
    [
        ((), False),
        (("call",), False),
        (("check", "check"), False),  # TDA 36: two checks are not substantial
        (("fold", "fold"), False),  # nor two folds
        (("check", "fold"), False),  # two actions, no chips
        (("fold", "call"), True),  # TDA 36 A: two actions, one puts chips in
        (("raise", "call"), True),
        (("fold", "fold", "fold"), True),  # TDA 36 B: any three actions
        (("check", "check", "check"), True),
    ],
)
def test_substantial_action_is_two_actions_with_chips_or_any_three(kinds, substantial):
    assert rules.substantial_action(kinds) is substantial


def test_tda_34a_the_button_error_is_corrected_before_substantial_action_and_stands_after():
    before = rules.button_error_ruling(("fold",), reading="tda")
    after = rules.button_error_ruling(("call", "fold"), reading="tda")

    assert (before.outcome, before.rule) == ("corrected", "TDA 34-A, 36")
    assert (after.outcome, after.rule) == ("stands", "TDA 34-A, 36")


def test_casino_16c_the_hand_is_void_until_two_chip_actions():
    # A call and a fold are substantial for the TDA, but only one chip action here.
    void = rules.button_error_ruling(("call", "fold", "fold"), reading="casino")
    plays_on = rules.button_error_ruling(("call", "fold", "raise"), reading="casino")

    assert (void.outcome, void.rule) == ("corrected", "casino §16 c")
    assert plays_on.outcome == "stands"
    assert rules.chip_actions(("bet", "call", "raise", "all-in", "check", "fold")) == 4


def test_tda_23_a_hand_at_the_wrong_level_stands_once_substantial_action_occurred():
    assert rules.level_error_ruling(("check",)).corrected
    assert not rules.level_error_ruling(("raise", "call")).corrected
    assert rules.level_error_ruling(()).rule == "TDA 23, 36"


def test_unknown_actions_and_readings_are_refused():
    with pytest.raises(ValueError):
        rules.substantial_action(("shove",))
    with pytest.raises(ValueError):
        rules.button_error_ruling((), reading="ifp")
    with pytest.raises(ValueError):
        rules.start_events("ifp")


def test_what_starts_a_hand_is_the_houses_reading():
    assert rules.start_events("tda") == ("riffle", "shuffler", "push")  # TDA 23
    assert rules.start_events("cut") == ("cut",)  # casino §25, §32


SEATS = tuple(range(1, 10))


def test_the_redeal_puts_the_blinds_after_the_right_button():
    right = rules.corrected_blinds([1, 2, 3, 4], 2, SEATS)
    assert (right.button, right.small_blind, right.big_blind) == (2, 3, 4)
    wrapped = rules.corrected_blinds([1, 2, 3, 4], 4, SEATS)
    assert (wrapped.small_blind, wrapped.big_blind) == (1, 2)


def test_the_right_button_may_be_dead_but_heads_up_it_is_a_players():
    dead = rules.corrected_blinds([1, 3, 4], 2, SEATS)  # TDA 32: seat 2 is empty
    assert (dead.button, dead.small_blind, dead.big_blind) == (2, 3, 4)
    heads_up = rules.corrected_blinds([3, 7], 7, SEATS)  # TDA 34-B: the button posts the SB
    assert (heads_up.small_blind, heads_up.big_blind) == (7, 3)
    with pytest.raises(ValueError):
        rules.corrected_blinds([3, 7], 5, SEATS)
    with pytest.raises(ValueError):
        rules.corrected_blinds([1, 2, 3], 12, SEATS)
