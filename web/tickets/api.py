"""Tickets under /api/v1/ (issue 17): an event's tickets, a player's, and the cashier's
transfer and refund. Entering with a ticket is the entries' POST with `ticket_id`
(web.desk.api). Thin: each view checks the input's shape and calls one service."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from floorman.api import valid_data
from floorman.parsers import JSONParser
from floorman.roles import PAY_PRIZES, REGISTER, SEE_PLAYERS, role_permission
from tournaments.lookups import MAX_ID, tournament_or_404
from tournaments.models import Player, Ticket, TicketStatus
from tournaments.selectors import player_public, tickets_of_event, tickets_of_player
from tournaments.services import tickets


class TicketEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class TicketSerializer(serializers.Serializer):
    """A ticket: the event it enters, where it was won, its holder (public fields only),
    its value (the target's buy-in and fee when issued), its status and the entry that
    used it."""

    id = serializers.IntegerField()
    target = serializers.SerializerMethodField()
    satellite = serializers.SerializerMethodField()
    holder = serializers.SerializerMethodField()
    buy_in = serializers.IntegerField()
    fee = serializers.IntegerField()
    value = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TicketStatus.choices)
    used_by = serializers.SerializerMethodField()
    issued_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)

    def get_target(self, ticket) -> dict:
        return {"id": ticket.target_id, "name": ticket.target.name}

    def get_satellite(self, ticket) -> dict | None:
        satellite = ticket.satellite
        return None if satellite is None else {"id": satellite.pk, "name": satellite.name}

    def get_holder(self, ticket) -> dict:
        return player_public(ticket.holder)

    def get_used_by(self, ticket) -> dict | None:
        entry = ticket.used_by
        return None if entry is None else {"id": entry.pk, "number": entry.number}


class TransferInput(serializers.Serializer):
    player_id = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text=_("The player who gets the ticket.")
    )


class TicketView(APIView):
    parser_classes = [JSONParser]
    roles: tuple[str, ...] = REGISTER

    def get_permissions(self):
        return [role_permission(*self.roles)()]


class EventTicketsView(TicketView):
    @extend_schema(responses=TicketSerializer(many=True))
    def get(self, request, tournament_pk):
        """The tickets into this event: issued, used and refunded, with their holders.
        Filter with ?status=issued|used|refunded."""
        tournament = tournament_or_404(tournament_pk)
        status = request.query_params.get("status", "")
        if status and status not in TicketStatus.values:
            raise serializers.ValidationError({"status": [_("Unknown status.")]})
        found = tickets_of_event(tournament, status=status).select_related("target")
        return Response(TicketSerializer(found, many=True).data)


class PlayerTicketsView(TicketView):
    roles = SEE_PLAYERS

    @extend_schema(responses=TicketSerializer(many=True))
    def get(self, request, player_pk):
        """A player's tickets into every event, newest first."""
        player = get_object_or_404(Player, pk=player_pk)
        found = tickets_of_player(player).select_related("holder")
        return Response(TicketSerializer(found, many=True).data)


def _ticket(ticket_id: int) -> Ticket:
    return Ticket.objects.select_related("target", "satellite", "holder", "used_by").get(
        pk=ticket_id
    )


class TicketTransferView(TicketView):
    @extend_schema(request=TransferInput, responses=TicketSerializer)
    def post(self, request, ticket_pk):
        """Give an unused ticket to another player, where the event's house allows it
        (else 409)."""
        data = valid_data(TransferInput, request.data)
        ticket = tickets.ticket_transfer(
            actor=request.user, ticket_id=ticket_pk, player_id=data["player_id"]
        )
        return Response(TicketSerializer(_ticket(ticket.pk)).data)


class TicketRefundView(TicketView):
    roles = PAY_PRIZES

    @extend_schema(request=None, responses=TicketSerializer)
    def post(self, request, ticket_pk):
        """Pay an unused ticket out as cash, where the event's house allows it (else
        409): a payout line of the satellite it was won in."""
        ticket = tickets.ticket_refund(actor=request.user, ticket_id=ticket_pk)
        return Response(TicketSerializer(_ticket(ticket.pk)).data)
