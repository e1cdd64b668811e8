from django.apps import AppConfig


class PrizesConfig(AppConfig):
    # Prize money: payout tables, results, payments, deals and their exports.
    name = "prizes"
    label = "prizes"
