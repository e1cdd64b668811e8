"""A multi-flight event's first days in the API (issue 17), under
/api/v1/tournaments/{id}/: the event's flights (list; add one, the director's), a
flight's stop (the director's), its bags (list, public as chip counts are; record one,
the floor's), the check of the bags against the chips in play (public) and their
confirmation (the director's). Refusals as everywhere: 400 with field messages, 403,
404, 409 with a code; nothing written."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clock.services import flight_stop
from floorman.api import valid_data
from floorman.parsers import JSONParser
from floorman.roles import BAGS, MANAGE_TOURNAMENTS, role_permission
from prizes.services.events import flight_add
from tournaments.lookups import MAX_ID, tournament_or_404
from tournaments.models import MAX_CHIPS, FlightEnd, start_at_plausible
from tournaments.selectors import flight_bag_check, flights_of
from tournaments.services.bags import bag_record, flight_bags_confirm
from web.flights.forms import FLIGHT_NAME_MAX
from web.flights.reads import bag_rows

# --- Input -----------------------------------------------------------------------------------


class FlightAddInput(serializers.Serializer):
    flight_name = serializers.CharField(
        max_length=FLIGHT_NAME_MAX, help_text=_("For example Day 1A.")
    )
    start_at = serializers.DateTimeField(validators=[start_at_plausible])


class BagInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=_("A survivor."))
    chips = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)


class BagsConfirmInput(serializers.Serializer):
    accept_difference = serializers.BooleanField(required=False, default=False)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


# --- Output ----------------------------------------------------------------------------------


class FlightEndOutput(serializers.ModelSerializer):
    class Meta:
        model = FlightEnd
        fields = ["reason", "stopped_at", "chips_in_play", "confirmed_at", "difference", "note"]


class FlightOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    flight_name = serializers.CharField()
    start_at = serializers.DateTimeField()
    status = serializers.CharField()
    entries = serializers.IntegerField(source="entries_count", default=0)
    survivors = serializers.IntegerField(source="survivors_count", default=0)
    flight_end = serializers.SerializerMethodField()

    @extend_schema_field(FlightEndOutput(allow_null=True))
    def get_flight_end(self, flight):
        return FlightEndOutput(flight.flight_end).data if _has_end(flight) else None


def _has_end(flight) -> bool:
    try:
        return flight.flight_end is not None
    except FlightEnd.DoesNotExist:
        return False


class BagOutput(serializers.Serializer):
    entry = serializers.IntegerField(source="entry.pk")
    entry_number = serializers.IntegerField(source="entry.number")
    player = serializers.CharField(source="entry.player.name")
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    bag = serializers.IntegerField(source="bag.number", allow_null=True, default=None)
    chips = serializers.IntegerField(source="bag.chips", allow_null=True, default=None)


class BagCheckOutput(serializers.Serializer):
    stopped = serializers.BooleanField()
    expected = serializers.IntegerField(allow_null=True)
    bagged = serializers.IntegerField()
    difference = serializers.IntegerField(allow_null=True)
    without_bag = serializers.ListField(child=serializers.IntegerField())
    confirmed = serializers.BooleanField()


def bag_check_data(flight) -> dict:
    report = flight_bag_check(flight)
    return {
        "stopped": report.flight_end is not None,
        "expected": report.expected,
        "bagged": report.bagged,
        "difference": report.difference,
        "without_bag": [entry.pk for entry in report.without_bag],
        "confirmed": report.confirmed,
    }


# --- Views -----------------------------------------------------------------------------------


class FlightView(APIView):
    """Reads are public; each write names its roles."""

    parser_classes = [JSONParser]
    write_roles: tuple[str, ...] = MANAGE_TOURNAMENTS

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return [role_permission(*self.write_roles)()]


class FlightsView(FlightView):
    @extend_schema(responses=FlightOutput(many=True))
    def get(self, request, tournament_pk):
        """The event's flights by start: entries, survivors, their end if stopped."""
        event = tournament_or_404(tournament_pk)
        return Response(FlightOutput(flights_of(event), many=True).data)

    @extend_schema(request=FlightAddInput, responses={201: FlightOutput})
    def post(self, request, tournament_pk):
        """Add a flight: a tournament of its own with the event's setup, named "Event –
        Day 1A", planned. 409 for a flight of a flight, a satellite, a name taken."""
        event = tournament_or_404(tournament_pk)
        data = valid_data(FlightAddInput, request.data)
        flight = flight_add(actor=request.user, event_id=event.pk, **data)
        return Response(FlightOutput(flight).data, status=status.HTTP_201_CREATED)


class FlightStopView(FlightView):
    @extend_schema(request=None, responses={201: FlightEndOutput})
    def post(self, request, tournament_pk):
        """Stop play in the flight: the clock stopped, the survivors bag their chips.
        409 if it is no flight, not running or already stopped."""
        flight = tournament_or_404(tournament_pk)
        end = flight_stop(actor=request.user, tournament_id=flight.pk)
        return Response(FlightEndOutput(end).data, status=status.HTTP_201_CREATED)


class BagsView(FlightView):
    write_roles = BAGS

    @extend_schema(responses=BagOutput(many=True))
    def get(self, request, tournament_pk):
        """The flight's survivors by table and seat, each with their bag if counted."""
        flight = tournament_or_404(tournament_pk)
        return Response(BagOutput(bag_rows(flight, flight_bag_check(flight)), many=True).data)

    @extend_schema(request=BagInput, responses={201: BagOutput})
    def post(self, request, tournament_pk):
        """Record a survivor's bag: the flight's next number; again, the count corrected.
        409 before the stop, after the confirmation, or for an entry no longer in."""
        flight = tournament_or_404(tournament_pk)
        data = valid_data(BagInput, request.data)
        bag = bag_record(
            actor=request.user, tournament_id=flight.pk, entry_id=data["entry"], chips=data["chips"]
        )
        row = {"entry": bag.entry, "table": None, "seat": None, "bag": bag}
        return Response(BagOutput(row).data, status=status.HTTP_201_CREATED)


class BagCheckView(FlightView):
    @extend_schema(responses=BagCheckOutput)
    def get(self, request, tournament_pk):
        """The bags against the chips in play: expected, bagged, difference, the
        survivors without a bag, whether the director confirmed."""
        return Response(bag_check_data(tournament_or_404(tournament_pk)))


class BagsConfirmView(FlightView):
    @extend_schema(request=BagsConfirmInput, responses=BagCheckOutput)
    def post(self, request, tournament_pk):
        """The director confirms the bags. 409 while a survivor has no bag, or with a
        difference not accepted with a note."""
        flight = tournament_or_404(tournament_pk)
        data = valid_data(BagsConfirmInput, request.data)
        flight_bags_confirm(actor=request.user, tournament_id=flight.pk, **data)
        return Response(bag_check_data(flight))
