"""Hands API under /api/v1/: a table's state, hands, actions, results, busts; hand-for-hand."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from hands import api

T = "tournaments/<id:tournament_pk>"
TABLE = f"{T}/tables/<id:number>"
HAND = f"{TABLE}/hands/<id:hand_number>"

urlpatterns = [
    path(f"{TABLE}/state/", api.TableStateView.as_view(), name="api-hands-state"),
    path(f"{TABLE}/button/", api.ButtonView.as_view(), name="api-hands-button"),
    path(f"{TABLE}/button/draw/", api.ButtonDrawView.as_view(), name="api-hands-button-draw"),
    path(f"{TABLE}/hands/", api.HandsView.as_view(), name="api-hands-list"),
    path(f"{TABLE}/hand-start/", api.HandStartMarkView.as_view(), name="api-hands-start-mark"),
    path(f"{HAND}/", api.HandView.as_view(), name="api-hands-detail"),
    path(f"{HAND}/actions/", api.HandActionsView.as_view(), name="api-hands-actions"),
    path(f"{HAND}/item/", api.HandItemView.as_view(), name="api-hands-item"),
    path(f"{HAND}/upcards/", api.HandUpcardsView.as_view(), name="api-hands-upcards"),
    path(f"{HAND}/item/ruling/", api.HandItemRulingView.as_view(), name="api-hands-item-ruling"),
    path(f"{HAND}/out-of-turn/", api.HandOutOfTurnView.as_view(), name="api-hands-out-of-turn"),
    path(
        f"{HAND}/out-of-turn/ruling/",
        api.HandSkippedRulingView.as_view(),
        name="api-hands-out-of-turn-ruling",
    ),
    path(f"{HAND}/kill/", api.HandKillView.as_view(), name="api-hands-kill"),
    path(f"{HAND}/finish/", api.HandFinishView.as_view(), name="api-hands-finish"),
    path(f"{HAND}/settle/", api.HandSettleView.as_view(), name="api-hands-settle"),
    path(f"{HAND}/hold/", api.HandHoldView.as_view(), name="api-hands-hold"),
    path(f"{HAND}/misdeal/", api.HandMisdealView.as_view(), name="api-hands-misdeal"),
    path(f"{HAND}/button-error/", api.HandButtonErrorView.as_view(), name="api-hands-button-error"),
    path(f"{HAND}/level-error/", api.HandLevelErrorView.as_view(), name="api-hands-level-error"),
    path(f"{TABLE}/busts/", api.BustsView.as_view(), name="api-hands-busts"),
    path(f"{T}/hand-for-hand/", api.HandForHandView.as_view(), name="api-hand-for-hand"),
]
