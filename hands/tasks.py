"""Hand-for-hand alerts, sent with eta by hands.services.hand_for_hand.

acks_late (settings): a worker that dies mid-task does not lose the alert; the service's
claim makes a repeated or stale task harmless.
"""

from celery import shared_task

from hands import services


@shared_task(ignore_result=True, acks_late=True)
def h4h_alert(tournament_id: int, round_number: int) -> list[int] | None:
    return services.h4h_table_alert(tournament_id=tournament_id, round_number=round_number)
