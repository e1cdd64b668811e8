from django.apps import AppConfig


class SimulationConfig(AppConfig):
    """Installed for its command, `manage.py simulate`; it has no models and no URLs."""

    name = "simulation"
