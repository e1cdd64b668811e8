"""The desk's pages, in the "tournaments" namespace they have always had (web.urls
includes them with tournaments.urls and prizes.urls)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.desk import views

T = "<id:tournament_id>/"
E = T + "entries/<id:number>/"

urlpatterns = [
    path(T, views.tournament_detail, name="detail"),
    path(T + "edit/", views.tournament_edit, name="edit"),
    path(T + "status/", views.tournament_status, name="status"),
    path(T + "cancel/", views.tournament_cancel, name="cancel"),
    path(T + "desk/", views.desk, name="desk"),
    path(T + "desk/players/", views.desk_search, name="desk-search"),
    path(T + "entries/", views.entry_list, name="entries"),
    path(E, views.entry_public_page, name="entry-public"),
    path(E + "count/", views.entry_count_part, name="entry-count"),
    path(E + "bust/", views.entry_bust, name="entry-bust"),
    path(E + "bust/undo/", views.entry_bust_undo, name="entry-bust-undo"),
    path(E + "knockout/", views.entry_knockout, name="entry-knockout"),
    path(E + "rebuy/", views.entry_rebuy, name="entry-rebuy"),
    path(E + "addon/", views.entry_addon, name="entry-addon"),
    path(E + "cancel/", views.entry_cancel, name="entry-cancel"),
    path(T + "alternates/", views.alternate_list, name="alternates"),
    path(T + "alternates/enter-next/", views.alternate_enter_next, name="alternate-enter-next"),
    path(
        T + "alternates/<id:alternate_id>/withdraw/",
        views.alternate_withdraw,
        name="alternate-withdraw",
    ),
]
