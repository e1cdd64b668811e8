"""REST API for tournaments, entries, alternates and players (/api/v1/).

Views are thin: they validate the shape of the input, call one service and render
the result. Querysets start from the tournament in the URL.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from floorman.api import AuditEntrySerializer, valid_data
from floorman.audit import audit_entries
from floorman.inputs import search_text
from floorman.names import validate_visible_name
from floorman.roles import (
    BUST,
    MANAGE_TOURNAMENTS,
    REGISTER,
    SEE_AUDIT,
    SEE_PLAYERS,
    role_permission,
)
from hands.selectors import finishing_places
from hands.services import bounties, busts
from seating.services import desk
from tournaments import services
from tournaments.lookups import MAX_ID, money
from tournaments.messages import refusal_message
from tournaments.models import (
    MAX_CHIPS,
    MAX_MONEY,
    BountyFormat,
    Entry,
    EntryStatus,
    MysteryStart,
    NonBettingItems,
    Player,
    Tournament,
    TournamentStatus,
    birth_year_not_future,
    start_at_plausible,
)
from tournaments.selectors import (
    entries_search,
    players_search,
    tournament_totals,
    waiting_alternates,
)
from web.screens.leaders import counts_visible

ID = r"[0-9]{1,18}"  # longer ids cannot exist and would overflow the database integer
MAX_LEVEL = 1000


def level(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1, max_value=MAX_LEVEL, allow_null=True, required=False, **kwargs
    )


class MysteryPrizeSerializer(serializers.Serializer):
    """One line of a mystery bounty event's published list (issue 18)."""

    amount = serializers.IntegerField(
        min_value=1, max_value=MAX_MONEY, help_text=_("The sealed bounty's amount, in cents.")
    )
    count = serializers.IntegerField(
        min_value=0,
        max_value=services.MYSTERY_PRIZE_COUNT_MAX,
        help_text=_("How many sealed bounties of this amount the list holds."),
    )


class TournamentSerializer(serializers.ModelSerializer):
    buy_in = money(help_text=_("Prize-pool part of the buy-in, in cents."))
    fee = money(required=False, help_text=_("House fee in cents; not prize money."))
    currency = serializers.RegexField(r"^[A-Z]{3}$", required=False)
    starting_stack = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    table_size = serializers.IntegerField(min_value=2, max_value=10, required=False)
    start_at = serializers.DateTimeField(label=_("Start time"), validators=[start_at_plausible])
    capacity = serializers.IntegerField(
        min_value=1, max_value=1_000_000, allow_null=True, required=False
    )
    late_reg_until_level = level()
    reentry_max = serializers.IntegerField(
        min_value=1, max_value=1000, allow_null=True, required=False
    )
    reentry_until_level = level()
    rebuy_until_level = level()
    rebuy_max = serializers.IntegerField(
        min_value=1, max_value=1000, allow_null=True, required=False
    )
    rebuy_price = money(required=False, help_text=_("Prize-pool part of a rebuy, in cents."))
    rebuy_fee = money(required=False, help_text=_("House fee on a rebuy, in cents."))
    rebuy_chips = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    addon_price = money(required=False, help_text=_("Prize-pool part of the add-on, in cents."))
    addon_fee = money(required=False, help_text=_("House fee on the add-on, in cents."))
    addon_chips = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    addon_at_break_after_level = level()
    guarantee = money(required=False)
    current_level = serializers.IntegerField(min_value=1, max_value=MAX_LEVEL, required=False)
    # Festivals (issue 17): the bounds the database holds them to, answered as a 400.
    flight_end_level = level()
    flight_end_percent = serializers.IntegerField(
        min_value=1, max_value=99, allow_null=True, required=False
    )
    day2_late_stack = serializers.IntegerField(
        min_value=1, max_value=MAX_CHIPS, allow_null=True, required=False
    )
    satellite_target_id = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        allow_null=True,
        required=False,
        help_text=_("The event whose seats this satellite wins; null: no satellite."),
    )
    # Bounties (issue 18): sold with each buy-in and re-entry, kept apart from the pool.
    bounty_format = serializers.ChoiceField(
        choices=BountyFormat.choices,
        required=False,
        allow_blank=True,
        help_text=_(
            "Empty: no bounties; knockout, pko (progressive knockout) or mystery. Cannot "
            "change once entries or tickets were sold (409)."
        ),
    )
    bounty = money(
        required=False,
        help_text=_(
            "Bounty part of each buy-in and re-entry, in cents; not prize money. Rebuys and "
            "add-ons carry none. Needed (above 0) for knockout and pko; for mystery it funds "
            "the prize list."
        ),
    )
    bounty_cash_percent = serializers.IntegerField(
        min_value=0,
        max_value=100,
        required=False,
        help_text=_("Progressive knockout only: the share of a bounty paid in cash (%)."),
    )
    mystery_start = serializers.ChoiceField(
        choices=MysteryStart.choices,
        required=False,
        help_text=_("From which point an elimination draws a mystery bounty."),
    )
    mystery_prizes = MysteryPrizeSerializer(
        many=True,
        required=False,
        help_text=_("Mystery bounty events: the published list of sealed prizes."),
    )
    non_betting_items = serializers.ChoiceField(
        choices=NonBettingItems.choices,
        required=False,
        help_text=_("RP-22: what a bet made with a bounty chip or token counts as."),
    )
    chip_counts_public = serializers.BooleanField(
        required=False, help_text=_("Whether the house publishes chip counts.")
    )

    def validate_mystery_prizes(self, value) -> list[dict]:
        return [{"amount": prize["amount"], "count": prize["count"]} for prize in value]

    class Meta:
        model = Tournament
        fields = ["id", "name", "game", "status", *services.TOURNAMENT_FIELDS[2:]]
        read_only_fields = ["status"]


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=TournamentStatus.choices)


class PublicPlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "country"]


class EntrySerializer(serializers.ModelSerializer):
    """Public fields of an entry: no contact data. `place` once busted (or the winner);
    `place_shared` the range of places shared with others busting in the same hand
    (IFP 4.27, RP-8 A), else null. Give `places` in the context (hands.selectors)."""

    player = PublicPlayerSerializer(read_only=True)
    table = serializers.SerializerMethodField()
    seat = serializers.SerializerMethodField()
    place = serializers.SerializerMethodField()
    place_shared = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "number",
            "reentry_number",
            "player",
            "status",
            "chips",
            "rebuys",
            "addon",
            "table",
            "seat",
            "place",
            "place_shared",
        ]

    def to_representation(self, entry):
        data = super().to_representation(entry)
        if self.context.get("hide_chips"):  # the house does not publish counts (issue 18)
            data["chips"] = None
        return data

    def _seat(self, entry):
        try:
            return entry.seat
        except Entry.seat.RelatedObjectDoesNotExist:
            return None

    def get_table(self, entry) -> int | None:
        seat = self._seat(entry)
        return seat.table.number if seat else None

    def get_seat(self, entry) -> int | None:
        seat = self._seat(entry)
        return seat.number if seat else None

    def _place(self, entry):
        places = self.context.get("places")
        if places is None:
            places = self.context["places"] = finishing_places(entry.tournament_id)
        return places.get(entry.pk)

    def get_place(self, entry) -> int | None:
        place = self._place(entry)
        return place.place if place else None

    def get_place_shared(self, entry) -> list[int] | None:
        place = self._place(entry)
        return list(place.shared) if place and place.tied else None


def birth_year_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1900,
        max_value=2100,
        required=False,
        allow_null=True,
        validators=[birth_year_not_future],
    )


class PlayerInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, validators=[validate_visible_name])
    nickname = serializers.CharField(
        max_length=60, required=False, allow_blank=True, validators=[validate_visible_name]
    )
    country = serializers.RegexField(r"^[A-Za-z]{2}$", required=False, allow_blank=True)
    birth_year = birth_year_field()
    email = serializers.EmailField(required=False, allow_blank=True)
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True)

    def validate_country(self, value: str) -> str:
        return value.upper()


