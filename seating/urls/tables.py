"""The TD's seating pages. Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from seating.views import counts, day2, tables

app_name = "seating"

S = "tournaments/<id:tournament_id>/seating/"
TABLE = S + "tables/<id:number>/"

urlpatterns = [
    path(S, tables.table_map, name="map"),
    path(S + "tables/add/", tables.table_add, name="table-add"),
    path(TABLE + "remove/", tables.table_remove, name="table-remove"),
    path(TABLE + "break/", tables.table_break, name="table-break"),
    path(TABLE + "halt/", tables.halt_waive, name="halt-waive"),
    path(TABLE + "seats/<id:seat>/", tables.seat_detail, name="seat"),
    path(S + "break-order/", tables.break_order, name="break-order"),
    path(S + "draw/", tables.draw, name="draw"),
    path(S + "move/", tables.move, name="move"),
    path(S + "balance/", tables.balance, name="balance"),
    path(S + "final-table/", tables.final_table, name="final-table"),
    path(S + "undo/", tables.undo, name="undo"),
    path(S + "settings/", tables.seating_settings_edit, name="settings"),
    path(S + "actions/<id:action_id>/", tables.action_detail, name="action"),
    path(S + "actions/<id:action_id>/slips/", tables.move_slips, name="slips"),
    path(S + "print/seat-cards/", tables.seat_cards, name="seat-cards"),
    path(S + "print/by-name/", tables.list_by_name, name="by-name"),
    path(S + "print/by-table/", tables.list_by_table, name="by-table"),
    path("tournaments/<id:tournament_id>/counts/", counts.counts, name="counts"),
    path("tournaments/<id:tournament_id>/day2/", day2.day2, name="day2"),
    path("tournaments/<id:tournament_id>/day2/start/", day2.day2_begin, name="day2-start"),
    path(
        "tournaments/<id:tournament_id>/day2/bags/<id:bag_id>/choose/",
        day2.day2_choose,
        name="day2-choose",
    ),
]
