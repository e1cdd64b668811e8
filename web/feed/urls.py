"""The live-reporting feed's Atom feed and the results export, beside the public results
page (/results/<id>/). Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.feed import views

urlpatterns = [
    path("results/<id:tournament_id>/feed.atom", views.feed_atom, name="feed-atom"),
    path("results/<id:tournament_id>/export.csv", views.results_export, name="feed-export"),
]
