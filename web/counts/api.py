"""The chip counts API (issue 18) under /api/v1/: a table's counts from its tablet, the
floor's count of a player, the count sweep and the counts against the chips in play;
the chips the floor takes out of play (issue 19: TDA 8-B, 63, 64).
The same services as the tablet and the floor's counts page (seating.services.counts);
the public reads the chip leaders (web.screens.api), never this."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from floorman.api import valid_data
from floorman.parsers import JSONParser
from floorman.roles import COUNTS, TABLET, role_permission
from seating.models import MAX_SEATS
from seating.selectors import sweep_report
from seating.services import counts as services
from tournaments.engine.removals import REASONS
from tournaments.lookups import tournament_or_404
from tournaments.models import MAX_CHIPS, ChipCount
from tournaments.selectors import chips_removed_list, count_check, removal_public
from tournaments.services.removals import NOTE_MAX, chips_remove

MAX_ID = 2**63 - 1


class SeatCountsField(serializers.DictField):
    """{"<seat>": chips}: each player's chips as counted."""

    child = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS)

    def to_internal_value(self, data):
        counts = super().to_internal_value(data)
        checked = {}
        for seat, chips in counts.items():
            text = str(seat)
            if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_SEATS):
                raise serializers.ValidationError(
                    _("Seats run from 1 to %(most)s.") % {"most": MAX_SEATS}
                )
            checked[int(text)] = chips
        return checked


class TableCountsSerializer(serializers.Serializer):
    counts = SeatCountsField(help_text=_('Chips per seat, e.g. {"1": 24500, "4": 18000}.'))


class EntryCountSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=_("The entry's id."))
    chips = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS)


class SweepActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "close"])


class ChipCountSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChipCount
        fields = [
            "id",
            "entry",
            "chips",
            "level",
            "table_number",
            "seat",
            "sweep",
            "source",
            "counted_at",
        ]


class SweepTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    players = serializers.IntegerField()
    reported_at = serializers.DateTimeField(allow_null=True)


class SweepSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    level = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    tables = SweepTableSerializer(many=True)


class CountRowSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField(help_text="The stack now.")
    count = ChipCountSerializer(allow_null=True, help_text="The latest count; null: never counted.")


class CountsSerializer(serializers.Serializer):
    expected = serializers.IntegerField(help_text="The chips in play: sold less removed.")
    counted = serializers.IntegerField(
        help_text="The latest counts, a stack for one never counted."
    )
    difference = serializers.IntegerField()
    uncounted = serializers.IntegerField()
    sweep = SweepSerializer(allow_null=True, help_text="The open sweep, or the last one.")
    players = CountRowSerializer(many=True)


def counts_data(tournament) -> dict:
    check = count_check(tournament)
    report = sweep_report(tournament)
    sweep = report.sweep
    return {
        "expected": check.expected,
        "counted": check.counted,
        "difference": check.difference,
        "uncounted": check.uncounted,
        "sweep": sweep
        and {
            "id": sweep.pk,
            "level": sweep.level,
            "started_at": sweep.started_at,
            "closed_at": sweep.closed_at,
            "tables": [
                {"number": t.number, "players": t.players, "reported_at": t.reported_at}
                for t in report.tables
            ],
        },
        "players": [
            {
                "entry": row.entry.pk,
                "number": row.entry.number,
                "name": row.entry.player.name,
                "chips": row.entry.chips,
                "count": row.count,
            }
            for row in check.rows
        ],
    }


