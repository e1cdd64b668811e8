"""Errors the dealer or the floor finds in the hand in play, and what becomes of it.

The button in the wrong place (TDA 34-A, 36; casino §16 c, as the house reads
`button_error`) and a hand dealt at the wrong level (TDA 23, 36). How far the hand has
gone decides: before substantial action (the casino: before two chip actions) the hand
is re-dealt right, an exact re-play of the same players with their stacks (TDA 35-C: one
hand, not two); after it the hand stands and the table moves on from where it stood.

How far the hand has gone is read from its action log; a hand whose actions are not
logged takes the actions in turn as the dealer or floor reports them (`actions`).
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Invalid
from hands.engine import corrections as rules
from hands.models import Hand, HandStatus, OutOfTurn
from hands.selectors import hand_readings
from hands.services.common import hand_row, publish_table, refuse, table_of
from hands.services.levels import step_of_level
from seating.selectors import table_now
from tournaments.services import tournament_lock


@dataclass(frozen=True)
class Correction:
    """The floor's answer: the hand as it now is, re-dealt (`corrected`) or standing."""

    hand: Hand
    ruling: rules.Ruling
    actions: tuple[str, ...]  # the actions in turn that were counted

    def public(self) -> dict:
        return {
            "ruling": self.ruling.outcome,
            "rule": self.ruling.rule,
            "actions_counted": list(self.actions),
        }


def _actions_in_turn(hand: Hand, reported: list[str] | None) -> tuple[str, ...]:
    """The actions in turn so far (the posted blinds and antes are none, TDA 36): the
    hand's log, or where nothing is logged what the dealer or floor reports. A hand held
    all-in and called (RP-8 F) has had its chip actions whatever was logged."""
    logged = tuple(
        hand.actions.exclude(out_of_turn=OutOfTurn.KILLED)  # a hand killed is no action
        .order_by("sequence")
        .values_list("kind", flat=True)
    )
    if logged and reported is not None:
        raise Invalid(
            {"actions": _("This hand's action log counts the actions (TDA 36): leave this out.")}
        )
    kinds = logged or tuple(reported or ())
    if hand.status == HandStatus.HELD and rules.chip_actions(kinds) < 2:
        kinds = (*kinds, rules.ALL_IN, rules.CALL)
    return kinds


def _redeal(tournament, table, hand: Hand, fields: list[str]) -> None:
    """The hand dealt again, the same players with the stacks they started with: the log
    cleared (an item waiting for the floor too), the cards logged wiped; a seat dealt dead
    on penalty stays dead (`HandPlayer.dead`, TDA 35-C, 71-C)."""
    hand.actions.all().delete()
    hand.players.update(cards=[], upcards=[])
    hand.item_pending = ""
    hand.board = []
    hand.status = HandStatus.PLAYING
    hand.save(update_fields=[*fields, "item_pending", "board", "status"])


