from django.apps import AppConfig


class WebConfig(AppConfig):
    """What ties the apps together: URL and websocket routing, the lobby screens and the
    pages over several apps. The top of the house: no app imports it."""

    name = "web"
