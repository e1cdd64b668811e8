"""Public seating pages: seat lookup for phones, the seating board for lobby screens.
Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from seating.views import public

app_name = "seats"

urlpatterns = [
    # Short, for players typing it from a poster: /seat/12/?q=mueller
    path("seat/<id:tournament_id>/", public.lookup, name="lookup"),
    path(
        "seat/<id:tournament_id>/entry/<id:number>/",
        public.entry_data,
        name="entry-data",
    ),
    # Beside the clock's lobby screen (/lobby/<id>/): the TV in the card room.
    path("lobby/<id:tournament_id>/seating/", public.board, name="board"),
    path("lobby/<id:tournament_id>/seating/data/", public.board_data, name="board-data"),
]
