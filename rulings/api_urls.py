"""Rulings API under /api/v1/: rule book, incidents, penalties, calculators."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from rulings import api

T = "tournaments/<id:tournament_pk>"

urlpatterns = [
    path("rulings/rules/", api.RuleBookView.as_view(), name="api-rulebook"),
    path("rulings/rules/<str:number>/", api.RuleView.as_view(), name="api-rule"),
    path("rulings/bet/", api.BetView.as_view(), name="api-ruling-bet"),
    path("rulings/pot-limit/", api.PotLimitView.as_view(), name="api-ruling-pot-limit"),
    path("rulings/pots/", api.PotsView.as_view(), name="api-ruling-pots"),
    path("rulings/chip-race/", api.ChipRaceView.as_view(), name="api-ruling-chip-race"),
    path("rulings/showdown-rights/", api.ShowdownRightsView.as_view(), name="api-ruling-showdown"),
    path("rulings/chips-found/", api.ChipsFoundView.as_view(), name="api-ruling-chips-found"),
    path("rulings/late-error/", api.LateErrorView.as_view(), name="api-ruling-late-error"),
    path("rulings/wrong-seat/", api.WrongSeatView.as_view(), name="api-ruling-wrong-seat"),
    path("house-settings/", api.HouseSettingsGuideView.as_view(), name="api-house-settings"),
    path(
        "venues/<id:venue_pk>/house-settings/",
        api.VenueHouseSettingsView.as_view(),
        name="api-venue-house-settings",
    ),
    path(
        f"{T}/house-settings/",
        api.TournamentHouseSettingsView.as_view(),
        name="api-tournament-house-settings",
    ),
    path(f"{T}/incidents/", api.IncidentsView.as_view(), name="api-incidents"),
    path(f"{T}/penalties/", api.PenaltiesView.as_view(), name="api-penalties"),
    path(
        f"{T}/penalties/<id:penalty_pk>/end/",
        api.PenaltyEndView.as_view(),
        name="api-penalty-end",
    ),
    path(
        f"{T}/tables/<id:number>/dodged-blinds/",
        api.DodgedBlindsView.as_view(),
        name="api-dodged-blinds",
    ),
    path("players/<id:player_pk>/rulings/", api.PlayerRecordView.as_view(), name="api-record"),
]
