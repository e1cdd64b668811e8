"""Pages of the hands app: table tablets, their links, and hand-for-hand. Included at
the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from hands import views

app_name = "hands"

T = "tournaments/<id:tournament_id>/"
TABLET = T + "tables/<id:number>/tablet/"
LINK = "tablet/<slug:token>/"

urlpatterns = [
    path(TABLET, views.tablet, name="tablet"),
    path(TABLET + "state/", views.tablet_state, name="tablet-state"),
    path(TABLET + "links/", views.tablet_links, name="tablet-links"),
    path(LINK, views.link, name="link"),
    path(LINK + "state/", views.link_state, name="link-state"),
    path(T + "hand-for-hand/", views.hand_for_hand_page, name="hand-for-hand"),
]
