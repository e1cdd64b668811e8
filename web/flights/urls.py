"""The flight pages, in the "tournaments" namespace (web.urls includes them)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.flights import views

T = "<id:tournament_id>/"

urlpatterns = [
    path(T + "flights/", views.flights, name="flights"),
    path(T + "flight-end/", views.flight_end, name="flight-end"),
    path(T + "flight-end/stop/", views.flight_stop, name="flight-stop"),
    path(T + "flight-end/bags/", views.bag, name="bag-record"),
    path(T + "flight-end/confirm/", views.bags_confirm, name="bags-confirm"),
    path(T + "flight-end/tags/", views.bag_sheet, name="bag-sheet"),
]
