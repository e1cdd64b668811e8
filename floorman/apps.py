from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloormanConfig(AppConfig):
    name = "floorman"
    verbose_name = _("Floorman")
