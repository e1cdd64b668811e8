"""The API's public read of an event with flights (issue 17, item 6), beside the lobby
screens that show it: /api/v1/tournaments/{id}/overview/."""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Tournament
from tournaments.selectors import event_overview


class FlightEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class FlightRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The flight's name: 1A, 1B, …")
    start_at = serializers.DateTimeField()
    status = serializers.CharField()
    entries = serializers.IntegerField(help_text="Entries and re-entries; refunded ones not.")
    survivors = serializers.IntegerField(
        help_text="The players still in while it plays; its bags once they are confirmed."
    )
    stopped = serializers.BooleanField(help_text="Play has stopped for the day.")
    bags = serializers.IntegerField()
    bags_confirmed = serializers.BooleanField()


class OverviewPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField()
    country = serializers.CharField()


class ChipLeaderSerializer(serializers.Serializer):
    bag = serializers.IntegerField(help_text="The bag's number in its flight.")
    flight = serializers.CharField()
    chips = serializers.IntegerField()
    status = serializers.CharField(help_text="sealed or carried: forfeited bags are left out.")
    player = OverviewPlayerSerializer()


class Day2CountSerializer(serializers.Serializer):
    started = serializers.BooleanField()
    players = serializers.IntegerField(help_text="Players still in on Day 2.")


class OverviewSerializer(serializers.Serializer):
    event = FlightEventSerializer()
    flights = FlightRowSerializer(many=True)
    flight_entries = serializers.IntegerField()
    day2_late_entries = serializers.IntegerField()
    entries = serializers.IntegerField(help_text="All flights' entries and Day 2's late ones.")
    survivors = serializers.IntegerField(help_text="Forfeited bags not counted.")
    chip_leaders = ChipLeaderSerializer(many=True)
    day2 = Day2CountSerializer(allow_null=True)


class TournamentOverviewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    parent = FlightEventSerializer(allow_null=True, help_text="The event this flight belongs to.")
    flight_name = serializers.CharField()
    overview = OverviewSerializer(
        allow_null=True,
        help_text="The event as a whole (a flight's: its event's); null without flights.",
    )


def tournament_overview(tournament: Tournament) -> dict:
    event = tournament.parent if tournament.parent_id else tournament
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "parent": {"id": event.pk, "name": event.name} if tournament.parent_id else None,
        "flight_name": tournament.flight_name,
        "overview": event_overview(event),
    }


class TournamentOverviewView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=TournamentOverviewSerializer)
    def get(self, request, tournament_pk):
        """Public: an event with flights as a whole (a flight's event, for a flight): each
        flight's entries and survivors, the entries in all, Day 2's chip leaders from the
        bags (forfeited bags left out) and, once Day 2 has begun, its players."""
        tournament = Tournament.objects.select_related("parent").filter(pk=tournament_pk).first()
        if tournament is None:
            raise Http404
        return Response(TournamentOverviewSerializer(tournament_overview(tournament)).data)
