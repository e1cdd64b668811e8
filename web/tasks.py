"""Celery tasks over several apps."""

from celery import shared_task

from clock.services import announcements_resend
from floorman.celery import TIMERS_RESEND
from hands.services import h4h_alerts_resend


# Named as the core sends it when a worker starts consuming (floorman.celery).
@shared_task(name=TIMERS_RESEND, ignore_result=True)
def timers_resend() -> None:
    """Send the timed tasks that are due again: the clock announcements and the
    hand-for-hand alerts. Sent by every worker when it starts consuming (floorman.celery);
    the services' claims make a task that is already waiting, or runs twice, harmless."""
    announcements_resend()
    h4h_alerts_resend()
