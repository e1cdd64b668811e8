"""The OpenAPI schema's description of the API key (drf-spectacular). Loaded when the
app is ready (floorman.apps): the extension registers itself on import. DRF's token is
described by drf-spectacular itself."""

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "floorman.authentication.ApiKeyAuthentication"
    name = "apiKeyAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": _(
                "Another tool's key, made by a director: “Api-Key <key>”. Its scope "
                "decides what it may do: public (what anybody may read), read (every "
                "GET), floor (and the floor's actions) or director."
            ),
        }
