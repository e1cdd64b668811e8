"""The webhooks' Celery task: one try of one delivery (webhooks.services.delivery_attempt),
sent on commit by id. acks_late (settings): a worker that dies mid-try leaves the task to
another; the claim makes a second run harmless."""

from celery import shared_task

from webhooks import services


@shared_task(ignore_result=True, acks_late=True)
def webhook_deliver(delivery_id: int) -> str:
    return services.delivery_attempt(delivery_id=delivery_id)
