"""The event types in words, for the pages' checkboxes and the API's schema."""

from django.utils.translation import gettext_lazy as _

from webhooks.engine import events

TYPE_LABELS = {
    events.ENTRY_REGISTERED: _("A player registered"),
    events.ENTRY_REENTERED: _("A player re-entered"),
    events.SEAT_ASSIGNED: _("Seats assigned (draw, late seat, final table)"),
    events.SEAT_MOVED: _("A player moved to another seat"),
    events.TABLE_BROKEN: _("A table broken"),
    events.TABLES_BALANCED: _("Tables balanced"),
    events.LEVEL_STARTED: _("A new level"),
    events.BREAK_STARTED: _("A break"),
    events.CLOCK_STARTED: _("Clock started"),
    events.CLOCK_PAUSED: _("Clock paused"),
    events.CLOCK_RESUMED: _("Clock resumed"),
    events.H4H_STARTED: _("Hand-for-hand started"),
    events.H4H_ROUND: _("Hand-for-hand: a new round"),
    events.H4H_STOPPED: _("Hand-for-hand stopped"),
    events.ENTRY_BUSTED: _("A player busted, with the place"),
    events.PRIZE_PAID: _("A prize paid"),
    events.BOUNTY_PAID: _("A bounty paid"),
    events.DEAL_MADE: _("A deal made"),
    events.RESULTS_FINAL: _("Results final (the event finished)"),
    events.CHIPS_COUNTED: _("Chips counted"),
}
TYPE_CHOICES = [(t, TYPE_LABELS[t]) for t in events.EVENT_TYPES]
