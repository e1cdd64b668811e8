"""Django's own error answers (handler400, handler404 in web.urls): JSON under
/api/, as every other API answer, and the usual pages elsewhere.

They answer requests no view took: a malformed request Django refuses before any view
(too many fields, a bad Host) or an address no route matches.
"""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults


def is_api(request) -> bool:
    """A request to the API, which answers in JSON even when it fails."""
    return request.path.startswith("/api/")


def bad_request(request, exception=None):
    if is_api(request):
        detail = _("The request could not be read: check its size and its parameters.")
        return JsonResponse({"code": "bad_request", "detail": detail}, status=400)
    return defaults.bad_request(request, exception)


def page_not_found(request, exception=None):
    if is_api(request):
        return JsonResponse({"code": "not_found", "detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)
