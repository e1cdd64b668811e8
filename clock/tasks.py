"""Timed clock announcements, sent with eta by clock.services.announcements_schedule.

acks_late (settings): a worker that dies mid-task does not lose the announcement; the
service's version check and claim make a repeated or stale task harmless.
"""

from celery import shared_task

from clock import services


@shared_task(ignore_result=True, acks_late=True)
def clock_announce(tournament_id: int, version: int, kind: str, position: int) -> bool:
    return services.clock_announcement_send(
        tournament_id=tournament_id, version=version, kind=kind, position=position
    )
