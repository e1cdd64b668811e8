"""Pages of the hands app: the floor's hand-for-hand. The tablet's pages (web.tablet.urls)
share the "hands" namespace: the root urlconf (web.urls) includes the two lists as one."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from hands import views

app_name = "hands"

T = "tournaments/<id:tournament_id>/"

urlpatterns = [
    path(T + "hand-for-hand/", views.hand_for_hand_page, name="hand-for-hand"),
]
