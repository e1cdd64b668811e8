"""Errors services raise, and how the API turns them into responses.

Services raise `Invalid` (400, with field messages), `Conflict` (409) or `NotFound`
(404). Pages and the API catch the same exceptions, so both behave alike.
"""

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ServiceError(Exception):
    http_status = 400
    code = "error"

    def __init__(self, message: str, *, code: str | None = None, data: dict | None = None):
        super().__init__(message)
        self.message = str(message)
        if code:
            self.code = code
        self.data = data or {}

    def as_dict(self) -> dict:
        return {"code": self.code, "detail": self.message, **self.data}


class Invalid(ServiceError):
    """Input that breaks a rule of one field: `fields` maps field name to messages."""

    http_status = 400
    code = "invalid"

    def __init__(self, fields: dict[str, str | list[str]]):
        self.fields = {
            name: msgs if isinstance(msgs, list) else [msgs] for name, msgs in fields.items()
        }
        first = next(iter(self.fields.values()))[0]
        super().__init__(first)

    def as_dict(self) -> dict:
        return {name: [str(m) for m in msgs] for name, msgs in self.fields.items()}


class Conflict(ServiceError):
    http_status = 409
    code = "conflict"


class NotFound(ServiceError):
    http_status = 404
    code = "not_found"


class Busy(ServiceError):
    """A lock could not be had in time: tell the person to try again."""

    http_status = 503
    code = "busy"


def lock_timed_out(exc: Exception) -> bool:
    """A row lock not had in time (PostgreSQL's lock_timeout, SQLite's "database is
    locked"): the database is busy, not gone. Pages and the API answer "try again"."""
    return isinstance(exc, OperationalError) and "lock" in str(exc).lower()


def api_exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.http_status)
    if lock_timed_out(exc):
        return Response(
            {"code": "busy", "detail": _("The system is busy, please try again.")},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    if isinstance(exc, DatabaseError) and "out of range" in str(exc).lower():
        return Response(
            {"code": "invalid", "detail": _("A number is out of range.")},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    return exception_handler(exc, context)