class EliminatorsSerializer(serializers.Serializer):
    """Issue 18: who eliminated the busted entry, by entry id (a split pot: several)."""

    eliminators = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=10,
        required=False,
        help_text=_(
            "Bounty events: the entries that won the pot the player lost; empty, the "
            "bounty stays unsettled until the floor names them."
        ),
    )


class KnockoutCorrectSerializer(serializers.Serializer):
    eliminators = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=10,
        help_text=_("The entries that won the pot the player lost."),
    )


class EntryCreateSerializer(serializers.Serializer):
    player = PlayerInputSerializer(required=False)
    player_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    reentry = serializers.BooleanField(required=False, default=False)
    ticket_id = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text=_("Pay with this ticket won in a satellite: no money is taken."),
    )

    def validate(self, data):
        if ("player" in data) == ("player_id" in data):
            raise serializers.ValidationError(
                {"player": [_("Give either a player or a player_id, not both.")]}
            )
        return data


class PlayerSerializer(serializers.ModelSerializer):
    """Players for staff: includes contact data."""

    country = serializers.RegexField(r"^[A-Za-z]{2}$", required=False, allow_blank=True)
    birth_year = birth_year_field()

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "nickname",
            "country",
            "birth_year",
            "email",
            "phone",
            "accessible_seat",  # TDA 9: the draw and late seats give one where there is one
            "id_checked_at",
        ]
        read_only_fields = ["id_checked_at"]
        # Duplicates are found by the service, which returns the existing player.
        validators = []

    def validate_country(self, value: str) -> str:
        return value.upper()


class AlternateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    position = serializers.IntegerField()
    player = PublicPlayerSerializer()
    reentry = serializers.BooleanField()
    added_at = serializers.DateTimeField()


class TotalsSerializer(serializers.Serializer):
    entries = serializers.IntegerField()
    reentries = serializers.IntegerField()
    rebuys = serializers.IntegerField()
    addons = serializers.IntegerField()
    active = serializers.IntegerField()
    free_places = serializers.IntegerField(allow_null=True)
    alternates_waiting = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    collected = serializers.IntegerField()
    guarantee = serializers.IntegerField()
    overlay = serializers.IntegerField()
    paid_out = serializers.IntegerField()
    fees = serializers.IntegerField()
    tickets = serializers.IntegerField(
        help_text=_("Entries paid with a ticket: in the entries and the pool, not the fees.")
    )
    # Issue 18: the bounty money, never part of the prize pool.
    bounty_collected = serializers.IntegerField(
        help_text=_("The bounty part of the buy-ins and re-entries, less refunds; not prize money.")
    )
    bounty_paid_out = serializers.IntegerField(help_text=_("Bounties paid at the cage."))
    bounty_left = serializers.IntegerField(
        help_text=_("Bounty money not paid out yet: bounties on heads, mystery bounties left.")
    )
    currency = serializers.CharField()


