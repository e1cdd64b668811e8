"""The only code that changes hands, table states (seating.models.TableState: the
button draw, the button set, each hand dealt), the hands players sit out, bust-outs and
hand-for-hand.

Each public function is one user intention: one transaction under the tournament's row
lock (busts, seats and hands of one tournament queue up behind it), one audit entry,
live events after commit. Split by subject: tables (the button), hands (dealing, the
action log, the result), away (the hands a player sits out, TDA 71-C: parts of the
rulings' penalties and of the hand's result, run under their caller's lock), busts
(places), hand_for_hand (RP-8), items (a bet with an item of no value, RP-22), out_of_turn
(an action out of turn and the floor's ruling on a skipped hand, TDA 53), killed (a
hand killed during play, TDA 65-A, 66), levels (the
level a hand plays at: the start the dealer marks, TDA 23), corrections (the button in
the wrong place, TDA 34-A, casino §16 c; a hand dealt at the wrong level, TDA 23),
bounties (who eliminated whom and the bounty each elimination pays, issue 18: parts of
the busts and hands services, run under their lock, and the floor's correction
`knockout_correct`).
"""

from hands.services.bounties import knockout_correct
from hands.services.busts import (
    bust_record,
    bust_remove,
    entry_bust,
    entry_bust_undo,
    table_bust_undo,
    table_busts_record,
)
from hands.services.corrections import hand_button_correct, hand_level_correct
from hands.services.hand_for_hand import (
    h4h_alerts_resend,
    h4h_settings_update,
    h4h_start,
    h4h_stop,
    h4h_table_alert,
)
from hands.services.hands import (
    hand_action,
    hand_finish,
    hand_hold,
    hand_misdeal,
    hand_settle,
    hand_start,
    hand_upcards,
)
from hands.services.items import hand_item, hand_item_rule
from hands.services.killed import hand_kill
from hands.services.levels import hand_start_mark, hand_start_unmark
from hands.services.out_of_turn import hand_out_of_turn, hand_skipped_rule
from hands.services.tables import (
    button_draw,
    button_set,
    tablet_link_create,
    tablet_link_revoke,
)

__all__ = [
    "bust_record",
    "bust_remove",
    "entry_bust",
    "entry_bust_undo",
    "table_bust_undo",
    "button_draw",
    "button_set",
    "h4h_alerts_resend",
    "h4h_settings_update",
    "h4h_start",
    "h4h_stop",
    "h4h_table_alert",
    "hand_action",
    "hand_button_correct",
    "hand_level_correct",
    "hand_start_mark",
    "hand_start_unmark",
    "hand_finish",
    "hand_hold",
    "hand_item",
    "hand_item_rule",
    "hand_kill",
    "hand_misdeal",
    "hand_out_of_turn",
    "hand_skipped_rule",
    "hand_settle",
    "hand_start",
    "hand_upcards",
    "knockout_correct",
    "table_busts_record",
    "tablet_link_create",
    "tablet_link_revoke",
]
