"""The cashier's ticket pages (issue 17)."""

from django.urls import path

import floorman.converters  # noqa: F401 - registers the "id" path converter
from web.tickets import views

app_name = "tickets"

urlpatterns = [
    path("tournaments/<id:tournament_id>/tickets/", views.ticket_list, name="list"),
    path("tickets/<id:ticket_id>/transfer/", views.ticket_transfer, name="transfer"),
    path("tickets/<id:ticket_id>/refund/", views.ticket_refund, name="refund"),
]
