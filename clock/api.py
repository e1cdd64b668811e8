"""REST API for the clock, structures, chip sets, player clocks and announcements.

Thin: validate the input's shape, call one service, answer with the public state.
"""

from django.db import IntegrityError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clock import engine, services
from clock.cache import clock_row_cached
from clock.models import ChipSet, Clock, Structure
from clock.selectors import (
    announcements_public,
    clock_of,
    clock_public,
    clock_public_of,
    player_clock_public,
    player_clocks_running,
    structure_steps,
)
from clock.transfer import StructureError, steps_check
from floorman.errors import Conflict, Invalid, NotFound
from floorman.roles import CLOCK, MANAGE_TOURNAMENTS, role_permission
from tournaments.lookups import tournament_or_404
from tournaments.models import MAX_CHIPS, Tournament

ACTIONS = ("start", "pause", "resume", "next", "previous", "jump", "set", "adjust", "finish")


class LevelSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True)
    is_break = serializers.BooleanField()
    minutes = serializers.IntegerField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    big_blind_ante = serializers.IntegerField()
    ante_type = serializers.CharField()
    small_bet = serializers.IntegerField()
    big_bet = serializers.IntegerField()
    bring_in = serializers.IntegerField(
        help_text="Stud (RP-10 E, TDA 30): the bring-in; 0 = the small blind column."
    )
    game = serializers.CharField()
    label = serializers.CharField()
    color_up = serializers.ListField(child=serializers.IntegerField())
    addon = serializers.BooleanField()


class ClockStateSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=(engine.NOT_STARTED, engine.RUNNING, engine.PAUSED, engine.FINISHED)
    )
    level = LevelSerializer(allow_null=True)
    seconds_left = serializers.IntegerField()
    ms_left = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True)
    next_level = LevelSerializer(allow_null=True)
    seconds_to_break = serializers.IntegerField(allow_null=True)
    last_level = serializers.BooleanField()
    server_time = serializers.DateTimeField()
    version = serializers.IntegerField()
    structure = serializers.IntegerField(allow_null=True)
    steps_version = serializers.CharField()
    steps = LevelSerializer(many=True, required=False)
    halved_from = serializers.IntegerField(allow_null=True)
    warning_seconds = serializers.IntegerField()
    day_end_hands = serializers.IntegerField(allow_null=True)


class ClockActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ACTIONS)
    level = serializers.IntegerField(min_value=1, max_value=1000, required=False)
    seconds = serializers.IntegerField(
        min_value=-engine.MAX_SECONDS, max_value=engine.MAX_SECONDS, required=False
    )

    def validate(self, data):
        if data["action"] == "jump" and "level" not in data:
            raise serializers.ValidationError({"level": _("Say which level to jump to.")})
        if data["action"] in ("set", "adjust") and "seconds" not in data:
            raise serializers.ValidationError({"seconds": _("Say how many seconds.")})
        return data


class ClockSettingsSerializer(serializers.ModelSerializer):
    structure = serializers.IntegerField(min_value=1, required=False, write_only=True)

    class Meta:
        model = Clock
        # The player clock, its expiry, heads-up and the end of the day are the event's
        # house settings (issue 19: PATCH /api/v1/tournaments/{id}/house-settings/).
        fields = [*Clock.SETTINGS, "structure"]
        extra_kwargs = {"warning_seconds": {"max_value": 600}}


class ClockView(APIView):
    """The tournament clock: anyone may read it, the floor and directors drive it."""

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return [role_permission(*CLOCK)()]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "steps", bool, description="Include the whole structure (`steps`), as screens do."
            )
        ],
        responses=ClockStateSerializer,
    )
    def get(self, request, tournament_pk):
        # Every screen resyncs from this read after each change: from the cache, no query
        # (clock.cache); what depends on the moment is derived from the row now.
        row = clock_row_cached(int(tournament_pk))
        if row is None:
            raise NotFound(_("No such tournament."))
        steps = request.query_params.get("steps") in ("1", "true")
        return Response(clock_public_of(row, steps=steps))

    @extend_schema(request=ClockActionSerializer, responses=ClockStateSerializer)
    def post(self, request, tournament_pk):
        """start, pause, resume, next, previous, jump (level), set (seconds), adjust (±seconds)."""
        tournament = tournament_or_404(tournament_pk)
        data = ClockActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.clock_act(actor=request.user, tournament_id=tournament.pk, **data.validated_data)
        tournament.refresh_from_db()
        return Response(clock_public(tournament))


