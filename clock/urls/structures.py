"""The director's pages for chip sets and blind structures (clock.views.structures)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from clock.views import structures

app_name = "structures"

S = "structures/<id:structure_id>/"

urlpatterns = [
    path("structures/", structures.structure_list, name="list"),
    path("structures/new/", structures.structure_create, name="create"),
    path("structures/generate/", structures.structure_generate, name="generate"),
    path("structures/import/", structures.structure_import, name="import"),
    path(S, structures.structure_detail, name="detail"),
    path(S + "export.json", structures.structure_export_json, name="export-json"),
    path(S + "export.csv", structures.structure_export_csv, name="export-csv"),
    path(S + "copy/", structures.structure_copy, name="copy"),
    path(S + "delete/", structures.structure_delete, name="delete"),
    path("chipsets/", structures.chip_set_list, name="chipset-list"),
    path("chipsets/new/", structures.chip_set_create, name="chipset-create"),
    path("chipsets/<id:chip_set_id>/", structures.chip_set_edit, name="chipset-edit"),
    path(
        "tournaments/<id:tournament_id>/structure/",
        structures.tournament_structure,
        name="tournament",
    ),
]
