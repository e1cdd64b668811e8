"""What a dealer or the floor is told when a hand action is refused."""

from django.utils.translation import gettext_lazy as _

REFUSALS = {
    "no_table": _("This tournament has no table %(number)s in play."),
    "hand_in_play": _("Hand %(hand)s is still being played at this table: finish it first."),
    "no_hand_in_play": _("No hand is being played at this table."),
    "not_this_hand": _("Hand %(hand)s is not the hand in play at this table."),
    "hand_finished": _("Hand %(hand)s is finished."),
    "too_few_players": _("A hand needs at least two players at the table."),
    "all_on_penalty": _(
        "Every player dealt in is on penalty: no hand would be live (TDA 71-C). Call the floor."
    ),
    "no_button": _("Draw for the button first (IFP 2.1): the high card takes it."),
    "button_drawn": _("The button is already in play at this table; set it by hand instead."),
    "seat_empty": _("Nobody sits in seat %(seat)s."),
    "not_dealt_in": _("Seat %(seat)s was not dealt in this hand."),
    "halted": _(
        "Table %(number)s is halted (%(rule)s): wait for players to be moved in, "
        "or the floor waives the halt."
    ),
    "table_minimum": _(
        "Table %(number)s may not deal: play at a table starts only with %(minimum)s "
        "players while other tables play (casino §17). Ask the floor to balance or break it."
    ),
    "break_on_clock": _("The clock shows a break: deal the next hand when play resumes."),
    "h4h_wait": _(
        "Hand-for-hand (RP-8): this table has played this round's hand; wait for the deal."
    ),
    "h4h_not_your_turn": _(
        "Hand-for-hand (RP-8 F): table %(first)s shows down first; keep the cards face down."
    ),
    "h4h_active": _("Hand-for-hand is already being played."),
    "h4h_inactive": _("Hand-for-hand is not being played."),
    "h4h_no_places_paid": _(
        "No place is paid yet: set up the payouts first, hand-for-hand plays the bubble."
    ),
    "bust_not_in_hand": _("The entry in seat %(seat)s was not dealt in this hand."),
    "bust_everyone": _("Somebody has to win the hand: not every player can bust."),
    "nothing_to_undo": _("There is no bust-out to undo."),
    "bust_not_last": _("That is no longer this table's last bust-out: nothing was changed."),
    "bust_places": _(
        "Another player has gone out in the same hand or since: taking this bust back "
        "would change their place. Ask the floor."
    ),
    "bust_hand_since": _(
        "A hand has been dealt at this table since that bust-out: it stands. Ask the floor."
    ),
    "bust_moves_since": _(
        "Players have been seated or moved at this table since that bust-out: ask the floor."
    ),
    "bust_seat_taken": _("The seat that player left is no longer free: ask the floor."),
    "bust_player_back": _("That player has re-entered since: ask the floor."),
    "no_action_log": _(
        "This hand's game cannot be logged action by action here; record its result instead."
    ),
    "actions_logged": _("Actions were logged for this hand: record the result after the last one."),
    "link_revoked": _("This table link was revoked."),
    "not_stud": _("Upcards are entered in stud, stud/8 and razz only."),
    "upcards_due": _(
        "Enter the door cards first: the low card by suit brings it in (razz: the high "
        "card; RP-10 E)."
    ),
    "upcards_not_due": _(
        "No upcards are due now: finish this betting round first (seventh street is dealt down)."
    ),
    "betting_open": _("The betting is not over yet: log the remaining actions first."),
    "item_pending": _(
        "Floor: RP-22. Seat %(seat)s bet with an item of no value: the floor rules it a "
        "call or all-in before the hand goes on."
    ),
    "no_item_pending": _("No item of no value waits for the floor's ruling in this hand."),
    "misdeal_too_late": _(
        "Too late for a misdeal (%(rule)s): the hand has gone too far and plays on; a "
        "fouled deck (TDA 35-E) is for the floor."
    ),
    "oot_not_in_hand": _(
        "Seat %(seat)s is not in this hand: only a player still in it acts out of turn (TDA 53-A)."
    ),
    "oot_in_turn": _("Seat %(seat)s is to act: log the action in turn, not out of turn."),
    "oot_all_in": _("Seat %(seat)s is all-in: there is nothing left to act on."),
    "oot_pending": _(
        "Seat %(seat)s already acted out of turn: that action waits for the seat's turn (TDA 53-A)."
    ),
    "oot_nothing_to_act": _(
        "Seat %(seat)s has acted in this betting round and faces no bet: nothing to record."
    ),
    "oot_floor": _(
        "Floor: TDA 53-B. Substantial action out of turn after skipped seat %(seat)s: the "
        "floor rules on that hand (dead, or check, call or fold only) before the hand goes on."
    ),
    "oot_no_ruling": _("Seat %(seat)s has no skipped hand waiting for the floor (TDA 53-B)."),
    "kill_not_in_hand": _(
        "Seat %(seat)s has no live hand in this hand: it was never dealt in, folded or is "
        "already dead. Nothing to kill."
    ),
    "kill_last_hand": _(
        "Seat %(seat)s holds the last live hand: it wins the pot, as when everyone folds."
    ),
    "kill_identifiable": _(
        "TDA 65-B: seat %(seat)s's hand was fouled but can be identified: it stays in play, "
        "whatever cards were exposed. Nothing was recorded."
    ),
    "kill_not_stud": _(
        "TDA 66 is a stud rule: picking up the upcards kills a hand in stud, stud/8 and razz."
    ),
    "kill_not_facing": _(
        "TDA 66: seat %(seat)s faces no action now, so picking up the upcards does not kill "
        "the hand by this rule. Call the floor if the hand cannot be identified (TDA 65)."
    ),
    "no_bounties": _("This event pays no bounties."),
    "bounty_paid": _("Bounty already paid: take the payment back at the cage first."),
    "bounty_collected": _(
        "Progressive knockout: the eliminator's grown bounty has been collected since "
        "(they went out, or won the event); this would change a later knockout. Ask the TD."
    ),
    "start_marked": _(
        "The start of the next hand is already marked (TDA 23): it plays at level %(level)s. "
        "Deal it."
    ),
    "no_start_mark": _("The start of the next hand is not marked: nothing to take back."),
    "no_structure": _("This event has no blind structure: its levels cannot be corrected."),
    "dead_blinds_owed": _(
        "This player already owes %(chips)s in dodged blinds, posted as dead money in their "
        "next hand (older TDA 22)."
    ),
}


