"""The lobby's numbers: counts, money, the average stack, the stage of play (hand-for-hand,
the final table) and the end, kept at the versions of the screens and of the clock
(issue 20: `lobby_numbers_at`, no query while both are unchanged). Public: no contact
data, ever."""

from collections import Counter
from typing import NamedTuple

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clock import cache as clock_cache
from clock.engine import big_blinds
from clock.selectors import (
    ClockRow,
    announcements_public,
    clock_row,
    measuring_big_blind,
)
from floorman.versions import SCREENS, screen_cached_at
from hands.selectors import entry_bounties, h4h_now, mystery_left, mystery_prizes
from payouts.engine.payouts import place_groups
from payouts.selectors import payout_table
from prizes.selectors import results
from seating.selectors import final_table
from tournaments.models import BountyFormat, Entry, Tournament, TournamentStatus
from tournaments.selectors import Totals, chips_in_play, flights_flagged, tournament_totals
from tournaments.templatetags.floorman_format import chips, money, place_text

# A TV shows the top of the payout table; the desk has the rest.
PAYOUT_GROUPS_MAX = 30
# At the end, the places paid (as many as a TV holds), or the first three if none are.
RESULTS_MAX = 30
RESULTS_UNPAID = 3
OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
# Issue 18: a PKO's biggest bounties left, as many as a TV's side panel holds.
BOUNTIES_MAX = 12
# The lobby's numbers hold the clock's row: they depend on both versions.
NUMBERS_KINDS = (SCREENS, clock_cache.KIND)
# Part of the numbers' key: numbers kept in another shape by an older release are not read.
NUMBERS_FORMAT = 2


# --- Numbers ------------------------------------------------------------------------


def average_stack(chips_in_play: int, active: int) -> int | None:
    """Chips in play over the entries still in, half up to a whole chip; None when
    nobody is in. Busted players' chips stay in play: the winners hold them."""
    if active <= 0:
        return None
    return (2 * chips_in_play + active) // (2 * active)


def payout_groups(amounts) -> list[tuple[int, int, int]]:
    """Consecutive places that pay the same, as (first, last, amount), best first;
    places that pay nothing are left out."""
    return [group for group in place_groups(amounts) if group[2] > 0]


def payouts_lobby(tournament: Tournament, totals: Totals) -> dict:
    """The payout table as a TV shows it: grouped, the first groups only, formatted."""
    table = payout_table(tournament, totals)
    groups = payout_groups(table.amounts)
    return {
        "places_paid": table.places_paid,
        "locked": table.locked,
        "lines": [
            {
                "first": first,
                "last": last,
                "amount": amount,
                "text": money(amount, tournament.currency),
            }
            for first, last, amount in groups[:PAYOUT_GROUPS_MAX]
        ],
        "more": len(groups) > PAYOUT_GROUPS_MAX,
    }


def hand_for_hand_lobby(tournament: Tournament) -> dict | None:
    """RP-8 while it is played: the hand (round), the tables still playing it, those
    all-in waiting to show down, the players left and the places paid (the bubble).
    The same shape as the live event hand_for_hand.updated, which a screen applies."""
    if tournament.status != TournamentStatus.RUNNING:
        return None
    return h4h_now(tournament)


def end_lobby(tournament: Tournament) -> dict | None:
    """Once play or a deal has finished the event: its winner and its results, from the
    results the cashier pays (places shared by players out in one hand show as
    "44–46", IFP 4.27, with their split prize)."""
    if tournament.status != TournamentStatus.FINISHED:
        return None
    found = results(tournament)
    winners = [row for row in found.rows if row.place == 1]
    shown = [row for row in found.rows if row.prize > 0][:RESULTS_MAX]
    deal = found.deal is not None and found.deal.ends_tournament
    return {
        "winner": ", ".join(row.entry.player.name for row in winners),
        "deal": len(found.deal.shares.all()) if deal else 0,
        "results": [
            {
                "place": place_text(*row.shared),
                "name": row.entry.player.name,
                "prize": money(row.prize, tournament.currency) if row.prize else "",
            }
            for row in shown or found.rows[:RESULTS_UNPAID]
        ],
    }