class TableCountsView(APIView):
    """A table's counts: its tablet (dealers) and the floor."""

    parser_classes = [JSONParser]
    permission_classes = [role_permission(*TABLET)]

    @extend_schema(request=TableCountsSerializer, responses={201: ChipCountSerializer(many=True)})
    def post(self, request, tournament_pk, number):
        """The table's counts in one go, stamped with the level in play and now, in the
        open sweep: each seat given must have a player; 0 is refused (bust the player)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(TableCountsSerializer, request.data)
        made = services.table_counts_record(
            actor=request.user, tournament_id=tournament.pk, number=number, counts=data["counts"]
        )
        return Response(ChipCountSerializer(made, many=True).data, status=status.HTTP_201_CREATED)


class CountsView(APIView):
    """The floor's counts: every player's latest, the check and the sweep; a count."""

    parser_classes = [JSONParser]
    permission_classes = [role_permission(*COUNTS)]

    @extend_schema(responses=CountsSerializer)
    def get(self, request, tournament_pk):
        """The players still in with their latest counts, the counts against the chips
        in play, and the sweep with the tables that have reported."""
        return Response(CountsSerializer(counts_data(tournament_or_404(tournament_pk))).data)

    @extend_schema(request=EntryCountSerializer, responses={201: ChipCountSerializer})
    def post(self, request, tournament_pk):
        """The floor counts one player (by entry id), wherever they sit."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(EntryCountSerializer, request.data)
        count = services.entry_count_record(
            actor=request.user,
            tournament_id=tournament.pk,
            entry_id=data["entry"],
            chips=data["chips"],
        )
        return Response(ChipCountSerializer(count).data, status=status.HTTP_201_CREATED)


class CountSweepView(APIView):
    parser_classes = [JSONParser]
    permission_classes = [role_permission(*COUNTS)]

    @extend_schema(request=SweepActionSerializer, responses=CountsSerializer)
    def post(self, request, tournament_pk):
        """{"action": "start"} asks every table for its counts; {"action": "close"} ends
        the open sweep."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(SweepActionSerializer, request.data)
        act = (
            services.count_sweep_start if data["action"] == "start" else services.count_sweep_close
        )
        act(actor=request.user, tournament_id=tournament.pk)
        return Response(CountsSerializer(counts_data(tournament)).data)


class ChipRemovalInput(serializers.Serializer):
    reason = serializers.ChoiceField(
        choices=REASONS,
        help_text=_(
            "reentry_forfeit: a stack forfeited for a re-entry (TDA 8-B); out_of_view: chips "
            "held or carried out of view (TDA 63); lost_and_found: found chips nobody owns "
            "(TDA 64)."
        ),
    )
    amount = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    entry = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text=_("TDA 8-B, 63: the entry whose stack they come off; TDA 64: none."),
    )
    note = serializers.CharField(max_length=NOTE_MAX, required=False, allow_blank=True, default="")


class ChipRemovalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    amount = serializers.IntegerField()
    reason = serializers.CharField()
    rule = serializers.CharField()
    entry = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    note = serializers.CharField()
    removed_by = serializers.CharField()
    removed_at = serializers.DateTimeField()


class ChipRemovalsView(APIView):
    """Chips the floor took out of play (issue 19), and a new removal."""

    parser_classes = [JSONParser]
    permission_classes = [role_permission(*COUNTS)]

    @extend_schema(responses=ChipRemovalSerializer(many=True))
    def get(self, request, tournament_pk):
        """Every removal of chips from play in this event, newest first."""
        tournament = tournament_or_404(tournament_pk)
        rows = [removal_public(removal) for removal in chips_removed_list(tournament)]
        return Response(ChipRemovalSerializer(rows, many=True).data)

    @extend_schema(request=ChipRemovalInput, responses={201: ChipRemovalSerializer})
    def post(self, request, tournament_pk):
        """Take chips out of play: a stack forfeited for a re-entry (TDA 8-B) or chips out
        of view (TDA 63) come off the named player's stack (409 if more than they have);
        lost and found chips nobody owns (TDA 64) name no player. Every figure of the chips
        in play goes down by them."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(ChipRemovalInput, request.data)
        removal = chips_remove(
            actor=request.user,
            tournament_id=tournament.pk,
            reason=data["reason"],
            amount=data["amount"],
            entry_id=data["entry"],
            note=data["note"],
        )
        return Response(
            ChipRemovalSerializer(removal_public(removal)).data, status=status.HTTP_201_CREATED
        )
