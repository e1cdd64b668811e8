"""Rulings pages: the rule book, house rules, the floor's incidents and penalties, a
player's record. Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from rulings.views import calculators, floor, house_settings, rulebook

app_name = "rulings"

HOUSE = "rules/house/"
VENUE = HOUSE + "venues/<id:venue_id>/"
FLOOR = "tournaments/<id:tournament_id>/floor/"

urlpatterns = [
    path("rules/", rulebook.rulebook_index, name="rulebook"),
    path("rules/calculators/", calculators.calculators, name="calculators"),
    # These pages come before "rules/<number>/", which would take "house".
    path(HOUSE, rulebook.house_rules_page, name="house"),
    path(HOUSE + "venues/", rulebook.venue_create, name="venue-create"),
    path(VENUE, rulebook.venue_update, name="venue-update"),
    path(VENUE + "settings/", house_settings.venue_house_settings, name="venue-house-settings"),
    path(
        "rules/house-settings/",
        house_settings.house_settings_guide,
        name="house-settings-guide",
    ),
    path(VENUE + "rules/", rulebook.house_rule_add, name="house-rule-add"),
    path(VENUE + "rules/<id:rule_id>/", rulebook.house_rule_edit, name="house-rule-edit"),
    path(
        VENUE + "rules/<id:rule_id>/delete/", rulebook.house_rule_delete, name="house-rule-delete"
    ),
    path(VENUE + "import/", rulebook.rulebook_upload, name="rulebook-upload"),
    path("rules/<str:number>/", rulebook.rule_detail, name="rule"),
    path(FLOOR, floor.floor, name="floor"),
    path(FLOOR + "incidents/", floor.incident_create, name="incident-create"),
    path(FLOOR + "penalties/", floor.penalty_create, name="penalty-create"),
    path(FLOOR + "penalties/<id:penalty_id>/end/", floor.penalty_end, name="penalty-end"),
    path("players/<id:player_id>/record/", floor.player_record, name="record"),
]

# An event's house settings keep the "tournaments" namespace and name they had: the root
# urlconf (web.urls) includes this list with the tournaments' pages.
tournament_urlpatterns = [
    path(
        "<id:tournament_id>/house-settings/",
        house_settings.tournament_house_settings,
        name="house-settings",
    ),
]
