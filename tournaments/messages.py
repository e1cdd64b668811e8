"""What the desk is told when the rules refuse an action (codes come from tournaments.engine)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

REFUSALS = {
    "transition_not_allowed": _("This status change is not possible from the current status."),
    "too_few_players": _("At least two active entries are needed to start."),
    "players_remaining": _("More than one player is still active."),
    "registration_closed": _("Registration is closed for this tournament."),
    "reentry_not_allowed": _("This tournament does not allow re-entries."),
    "reentry_closed": _("The re-entry period is over."),
    "reentry_in_the_money": _(
        "The field has reached the paid places: no more re-entries (casino §12)."
    ),
    "reentry_limit": _("The player has reached the re-entry limit."),
    "reentry_required": _("The player already had an entry: register it as a re-entry."),
    "already_active": _("The player already holds an active entry in this tournament."),
    "already_alternate": _("The player is already on the alternates list."),
    "sold_out": _("The tournament is sold out: the player went onto the alternates list."),
    "no_free_place": _("No place is free for an alternate yet."),
    "no_alternate": _("Nobody is waiting on the alternates list."),
    "rebuy_not_offered": _("This tournament has no rebuys."),
    "rebuy_closed": _("The rebuy period is over."),
    "rebuy_limit": _("The entry has reached the rebuy limit."),
    "addon_not_offered": _("This tournament has no add-on."),
    "addon_closed": _("The add-on is no longer on sale."),
    "addon_taken": _("This entry has already taken the add-on."),
    "entry_not_active": _("The entry is not active."),
    "entry_not_busted": _("The entry is not busted."),
    "place_taken": _("The freed place has been taken: the bust cannot be undone."),
    "player_reentered": _("The player has re-entered since: the bust cannot be undone."),
    "money_taken": _("Buy-in, fee and currency cannot change once money has been taken."),
    "bounty_money_taken": _(
        "The bounty format and the bounty cannot change once entries or tickets have been "
        "sold at this price."
    ),
    "bounties_settled": _(
        "The cash share and the mystery bounties cannot change once a knockout has been "
        "recorded: every elimination of the event is settled alike."
    ),
    "capacity_below_active": _("Capacity cannot be lower than the number of active entries."),
    "tournament_closed": _("The tournament is finished or cancelled."),
    # Day 2 of an event with flights (issue 17; tournaments.engine.day2)
    "day2_late_entry_not_allowed": _(
        "This event's entries are sold in its flights: the house allows no late entry into Day 2."
    ),
    "day2_not_started": _("Late entry into Day 2 opens once Day 2 has started."),
    # A payment stands in the way of undoing a bust and of cancelling (prizes.messages has
    # the refusals of the prize pages)
    "entry_paid": _("This entry has been paid: take the payment back first."),
    "prizes_paid": _("Prizes have been paid: the tournament can no longer be cancelled."),
    # Flights, their end and their bags (issue 17: tournaments.engine.flights)
    "flight_of_flight": _("A flight cannot have flights of its own."),
    "flight_of_satellite": _("A satellite has no flights."),
    "flight_name_taken": _("The event already has a flight of this name."),
    "flight_entered": _(
        "The player is already entered in flight %(flights)s of this event, and the event "
        "allows no entry in a later flight."
    ),
    "not_a_flight": _("This tournament is not a flight of an event."),
    "flight_stopped": _("Play has stopped in this flight: the chips are being bagged."),
    "flight_not_running": _("Play has not begun in this flight."),
    "flight_not_stopped": _("Play has not stopped in this flight yet."),
    "bags_confirmed": _("The director has confirmed this flight's bags."),
    "not_a_survivor": _("This entry is not a survivor of the flight."),
    "bag_empty": _("A bag holds at least one chip."),
    "bags_missing": _("%(missing)s survivors have no bag yet."),
    "bags_differ": _(
        "The bags hold %(difference)s chips against the chips in play: confirm the "
        "difference with a note."
    ),
    "bags_note_needed": _("Say in a note why the difference stands."),
    # Tickets (issue 17)
    "ticket_used": _("This ticket has been used or refunded already."),
    "ticket_closed": _("This ticket has been used or refunded: it can no longer change."),
    "ticket_not_transferable": _("This event's tickets cannot go to another player."),
    "ticket_not_refundable": _("This event's tickets cannot be refunded as cash."),
    "tickets_used": _(
        "A ticket won in this satellite has been used, refunded or given to another "
        "player: the bust that ended it cannot be undone."
    ),
    # Chips removed from play (issue 19: TDA 8-B, 63, 64)
    "removal_over_stack": _(
        "The player has %(chips)s chips: no more than that can come off their stack."
    ),
    "removal_over": _("The event is over: no chips are in play to remove."),
}


def refusal_message(code: str, **data) -> str:
    message = str(REFUSALS[code])
    return message % data if data else message


# Why Day 2 of an event with flights cannot start, or a bag cannot be chosen (issue 17).
DAY2_REFUSALS = {
    "tournament_closed": _("The tournament is finished or cancelled."),
    "day2_started": _("Day 2 has already started."),
    "no_flights": _("This event has no flights to bring together on Day 2."),
    "flights_not_stopped": _("Play has not stopped yet in: %(flights)s."),
    "bags_not_confirmed": _("The bags are not confirmed yet in: %(flights)s."),
    # The form is chosen by data["players"].
    "bag_choice_missing": ngettext_lazy(
        "%(players)s player who survived two flights must still choose a bag.",
        "%(players)s players who survived two flights must still choose a bag.",
        "players",
    ),
    "no_bags": _("No bag goes on to Day 2."),
    "bag_choice_not_allowed": _(
        "The house rule decides which bag a player who survived two flights keeps."
    ),
    "bag_choice_single": _("The player has only this bag: there is nothing to choose."),
}


def day2_refusal(code: str, **data) -> str:
    # `%` on the lazy text: a plural one picks its form by the count in `data`.
    return DAY2_REFUSALS[code] % data if data else str(DAY2_REFUSALS[code])
