from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from clock.api import (
    AnnouncementViewSet,
    ChipSetViewSet,
    ClockSettingsView,
    ClockView,
    DayEndView,
    PlayerClockViewSet,
    StructureViewSet,
)

router = DefaultRouter()
router.include_format_suffixes = False  # no ".json" twins of each URL: views take no format
router.register("structures", StructureViewSet, basename="structure")
router.register("chipsets", ChipSetViewSet, basename="chipset")

nested = SimpleRouter()
nested.register("player-clocks", PlayerClockViewSet, basename="player-clock")
nested.register("announcements", AnnouncementViewSet, basename="announcement")

urlpatterns = [
    path("", include(router.urls)),
    path("tournaments/<id:tournament_pk>/clock/", ClockView.as_view(), name="clock"),
    path(
        "tournaments/<id:tournament_pk>/clock/settings/",
        ClockSettingsView.as_view(),
        name="clock-settings",
    ),
    path(
        "tournaments/<id:tournament_pk>/clock/day-end/", DayEndView.as_view(), name="clock-day-end"
    ),
    path("tournaments/<id:tournament_pk>/", include(nested.urls)),
]
