"""When the database cannot be reached: a clear 503, never a 500.

A request that loses the database (a restart, a network blip) answers "unavailable,
try again" — a JSON body for the API, a small page for people — with Retry-After. The
page is rendered without the request context: the context processors would ask the
database again. The broken connection is dropped at the end of the request, so the
next one reconnects by itself.
"""

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from floorman.error_pages import is_api
from floorman.errors import lock_timed_out

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
