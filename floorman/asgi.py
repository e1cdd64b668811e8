"""ASGI entry point: HTTP through Django, /ws/ through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "floorman.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402 - needs Django set up first
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from floorman.consumers import TournamentConsumer  # noqa: E402

websocket_urlpatterns = [
    # At most 18 digits: a larger id cannot exist and would overflow a database integer.
    re_path(r"^ws/tournaments/(?P<tournament_id>[0-9]{1,18})/$", TournamentConsumer.as_asgi()),
]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
