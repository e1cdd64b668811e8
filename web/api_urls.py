from django.urls import include, path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from floorman.api import ApiKeyListView, ApiKeyRevokeView, TokenObtainView
from seating.api_urls import lookup_urlpatterns
from web.screens.api import ChipLeadersView, TournamentOverviewView

urlpatterns = [
    *lookup_urlpatterns,  # first: the hottest path (seating.api_urls)
    path("auth/token/", TokenObtainView.as_view(), name="api-token"),
    path("keys/", ApiKeyListView.as_view(), name="api-keys"),
    path("keys/<id:key_id>/revoke/", ApiKeyRevokeView.as_view(), name="api-key-revoke"),
    path("", include("web.desk.api_urls")),
    path("", include("prizes.api_urls")),
    path("", include("clock.api_urls")),
    path("", include("seating.api_urls")),
    path("", include("hands.api_urls")),
    path("", include("rulings.api_urls")),
    path(
        "tournaments/<id:tournament_pk>/overview/",
        TournamentOverviewView.as_view(),
        name="tournament-overview",
    ),
    path(
        "tournaments/<id:tournament_pk>/chip-leaders/",
        ChipLeadersView.as_view(),
        name="tournament-chip-leaders",
    ),
    path("", include("web.counts.api_urls")),
    path("", include("web.flights.api_urls")),
    path("", include("web.tickets.api_urls")),
    path("", include("web.series.api_urls")),
    path("", include("web.feed.api_urls")),
    path("", include("webhooks.api_urls")),
]