def refusal_message(code: str, **data) -> str:
    return str(REFUSALS[code]) % data if data else str(REFUSALS[code])


# Why the betting engine refused an action, by the rule it cites (hands.engine.betting).
ILLEGAL = {
    "TDA 53-A": _("It is not this player's turn: act in turn (TDA 53-A)."),
    "TDA 53-B": _(
        "A skipped player's hand waits for the floor (TDA 53-B): the betting holds until "
        "the ruling, and a player limited by it may only check, call or fold."
    ),
    "TDA 55": _("A player facing a bet cannot check: call, raise or fold (TDA 55)."),
    "table stakes": _("A player cannot put in more chips than they have in play."),
    "TDA 43": _(
        "Too small: a bet is at least the big blind and a raise at least the largest "
        "earlier full bet or raise of this betting round (TDA 43)."
    ),
    "TDA 52-A": _("In limit, a bet or raise is the fixed amount of the round (TDA 52-A)."),
    "fixed limit": _("In limit, a bet or raise is the fixed amount of the round."),
    "TDA 47-A": _(
        "The betting was not reopened for this player: a short all-in is not a full "
        "raise (TDA 47-A). Call or fold."
    ),
    "TDA 47-B": _(
        "The betting was not reopened for this player: in limit an all-in of less than "
        "half a bet does not reopen it (TDA 47-B). Call or fold."
    ),
    "TDA 48": _("The betting is capped for this round (TDA 48). Call or fold."),
    "TDA 54-B": _("More than the pot: pre-flop the pot counts full blinds (TDA 54-B)."),
    "TDA 54-C": _("More than the pot allows (TDA 54-C)."),
    "TDA 16": _("Every other player is all-in: nobody is left to call a raise (TDA 16)."),
    "RP-10": _("Stud: enter the upcards of the new street first; they decide who acts (RP-10 D)."),
    "RP-10 E": _(
        "Stud, third street: the first to act brings it in or completes, no check (RP-10 E)."
    ),
    "TDA 30": _("Stud: the player dealt the low card posts the bring-in (TDA 30)."),
    "casino §38": _(
        "An open pair on fourth street: the bet or raise is of the lower or the upper limit, "
        "nothing between (casino §38)."
    ),
}


def illegal_message(rule: str, fallback: str) -> str:
    return str(ILLEGAL[rule]) if rule in ILLEGAL else fallback


# RP-22: an action made with an item of no value, as the hand's history tells it.
ITEMS = {
    "bounty_chip": _("a bounty chip"),
    "clock_token": _("a clock token"),
    "other": _("an item of no value"),
}
ITEM_RULED = {
    "call": _("Seat %(seat)s bet %(item)s: ruled a call (RP-22)."),
    "check": _("Seat %(seat)s bet %(item)s: ruled a check, there was nothing to call (RP-22)."),
    "all-in": _("Seat %(seat)s bet %(item)s: ruled all-in (RP-22)."),
    "bet": _(
        "Seat %(seat)s bet %(item)s: ruled all-in, a bet of %(amount)s, the most allowed (RP-22)."
    ),
    "raise": _(
        "Seat %(seat)s bet %(item)s: ruled all-in, a raise to %(amount)s, the most allowed (RP-22)."
    ),
}
ITEM_WAITS = _("Seat %(seat)s bet %(item)s: the floor rules it a call or all-in (RP-22).")


