"""The director's pages for chip sets and blind structures (clock.structure_views)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from clock import structure_views as views

app_name = "structures"

S = "structures/<id:structure_id>/"

urlpatterns = [
    path("structures/", views.structure_list, name="list"),
    path("structures/new/", views.structure_create, name="create"),
    path("structures/generate/", views.structure_generate, name="generate"),
    path("structures/import/", views.structure_import, name="import"),
    path(S, views.structure_detail, name="detail"),
    path(S + "export.json", views.structure_export_json, name="export-json"),
    path(S + "export.csv", views.structure_export_csv, name="export-csv"),
    path(S + "copy/", views.structure_copy, name="copy"),
    path(S + "delete/", views.structure_delete, name="delete"),
    path("chipsets/", views.chip_set_list, name="chipset-list"),
    path("chipsets/new/", views.chip_set_create, name="chipset-create"),
    path("chipsets/<id:chip_set_id>/", views.chip_set_edit, name="chipset-edit"),
    path(
        "tournaments/<id:tournament_id>/structure/", views.tournament_structure, name="tournament"
    ),
]
