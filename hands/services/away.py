"""Hands a player sits out (TDA 71-C): dealt in, blinds and antes posted, the hand dead.

These are parts of intentions, not intentions: they run under the caller's lock and in its
transaction, write no audit entry and send no live event of their own. A ruling sends the
player away and may cancel it (rulings.services.penalty_give, penalty_end); a finished
hand counts (hand_finish). They are the one writer of `Away`.
"""

from django.utils import timezone

from hands.engine.away import begun
from hands.models import Away
from hands.selectors import next_hand_number
from seating.models import Table
from tournaments.models import Entry, Tournament


def away_start(*, tournament: Tournament, entry: Entry, table: Table, hands: int) -> Away:
    """The player sits out `hands` hands from the end of the hand in play at `table`, or
    from the next hand dealt there (TDA 68: a penalty begins at the end of the hand).
    The hand in play is left alone: the player's hand in it stays live, and the first
    hand dealt dead (TDA 71-C) is the next one (hand_start reads `after_hand`)."""
    return Away.objects.create(
        tournament=tournament,
        entry=entry,
        table_number=table.number,
        after_hand=(next_hand_number(table) - 1) or None,
        hands=hands,
    )


def away_end(*, away: Away) -> Away:
    """The floor lets the player back before the hands are missed: the record ends,
    cancelled, with the hands missed so far. The caller checks it is still open."""
    away.cancelled = True
    away.ended_at = timezone.now()
    away.save(update_fields=["cancelled", "ended_at"])
    return away


def away_hands_count(*, tournament: Tournament, table: Table, hand, entry_ids) -> list[Away]:
    """A hand at `table` is over: every player dealt a dead hand in it (`entry_ids`,
    TDA 71-C) has missed one more hand. Two records of one player (penalties given
    together) are served one after the other: only the oldest open one counts. A record
    counts from the hand after the one in play when it began at its table (TDA 68); at
    any other table, a hand dealt after a move counts (hands.engine.away.begun). The
    records this hand ends, in order. Runs in hand_finish."""
    serving = Away.objects.select_for_update().filter(
        tournament=tournament, entry_id__in=list(entry_ids), ended_at__isnull=True
    )
    done = []
    counted = set()
    for away in serving.order_by("started_at", "id"):
        if away.entry_id in counted:  # given together: served one after the other
            continue
        if not begun(
            given_at=away.table_number,
            after_hand=away.after_hand,
            table=table.number,
            hand=hand.number,
        ):
            continue  # TDA 68: it begins once the hand it was given in is over
        counted.add(away.entry_id)
        away.hands_missed += 1
        if away.hands_missed >= away.hands:
            away.ended_at = timezone.now()
            done.append(away)
        away.save(update_fields=["hands_missed", "ended_at"])
    return done
