"""The chip counts API under /api/v1/ (issue 18)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.counts import api

T = "tournaments/<id:tournament_pk>"

urlpatterns = [
    path(f"{T}/counts/", api.CountsView.as_view(), name="api-counts"),
    path(f"{T}/counts/sweep/", api.CountSweepView.as_view(), name="api-counts-sweep"),
    path(f"{T}/chips-removed/", api.ChipRemovalsView.as_view(), name="api-chips-removed"),
    path(f"{T}/tables/<id:number>/counts/", api.TableCountsView.as_view(), name="api-table-counts"),
]
