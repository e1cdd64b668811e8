"""Dodged blinds made up as dead money (older TDA 22, where the house reads the setting
`dodged_blinds` so): the debt the floor's ruling writes, and the deal of the player's next
hand that posts it. The one writer of `hands.DeadBlinds`.

Both are parts of a larger intention and run under their caller's lock: the ruling
(rulings.services.blinds_dodged_rule) and the deal (hands.services.hands.hand_start).
"""

from hands.models import DeadBlinds, Hand
from hands.services.common import refuse
from tournaments.models import Entry, Tournament


def dead_blinds_owe(
    *,
    tournament: Tournament,
    entry: Entry,
    table_number: int,
    seat: int,
    level: int,
    small_blind: int,
    big_blind: int,
) -> DeadBlinds:
    """The player owes the blinds dodged: the next hand they are dealt into posts them as
    dead money. One debt at a time (409 while one is owed: a second tap changes nothing)."""
    owed = DeadBlinds.objects.filter(entry=entry, hand__isnull=True).first()
    if owed is not None:
        raise refuse("dead_blinds_owed", chips=owed.amount)
    return DeadBlinds.objects.create(
        tournament=tournament,
        entry=entry,
        table_number=table_number,
        seat=seat,
        level=level,
        small_blind=small_blind,
        big_blind=big_blind,
    )


def dead_blinds_post(*, hand: Hand, dealt: dict[int, int]) -> dict[int, int]:
    """The deal's part: each player dealt in (`dealt`: seat → entry) who owes dodged
    blinds posts them in this hand as dead money; the debts are settled with this hand.
    Returns seat → the chips owed (the engine posts what the stack allows)."""
    seat_of = {entry: seat for seat, entry in dealt.items()}
    owed = list(DeadBlinds.objects.filter(entry_id__in=seat_of, hand__isnull=True))
    if not owed:
        return {}
    DeadBlinds.objects.filter(pk__in=[debt.pk for debt in owed]).update(hand=hand)
    return {seat_of[debt.entry_id]: debt.amount for debt in owed}
