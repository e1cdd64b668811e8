"""Public lobby screens. Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.screens import views as screens

app_name = "screens"

urlpatterns = [
    path("lobby/", screens.rotate, name="rotate"),
    path("lobby/<id:tournament_id>/", screens.lobby, name="lobby"),
    path("lobby/<id:tournament_id>/data/", screens.lobby_data_view, name="data"),
    path("lobby/<id:tournament_id>/festival/", screens.lobby_festival, name="festival"),
    path("lobby/<id:tournament_id>/leaders/", screens.lobby_leaders, name="leaders"),
    path("lobby/series/<slug:slug>/", screens.series_lobby, name="series-lobby"),
]
