from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from tournaments import views

# The desk (web.desk.urls), the prize pages (prizes.urls) and an event's house settings
# (rulings.urls.tournament_urlpatterns) share this namespace: the root urlconf (web.urls)
# includes the lists as one.
app_name = "tournaments"

T = "<id:tournament_id>/"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("players/", views.player_list, name="players"),
    path("players/<id:player_id>/", views.player_edit, name="player-edit"),
    path("players/<id:player_id>/id-check/", views.player_id_check, name="player-id-check"),
]
