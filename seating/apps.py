from django.apps import AppConfig


class SeatingConfig(AppConfig):
    # Filled by a later issue (see DESIGN.md); nothing here pretends to work yet.
    name = "seating"
