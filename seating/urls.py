"""The TD's seating pages. Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from seating import views

app_name = "seating"

S = "tournaments/<id:tournament_id>/seating/"
TABLE = S + "tables/<id:number>/"

urlpatterns = [
    path(S, views.table_map, name="map"),
    path(S + "tables/add/", views.table_add, name="table-add"),
    path(TABLE + "remove/", views.table_remove, name="table-remove"),
    path(TABLE + "break/", views.table_break, name="table-break"),
    path(TABLE + "halt/", views.halt_waive, name="halt-waive"),
    path(TABLE + "seats/<id:seat>/", views.seat_detail, name="seat"),
    path(S + "break-order/", views.break_order, name="break-order"),
    path(S + "draw/", views.draw, name="draw"),
    path(S + "move/", views.move, name="move"),
    path(S + "balance/", views.balance, name="balance"),
    path(S + "final-table/", views.final_table, name="final-table"),
    path(S + "undo/", views.undo, name="undo"),
    path(S + "settings/", views.seating_settings_edit, name="settings"),
    path(S + "actions/<id:action_id>/", views.action_detail, name="action"),
    path(S + "actions/<id:action_id>/slips/", views.move_slips, name="slips"),
    path(S + "print/seat-cards/", views.seat_cards, name="seat-cards"),
    path(S + "print/by-name/", views.list_by_name, name="by-name"),
    path(S + "print/by-table/", views.list_by_table, name="by-table"),
]
