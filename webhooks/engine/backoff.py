"""When a failed delivery is tried again (issue 22, item 2).

The schedule is a list of waits in seconds (settings.WEBHOOK_RETRY_SCHEDULE): after the
first try fails, the first wait, and so on; once the list is used up the delivery is
dead (the dead letter, kept and listed, which the director may send again). Each wait is
stretched by up to a tenth at random, so that the deliveries of one outage, failed
together, are not all tried again in the same second.
"""

import random


def retry_wait(schedule: tuple[int, ...] | list[int], tries: int, *, rng=random) -> float | None:
    """Seconds to wait before the next try after `tries` failed tries (1 after the first),
    or None when none is left: the delivery is dead."""
    if tries < 1 or tries > len(schedule):
        return None
    wait = schedule[tries - 1]
    return wait + wait * 0.1 * rng.random()


def total_tries(schedule) -> int:
    """Every try a delivery gets: the first and one after each wait."""
    return len(schedule) + 1


def should_disable(dead_in_row: int, limit: int) -> bool:
    """An endpoint whose `limit` latest deliveries all ended dead, none delivered in
    between, is switched off (0: never)."""
    return limit > 0 and dead_in_row >= limit
