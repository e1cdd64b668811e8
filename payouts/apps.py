from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    # The payout table: how many places are paid and what each gets. The floor reads it
    # (the bubble, the end of re-entries) as well as the prize money (prizes).
    name = "payouts"
    label = "payouts"
