"""The flights' API routes, under /api/v1/ (web.api_urls includes them)."""

from django.urls import path

from web.flights import api

T = "tournaments/<id:tournament_pk>"

urlpatterns = [
    path(f"{T}/flights/", api.FlightsView.as_view(), name="api-flights"),
    path(f"{T}/flight-stop/", api.FlightStopView.as_view(), name="api-flight-stop"),
    path(f"{T}/bags/", api.BagsView.as_view(), name="api-bags"),
    path(f"{T}/bags/check/", api.BagCheckView.as_view(), name="api-bag-check"),
    path(f"{T}/bags/confirm/", api.BagsConfirmView.as_view(), name="api-bags-confirm"),
]
