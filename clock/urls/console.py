from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from clock.views import console

app_name = "clock"

T = "tournaments/<id:tournament_id>/clock/"

urlpatterns = [
    path(T, console.console, name="console"),
    path(T + "action/", console.clock_action, name="action"),
    path(T + "settings/", console.clock_settings, name="settings"),
    path(T + "day-end/", console.day_end, name="day-end"),
    path(T + "player-clocks/", console.player_clock_call, name="player-clock-call"),
    path(
        T + "player-clocks/<id:player_clock_id>/stop/",
        console.player_clock_stop,
        name="player-clock-stop",
    ),
    path(T + "announcements/", console.announcement_post, name="announcement-post"),
    path(
        T + "announcements/<id:announcement_id>/hide/",
        console.announcement_hide,
        name="announcement-hide",
    ),
]