class ClockSettingsView(APIView):
    """House settings of the clock and the tournament's blind structure (directors)."""

    permission_classes = [role_permission(*MANAGE_TOURNAMENTS)]

    @extend_schema(responses=ClockSettingsSerializer)
    def get(self, request, tournament_pk):
        clock = clock_of(tournament_or_404(tournament_pk))
        return Response(ClockSettingsSerializer(clock).data)

    @extend_schema(request=ClockSettingsSerializer, responses=ClockSettingsSerializer)
    def put(self, request, tournament_pk):
        """Settings; `structure` copies that structure (a template) into the tournament."""
        tournament = tournament_or_404(tournament_pk)
        data = ClockSettingsSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        structure_id = values.pop("structure", None)
        if structure_id is not None:
            services.clock_structure_set(
                actor=request.user, tournament_id=tournament.pk, structure_id=structure_id
            )
        if values:
            services.clock_settings_update(
                actor=request.user, tournament_id=tournament.pk, data=values
            )
        tournament = Tournament.objects.get(pk=tournament.pk)  # its clock as now saved
        return Response(ClockSettingsSerializer(clock_of(tournament)).data)


class DayEndView(APIView):
    """Casino §28: stop the clock and draw how many hands remain today (3–7). Only where
    the event's `day_end_draw` house setting is "casino"; under the TDA's reading the day
    ends with its last level: 409 `day_end_not_drawn`."""

    permission_classes = [role_permission(*MANAGE_TOURNAMENTS)]

    @extend_schema(request=None, responses={201: ClockStateSerializer})
    def post(self, request, tournament_pk):
        tournament = tournament_or_404(tournament_pk)
        services.clock_day_end(actor=request.user, tournament_id=tournament.pk)
        tournament.refresh_from_db()
        return Response(clock_public(tournament), status=status.HTTP_201_CREATED)


class PlayerClockSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(min_value=1, max_value=9999)
    seat = serializers.IntegerField(min_value=1, max_value=10)
    facing_bet = serializers.BooleanField()
    seconds = serializers.IntegerField(read_only=True)
    countdown = serializers.IntegerField(read_only=True)
    started_at = serializers.DateTimeField(read_only=True)
    ends_at = serializers.DateTimeField(read_only=True)
    running = serializers.BooleanField(read_only=True)
    expired = serializers.BooleanField(read_only=True)
    rule = serializers.CharField(
        read_only=True, help_text="The rule its time follows: TDA 29 or casino §27."
    )
    consequence = serializers.ChoiceField(
        choices=engine.CONSEQUENCES,
        read_only=True,
        help_text="When time runs out: the hand is dead, or checked (no bet faced, TDA 29).",
    )
    consequence_rule = serializers.CharField(
        read_only=True, help_text="The rule the outcome follows: TDA 29 or casino §27."
    )


class PlayerClockViewSet(viewsets.ViewSet):
    """TDA 29: put a seat on the clock; the table's screen shows the countdown."""

    lookup_value_regex = r"[0-9]{1,18}"

    def get_permissions(self):
        if self.action == "list":
            return [AllowAny()]
        return [role_permission(*CLOCK)()]

    @extend_schema(responses=PlayerClockSerializer(many=True))
    def list(self, request, tournament_pk=None):
        tournament = tournament_or_404(tournament_pk)
        return Response([player_clock_public(c) for c in player_clocks_running(tournament)])

    @extend_schema(request=PlayerClockSerializer, responses=PlayerClockSerializer)
    def create(self, request, tournament_pk=None):
        tournament = tournament_or_404(tournament_pk)
        data = PlayerClockSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player_clock = services.player_clock_call(
            actor=request.user, tournament_id=tournament.pk, **data.validated_data
        )
        return Response(player_clock_public(player_clock), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: PlayerClockSerializer})
    def destroy(self, request, tournament_pk=None, pk=None):
        """Stop the clock on this seat (the player acted, or the floor cancels it)."""
        tournament = tournament_or_404(tournament_pk)
        player_clock = services.player_clock_stop(
            actor=request.user, tournament_id=tournament.pk, player_clock_id=int(pk)
        )
        return Response(player_clock_public(player_clock))


class AnnouncementSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    text = serializers.CharField(max_length=280)
    at = serializers.DateTimeField(read_only=True)


class AnnouncementViewSet(viewsets.ViewSet):
    lookup_value_regex = r"[0-9]{1,18}"

    def get_permissions(self):
        if self.action == "list":
            return [AllowAny()]
        return [role_permission(*MANAGE_TOURNAMENTS)()]

    @extend_schema(responses=AnnouncementSerializer(many=True))
    def list(self, request, tournament_pk=None):
        return Response(announcements_public(tournament_or_404(tournament_pk)))

    @extend_schema(request=AnnouncementSerializer, responses=AnnouncementSerializer)
    def create(self, request, tournament_pk=None):
        tournament = tournament_or_404(tournament_pk)
        data = AnnouncementSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        text = data.validated_data["text"].replace("\x00", "").strip()
        if not text:
            raise Invalid({"text": _("Write the announcement.")})
        announcement = services.announcement_post(
            actor=request.user, tournament_id=tournament.pk, text=text
        )
        body = {"id": announcement.pk, "text": announcement.text, "at": announcement.created_at}
        return Response(AnnouncementSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=None)
    def destroy(self, request, tournament_pk=None, pk=None):
        tournament = tournament_or_404(tournament_pk)
        services.announcement_hide(
            actor=request.user, tournament_id=tournament.pk, announcement_id=int(pk)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Structures and chip sets -------------------------------------------------------

chips_field = {"min_value": 0, "max_value": MAX_CHIPS}


class StepSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=(engine.LEVEL, engine.BREAK))
    minutes = serializers.IntegerField(min_value=1, max_value=600)
    small_blind = serializers.IntegerField(default=0, **chips_field)
    big_blind = serializers.IntegerField(default=0, **chips_field)
    ante = serializers.IntegerField(default=0, **chips_field)
    ante_type = serializers.ChoiceField(choices=engine.ANTE_TYPES, default=engine.ANTE_NONE)
    small_bet = serializers.IntegerField(default=0, **chips_field)
    big_bet = serializers.IntegerField(default=0, **chips_field)
    bring_in = serializers.IntegerField(
        default=0,
        help_text="Stud (RP-10 E, TDA 30): the bring-in, at most the small bet; "
        "0 = the small blind column.",
        **chips_field,
    )
    game = serializers.CharField(default="", allow_blank=True, max_length=10)
    label = serializers.CharField(default="", allow_blank=True, max_length=60)
    color_up = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_CHIPS),
        default=list,
        max_length=20,
    )
    addon = serializers.BooleanField(default=False)


class StructureSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=120)
    is_template = serializers.BooleanField(default=False)
    chip_set = serializers.PrimaryKeyRelatedField(
        queryset=ChipSet.objects.all(), allow_null=True, default=None
    )
    steps = StepSerializer(many=True, max_length=200)

    def validate_steps(self, rows):
        steps = [engine.Step(**{**row, "color_up": tuple(row["color_up"])}) for row in rows]
        try:
            steps_check(steps)
        except StructureError as error:
            raise serializers.ValidationError(error.lines()) from None
        return steps


def structure_data(structure: Structure, *, steps: list[engine.Step] | None = None) -> dict:
    if steps is None:
        steps = structure_steps(structure.pk)
    return {
        "id": structure.pk,
        "name": structure.name,
        "is_template": structure.is_template,
        "chip_set": structure.chip_set_id,
        "steps": [
            {
                "kind": s.kind,
                "minutes": s.minutes,
                "small_blind": s.small_blind,
                "big_blind": s.big_blind,
                "ante": s.ante,
                "ante_type": s.ante_type,
                "small_bet": s.small_bet,
                "big_bet": s.big_bet,
                "bring_in": s.bring_in,
                "game": s.game,
                "label": s.label,
                "color_up": list(s.color_up),
                "addon": s.addon,
            }
            for s in steps
        ],
    }


