"""Rulings pages: the rule book, house rules, the floor's incidents and penalties, a
player's record. Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from rulings import calculator_views, views

app_name = "rulings"

HOUSE = "rules/house/"
VENUE = HOUSE + "venues/<id:venue_id>/"
FLOOR = "tournaments/<id:tournament_id>/floor/"

urlpatterns = [
    path("rules/", views.rulebook_index, name="rulebook"),
    path("rules/calculators/", calculator_views.calculators, name="calculators"),
    # These pages come before "rules/<number>/", which would take "house".
    path(HOUSE, views.house_rules_page, name="house"),
    path(HOUSE + "venues/", views.venue_create, name="venue-create"),
    path(VENUE, views.venue_update, name="venue-update"),
    path(VENUE + "rules/", views.house_rule_add, name="house-rule-add"),
    path(VENUE + "rules/<id:rule_id>/", views.house_rule_edit, name="house-rule-edit"),
    path(VENUE + "rules/<id:rule_id>/delete/", views.house_rule_delete, name="house-rule-delete"),
    path(VENUE + "import/", views.rulebook_upload, name="rulebook-upload"),
    path("rules/<str:number>/", views.rule_detail, name="rule"),
    path(FLOOR, views.floor, name="floor"),
    path(FLOOR + "incidents/", views.incident_create, name="incident-create"),
    path(FLOOR + "penalties/", views.penalty_create, name="penalty-create"),
    path(FLOOR + "penalties/<id:penalty_id>/end/", views.penalty_end, name="penalty-end"),
    path("players/<id:player_id>/record/", views.player_record, name="record"),
]
