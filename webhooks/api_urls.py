"""Webhooks under /api/v1/ (issue 22), routed by web."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from webhooks import api

urlpatterns = [
    path("webhooks/", api.EndpointListView.as_view(), name="api-webhooks"),
    path("webhooks/<id:endpoint_pk>/", api.EndpointDetailView.as_view(), name="api-webhook"),
    path(
        "webhooks/<id:endpoint_pk>/rotate-secret/",
        api.EndpointRotateView.as_view(),
        name="api-webhook-rotate",
    ),
    path(
        "webhooks/<id:endpoint_pk>/test/", api.EndpointTestView.as_view(), name="api-webhook-test"
    ),
    path(
        "webhooks/<id:endpoint_pk>/deliveries/",
        api.DeliveryListView.as_view(),
        name="api-webhook-deliveries",
    ),
    path(
        "webhooks/<id:endpoint_pk>/deliveries/<id:delivery_pk>/resend/",
        api.DeliveryResendView.as_view(),
        name="api-webhook-resend",
    ),
]
