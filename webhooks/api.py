"""Webhooks under /api/v1/webhooks/ (issue 22): the endpoints, their delivery logs and
the actions, each one service (webhooks.services), as the pages call them. JSON only.

Who: directors (a director-scope API key); reading also a key that reads everything.
The secret is in the answer to the POST that made or rotated it, and nowhere else."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from floorman.api import valid_data
from floorman.pagination import Pagination
from floorman.parsers import JSONParser
from floorman.roles import MANAGE_TOURNAMENTS, role_permission
from tournaments.lookups import MAX_ID
from webhooks import selectors, services
from webhooks.engine.addresses import URL_MAX_LENGTH
from webhooks.labels import TYPE_CHOICES
from webhooks.models import Delivery, DeliveryStatus, Endpoint


class EndpointSerializer(serializers.ModelSerializer):
    event_types = serializers.ListField(child=serializers.ChoiceField(choices=TYPE_CHOICES))

    class Meta:
        model = Endpoint
        fields = [
            "id",
            "venue",
            "tournament",
            "url",
            "description",
            "event_types",
            "active",
            "disabled_at",
            "disabled_reason",
            "created_at",
        ]
        read_only_fields = fields


class EndpointCreatedSerializer(EndpointSerializer):
    secret = serializers.CharField(
        help_text=_("The signing secret (whsec_…), in this answer only: keep it now.")
    )

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]
        read_only_fields = fields


def _created(made: services.NewSecret) -> dict:
    return {**EndpointSerializer(made.endpoint).data, "secret": made.secret}


class EndpointInput(serializers.Serializer):
    venue = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text=_("A venue's events, or…")
    )
    tournament = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text=_("…one event's (and flights').")
    )
    url = serializers.CharField(max_length=URL_MAX_LENGTH)
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=TYPE_CHOICES), allow_empty=False, max_length=50
    )
    active = serializers.BooleanField(required=False, default=True)


class EndpointChangeInput(serializers.Serializer):
    url = serializers.CharField(max_length=URL_MAX_LENGTH, required=False)
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=TYPE_CHOICES),
        allow_empty=False,
        max_length=50,
        required=False,
    )
    active = serializers.BooleanField(required=False)


class DeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = Delivery
        fields = [
            "id",
            "message_id",
            "event_type",
            "status",
            "response_code",
            "response_excerpt",
            "error",
            "attempts",
            "created_at",
            "last_attempt_at",
            "next_attempt_at",
            "delivered_at",
            "duration_ms",
        ]
        read_only_fields = fields


class WebhookView(GenericAPIView):
    parser_classes = [JSONParser]
    permission_classes = [role_permission(*MANAGE_TOURNAMENTS)]
    pagination_class = None


def _id_param(request, name: str) -> int | None:
    raw = request.query_params.get(name, "")
    if not raw:
        return None
    if not raw.isdecimal() or not 1 <= int(raw) <= MAX_ID:
        raise serializers.ValidationError({name: [_("A whole number, 1 or more.")]})
    return int(raw)


class EndpointListView(WebhookView):
    serializer_class = EndpointSerializer
    pagination_class = Pagination

    @extend_schema(
        parameters=[
            OpenApiParameter("venue", OpenApiTypes.INT, description=_("Only this venue's.")),
            OpenApiParameter("tournament", OpenApiTypes.INT, description=_("Only this event's.")),
        ],
        responses=EndpointSerializer(many=True),
    )
    def get(self, request):
        """The house's webhook endpoints, oldest first; filter by venue or event."""
        venue, tournament = _id_param(request, "venue"), _id_param(request, "tournament")
        found = selectors.endpoints_all()
        if venue is not None:
            found = found.filter(venue_id=venue)
        if tournament is not None:
            found = found.filter(tournament_id=tournament)
        page = self.paginate_queryset(found)
        return self.get_paginated_response(EndpointSerializer(page, many=True).data)

    @extend_schema(request=EndpointInput, responses={201: EndpointCreatedSerializer})
    def post(self, request):
        """Register a receiver for a venue's events or one event's (give one of `venue`,
        `tournament`). The answer holds its signing secret, this once."""
        data = valid_data(EndpointInput, request.data)
        made = services.endpoint_create(
            actor=request.user,
            venue_id=data.get("venue"),
            tournament_id=data.get("tournament"),
            url=data["url"],
            event_types=data["event_types"],
            active=data["active"],
            description=data.get("description", ""),
        )
        return Response(_created(made), status=status.HTTP_201_CREATED)


class EndpointDetailView(WebhookView):
    serializer_class = EndpointSerializer

    @extend_schema(responses=EndpointSerializer)
    def get(self, request, endpoint_pk):
        return Response(EndpointSerializer(get_object_or_404(Endpoint, pk=endpoint_pk)).data)

    @extend_schema(request=EndpointChangeInput, responses=EndpointSerializer)
    def patch(self, request, endpoint_pk):
        """Change the URL, types, description or whether it is active; switched on
        again, an endpoint switched off for failures starts afresh."""
        data = valid_data(EndpointChangeInput, request.data)
        endpoint = services.endpoint_update(actor=request.user, endpoint_id=endpoint_pk, **data)
        return Response(EndpointSerializer(endpoint).data)

    @extend_schema(responses={204: None})
    def delete(self, request, endpoint_pk):
        """Remove the endpoint and its delivery log."""
        services.endpoint_delete(actor=request.user, endpoint_id=endpoint_pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EndpointRotateView(WebhookView):
    serializer_class = EndpointCreatedSerializer

    @extend_schema(request=None, responses=EndpointCreatedSerializer)
    def post(self, request, endpoint_pk):
        """A new signing secret, in this answer only; the old one signs nothing more."""
        made = services.endpoint_secret_rotate(actor=request.user, endpoint_id=endpoint_pk)
        return Response(_created(made))


class EndpointTestView(WebhookView):
    serializer_class = DeliverySerializer

    @extend_schema(request=None, responses={202: DeliverySerializer})
    def post(self, request, endpoint_pk):
        """Send the endpoint a `webhook.test` event; its delivery, waiting."""
        delivery = services.endpoint_test_send(actor=request.user, endpoint_id=endpoint_pk)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class DeliveryListView(WebhookView):
    serializer_class = DeliverySerializer
    pagination_class = Pagination

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                enum=DeliveryStatus.values,
                description=_("Only these (dead: the dead letters)."),
            )
        ],
        responses=DeliverySerializer(many=True),
    )
    def get(self, request, endpoint_pk):
        """The endpoint's delivery log, newest first."""
        endpoint = get_object_or_404(Endpoint, pk=endpoint_pk)
        wanted = request.query_params.get("status", "")
        if wanted and wanted not in DeliveryStatus.values:
            raise serializers.ValidationError({"status": [_("Unknown status.")]})
        page = self.paginate_queryset(selectors.deliveries_of(endpoint, status=wanted))
        return self.get_paginated_response(DeliverySerializer(page, many=True).data)


class DeliveryResendView(WebhookView):
    serializer_class = DeliverySerializer

    @extend_schema(request=None, responses={202: DeliverySerializer})
    def post(self, request, endpoint_pk, delivery_pk):
        """Send a delivered or dead message again, with its own message id (409 while it
        is still being sent or waits for its next try)."""
        delivery = services.delivery_resend(
            actor=request.user, endpoint_id=endpoint_pk, delivery_id=delivery_pk
        )
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
