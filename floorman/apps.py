from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloormanConfig(AppConfig):
    name = "floorman"
    verbose_name = _("Floorman")

    def ready(self):
        import floorman.schema  # noqa: F401, PLC0415 - Django's set-up: registers the extension
