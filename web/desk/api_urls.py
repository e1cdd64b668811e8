from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from web.desk.api import AlternateViewSet, EntryViewSet, PlayerViewSet, TournamentViewSet

router = DefaultRouter()
router.include_format_suffixes = False  # no ".json" twins of each URL: views take no format
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("players", PlayerViewSet, basename="player")

nested = SimpleRouter()
nested.register("entries", EntryViewSet, basename="entry")
nested.register("alternates", AlternateViewSet, basename="alternate")

urlpatterns = [
    path("", include(router.urls)),
    path("tournaments/<id:tournament_pk>/", include(nested.urls)),
]
