from django.apps import AppConfig


class HandsConfig(AppConfig):
    # Filled by a later issue (see DESIGN.md); nothing here pretends to work yet.
    name = "hands"
