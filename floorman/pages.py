"""Helpers shared by the HTML pages: role checks, and running a service for a page.

Pages are thin: parse the form, call one service, render or redirect. `service_call`
turns the errors services raise into what a page shows, so that no view repeats it.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import Http404
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from floorman.errors import Busy, Invalid, NotFound, ServiceError, lock_timed_out
from floorman.roles import user_has_role


def role_required(roles: tuple[str, ...]):
    """Staff pages: visitors go to the login page, staff without the role get 403."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                if request.htmx:
                    # A partial request must not swap the login page into a fragment.
                    page = request.htmx.current_url_abs_path or request.get_full_path()
                    login = resolve_url("login") + "?" + urlencode({"next": page})
                    return HttpResponseClientRedirect(login)
                return redirect_to_login(request.get_full_path())
            if not user_has_role(request.user, roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


@dataclass(frozen=True)
class Outcome:
    """What came of a service call: its value, or the error to show."""

    value: Any = None
    error: ServiceError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def code(self) -> str:
        return self.error.code if self.error else ""


def service_call(
    request,
    service: Callable,
    /,
    *,
    form: forms.Form | None = None,
    field_map: dict[str, str] | None = None,
    flash: bool = True,
    **kwargs,
) -> Outcome:
    """Run `service(actor=request.user, **kwargs)` and map its refusals for the page.

    - NotFound: 404.
    - Invalid: onto the form's fields (a field the form lacks: a non-field error);
      `field_map` renames service fields to form fields.
    - Conflict, Busy, a lock timeout: the form's non-field errors, or (without a form,
      unless `flash` is off because the caller shows `Outcome.error` itself) a message.

    The service runs in its own transaction: a refusal leaves nothing half-written.
    """
    try:
        return Outcome(value=service(actor=request.user, **kwargs))
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except ServiceError as exc:
        error = exc
    except OperationalError as exc:
        if not lock_timed_out(exc):
            raise
        error = Busy(_("The system is busy, please try again."))
    _show(request, error, form=form, field_map=field_map or {}, flash=flash)
    return Outcome(error=error)


def _show(request, error: ServiceError, *, form, field_map: dict[str, str], flash: bool) -> None:
    if form is None:
        if flash:
            messages.error(request, error.message)
        return
    if isinstance(error, Invalid):
        for name, msgs in error.fields.items():
            name = field_map.get(name, name)
            form.add_error(name if name in form.fields else None, [str(m) for m in msgs])
    else:
        form.add_error(None, error.message)


def safe_next(request, default: str) -> str:
    """The `next` parameter when it is a path on this site, else `default`. Only a path:
    redirect() would take anything else for the name of a view."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


# --- Messages for one page -----------------------------------------------------------------

PAGE_TAG = "page:"


def message_for_page(request, level: int, text: str, *, page: str) -> None:
    """A message that only the page at path `page` shows. A browser keeps one message
    store for all its tabs: the floor with two tablets open side by side would otherwise
    see one table's "Seat 3 takes the button" on the other's page, whichever loads first
    (issue 16). Other pages leave it for its own."""
    messages.add_message(request, level, text, extra_tags=PAGE_TAG + page)


class PageMessages:
    """The messages this page shows: those for every page and those for this path
    (`message_for_page`); the others go back to the store, for the page they are for.
    Read once, when the template first asks."""

    def __init__(self, request):
        self.request = request
        self._shown: list | None = None

    def _load(self) -> list:
        if self._shown is None:
            storage = messages.get_messages(self.request)
            here = PAGE_TAG + self.request.path
            shown, kept = [], []
            for message in storage:
                tags = message.extra_tags or ""
                (kept if tags.startswith(PAGE_TAG) and tags != here else shown).append(message)
            for message in kept:  # stored again when the response goes out
                storage.add(message.level, message.message, message.extra_tags)
            self._shown = shown
        return self._shown

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __bool__(self) -> bool:
        return bool(self._load())


def page_messages(request) -> dict:
    """Context processor, after Django's own (which the admin needs): `messages` is this
    page's (PageMessages)."""
    return {"messages": PageMessages(request)}
