from django.apps import AppConfig


class RulingsConfig(AppConfig):
    # Filled by a later issue (see DESIGN.md); nothing here pretends to work yet.
    name = "rulings"
