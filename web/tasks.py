"""Celery tasks over several apps."""

from celery import shared_task

from clock.services import announcements_resend
from floorman.celery import SATELLITE_SEATS_CHECK, TIMERS_RESEND
from hands.services import h4h_alerts_resend
from hands.services.busts import play_end_check
from webhooks.services import deliveries_resend_due


# Named as the core sends it when a worker starts consuming (floorman.celery).
@shared_task(name=TIMERS_RESEND, ignore_result=True)
def timers_resend() -> None:
    """Send the timed tasks that are due again: the clock announcements, the
    hand-for-hand alerts and the webhook deliveries waiting (issue 22). Sent by every
    worker when it starts consuming (floorman.celery); the services' claims make a task
    that is already waiting, or runs twice, harmless."""
    announcements_resend()
    h4h_alerts_resend()
    deliveries_resend_due()


# Named as the clock sends it when its level change closes a satellite's registration.
@shared_task(name=SATELLITE_SEATS_CHECK, ignore_result=True)
def satellite_seats_check(tournament_id: int) -> bool:
    return play_end_check(actor=None, tournament_id=tournament_id)
