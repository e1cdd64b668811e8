"""The API's public reads beside the lobby screens that show them: an event with flights
(issue 17, item 6), /api/v1/tournaments/{id}/overview/; the chip leaders during play
(issue 18), /api/v1/tournaments/{id}/chip-leaders/."""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from floorman.api import valid_data
from tournaments.models import Tournament
from tournaments.selectors import event_overview
from web.screens.leaders import LEADERS_DEFAULT, LEADERS_MAX, counts_visible, leaders_data


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


# --- Chip leaders during play (issue 18) ------------------------------------------------


class LeaderSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 is the chip leader; equal stacks by entry number.")
    entry = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The entry's number in the event.")
    player = OverviewPlayerSerializer()
    chips = serializers.IntegerField(help_text="The stack now: the last count, or a hand since.")
    big_blinds = serializers.FloatField(
        allow_null=True, help_text="The stack in big blinds of the level in play."
    )
    counted_at = serializers.DateTimeField(allow_null=True, help_text="The last count's time.")
    counted_level = serializers.IntegerField(allow_null=True, help_text="The last count's level.")


class ChipLeadersSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    players_left = serializers.IntegerField()
    chips = serializers.IntegerField(help_text="The players left's chips together.")
    average = serializers.IntegerField(allow_null=True)
    average_big_blinds = serializers.FloatField(allow_null=True)
    big_blind = serializers.IntegerField(help_text="The big blind of the level in play; 0 if none.")
    leaders = LeaderSerializer(many=True)


class ChipLeadersQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=LEADERS_MAX, default=LEADERS_DEFAULT)


class ChipLeadersView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[ChipLeadersQuerySerializer], responses=ChipLeadersSerializer)
    def get(self, request, tournament_pk):
        """The chip leaders (?limit=, 10 unless asked, at most 50), the players left and
        the average stack, in chips and in big blinds of the level in play. Public where
        the house publishes its counts (`chip_counts_public`); otherwise staff only, and
        404 for anyone else."""
        tournament = Tournament.objects.filter(pk=tournament_pk).first()
        if tournament is None or not counts_visible(tournament, request.user):
            raise Http404
        query = valid_data(ChipLeadersQuerySerializer, request.query_params)
        return Response(ChipLeadersSerializer(leaders_data(tournament, limit=query["limit"])).data)
