"""The table tablet's pages, in the "hands" namespace they have always had (web.urls
includes them with hands.urls)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.tablet import views

T = "tournaments/<id:tournament_id>/"
TABLET = T + "tables/<id:number>/tablet/"
LINK = "tablet/<slug:token>/"

urlpatterns = [
    path(TABLET, views.tablet, name="tablet"),
    path(TABLET + "state/", views.tablet_state, name="tablet-state"),
    path(TABLET + "links/", views.tablet_links, name="tablet-links"),
    path(LINK, views.link, name="link"),
    path(LINK + "state/", views.link_state, name="link-state"),
]
