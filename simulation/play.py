"""One round: a hand dealt and finished at every table that can deal, as the tablets
would report it (hands.services), with the outcomes from the dealer."""

from collections import defaultdict

from hands import services as hands_services
from hands.models import HandPlayer
from hands.selectors import hand_for_hand
from seating.models import TableState
from simulation.config import HandForHandRound
from simulation.dealer import play_hand
from simulation.floor import h4h_bust_chance, tables_dealing
from simulation.invariants import SimulationError
from tournaments.selectors import active_entry_count

HOLD_CHANCE = 0.5  # hand-for-hand: an all-in with a bust-out holds for its turn (RP-8 F)


def round_play(sim) -> list[int]:
    """Deal at every table in play, finish every hand; return the entries busted."""
    tournament = sim.tournament
    settings = hand_for_hand(tournament.pk)
    h4h = settings.active
    tables = tables_dealing(sim)
    if not tables:
        raise SimulationError(f"round {sim.report.rounds + 1}", "no table can deal a hand")
    drawn = set(
        TableState.objects.filter(table__in=tables, button__isnull=False).values_list(
            "table_id", flat=True
        )
    )
    for table in tables:
        if table.pk not in drawn:  # IFP 2.1: high card for the button before the first hand
            sim.service("button_draw", hands_services.button_draw, number=table.number)
    hands = {
        table.number: sim.service("hand_start", hands_services.hand_start, number=table.number)
        for table in tables
    }
    dealt: dict[int, dict[int, int]] = defaultdict(dict)
    entry_at: dict[tuple[int, int], int] = {}
    hand_table = {hand.pk: number for number, hand in hands.items()}
    for hand_id, seat, entry, stack in HandPlayer.objects.filter(
        hand_id__in=list(hand_table)
    ).values_list("hand_id", "seat", "entry_id", "stack"):
        dealt[hand_table[hand_id]][seat] = stack
        entry_at[hand_table[hand_id], seat] = entry
    budget = sim.bust_budget()
    chance = h4h_bust_chance(sim, len(tables)) if h4h else sim.bust_chance()
    outcomes = {}
    for number in hands:
        stacks = dealt[number]
        most = len(stacks) - 1 if budget is None else min(budget, len(stacks) - 1)
        spare = {seat for seat in stacks if entry_at[number, seat] in sim.spared}
        outcome = play_hand(stacks, sim.rng, bust_chance=chance, max_busts=most, spare=spare)
        if sum(outcome.stacks.values()) != sum(stacks.values()):
            raise SimulationError(f"table {number}", "the dealer made or lost chips")
        if budget is not None:
            budget -= len(outcome.busts)
        outcomes[number] = outcome
    held = []
    order = list(hands)
    if sim.busts_last:  # the hand that ends the day is the last one finished
        order.sort(key=lambda number: bool(outcomes[number].busts))
    for number in order:
        hand = hands[number]
        if h4h and outcomes[number].busts and sim.rng.random() < HOLD_CHANCE:
            sim.service(
                "hand_hold", hands_services.hand_hold, number=number, hand_number=hand.number
            )
            held.append(number)
            continue
        _finish(sim, number, hands[number], outcomes[number])
    for number in held:  # RP-8 F: the held tables show down in turn, once all others are done
        _finish(sim, number, hands[number], outcomes[number])
    busted = [entry_at[number, seat] for number, o in outcomes.items() for seat in o.busts]
    sim.report.rounds += 1
    sim.report.hands += len(hands)
    sim.report.busts += len(busted)
    if h4h:
        sim.report.h4h_rounds.append(
            HandForHandRound(
                round=settings.round,
                tables=len(hands),
                held=len(held),
                busts=len(busted),
                players_left=active_entry_count(tournament),
            )
        )
        if not hand_for_hand(tournament.pk).active:
            sim.h4h_done = True
            sim.say(f"the bubble burst after {len(sim.report.h4h_rounds)} hand-for-hand rounds")
    return busted


def _finish(sim, number: int, hand, outcome) -> None:
    # A bounty event: the floor names who won the pot the busted players lost (issue 18).
    knocked = sim.config.bounty_format and outcome.busts
    sim.service(
        "hand_finish (bust-out)" if outcome.busts else "hand_finish",
        hands_services.hand_finish,
        number=number,
        hand_number=hand.number,
        busts=list(outcome.busts),
        stacks=outcome.stacks,
        eliminators=[outcome.winner] if knocked else None,
    )
