"""API pagination. Its own module: the API settings import it while DRF itself loads."""

from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """?limit=&offset=; a limit above `max_limit` is cut to it, so no client can ask the
    database for millions of rows (or for a number it cannot hold)."""

    max_limit = 1000
