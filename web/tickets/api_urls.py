"""Tickets under /api/v1/ (issue 17)."""

from django.urls import path

from web.tickets import api

urlpatterns = [
    path(
        "tournaments/<id:tournament_pk>/tickets/",
        api.EventTicketsView.as_view(),
        name="api-event-tickets",
    ),
    path(
        "players/<id:player_pk>/tickets/",
        api.PlayerTicketsView.as_view(),
        name="api-player-tickets",
    ),
    path(
        "tickets/<id:ticket_pk>/transfer/",
        api.TicketTransferView.as_view(),
        name="api-ticket-transfer",
    ),
    path(
        "tickets/<id:ticket_pk>/refund/", api.TicketRefundView.as_view(), name="api-ticket-refund"
    ),
]
