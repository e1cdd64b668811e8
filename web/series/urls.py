"""Series pages: the director's under /series/, the public schedule under /schedule/.
Included at the site root by web.urls."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.series import views

app_name = "series"

urlpatterns = [
    path("series/", views.series_list, name="list"),
    path("series/new/", views.series_create, name="create"),
    path("series/<id:series_id>/", views.series_detail, name="detail"),
    path("series/<id:series_id>/edit/", views.series_edit, name="edit"),
    path(
        "series/<id:series_id>/events/<id:tournament_id>/remove/",
        views.series_event_remove,
        name="event-remove",
    ),
    # Public: short, for a poster's QR code.
    path("schedule/<slug:slug>/", views.schedule, name="schedule"),
    path("schedule/<slug:slug>/tv/", views.schedule, {"tv": True}, name="schedule-tv"),
    path("schedule/<slug:slug>/part/", views.schedule_part, name="schedule-part"),
]
