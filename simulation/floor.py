"""The floor between rounds: the final table, breaking and balancing exactly as the
table map proposes them, and hand-for-hand on the bubble."""

import math

from hands import services as hands_services
from hands.engine import handforhand
from hands.selectors import hand_for_hand, open_table, places_paid, tables_in_play
from seating import engine as seating_engine
from seating import services as seating_services
from seating.selectors import final_size as seating_final_size
from seating.selectors import seating_settings, table_now
from tournaments.selectors import active_entry_count

MOST_PASSES = 10_000  # a seating pass that never settles is a bug, not a long night
H4H_MIN_CHANCE = 0.1  # hand-for-hand: the chance of a bust-out per table and hand ...
H4H_MAX_CHANCE = 0.5  # ... chosen so that the bubble lasts a few rounds


def seating_pass(sim) -> None:
    """What the table map offers, applied until it offers nothing: the final table
    draw once it is due (RP-9), the next table in the break order once its players fit
    (TDA 10-B), the balancing moves (TDA 11-A). No player is moved any other way."""
    tournament = sim.tournament
    settings = seating_settings(tournament.pk)
    final_size = seating_final_size(tournament, settings)  # RP-9 or casino §30: the house setting
    for _ in range(MOST_PASSES):
        plan, _halted, views = sim.timings.call(
            "balance_state", seating_services.balance_state, tournament=tournament
        )
        if sim.draws_final_table and seating_engine.final_table_due(views, final_size):
            action = sim.service("final_table_draw", seating_services.final_table_draw)
            sim.report.final_table = True
            sim.report.moves += action.moves.count()
            sim.say(f"final table drawn: {sum(v.players for v in views)} players")
            continue
        breaking = seating_engine.table_to_break(views, headroom=settings.break_headroom)
        if breaking is not None:
            action = sim.service(
                "table_break", seating_services.table_break, number=breaking.number
            )
            sim.report.tables_broken += 1
            sim.report.moves += action.moves.count()
            continue
        if plan.moves:
            answers = {number: _big_blind_next(sim, number) for number in plan.needs_big_blind}
            action = sim.service(
                "tables_balance", seating_services.tables_balance, big_blind_next=answers
            )
            sim.report.balances += 1
            sim.report.moves += action.moves.count()
            continue
        return
    raise RuntimeError("the seating never settled")


def _big_blind_next(sim, number: int) -> int:
    """The TD's answer in the balance dialog for a table whose tablet has logged nothing
    yet (no button drawn there, issue 16; else its button would answer): the lowest
    occupied seat."""
    now = table_now(open_table(sim.tournament.pk, number))
    try:
        positions = now.positions()
    except ValueError:
        positions = None
    if positions is not None:
        return positions.big_blind
    return min(now.occupied) if now.occupied else now.seats[0]


def h4h_margin(sim) -> int:
    """How near the money hand-for-hand begins: about a quarter of the tables that will
    be left on the bubble, so that a field as big as any plays a few rounds of it."""
    paid = places_paid(sim.tournament, hand_for_hand(sim.tournament.pk))
    return max(2, math.ceil(paid / sim.config.table_size / 4))


def h4h_set_margin(sim) -> None:
    sim.service(
        "h4h_settings_update", hands_services.h4h_settings_update, data={"margin": h4h_margin(sim)}
    )


def h4h_maybe_start(sim) -> bool:
    """RP-8: once Floorman suggests hand-for-hand (the players left within the house's
    margin of the paid places), the TD starts it."""
    tournament = sim.tournament
    settings = hand_for_hand(tournament.pk)
    if settings.active or sim.h4h_done:
        return False
    left = active_entry_count(tournament)
    paid = places_paid(tournament, settings)
    if not paid or left <= paid:
        sim.h4h_done = True  # in the money without a bubble to play
        return False
    if not handforhand.suggest(left, paid, settings.margin):
        return False
    sim.service("h4h_start", hands_services.h4h_start)
    sim.say(f"hand-for-hand: {left} players left, {paid} paid")
    return True


def h4h_bust_chance(sim, tables: int) -> float:
    settings = hand_for_hand(sim.tournament.pk)
    chance = settings.margin / (4 * max(1, tables))
    return min(H4H_MAX_CHANCE, max(H4H_MIN_CHANCE, chance))


def bust_budget(sim) -> int | None:
    """Before the bubble the dealer busts nobody past the top of hand-for-hand's margin
    (once registration has closed; before that, past the money), so that the bubble is
    played hand for hand however many tables bust at once. None: no limit."""
    tournament = sim.tournament
    settings = hand_for_hand(tournament.pk)
    if sim.h4h_done or settings.active:
        return None
    paid = places_paid(tournament, settings)
    if not paid:
        return None
    margin = settings.margin if sim.desk.closed else 1
    return max(0, active_entry_count(tournament) - paid - margin)


def tables_dealing(sim):
    return tables_in_play(sim.tournament.pk)
