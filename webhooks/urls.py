"""The director's webhook pages (issue 22), routed by web."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("tournaments/<id:tournament_id>/webhooks/", views.tournament_endpoints, name="tournament"),
    path("venues/<id:venue_id>/webhooks/", views.venue_endpoints, name="venue"),
    path("webhooks/<id:endpoint_id>/", views.endpoint_detail, name="endpoint"),
    path("webhooks/<id:endpoint_id>/delete/", views.endpoint_delete, name="delete"),
    path("webhooks/<id:endpoint_id>/rotate-secret/", views.endpoint_rotate, name="rotate"),
    path("webhooks/<id:endpoint_id>/test/", views.endpoint_test, name="test"),
    path(
        "webhooks/<id:endpoint_id>/deliveries/<id:delivery_id>/resend/",
        views.delivery_resend,
        name="resend",
    ),
]
