"""The live-reporting feed's API route, under /api/v1/ (web.api_urls includes it)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.feed.api import FeedView

urlpatterns = [
    path("tournaments/<id:tournament_pk>/feed/", FeedView.as_view(), name="api-feed"),
]
