from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from clock import views

app_name = "clock"

T = "tournaments/<id:tournament_id>/clock/"

urlpatterns = [
    path(T, views.console, name="console"),
    path(T + "action/", views.clock_action, name="action"),
    path(T + "settings/", views.clock_settings, name="settings"),
    path(T + "day-end/", views.day_end, name="day-end"),
    path(T + "player-clocks/", views.player_clock_call, name="player-clock-call"),
    path(
        T + "player-clocks/<id:player_clock_id>/stop/",
        views.player_clock_stop,
        name="player-clock-stop",
    ),
    path(T + "announcements/", views.announcement_post, name="announcement-post"),
    path(
        T + "announcements/<id:announcement_id>/hide/",
        views.announcement_hide,
        name="announcement-hide",
    ),
]
