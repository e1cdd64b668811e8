from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        # The core announces each committed audit entry (floorman.signals); it cannot
        # import this app, so the app listens.
        from floorman.signals import audit_committed  # noqa: PLC0415 - apps load first
        from webhooks import receivers  # noqa: PLC0415 - apps load first

        audit_committed.connect(receivers.audit_entries_committed, dispatch_uid="webhooks")
