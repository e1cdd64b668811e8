"""Seating API under /api/v1/: tables, seats, draws, moves, balancing, lookup."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from seating import api

T = "tournaments/<id:tournament_pk>"

# The public seat lookup, the API's hottest path when a draw is announced: web.api_urls
# lists it before every other route, since Django tries routes in order and reaching it
# behind the others took a lookup's resolving from 20 to 140 µs (issue 20).
lookup_urlpatterns = [
    path(f"{T}/lookup/", api.LookupView.as_view(), name="api-seating-lookup"),
]

urlpatterns = [
    path(f"{T}/tables/", api.TablesView.as_view(), name="api-seating-tables"),
    path(f"{T}/tables/break-order/", api.BreakOrderView.as_view(), name="api-seating-break-order"),
    path(f"{T}/tables/<id:number>/", api.TableView.as_view(), name="api-seating-table"),
    path(f"{T}/tables/<id:number>/break/", api.TableBreakView.as_view(), name="api-seating-break"),
    path(
        f"{T}/tables/<id:number>/halt-waiver/",
        api.HaltWaiverView.as_view(),
        name="api-seating-halt-waiver",
    ),
    path(
        f"{T}/tables/<id:number>/seats/<id:seat>/", api.SeatView.as_view(), name="api-seating-seat"
    ),
    path(f"{T}/draw/", api.DrawView.as_view(), name="api-seating-draw"),
    path(f"{T}/moves/", api.MovesView.as_view(), name="api-seating-moves"),
    path(f"{T}/balance/", api.BalanceView.as_view(), name="api-seating-balance"),
    path(f"{T}/final-table/", api.FinalTableView.as_view(), name="api-seating-final-table"),
    path(f"{T}/seating/", api.SeatingListView.as_view(), name="api-seating-list"),
    path(f"{T}/seating/undo/", api.UndoView.as_view(), name="api-seating-undo"),
    path(f"{T}/day2/", api.Day2View.as_view(), name="api-day2"),
    path(f"{T}/day2/start/", api.Day2StartView.as_view(), name="api-day2-start"),
    path(
        f"{T}/day2/bags/<id:bag_pk>/choose/",
        api.Day2BagChooseView.as_view(),
        name="api-day2-choose",
    ),
]
