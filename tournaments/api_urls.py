from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from tournaments import prize_api
from tournaments.api import AlternateViewSet, EntryViewSet, PlayerViewSet, TournamentViewSet

router = DefaultRouter()
router.include_format_suffixes = False  # no ".json" twins of each URL: views take no format
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("players", PlayerViewSet, basename="player")

nested = SimpleRouter()
nested.register("entries", EntryViewSet, basename="entry")
nested.register("alternates", AlternateViewSet, basename="alternate")

T = "tournaments/<id:tournament_pk>"

urlpatterns = [
    path(f"{T}/payouts/", prize_api.PayoutsView.as_view(), name="api-payouts"),
    path(f"{T}/results/", prize_api.ResultsView.as_view(), name="api-results"),
    path(f"{T}/results/<id:entry_pk>/place/", prize_api.PlaceView.as_view(), name="api-place"),
    path(f"{T}/payments/", prize_api.PaymentsView.as_view(), name="api-payments"),
    path(f"{T}/payments/<id:entry_pk>/", prize_api.PaymentView.as_view(), name="api-payment"),
    path(
        f"{T}/deal/calculate/",
        prize_api.DealCalculateView.as_view(),
        name="api-deal-calculate",
    ),
    path(f"{T}/deal/", prize_api.DealView.as_view(), name="api-deal"),
    path("", include(router.urls)),
    path("tournaments/<id:tournament_pk>/", include(nested.urls)),
]