def bounties_lobby(tournament: Tournament) -> dict | None:
    """Issue 18, the bounties as a TV shows them: a knockout event's fixed bounty; a
    progressive knockout's biggest bounties left, on the heads of the players still in
    (names as the house publishes them); a mystery bounty event's sealed bounties still
    in the draw (how many of each amount, largest first) and whether drawing has begun.
    None for an event without bounties, and once it is over. Knockouts come with busts,
    whose events (entry.updated) make the screen fetch this again."""
    kind = tournament.bounty_format
    if not kind or tournament.status in OVER:
        return None
    currency = tournament.currency
    data = {"format": kind, "label": "", "fact": "", "title": "", "lines": [], "note": ""}
    if kind == BountyFormat.KNOCKOUT:
        data.update(
            label=_("Bounty"),
            fact=money(tournament.bounty, currency),
            title=_("Bounty on every head"),
            note=_("Whoever knocks a player out wins their bounty, paid at the cage."),
        )
        data["lines"] = [[_("Every player"), money(tournament.bounty, currency)]]
        return data
    if kind == BountyFormat.PROGRESSIVE:
        heads = entry_bounties(tournament)
        top = sorted(heads.items(), key=lambda item: (-item[1], item[0]))[:BOUNTIES_MAX]
        names = dict(
            Entry.objects.filter(pk__in=[entry_id for entry_id, _amount in top]).values_list(
                "pk", "player__name"
            )
        )
        data.update(
            label=_("Biggest bounty"),
            fact=money(top[0][1], currency) if top else "",
            title=_("Biggest bounties left"),
            note=_(
                "Progressive knockout: part of a bounty won is paid, the rest goes on the "
                "winner's own head."
            ),
        )
        data["lines"] = [[names[entry_id], money(amount, currency)] for entry_id, amount in top]
        return data
    published = mystery_prizes(tournament)
    left = mystery_left(tournament)
    begun = bool(tournament.mystery_seed) or len(left) < len(published)
    data.update(
        label=_("Mystery bounties left"),
        fact=chips(len(left)),
        title=_("Mystery bounties in the draw"),
        begun=begun,
        note=(
            _("Every elimination now draws a sealed bounty.")
            if begun
            else _("Drawing has not begun: %(start)s.")
            % {"start": tournament.get_mystery_start_display()}
        ),
    )
    counted = sorted(Counter(left).items(), reverse=True)
    data["lines"] = [
        [_("%(count)s ×") % {"count": chips(count)}, money(amount, currency)]
        for amount, count in counted
    ]
    return data


def bounty_pool_lobby(tournament: Tournament, totals) -> dict | None:
    """The bounty pool beside the prize pool (issue 18): the bounty money taken with the
    buy-ins and re-entries, never part of the prize pool. None for an event without."""
    if not tournament.bounty_format and not totals.bounty.collected:
        return None
    amount = totals.bounty.collected
    return {"amount": amount, "text": money(amount, tournament.currency)}


class LobbyNumbers(NamedTuple):
    row: ClockRow  # the clock's, read again at each request (clock_public_of)
    numbers: dict  # _lobby_state
    alone: bool  # neither a flight nor an event with flights: nothing shown of another


def lobby_numbers_at(tournament_id: int) -> tuple[tuple[str, ...] | None, LobbyNumbers | None]:
    """The clock's row and what the lobby shows beyond the clock (its numbers), built
    once per version and language and shared by every process (issue 20), with the
    versions they are filed at (floorman.versions.screen_cached_at). Both versions: the
    screens' (every change to the tournament renews it, floorman.versions) and the
    clock's (every change of the clock, its structure's edits too: clock.cache). None: no
    such tournament. The time is left out: the clock is read from its row at each
    request."""

    def build() -> LobbyNumbers | None:
        # Whether it has flights comes with the row; a flight added later takes its
        # event's lock, which renews the event's version.
        found = flights_flagged(Tournament.objects.filter(pk=tournament_id)).first()
        if found is None:
            return None
        alone = found.parent_id is None and not found.has_flights
        return LobbyNumbers(clock_row(found.pk), _lobby_state(found), alone)

    key = f"lobby:{NUMBERS_FORMAT}:{tournament_id}:{get_language()}"
    return screen_cached_at(key, tournament_id, build, kinds=NUMBERS_KINDS)


def lobby_numbers(tournament_id: int) -> LobbyNumbers | None:
    """lobby_numbers_at without the versions."""
    return lobby_numbers_at(tournament_id)[1]


def lobby_with_clock(numbers: dict, clock: dict) -> dict:
    """The lobby's numbers with the average in the big blind of the level in play, which
    the clock rolls into by itself."""
    big_blind = measuring_big_blind(clock)
    stack = {**numbers["average_stack"], "big_blind": big_blind}
    stack["big_blinds"] = big_blinds(numbers["average_stack"]["chips"], big_blind)
    return {**numbers, "average_stack": stack}


def _lobby_state(tournament: Tournament) -> dict:
    """lobby_data from the database, the clock's part left out."""
    totals = tournament_totals(tournament)
    pool = totals.prize_pool
    # The deal's count too (TDA 71-D: a disqualified player's chips leave play).
    average = average_stack(chips_in_play(tournament, totals), totals.active)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "entries": totals.total_buy_ins,
        "unique_entries": totals.entries,
        "reentries": totals.reentries,
        "rebuys": totals.rebuys,
        "addons": totals.addons,
        "active": totals.active,
        "prize_pool": {
            "amount": pool.total,
            "currency": tournament.currency,
            "text": money(pool.total, tournament.currency),
            "guarantee": pool.guarantee,
        },
        # Issue 18: the bounty money, apart from the prize pool (None without bounties).
        "bounty_pool": bounty_pool_lobby(tournament, totals),
        "average_stack": {
            "chips": average,
            "text": chips(average) if average is not None else "—",
        },
        # The table follows the pool while money comes in: entry events refresh it too.
        "payouts": payouts_lobby(tournament, totals),
        "announcements": announcements_public(tournament),
        "hand_for_hand": hand_for_hand_lobby(tournament),
        "final_table": (
            final_table(tournament.pk) if tournament.status == TournamentStatus.RUNNING else None
        ),
        "end": end_lobby(tournament),
        "bounties": bounties_lobby(tournament),
    }
