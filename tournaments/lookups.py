"""What the pages and API views of every app above tournaments share: the tournament
named by a path, and the API's fields for ids and money."""

from django.shortcuts import get_object_or_404
from rest_framework import serializers

from tournaments.models import MAX_MONEY, Tournament

MAX_ID = 2**63 - 1  # the largest id a database integer holds


def tournament_or_404(pk: int) -> Tournament:
    """The tournament of a page's or an API's path, or 404."""
    return get_object_or_404(Tournament, pk=pk)


def money(**kwargs) -> serializers.IntegerField:
    """An amount in cents, never negative, never beyond what the ledger stores."""
    return serializers.IntegerField(min_value=0, max_value=MAX_MONEY, **kwargs)
