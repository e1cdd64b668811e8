"""The live-reporting feed's JSON (issue 18, item 7): GET /api/v1/tournaments/{id}/feed/.

Public and read-only, for live-reporting sites and results databases: the level in play,
the players left, the latest eliminations with place and prize, the chip leaders (only
where the house publishes chip counts), the results. Never contact data. Cacheable: a
short `Cache-Control: public, max-age` and a strong ETag from the body, answered 304 on a
matching If-None-Match; the body holds nothing that ticks, so the ETag holds until
something happens. Counted per address with the Atom feed and the results export
(`floorman.ratelimit.FEED`).
"""

import hashlib

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_cache_control
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from clock import engine as clock_engine
from clock.api import LevelSerializer
from floorman.ratelimit import FeedThrottle
from tournaments.models import Tournament, TournamentStatus
from web.feed.reads import feed_read

# Seconds a reader, a proxy or a CDN may keep the feed before asking again (with its ETag).
FEED_MAX_AGE = 15


class FeedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField(allow_blank=True)
    country = serializers.CharField(allow_blank=True, help_text="ISO 3166 code; may be empty.")


class FeedSeriesSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()


class FeedEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    title = serializers.CharField(
        help_text='As a results database files it: "Series #5: Main Event" in a series.'
    )
    series = FeedSeriesSerializer(allow_null=True)
    number = serializers.IntegerField(
        allow_null=True, help_text="The event's number in its series."
    )
    flight = serializers.CharField(allow_blank=True, help_text="A flight's name (1A); else empty.")
    start_at = serializers.DateTimeField()
    start_date = serializers.DateField(help_text="The day it started, in the house's time zone.")
    status = serializers.ChoiceField(choices=TournamentStatus.choices)
    currency = serializers.CharField(help_text="ISO 4217; every amount is in its minor unit.")
    buy_in = serializers.IntegerField()
    fee = serializers.IntegerField()


class FeedClockSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=clock_engine.STATUSES)
    level = LevelSerializer(allow_null=True, help_text="The level (or break) in play.")
    next_level = LevelSerializer(allow_null=True)
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="When the level in play ends; null unless the clock runs."
    )


class FeedEliminationSerializer(serializers.Serializer):
    place = serializers.IntegerField(
        allow_null=True, help_text="Null where the event gives no places (a flight's Day 1)."
    )
    place_shared = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        min_length=2,
        max_length=2,
        help_text="First and last place shared by players out in one hand (RP-8 A).",
    )
    entry = serializers.IntegerField(help_text="The entry's number.")
    player = FeedPlayerSerializer()
    prize = serializers.IntegerField(help_text="The prize of the place, in minor units; 0: none.")
    table = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField(help_text="When the bust was recorded.")


class FeedLeaderSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="The entry's number.")
    player = FeedPlayerSerializer()
    chips = serializers.IntegerField()
    big_blinds = serializers.FloatField(
        allow_null=True, help_text="In big blinds of the level in play; null at a break."
    )
    counted_at = serializers.DateTimeField(
        allow_null=True, help_text="The player's last count; null before the first."
    )
    counted_level = serializers.IntegerField(allow_null=True)


class FeedChipCountsSerializer(serializers.Serializer):
    players_left = serializers.IntegerField()
    chips = serializers.IntegerField(help_text="The chips of the players left together.")
    chips_in_play = serializers.IntegerField(
        help_text="The chips sold less those taken out of play (disqualifications, TDA 71-D; "
        "the floor's removals, TDA 8-B, 63, 64)."
    )
    average = serializers.IntegerField()
    average_big_blinds = serializers.FloatField(allow_null=True)
    leaders = FeedLeaderSerializer(many=True)


class FeedResultSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    place_shared = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, min_length=2, max_length=2
    )
    entry = serializers.IntegerField(help_text="The entry's number.")
    player = FeedPlayerSerializer()
    prize = serializers.IntegerField(help_text="What the place is due, a deal's amount included.")
    deal = serializers.IntegerField(allow_null=True, help_text="The amount agreed in a deal.")
    seat_won = serializers.BooleanField(help_text="A satellite's seat (issue 17): not ranked.")


class FeedSerializer(serializers.Serializer):
    event = FeedEventSerializer()
    clock = FeedClockSerializer()
    entries = serializers.IntegerField(help_text="Entries and re-entries; refunded ones not.")
    players_left = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    places_paid = serializers.IntegerField()
    finished = serializers.BooleanField(help_text="The results are final.")
    finished_at = serializers.DateTimeField(allow_null=True)
    eliminations = FeedEliminationSerializer(
        many=True, help_text="The latest eliminations, newest first."
    )
    chip_counts = FeedChipCountsSerializer(
        allow_null=True, help_text="Null where the house does not publish chip counts."
    )
    results = FeedResultSerializer(many=True, help_text="Every place so far, best first.")


def feed_etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def cacheable(request, response, body: bytes):
    """The response with its ETag and a short public max-age, or 304 Not Modified when
    the reader's If-None-Match holds it already."""
    etag = feed_etag(body)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        response = not_modified
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=FEED_MAX_AGE)
    return response


class FeedView(APIView):
    # Nobody signs in to read it: no session read, so no "Vary: Cookie", and a shared
    # cache (a proxy, a CDN) may keep one copy for every reader.
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [FeedThrottle]
    renderer_classes = [JSONRenderer]  # one representation: its ETag is its bytes'

    @extend_schema(
        responses={200: FeedSerializer, 304: None},
        operation_id="tournaments_feed",
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                location=OpenApiParameter.HEADER,
                required=False,
                description="The ETag of the feed you hold: 304 while it is still current.",
            )
        ],
    )
    def get(self, request, tournament_pk):
        """Public: the live-reporting feed. The level in play, the players left, the latest
        eliminations with their place and prize, the chip leaders where the house
        publishes chip counts (else null), and every place so far. Amounts in the event's
        currency's minor unit. Send the ETag back as If-None-Match: 304 while nothing
        changed."""
        tournament = get_object_or_404(
            Tournament.objects.select_related("series"), pk=tournament_pk
        )
        body = JSONRenderer().render(FeedSerializer(feed_read(tournament).data).data)
        response = HttpResponse(body, content_type="application/json")
        return cacheable(request, response, body)
