"""Who asks the API (settings REST_FRAMEWORK): a staff member's token, which expires
(floorman.tokens), or the browser's session (DRF's SessionAuthentication). Pages and the
admin know only the session: a token does not open them.

DRF imports this module while it loads its views, so it imports nothing that imports
them (floorman.errors does).
"""

from rest_framework.authentication import TokenAuthentication

from floorman import tokens


class ExpiringTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <token>`, as DRF's, but the token ends API_TOKEN_TTL after its
    last use; each use renews it."""

    def authenticate_credentials(self, key):
        token = tokens.token_authenticate(key=key)
        return token.user, token
