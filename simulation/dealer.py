"""What happens in one simulated hand: who busts and where the chips go. Pure Python.

The simulation does not play poker; it needs outcomes that look like a tournament to
the software: now and then a player (the shorter stacks more often) loses every chip,
some others lose part of their stack, and one player takes it all. Chips are never
made or lost: the stacks after the hand add up to the stacks before it.
"""

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass

ANOTHER_BUST = 0.15  # the chance that a hand with a bust-out has one more (a multi-way all-in)
LOSER_SHARE = 0.5  # the chance that a player who neither wins nor busts loses some chips
MOST_LOST = 4  # ... and then at most a quarter of the stack


@dataclass(frozen=True)
class Outcome:
    busts: tuple[int, ...]  # seats that lost every chip
    stacks: dict[int, int]  # every other seat dealt in: its chips after the hand
    winner: int


def play_hand(
    stacks: Mapping[int, int],
    rng: random.Random,
    *,
    bust_chance: float,
    max_busts: int,
    spare: Collection[int] = (),
) -> Outcome:
    """One hand among the seats dealt in (`stacks`: seat -> chips at the start).

    With `bust_chance` at least one player busts, never more than `max_busts` and
    never everybody: somebody wins the hand. The seats in `spare` never bust (a
    player the run needs to survive).
    """
    seats = sorted(stacks)
    if len(seats) < 2:
        raise ValueError("a hand needs two players")
    if any(stacks[seat] < 1 for seat in seats):
        raise ValueError("every player dealt in has chips")
    candidates = [seat for seat in seats if seat not in spare]
    limit = min(max_busts, len(seats) - 1, len(candidates))
    busts: list[int] = []
    if limit > 0 and rng.random() < bust_chance:
        count = 1
        while count < limit and rng.random() < ANOTHER_BUST:
            count += 1
        for _ in range(count):
            # The shorter the stack, the likelier the bust.
            pick = rng.choices(candidates, [1 / stacks[seat] for seat in candidates])[0]
            busts.append(pick)
            candidates.remove(pick)
    survivors = [seat for seat in seats if seat not in busts]
    winner = rng.choice(survivors)
    after = {seat: stacks[seat] for seat in survivors}
    pot = sum(stacks[seat] for seat in busts)
    for seat in survivors:
        if seat == winner or after[seat] < 2 or rng.random() >= LOSER_SHARE:
            continue
        lost = rng.randint(1, max(1, after[seat] // MOST_LOST))
        after[seat] -= lost
        pot += lost
    after[winner] += pot
    return Outcome(tuple(busts), after, winner)