class StructureViewSet(viewsets.ViewSet):
    """Blind structures and templates (directors). PUT replaces all steps; while a
    tournament plays one, levels already played or in play cannot change."""

    permission_classes = [role_permission(*MANAGE_TOURNAMENTS)]
    lookup_value_regex = r"[0-9]{1,18}"

    def _get(self, pk) -> Structure:
        return get_object_or_404(Structure, pk=int(pk))

    @extend_schema(responses=StructureSerializer(many=True))
    def list(self, request):
        # The steps of all structures in one query, not one query per structure.
        structures = Structure.objects.prefetch_related("steps")[:500]
        return Response(
            [structure_data(s, steps=[row.as_step() for row in s.steps.all()]) for s in structures]
        )

    @extend_schema(responses=StructureSerializer)
    def retrieve(self, request, pk=None):
        return Response(structure_data(self._get(pk)))

    @extend_schema(request=StructureSerializer, responses=StructureSerializer)
    def create(self, request):
        data = StructureSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        structure = services.structure_create(
            actor=request.user,
            name=values["name"],
            steps=values["steps"],
            is_template=values["is_template"],
            chip_set_id=values["chip_set"].pk if values["chip_set"] else None,
        )
        return Response(structure_data(structure), status=status.HTTP_201_CREATED)

    @extend_schema(request=StructureSerializer, responses=StructureSerializer)
    def update(self, request, pk=None):
        structure = self._get(pk)
        data = StructureSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        structure = services.structure_update(
            actor=request.user,
            structure_id=structure.pk,
            name=values["name"],
            steps=values["steps"],
            is_template=values["is_template"],
            chip_set_id=values["chip_set"].pk if values["chip_set"] else None,
        )
        return Response(structure_data(structure))

    @extend_schema(request=None, responses=None)
    def destroy(self, request, pk=None):
        services.structure_delete(actor=request.user, structure_id=self._get(pk).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChipSerializer(serializers.Serializer):
    value = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    color = serializers.CharField(max_length=40)


class ChipSetSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=120)
    chips = ChipSerializer(many=True, min_length=1, max_length=20)

    def validate_chips(self, chips):
        values = [c["value"] for c in chips]
        if len(set(values)) != len(values):
            raise serializers.ValidationError(_("Each denomination only once."))
        return chips


def chip_set_data(chip_set: ChipSet) -> dict:
    return {
        "id": chip_set.pk,
        "name": chip_set.name,
        "chips": [{"value": c.value, "color": c.color} for c in chip_set.chips.all()],
    }


class ChipSetViewSet(viewsets.ViewSet):
    """Chip sets: denominations with colour names, reused across tournaments (directors)."""

    permission_classes = [role_permission(*MANAGE_TOURNAMENTS)]
    lookup_value_regex = r"[0-9]{1,18}"

    @extend_schema(responses=ChipSetSerializer(many=True))
    def list(self, request):
        chip_sets = ChipSet.objects.prefetch_related("chips")[:500]
        return Response([chip_set_data(c) for c in chip_sets])

    @extend_schema(responses=ChipSetSerializer)
    def retrieve(self, request, pk=None):
        return Response(chip_set_data(get_object_or_404(ChipSet, pk=int(pk))))

    def _save(self, request, chip_set_id):
        data = ChipSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            return services.chip_set_save(
                actor=request.user,
                chip_set_id=chip_set_id,
                name=values["name"],
                chips=[(c["value"], c["color"]) for c in values["chips"]],
            )
        except IntegrityError:
            raise Conflict(
                _("A chip set with this name exists already."), code="name_taken"
            ) from None

    @extend_schema(request=ChipSetSerializer, responses=ChipSetSerializer)
    def create(self, request):
        chip_set = self._save(request, None)
        return Response(chip_set_data(chip_set), status=status.HTTP_201_CREATED)

    @extend_schema(request=ChipSetSerializer, responses=ChipSetSerializer)
    def update(self, request, pk=None):
        get_object_or_404(ChipSet, pk=int(pk))
        return Response(chip_set_data(self._save(request, int(pk))))