def totals_data(tournament: Tournament) -> dict:
    totals = tournament_totals(tournament)
    pool = totals.prize_pool
    return {
        "entries": totals.entries,
        "reentries": totals.reentries,
        "rebuys": totals.rebuys,
        "addons": totals.addons,
        "active": totals.active,
        "free_places": totals.free_places,
        "alternates_waiting": totals.alternates_waiting,
        "prize_pool": pool.total,
        "collected": pool.collected,
        "guarantee": pool.guarantee,
        "overlay": pool.overlay,
        "paid_out": pool.paid_out,
        "fees": totals.fees,
        "tickets": totals.tickets,
        "bounty_collected": totals.bounty.collected,
        "bounty_paid_out": totals.bounty.paid_out,
        "bounty_left": totals.bounty.left,
        "currency": tournament.currency,
    }


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_value_regex = ID

    def get_permissions(self):
        if self.action in ("list", "retrieve", "totals", "alternates"):
            return [AllowAny()]
        if self.action == "audit":
            return [role_permission(*SEE_AUDIT)()]
        return [role_permission(*MANAGE_TOURNAMENTS)()]

    def perform_create(self, serializer):
        serializer.instance = services.tournament_create(
            actor=self.request.user, data=serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = busts.tournament_edit(
            actor=self.request.user,
            tournament_id=serializer.instance.pk,
            data=serializer.validated_data,
        )

    @extend_schema(request=StatusSerializer, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def status(self, request, pk=None):
        """Change the status: registering, running, finished or cancelled (refunds all)."""
        tournament = self.get_object()
        data = StatusSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = desk.tournament_status_set(
            actor=request.user, tournament_id=tournament.pk, status=data.validated_data["status"]
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(responses=TotalsSerializer)
    @action(detail=True, methods=["get"])
    def totals(self, request, pk=None):
        """Entries, re-entries, rebuys, add-ons and the prize pool, from the ledger."""
        return Response(totals_data(self.get_object()))

    @extend_schema(responses=AlternateSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def alternates(self, request, pk=None):
        """The alternates list in order (casino §8b)."""
        waiting = waiting_alternates(self.get_object())
        return Response(AlternateSerializer(waiting, many=True).data)

    @extend_schema(responses=AuditEntrySerializer(many=True))
    @action(detail=True, methods=["get"])
    def audit(self, request, pk=None):
        """The audit log of this tournament, newest first; filter by ?action= and ?actor=."""
        actor = request.query_params.get("actor", "")
        entries = audit_entries(
            tournament=self.get_object(),
            action=search_text(request.query_params.get("action"), max_length=64),
            actor_id=int(actor) if actor.isdigit() and len(actor) < 10 else None,
        )
        page = self.paginate_queryset(entries)
        return self.get_paginated_response(AuditEntrySerializer(page, many=True).data)


class AlternateEnterSerializer(serializers.Serializer):
    ticket_id = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text=_(
            "Pay with this ticket won in a satellite: no money is taken. Without it, the "
            "ticket the player was listed with pays, if any."
        ),
    )


class AlternateViewSet(viewsets.GenericViewSet):
    lookup_value_regex = ID
    permission_classes = [role_permission(*REGISTER)]
    # OPTIONS describes each action's input: a ticket to enter with; withdrawing, none.
    serializer_class = serializers.Serializer

    @extend_schema(request=AlternateEnterSerializer, responses={201: EntrySerializer})
    @action(
        detail=False,
        methods=["post"],
        url_path="enter-next",
        serializer_class=AlternateEnterSerializer,
    )
    def enter_next(self, request, tournament_pk=None):
        """Sell the freed place to the first alternate in line."""
        data = AlternateEnterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = desk.alternate_enter_next(
            actor=request.user,
            tournament_id=int(tournament_pk),
            ticket_id=data.validated_data.get("ticket_id"),
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, tournament_pk=None, pk=None):
        services.alternate_withdraw(
            actor=request.user, tournament_id=int(tournament_pk), alternate_id=int(pk)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = EntrySerializer
    lookup_value_regex = ID

    def get_tournament(self) -> Tournament:
        if getattr(self, "_tournament", None) is None:  # the list and its context read it
            self._tournament = get_object_or_404(Tournament, pk=int(self.kwargs["tournament_pk"]))
        return self._tournament

    def get_queryset(self):
        params = self.request.query_params
        status_filter = params.get("status", "")
        if status_filter and status_filter not in EntryStatus.values:
            raise serializers.ValidationError({"status": [_("Unknown status.")]})
        entries = entries_search(
            self.get_tournament(), query=search_text(params.get("q")), status=status_filter
        )
        return entries.select_related("seat__table")

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "tournament_pk" in self.kwargs and self.action in ("list", "retrieve"):
            context["places"] = finishing_places(int(self.kwargs["tournament_pk"]))
            context["hide_chips"] = not counts_visible(self.get_tournament(), self.request.user)
        return context

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [AllowAny()]
        if self.action in ("bust", "undo_bust", "knockout"):
            return [role_permission(*BUST)()]
        return [role_permission(*REGISTER)()]

    @extend_schema(
        request=EntryCreateSerializer,
        responses={201: EntrySerializer, 409: None},
        description=str(
            _("Register a player. When sold out the answer is 409 and the player is an alternate.")
        ),
    )
    def create(self, request, tournament_pk=None):
        tournament = self.get_tournament()
        data = EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = desk.entry_register(
            actor=request.user,
            tournament_id=tournament.pk,
            player_id=data.validated_data.get("player_id"),
            player_data=data.validated_data.get("player"),
            reentry=data.validated_data["reentry"],
            ticket_id=data.validated_data.get("ticket_id"),
        )
        if result.alternate is not None:
            alternate = result.alternate
            return Response(
                {
                    "code": "sold_out",
                    "detail": refusal_message("sold_out"),
                    "alternate": AlternateSerializer(alternate).data,
                },
                status=status.HTTP_409_CONFLICT,
            )
        return Response(EntrySerializer(result.entry).data, status=status.HTTP_201_CREATED)

    def _entry_action(self, service, request, pk):
        tournament = self.get_tournament()
        entry = service(actor=request.user, tournament_id=tournament.pk, entry_id=int(pk))
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=EliminatorsSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def bust(self, request, tournament_pk=None, pk=None):
        data = valid_data(EliminatorsSerializer, request.data)
        tournament = self.get_tournament()
        entry = busts.entry_bust(
            actor=request.user,
            tournament_id=tournament.pk,
            entry_id=int(pk),
            eliminators=data.get("eliminators"),
        )
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=KnockoutCorrectSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def knockout(self, request, tournament_pk=None, pk=None):
        """Name, or correct, who eliminated this busted entry (issue 18): its knockouts
        that stand are reversed and the bounty settled to the entries named; 409 once
        paid at the cage (take the payment back there first)."""
        data = valid_data(KnockoutCorrectSerializer, request.data)
        tournament = self.get_tournament()
        bounties.knockout_correct(
            actor=request.user,
            tournament_id=tournament.pk,
            busted_entry_id=int(pk),
            eliminator_ids=data["eliminators"],
        )
        entry = get_object_or_404(tournament.entries, pk=int(pk))
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"], url_path="undo-bust")
    def undo_bust(self, request, tournament_pk=None, pk=None):
        return self._entry_action(busts.entry_bust_undo, request, pk)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def rebuy(self, request, tournament_pk=None, pk=None):
        return self._entry_action(desk.entry_rebuy, request, pk)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def addon(self, request, tournament_pk=None, pk=None):
        return self._entry_action(desk.entry_addon, request, pk)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, tournament_pk=None, pk=None):
        """Refund an entry sold by mistake (reversing ledger lines)."""
        return self._entry_action(desk.entry_cancel, request, pk)


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Players with contact data: staff only."""

    serializer_class = PlayerSerializer
    lookup_value_regex = ID
    permission_classes = [role_permission(*SEE_PLAYERS)]

    def get_queryset(self):
        return players_search(query=search_text(self.request.query_params.get("q")))

    def perform_create(self, serializer):
        serializer.instance = services.player_create(
            actor=self.request.user, data=serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = services.player_update(
            actor=self.request.user,
            player_id=serializer.instance.pk,
            data=serializer.validated_data,
        )

    @extend_schema(request=None, responses=PlayerSerializer)
    @action(detail=True, methods=["post"], url_path="id-check")
    def id_check(self, request, pk=None):
        """Record that the player's photo ID was checked (TDA 4)."""
        player = services.player_id_check(actor=request.user, player_id=self.get_object().pk)
        return Response(PlayerSerializer(player).data)
