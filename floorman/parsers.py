"""The API's JSON parser: a body that cannot be read is a 400, never a 500 (issue 15).

REST framework's parser turns the ValueError of malformed JSON into a ParseError (400),
but not the RecursionError that Python's decoder raises on deeply nested arrays or
objects: 1,000 brackets, 2 KB, answered with a 500. This parser refuses those, and any
body nested deeper than a request of Floorman's can be, before a view reads it.
"""

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# The deepest body Floorman reads nests three or four levels (a hand's pots, a deal's
# shares); the limit leaves room and stays far below Python's recursion limit.
MAX_DEPTH = 32


def nested_deeper_than(data, limit: int) -> bool:
    """True if arrays and objects in `data` nest more than `limit` levels (walked with a
    stack: the check must not recurse itself)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _too_deep() -> ParseError:
    return ParseError(_("JSON parse error - the body is nested too deeply."))


class JSONParser(parsers.JSONParser):
    """REST framework's JSON parser that also refuses too deeply nested bodies."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if nested_deeper_than(data, MAX_DEPTH):
            raise _too_deep()
        return data