@transaction.atomic
def hand_button_correct(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    button: int,
    actions: list[str] | None = None,
) -> Correction:
    """The button was in the wrong place for the hand in play; `button` is the seat it
    should have been on.

    Steps: lock → the hand in play → the seat in play and not the hand's button (400) →
    the actions in turn so far → the house's reading (`button_error`) rules
    (hands.engine.corrections.button_error_ruling): TDA 34-A, before substantial action
    (TDA 36), or casino §16 c, before two chip actions: the hand re-dealt with the button
    and blinds right, and the table's state with it, so the next hand moves on from the
    right place; after it: the hand stands, the table's state is the hand's, and the
    button moves on from where it stood (never backed up) → audit `hand.button_error` →
    the tablet told."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    now = table_now(table)
    if button not in now.seats:
        raise Invalid(
            {"button": _("Seat %(seat)s is not a seat in play at this table.") % {"seat": button}}
        )
    if button == hand.button:
        raise Invalid(
            {"button": _("The button is on seat %(seat)s already in this hand.") % {"seat": button}}
        )
    kinds = _checked_kinds(hand, actions)
    # The house's reading (tournaments.selectors.house_settings) as the hand was dealt
    # under it (Hand.house_settings): a setting changed since does not change this hand.
    ruling = rules.button_error_ruling(kinds, reading=hand_readings(hand).button_error)
    before = {
        "button": hand.button,
        "small_blind": hand.small_blind,
        "big_blind": hand.big_blind,
    }
    if ruling.corrected:
        dealt = list(hand.players.values_list("seat", flat=True))
        try:
            right = rules.corrected_blinds(dealt, button, now.seats)
        except ValueError:
            raise Invalid(
                {"button": _("Heads-up the button is on a player's seat (TDA 34-B).")}
            ) from None
        hand.button = right.button
        hand.small_blind = hand.small_blind_seat = right.small_blind
        hand.big_blind = right.big_blind
        _redeal(tournament, table, hand, ["button", "small_blind", "small_blind_seat", "big_blind"])
        state = now.state
        state.button, state.small_blind_seat = right.button, right.small_blind
        state.big_blind = right.big_blind
        state.save(update_fields=["button", "small_blind_seat", "big_blind"])
    audit_record(
        actor=actor,
        action="hand.button_error",
        obj=hand,
        tournament=tournament,
        before=before,
        after={
            "table": table.number,
            "hand": hand.number,
            "reported_button": button,
            "ruling": ruling.outcome,
            "rule": ruling.rule,
            "actions": list(kinds),
            "button": hand.button,
            "small_blind": hand.small_blind,
            "big_blind": hand.big_blind,
        },
    )
    publish_table(table)
    return Correction(hand, ruling, kinds)


@transaction.atomic
def hand_level_correct(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    level: int,
    actions: list[str] | None = None,
) -> Correction:
    """The hand in play was dealt at the wrong level; `level` is the one it should play.

    Steps: lock → the hand in play → a level of the event's structure, not the hand's
    (400; no structure: 409) → the actions in turn so far → TDA 23: before substantial
    action (TDA 36) the hand re-dealt at the right level's blinds and antes; after it the
    hand continues at the level it was dealt → audit `hand.level_error` → the tablet told."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    step = step_of_level(tournament, level)
    if step is None:
        if step_of_level(tournament, 1) is None:
            raise refuse("no_structure")
        raise Invalid({"level": _("The structure has no level %(level)s.") % {"level": level}})
    if level == hand.level:
        raise Invalid(
            {"level": _("This hand is dealt at level %(level)s already.") % {"level": level}}
        )
    kinds = _checked_kinds(hand, actions)
    ruling = rules.level_error_ruling(kinds)
    before = {"level": hand.level, "big_blind": hand.big_blind_amount}
    if ruling.corrected:
        hand.level = level
        hand.game = step.game or hand.game
        hand.small_blind_amount, hand.big_blind_amount = step.small_blind, step.big_blind
        hand.ante_amount, hand.ante_type = step.ante, step.ante_type
        hand.small_bet, hand.big_bet = step.small_bet, step.big_bet
        _redeal(
            tournament,
            table,
            hand,
            [
                "level",
                "game",
                "small_blind_amount",
                "big_blind_amount",
                "ante_amount",
                "ante_type",
                "small_bet",
                "big_bet",
            ],
        )
    audit_record(
        actor=actor,
        action="hand.level_error",
        obj=hand,
        tournament=tournament,
        before=before,
        after={
            "table": table.number,
            "hand": hand.number,
            "reported_level": level,
            "ruling": ruling.outcome,
            "rule": ruling.rule,
            "actions": list(kinds),
            "level": hand.level,
            "big_blind": hand.big_blind_amount,
        },
    )
    publish_table(table)
    return Correction(hand, ruling, kinds)


def _checked_kinds(hand: Hand, actions: list[str] | None) -> tuple[str, ...]:
    if hand.status == HandStatus.FINISHED:
        raise refuse("hand_finished", hand=hand.number)
    try:
        kinds = _actions_in_turn(hand, actions)
        rules.substantial_action(kinds)  # checks the kinds
    except ValueError:
        raise Invalid(
            {"actions": _("Give each action as fold, check, call, bet, raise or all-in.")}
        ) from None
    return kinds
