from django.apps import AppConfig


class ClockConfig(AppConfig):
    # Filled by a later issue (see DESIGN.md); nothing here pretends to work yet.
    name = "clock"
