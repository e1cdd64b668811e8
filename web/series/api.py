"""REST API of the series (issue 17): /api/v1/series/. Anyone may read a public series
and its schedule; directors see every series, add and change them, and put events into
them. Views are thin: the input's shape checked, one service called."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from floorman.roles import MANAGE_TOURNAMENTS, role_permission, user_has_role
from tournaments.lookups import MAX_ID
from tournaments.models import Series, TournamentStatus
from tournaments.selectors import ScheduleRow, series_schedule
from tournaments.services import series as services

ID = r"[0-9]{1,18}"  # longer ids cannot exist and would overflow the database integer


class SeriesSerializer(serializers.ModelSerializer):
    rotate_seconds = serializers.IntegerField(
        min_value=services.ROTATE_MIN,
        max_value=services.ROTATE_MAX,
        required=False,
        help_text=_("How long the series lobby shows each running event."),
    )

    class Meta:
        model = Series
        fields = ["id", *services.SERIES_FIELDS]
        # A taken short name is the service's 409, not a 400 of the serializer.
        extra_kwargs = {"slug": {"validators": []}}


class ScheduleRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="tournament.pk")
    label = serializers.CharField(help_text=_("“Event #3”, “Flight 1B of Event #3”."))
    number = serializers.IntegerField(allow_null=True)
    flight = serializers.CharField()
    parent = serializers.IntegerField(source="tournament.parent_id", allow_null=True)
    name = serializers.CharField(source="tournament.name")
    start_at = serializers.DateTimeField(source="tournament.start_at")
    buy_in = serializers.IntegerField(source="tournament.buy_in")
    fee = serializers.IntegerField(source="tournament.fee")
    bounty = serializers.IntegerField(
        help_text=_("The bounty paid with the buy-in (issue 18), not prize money; 0 without.")
    )
    currency = serializers.CharField(source="tournament.currency")
    game = serializers.CharField(source="tournament.game")
    format = serializers.CharField(source="tournament.format")
    status = serializers.ChoiceField(source="tournament.status", choices=TournamentStatus.choices)
    lobby = serializers.SerializerMethodField()

    def get_lobby(self, row: ScheduleRow) -> str:
        return reverse("screens:lobby", kwargs={"tournament_id": row.tournament.pk})


class SeriesDetailSerializer(SeriesSerializer):
    schedule = serializers.SerializerMethodField()

    class Meta(SeriesSerializer.Meta):
        fields = [*SeriesSerializer.Meta.fields, "schedule"]

    @extend_schema(responses=ScheduleRowSerializer(many=True))
    def get_schedule(self, series: Series) -> list:
        return ScheduleRowSerializer(series_schedule(series), many=True).data


class SeriesEventSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    series_number = serializers.IntegerField(
        min_value=1, max_value=services.NUMBER_MAX, allow_null=True, required=False
    )


class SeriesViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    lookup_value_regex = ID

    def get_queryset(self):
        """Public series for everyone; every series for a director."""
        found = Series.objects.order_by("-starts_on", "-id")
        if user_has_role(self.request.user, MANAGE_TOURNAMENTS):
            return found
        return found.filter(public=True)

    def get_serializer_class(self):
        return SeriesDetailSerializer if self.action == "retrieve" else SeriesSerializer

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [AllowAny()]
        return [role_permission(*MANAGE_TOURNAMENTS)()]

    def perform_create(self, serializer):
        serializer.instance = services.series_add(
            actor=self.request.user, data=serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = services.series_update(
            actor=self.request.user,
            series_id=serializer.instance.pk,
            data=serializer.validated_data,
        )

    @extend_schema(request=SeriesEventSerializer, responses=SeriesDetailSerializer)
    @action(detail=True, methods=["post"])
    def events(self, request, pk=None):
        """Put an event into the series with its event number (a flight follows its
        event), or give it another number."""
        series = self.get_object()
        data = SeriesEventSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.series_event_set(
            actor=request.user,
            tournament_id=data.validated_data["tournament"],
            series_id=series.pk,
            series_number=data.validated_data.get("series_number"),
        )
        return Response(SeriesDetailSerializer(series).data)
