"""What the director and the cashier are told when the rules refuse a prize action, and why
a payout table changed (codes from prizes.selectors and prizes.services; the lock reasons
and the generator's adjustments from payouts.selectors and payouts.engine)."""

from django.utils.translation import gettext_lazy as _

from tournaments.messages import refusal_message as ledger_refusal_message

REFUSALS = {
    "payouts_satellite": _(
        "A satellite's table is its seats and the cash left: it follows the prize pool "
        "and cannot be typed by hand."
    ),
    "payouts_locked": _("The payout table is locked: unlock it before changing its settings."),
    "payouts_paid": _("Prizes have been paid from this payout table: it can no longer change."),
    "payouts_dealt": _("A deal was made on this payout table: it can no longer change."),
    "payouts_unbalanced": _(
        "The payout table does not add up to the prize pool: the director must correct it "
        "before prizes are paid or dealt."
    ),
    "already_paid": _("This entry has already been paid."),
    "not_paid": _("This entry has not been paid."),
    "no_place": _("This entry has no finishing place yet."),
    "results_conflict": _(
        "Two results claim the same place: the director must correct the places first."
    ),
    "not_in_the_money": _("This place is not paid."),
    "deal_not_running": _("A deal is made while the tournament is running."),
    "deal_exists": _("A deal has already been recorded for this tournament."),
    # Bounties (issue 18, prizes.services.bounties)
    "bounty_reversed": _("This knockout was corrected: its bounty is no longer due."),
    "bounty_paid": _("This bounty has already been paid."),
    "bounty_not_paid": _("This bounty has not been paid."),
    "bounty_no_cash": _(
        "This knockout pays no cash: its bounty was added to the eliminator's own (PKO)."
    ),
    "bounties_none_due": _("This player has no bounty left to be paid."),
}

# Why a payout table no longer follows the prize pool (payouts.selectors.lock_reason).
LOCK_REASONS = {
    "director": _("Locked by the director."),
    "edited": _("Edited by hand, so locked: unlock to follow the prize pool again."),
    "registration_closed": _("Locked: registration, rebuys and add-ons are over."),
}

# What the payout generator had to change to keep its promises (payouts.engine.payouts).
ADJUSTMENTS = {
    "places_reduced": _(
        "Fewer places are paid than set: the prize pool cannot pay the min-cash to all."
    ),
    "min_cash_lowered": _("The prize pool is smaller than one min-cash: the winner takes it all."),
    "winner_share_raised": _(
        "The winner's share was raised: no place may pay more than the winner."
    ),
    "winner_share_lowered": _(
        "The winner's share was lowered so that every other paid place gets the min-cash."
    ),
}


def refusal_message(code: str) -> str:
    # A prize action may also be refused for a ledger reason ("entry_paid").
    if code in REFUSALS:
        return str(REFUSALS[code])
    return ledger_refusal_message(code)


# Why a Tournament Director file cannot be imported (issue 22): the codes of
# tournaments.engine.td3 (reading the file) and td3_event (what it says).
TD3_REFUSALS = {
    "too_large": _("The file is too large for a Tournament Director save file."),
    "too_deep": _("The file nests deeper than a Tournament Director save file does."),
    "encoding": _("The file is not text (neither UTF-8 nor Windows-1252)."),
    "escape": _("The file holds a broken escape in a text."),
    "cut_off": _("The file ends too early: it was cut off."),
    "unreadable": _("The file is not a Tournament Director save file, or it is damaged."),
    "no_tournament": _("The file holds no tournament."),
    # `what` is the part of the file (TD3_PARTS): "the prizes", "buy-in 2 of player 7".
    "shape": _("The file is damaged: something in %(what)s is not what the program writes there."),
    "bad_number": _("The file is damaged: a value in %(what)s is not a number."),
    "bad_amount": _(
        "An amount in %(what)s makes no sense: negative, too large, or more rake than price."
    ),
    "bad_count": _("A count in %(what)s is not a whole number in range."),
    "bad_time": _("A time in %(what)s is not between 2000 and 2100."),
    "bad_level": _(
        "Level %(level)s of the blind structure makes no sense: no blinds, no "
        "time, or lower blinds than before."
    ),
    "bad_prize": _("In the file's prizes, %(what)s is for no place."),
    "player_no_name": _("Player %(player)s has no name."),
}


# The parts of a file a refusal points to (tournaments.engine.td3_event.PARTS: the same keys).
TD3_PARTS = {
    "buyin_profiles": _("the buy-in profiles"),
    "buyin_profile": _("buy-in profile %(number)s"),
    "buyin_profile_named": _("the buy-in profile “%(name)s”"),
    "rebuy_profiles": _("the rebuy profiles"),
    "rebuy_profile": _("rebuy profile %(number)s"),
    "rebuy_profile_named": _("the rebuy profile “%(name)s”"),
    "addon_profiles": _("the add-on profiles"),
    "addon_profile": _("add-on profile %(number)s"),
    "addon_profile_named": _("the add-on profile “%(name)s”"),
    "entry_fee": _("the entry fee"),
    "starting_chips": _("the starting chips"),
    "rebuy_settings": _("the rebuy settings"),
    "addon_settings": _("the add-on settings"),
    "structure": _("the blind structure"),
    "level_minutes": _("the minutes of level %(number)s"),
    "level_small_blind": _("the small blind of level %(number)s"),
    "level_big_blind": _("the big blind of level %(number)s"),
    "level_ante": _("the ante of level %(number)s"),
    "buyins": _("the buy-ins of player %(player)s"),
    "buyin": _("buy-in %(number)s of player %(player)s"),
    "addons": _("the add-ons of player %(player)s"),
    "addon": _("add-on %(number)s of player %(player)s"),
    "prizes": _("the prizes"),
    "prize": _("prize %(number)s"),
    "player": _("player %(player)s"),
    "players": _("the players"),
}


def td3_part(part) -> str:
    """The part of a file a refusal points to, in the reader's language."""
    template = TD3_PARTS.get(getattr(part, "kind", ""))
    if template is None:
        return str(part)
    return str(template) % {"player": part.player, "number": part.number, "name": part.name}


def td3_message(error) -> str:
    """A refused file's reason in the reader's language, with where reading stopped."""
    template = TD3_REFUSALS.get(error.code, TD3_REFUSALS["unreadable"])
    params = {"what": "?", "level": "?", "player": "?", **error.params}
    if "what" in error.params:
        params["what"] = td3_part(error.params["what"])
    try:
        text = str(template) % params
    except (KeyError, ValueError, TypeError):
        text = str(TD3_REFUSALS["unreadable"])
    if error.line:
        text = _("Line %(line)s, column %(column)s: %(reason)s") % {
            "line": error.line,
            "column": error.column or 1,
            "reason": text,
        }
    return text
