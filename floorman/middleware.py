"""When the database cannot be reached: a clear 503, never a 500. And the use of an API
token or key, noted once the request is answered.

A request that loses the database (a restart, a network blip) answers "unavailable,
try again" — a JSON body for the API, a small page for people — with Retry-After. The
page is rendered without the request context: the context processors would ask the
database again. The broken connection is dropped at the end of the request, so the
next one reconnects by itself.
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from floorman.authentication import api_use_record
from floorman.error_pages import is_api
from floorman.errors import lock_timed_out

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


def database_down(exc: Exception) -> bool:
    """A lost or refused connection; a lock timeout is a busy database (409/503 by the
    services' own handling), not a missing one."""
    if isinstance(exc, InterfaceError):
        return True
    return isinstance(exc, OperationalError) and not lock_timed_out(exc)


class DatabaseDownMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exc):
        if not database_down(exc):
            return None
        message = _("Floorman cannot reach its database for a moment. Please try again.")
        if is_api(request):
            response = JsonResponse({"code": "unavailable", "detail": message}, status=503)
        else:
            page = render_to_string("503.html", {"message": message})
            response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


class ApiUseMiddleware:
    """A request made with a staff token or an API key that the API answered without an
    error notes the token's or key's use (floorman.authentication.api_use_record); one it
    refused (403 for the key's scope, 400, 404, 409, 429) writes nothing. DRF puts the
    token or key on the request as `auth` when it authenticates it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        auth = getattr(request, "auth", None)
        if auth is not None and response.status_code < 400:
            try:
                api_use_record(auth)
            except (InterfaceError, OperationalError) as exc:
                if not database_down(exc):
                    raise
                # The answer stands; the use is noted at the next request.
                logger.warning("the use of an API token or key was not noted", exc_info=True)
        return response