def item_note(*, seat: int, item: str, kind: str | None, amount: int | None = None) -> str:
    """The history's line for an action made with an item of no value; `kind` None while
    it waits for the floor's ruling. Empty for an action made with chips."""
    if not item:
        return ""
    words = {"seat": seat, "item": ITEMS.get(item, ITEMS["other"]), "amount": amount}
    text = ITEM_WAITS if kind is None else ITEM_RULED.get(kind, ITEM_RULED["call"])
    return str(text) % words


# TDA 53: an action out of turn, as the hand's history tells it.
OOT_ACTIONS = {
    "fold": _("fold"),
    "check": _("check"),
    "call": _("call"),
    "bet": _("bet %(amount)s"),
    "raise": _("raise to %(amount)s"),
    "all-in": _("all-in"),
}
OOT_HELD = _(
    "Seat %(seat)s acted out of turn (%(action)s): held until the action reaches the seat; "
    "it stands if the action to the seat does not change (TDA 53-A)."
)
OOT_OUTCOMES = {
    ("binding", "TDA 53-A"): _(
        "Seat %(seat)s acted out of turn (%(action)s): it stands, the action to the seat did "
        "not change (TDA 53-A)."
    ),
    ("binding", "TDA 58"): _(
        "Seat %(seat)s folded out of turn: the fold stands (TDA 53-A, TDA 58)."
    ),
    ("binding", "TDA 53-B"): _(
        "Seat %(seat)s acted out of turn (%(action)s): it stands after substantial action "
        "out of turn (TDA 53-B)."
    ),
    ("freed", "TDA 53-A"): _(
        "Seat %(seat)s acted out of turn (%(action)s): not binding, the action to the seat "
        "changed; the chips go back and the player may call, raise or fold (TDA 53-A)."
    ),
    ("void", "TDA 53-A"): _(
        "Seat %(seat)s acted out of turn (%(action)s): the action never reached the seat, "
        "so it does not count (TDA 53-A)."
    ),
}
OOT_RULINGS = {
    "dead": _("The floor ruled skipped seat %(seat)s's hand dead (TDA 53-B)."),
    "limited": _(
        "The floor limited skipped seat %(seat)s to check, call or fold this betting round "
        "(TDA 53-B)."
    ),
}
OOT_PENALTY = _(
    "Call the floor: an action out of turn is subject to penalty (TDA 53-A); a warning or "
    "penalty shows at the seat (RP-15)."
)


def oot_action_words(kind: str, amount) -> str:
    words = OOT_ACTIONS.get(kind, kind)
    return str(words) % {"amount": amount} if "%(amount)s" in str(words) else str(words)


def oot_note(row: dict, outcome=None) -> str:
    """The history's line for an action out of turn (held, stood, let go or void) or the
    floor's ruling on a skipped hand (TDA 53); `row` a log line's seat, kind, amount and
    out_of_turn, `outcome` what became of it (hands.engine.out_of_turn.Outcome), if known."""
    seat = row["seat"]
    if row["out_of_turn"] == "ruling":
        return str(OOT_RULINGS.get(row["kind"], OOT_RULINGS["limited"])) % {"seat": seat}
    words = {"seat": seat, "action": oot_action_words(row["kind"], row["amount"])}
    if outcome is None:
        return str(OOT_HELD) % words
    text = OOT_OUTCOMES.get((outcome.result, outcome.rule), OOT_OUTCOMES[("binding", "TDA 53-A")])
    return str(text) % words


# TDA 65-A, 66: a hand killed during play, as the hand's history tells it.
KILLED = {
    "mistake": _("Seat %(seat)s's hand was killed by the dealer by mistake (TDA 65-A)."),
    "fouled": _(
        "Seat %(seat)s's hand was fouled and could not be identified: it is dead (TDA 65-A)."
    ),
    "upcards": _("Seat %(seat)s picked up the upcards facing action: the hand is dead (TDA 66)."),
}
KILLED_CALLS = _("No refund of calls: the chips called stay in the pot (TDA 65-A).")
KILLED_RETURNED = _(
    "The bet or raise nobody called, %(chips)s, goes back to the player (TDA 65-A)."
)


def killed_note(*, seat: int, reason: str, returned: int = 0) -> str:
    """The history's line for a hand killed during play (TDA 65-A, 66) and the chips of
    an uncalled bet or raise given back."""
    text = str(KILLED.get(reason, KILLED["mistake"])) % {"seat": seat}
    if returned:
        return f"{text} {str(KILLED_RETURNED) % {'chips': returned}}"
    return f"{text} {KILLED_CALLS}"
