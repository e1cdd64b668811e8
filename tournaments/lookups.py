"""The tournament named by a path, for the API views of every app above this one."""

from django.shortcuts import get_object_or_404

from tournaments.models import Tournament


def tournament_or_404(pk: int) -> Tournament:
    """The tournament of an API path, or 404."""
    return get_object_or_404(Tournament, pk=pk)
