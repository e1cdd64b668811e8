"""REST API for a table's hands and for hand-for-hand (/api/v1/).

Tablets (dealers) and the floor drive a table: the button, dealing, the action log, the
result with its bust-outs. The floor runs hand-for-hand. Reading is public, like the
seating board: no contact data.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from floorman.api import valid_data
from floorman.parsers import JSONParser
from floorman.roles import HAND_FOR_HAND, RULINGS, TABLET, role_permission
from hands import services
from hands.engine import betting, items, killed
from hands.engine import out_of_turn as oot
from hands.engine.handforhand import MAX_SECONDS_PER_HAND
from hands.models import Elimination, Hand, StartEvent
from hands.selectors import (
    actions_public,
    betting_public,
    betting_state,
    current_round,
    finishing_places,
    h4h_public,
    hand_for_hand,
    hand_public,
    hand_readings,
    open_table,
    place_public,
    start_mark_public,
    table_state_public,
)
from seating.models import MAX_SEATS
from seating.services import balance_state
from tournaments.lookups import tournament_or_404
from tournaments.models import MAX_CHIPS, Tournament

MAX_HAND = 10**6


def _seat(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_SEATS, **kwargs)


class SeatsField(serializers.ListField):
    child = _seat()

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_SEATS, **kwargs)


class StacksField(serializers.DictField):
    """{"<seat>": chips}: each player's chips after the hand."""

    child = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS)

    def to_internal_value(self, data):
        stacks = super().to_internal_value(data)
        if len(stacks) > MAX_SEATS:
            raise serializers.ValidationError(_("At most one count per seat."))
        if not all(
            key.isascii() and key.isdigit() and 1 <= int(key) <= MAX_SEATS for key in stacks
        ):
            raise serializers.ValidationError(_("Keys are seat numbers, from 1 to 10."))
        return {int(key): chips for key, chips in stacks.items()}


# --- Input ------------------------------------------------------------------------------


class ButtonSerializer(serializers.Serializer):
    button = _seat(help_text=_("The seat with the dealer button."))
    big_blind = _seat(
        required=False,
        allow_null=True,
        help_text=_("Last hand's big blind, if a hand was played: the next hand moves on from it."),
    )


class ActionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=betting.KINDS)
    seat = _seat(required=False, allow_null=True, help_text=_("Default: the player to act."))
    amount = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CHIPS,
        required=False,
        allow_null=True,
        help_text=_("Bet and raise: the player's total for this betting round (TDA 43-B)."),
    )


class ItemSerializer(serializers.Serializer):
    item = serializers.ChoiceField(
        choices=items.ITEMS,
        help_text=_("RP-22: what the player in turn bet with: an item of no value."),
    )
    seat = _seat(
        required=False, allow_null=True, help_text=_("Default: the player to act; else checked.")
    )


class ItemRulingSerializer(serializers.Serializer):
    ruling = serializers.ChoiceField(
        choices=items.RULINGS, help_text=_("RP-22: the floor rules the item a call or all-in.")
    )


class OutOfTurnSerializer(serializers.Serializer):
    seat = _seat(help_text=_("TDA 53-A: the seat that acted out of turn."))
    kind = serializers.ChoiceField(choices=betting.KINDS)
    amount = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CHIPS,
        required=False,
        allow_null=True,
        help_text=_("Bet and raise: the player's total for this betting round (TDA 43-B)."),
    )


class SkippedRulingSerializer(serializers.Serializer):
    seat = _seat(help_text=_("TDA 53-B: the skipped seat the floor rules on."))
    ruling = serializers.ChoiceField(
        choices=oot.RULINGS,
        help_text=_(
            "TDA 53-B: the skipped hand is dead, or limited to check, call or fold this "
            "betting round."
        ),
    )


class KillSerializer(serializers.Serializer):
    seat = _seat(help_text=_("The seat whose hand is killed, whoever's turn it is."))
    reason = serializers.ChoiceField(
        choices=killed.ASKED,
        help_text=_(
            "mistake: the dealer killed the hand by mistake; fouled: fouled and not "
            "identifiable with certainty (TDA 65-A); upcards: stud, the upcards picked up "
            "facing action (TDA 66); identifiable: fouled but identifiable, which stays in "
            "play (TDA 65-B: refused with 409, nothing written)."
        ),
    )


ELIMINATORS_HELP = _(
    "Bounty events (issue 18): the seats of the players who won the pot the busted "
    "players lost; empty, the bounty stays unsettled until the floor names them."
)


class FinishSerializer(serializers.Serializer):
    busts = SeatsField(default=list, help_text=_("Seats whose players are out of chips."))
    eliminators = SeatsField(required=False, help_text=ELIMINATORS_HELP)
    stacks = StacksField(
        required=False, help_text=_('Chips after the hand, e.g. {"3": 25400}; optional.')
    )


class CardsField(serializers.DictField):
    """{"<seat>": "As Kd"}: the hands shown down."""

    child = serializers.CharField(max_length=40)

    def to_internal_value(self, data):
        cards = super().to_internal_value(data)
        if len(cards) > MAX_SEATS:
            raise serializers.ValidationError(_("At most one hand per seat."))
        if not all(key.isascii() and key.isdigit() and 1 <= int(key) <= MAX_SEATS for key in cards):
            raise serializers.ValidationError(_("Keys are seat numbers, from 1 to 10."))
        return {int(key): hole for key, hole in cards.items()}


class SettleSerializer(serializers.Serializer):
    cards = CardsField(default=dict, help_text=_('Hands shown, e.g. {"3": "As Kd"}.'))
    board = serializers.CharField(
        max_length=40, required=False, allow_blank=True, help_text=_("e.g. 2c 7d 9h Js 3s")
    )


class UpcardsSerializer(serializers.Serializer):
    cards = CardsField(
        help_text=_(
            'Stud: the upcards just dealt, one a player, e.g. {"1": "Kh", "4": "2c"}: the '
            "door cards on third street (the bring-in, RP-10 E), then one more for each "
            "player still in on fourth to sixth street (who acts first, RP-10 D)."
        )
    )


class BustsSerializer(serializers.Serializer):
    seats = SeatsField(min_length=1, help_text=_("Seats whose players are out of chips."))
    eliminators = SeatsField(required=False, help_text=ELIMINATORS_HELP)


class HandForHandSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "stop"])


class HandForHandSettingsSerializer(serializers.Serializer):
    places_paid = serializers.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        allow_null=True,
        help_text=_("The house's own number; null: as many as the payout table pays."),
    )
    seconds_per_hand = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SECONDS_PER_HAND,
        required=False,
        help_text=_("RP-8: two minutes a hand, at most three."),
    )
    margin = serializers.IntegerField(min_value=1, max_value=1000, required=False)
    alert_minutes = serializers.IntegerField(min_value=1, max_value=60, required=False)


# --- Output (shapes for the schema; the views answer with plain dicts) ------------------


class HandSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    level = serializers.IntegerField()
    status = serializers.CharField()
    button = serializers.IntegerField()
    small_blind = serializers.IntegerField(allow_null=True)
    big_blind = serializers.IntegerField()
    h4h_round = serializers.IntegerField(allow_null=True)
    item_pending = serializers.CharField(
        allow_null=True,
        help_text=_("RP-22: the item of no value bet in turn, waiting for the floor's ruling."),
    )
    started_at = serializers.DateTimeField()
    start_event = serializers.CharField(
        allow_null=True,
        help_text=_("TDA 23; casino §25, §32: what started the hand, as the dealer marked it."),
    )
    start_marked_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class NextHandSerializer(serializers.Serializer):
    button = serializers.IntegerField()
    small_blind = serializers.IntegerField(allow_null=True)
    big_blind = serializers.IntegerField()
    dealt_in = serializers.ListField(child=serializers.IntegerField())
    waiting = serializers.ListField(child=serializers.IntegerField())
    heads_up = serializers.BooleanField()


class HandForHandStatusSerializer(serializers.Serializer):
    active = serializers.BooleanField()
    round = serializers.IntegerField(help_text=_("0: the hand in play when announced (RP-8 A)."))
    round_started_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.ListField(child=serializers.IntegerField())
    finished = serializers.ListField(child=serializers.IntegerField())
    held = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("All-in tables in showdown order (RP-8 F).")
    )
    playing = serializers.ListField(child=serializers.IntegerField())
    showdown = serializers.IntegerField(allow_null=True)
    deal = serializers.BooleanField(help_text=_("A new round: every table deals its hand."))
    players_left = serializers.IntegerField()
    places_paid = serializers.IntegerField(help_text=_("In force: the setting or the table."))
    places_paid_set = serializers.IntegerField(allow_null=True)
    seconds_per_hand = serializers.IntegerField()
    margin = serializers.IntegerField()
    alert_minutes = serializers.IntegerField()
    suggested = serializers.BooleanField()


class StartMarkSerializer(serializers.Serializer):
    event = serializers.CharField()
    level = serializers.IntegerField()
    marked_at = serializers.DateTimeField()


class TableStateSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    players = serializers.IntegerField()
    button_drawn = serializers.BooleanField()
    draw_cards = serializers.DictField(child=serializers.CharField(), allow_null=True)
    hands_played = serializers.IntegerField()
    hand = HandSummarySerializer(allow_null=True)
    next = NextHandSerializer(allow_null=True)
    halted = serializers.CharField(allow_null=True, help_text=_("The rule, when halted."))
    hand_for_hand = HandForHandStatusSerializer()
    away = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=_("Seat → hands still to miss on penalty (TDA 71-C)."),
    )
    start_mark = StartMarkSerializer(
        allow_null=True,
        help_text=_("TDA 23: the next hand's start as marked, and the level it plays at."),
    )


class HandPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField()
    end_stack = serializers.IntegerField(allow_null=True)
    dead = serializers.BooleanField(
        help_text=_("On penalty: dealt in and posted, the hand dead from the deal (TDA 71-C).")
    )
    dead_money = serializers.IntegerField(
        help_text=_(
            "Dodged blinds made up at the deal as dead money: in the pot, never part of the "
            "player's bet (older TDA 22)."
        )
    )


class HandDetailSerializer(HandSummarySerializer):
    blinds = serializers.DictField()
    players = HandPlayerSerializer(many=True)
    actions = serializers.ListField(child=serializers.DictField())
    betting = serializers.DictField(allow_null=True)


class BustSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    hand = serializers.IntegerField(allow_null=True)
    stack = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    place_shared = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


# --- Views ------------------------------------------------------------------------------


def _table(tournament: Tournament, number: int):
    table = open_table(tournament.pk, number)
    if table is None:
        raise Http404
    return table


def state_data(tournament: Tournament, number: int) -> dict:

    table = _table(tournament, number)
    _plan, halted, _views = balance_state(tournament)
    settings = hand_for_hand(tournament.pk)
    public = table_state_public(table)
    return {
        **public,
        "halted": dict(halted).get(number),
        "hand_for_hand": h4h_public(tournament, settings, current_round(tournament, settings)),
        # TDA 23: the level the next hand keeps, once marked; none while a hand is played.
        "start_mark": None if public["hand"] else start_mark_public(table),
    }


def hand_data(hand: Hand) -> dict:
    players = hand.players.select_related("entry__player").order_by("seat")
    state = betting_state(hand) if hand.status == "playing" else None
    return {
        **hand_public(hand),
        "blinds": {
            "small_blind": hand.small_blind_amount,
            "big_blind": hand.big_blind_amount,
            "ante": hand.ante_amount,
            "ante_type": hand.ante_type,
            "bring_in": hand.bring_in_amount,  # stud: the level's bring-in
            "small_bet": hand.small_bet,
            "big_bet": hand.big_bet,
        },
        "players": [
            {
                "seat": p.seat,
                "entry": p.entry_id,
                "name": p.entry.player.name,
                "stack": p.stack,
                "end_stack": p.end_stack,
                "dead": p.dead,
                "dead_money": p.dead_money,  # older TDA 22: dodged blinds made up
            }
            for p in players
        ],
        "actions": actions_public(hand, state),
        # Who shows first by the readings the hand was dealt under (TDA 17-A, casino §42).
        "betting": betting_public(state, show_reading=hand_readings(hand).show_order),
    }


class TabletView(APIView):
    """A table's hands: dealers (their tablet) and the floor write; anyone may read."""

    parser_classes = [JSONParser]

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return [role_permission(*TABLET)()]


class TableStateView(TabletView):
    @extend_schema(responses=TableStateSerializer)
    def get(self, request, tournament_pk, number):
        """Button, blinds and who is dealt in on the next hand (TDA 32, 34-B), the hand in
        play, halted (TDA 11-D) and hand-for-hand (RP-8)."""
        return Response(state_data(tournament_or_404(tournament_pk), number))


class ButtonDrawView(TabletView):
    @extend_schema(request=None, responses=TableStateSerializer)
    def post(self, request, tournament_pk, number):
        """IFP 2.1: a card to each player, the high card takes the button (spades,
        hearts, diamonds, clubs)."""
        tournament = tournament_or_404(tournament_pk)
        services.button_draw(actor=request.user, tournament_id=tournament.pk, number=number)
        return Response(state_data(tournament, number))


class ButtonView(TabletView):
    @extend_schema(request=ButtonSerializer, responses=TableStateSerializer)
    def put(self, request, tournament_pk, number):
        """Set the button where it is at the table."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(ButtonSerializer, request.data)
        services.button_set(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            button=data["button"],
            big_blind=data.get("big_blind"),
        )
        return Response(state_data(tournament, number))


class HandsView(TabletView):
    @extend_schema(responses=HandSummarySerializer(many=True))
    def get(self, request, tournament_pk, number):
        """The table's hands, latest first."""
        table = _table(tournament_or_404(tournament_pk), number)
        hands = Hand.objects.filter(table=table).order_by("-number")[:200]
        return Response([hand_public(hand) for hand in hands])

    @extend_schema(request=None, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number):
        """Deal the next hand: the engine places button and blinds, the level in force is
        the clock's (TDA 23)."""
        tournament = tournament_or_404(tournament_pk)
        hand = services.hand_start(actor=request.user, tournament_id=tournament.pk, number=number)
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


def _hand(tournament_pk: int, number: int, hand_number: int) -> Hand:
    table = _table(tournament_or_404(tournament_pk), number)
    return get_object_or_404(Hand, table=table, number=hand_number)


class HandView(TabletView):
    @extend_schema(responses=HandDetailSerializer)
    def get(self, request, tournament_pk, number, hand_number):
        """One hand: players and stacks, the action log and, while it is played, the
        betting: whose turn, the pot, the legal options (TDA 43, 47, 54)."""
        return Response(hand_data(_hand(tournament_pk, number, hand_number)))


class HandActionsView(TabletView):
    @extend_schema(request=ActionSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """Log one action. An illegal one is refused (409) with the rule and the legal
        options, and nothing is written."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(ActionSerializer, request.data)
        hand, _state = services.hand_action(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            kind=data["kind"],
            seat=data.get("seat"),
            amount=data.get("amount"),
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandItemView(TabletView):
    @extend_schema(request=ItemSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """RP-22: the player in turn bet with an item of no value (a bounty chip, a clock
        token). The house policy rules it a call or all-in, logged with the item as a
        note; where the house leaves it to the floor, the hand waits for its ruling
        (`item_pending`). Out of turn or with no hand in play: 409, nothing written."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(ItemSerializer, request.data)
        hand, _logged = services.hand_item(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            item=data["item"],
            seat=data.get("seat"),
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandItemRulingView(TabletView):
    def get_permissions(self):
        return [role_permission(*RULINGS)()]

    @extend_schema(request=ItemRulingSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """RP-22, TDA 1: the floor rules on the item waiting in the hand, a call or
        all-in; the ruled action is logged with the item as a note."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(ItemRulingSerializer, request.data)
        hand, _logged = services.hand_item_rule(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            ruling=data["ruling"],
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandOutOfTurnView(TabletView):
    @extend_schema(request=OutOfTurnSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """TDA 53-A: a player acted out of turn. The action is logged and held
        (`betting.out_of_turn.pending`); the action backs up to the player in turn. When it
        reaches the seat the action stands if the action to the seat did not change, else
        the chips go back and the player has every option; a fold out of turn stands
        (TDA 58). Substantial action out of turn after a skipped seat holds the betting
        for the floor (`awaiting_floor`, TDA 53-B). A seat not in the hand, in turn or
        already holding an action out of turn, a hand over: 409, nothing written."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(OutOfTurnSerializer, request.data)
        hand, _state = services.hand_out_of_turn(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            seat=data["seat"],
            kind=data["kind"],
            amount=data.get("amount"),
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandSkippedRulingView(TabletView):
    def get_permissions(self):
        return [role_permission(*RULINGS)()]

    @extend_schema(request=SkippedRulingSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """TDA 53-B: the floor rules on a skipped seat's hand after substantial action
        out of turn: dead, or limited to check, call or fold this betting round. The
        betting goes on once every skipped seat is ruled on."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(SkippedRulingSerializer, request.data)
        hand, _state = services.hand_skipped_rule(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            seat=data["seat"],
            ruling=data["ruling"],
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandKillView(TabletView):
    @extend_schema(request=KillSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """TDA 65-A, 66: a hand killed during play, dead at once whoever's turn it is; a
        line of the action log (`out_of_turn` "killed", the reason as its kind). The calls
        stay in the pot, an uncalled bet or raise goes back (`betting.killed`); the order
        of action goes on for the others; one live hand left wins, as when everyone
        folds. A fouled hand that can be identified stays in play (TDA 65-B), TDA 66 only
        in stud facing action, no hand in play, a seat not in it or already out: 409,
        nothing written."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(KillSerializer, request.data)
        hand, _state = services.hand_kill(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            seat=data["seat"],
            reason=data["reason"],
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandUpcardsView(TabletView):
    @extend_schema(request=UpcardsSerializer, responses={201: HandDetailSerializer})
    def post(self, request, tournament_pk, number, hand_number):
        """Stud, stud/8, razz: the upcards of the street just dealt. The door cards name
        who brings it in (the low card by suit, in razz the high card: RP-10 E); later
        streets, the best hand showing acts first, ties by suit (RP-10 D). Not a stud
        hand, or no upcards due: 409; a bad card: 400; nothing written."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(UpcardsSerializer, request.data)
        hand = services.hand_upcards(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            cards=data["cards"],
        )
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class HandFinishView(TabletView):
    @extend_schema(request=FinishSerializer, responses=HandDetailSerializer)
    def post(self, request, tournament_pk, number, hand_number):
        """The hand is done: bust-outs (places: IFP 4.27) and, if counted, chips."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(FinishSerializer, request.data)
        hand = services.hand_finish(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            busts=data["busts"],
            stacks=data.get("stacks"),
            eliminators=data.get("eliminators"),
        )
        return Response(hand_data(hand))


class HandSettleView(TabletView):
    @extend_schema(request=SettleSerializer, responses=HandDetailSerializer)
    def post(self, request, tournament_pk, number, hand_number):
        """The result from the action log: pots (TDA 21), cards speak, odd chips (TDA 20);
        stacks follow and whoever has no chips left busts."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(SettleSerializer, request.data)
        hand = services.hand_settle(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            cards=data["cards"],
            board=data.get("board", ""),
        )
        return Response(hand_data(hand))


class HandHoldView(TabletView):
    @extend_schema(request=None, responses=HandDetailSerializer)
    def post(self, request, tournament_pk, number, hand_number):
        """Hand-for-hand, all-in and call: cards stay face down until the floor calls
        this table's showdown (RP-8 F)."""
        tournament = tournament_or_404(tournament_pk)
        hand = services.hand_hold(
            actor=request.user, tournament_id=tournament.pk, number=number, hand_number=hand_number
        )
        return Response(hand_data(hand))


class HandMisdealView(TabletView):
    @extend_schema(request=None, responses=HandDetailSerializer)
    def post(self, request, tournament_pk, number, hand_number):
        """A misdeal (TDA 35-A): the hand is dealt again exactly (TDA 35-C), its action
        log wiped. 409 once the hand has gone too far, by the event's reading: after
        substantial action (TDA 35-D, 36) or two bets or raises (casino §34)."""
        tournament = tournament_or_404(tournament_pk)
        hand = services.hand_misdeal(
            actor=request.user, tournament_id=tournament.pk, number=number, hand_number=hand_number
        )
        return Response(hand_data(hand))


def busts_data(tournament: Tournament, number: int) -> list[dict]:
    places = finishing_places(tournament.pk)
    rows = (
        Elimination.objects.filter(tournament=tournament, table_number=number)
        .select_related("entry__player", "hand")
        .order_by("-pk")
    )
    return [
        {
            "entry": row.entry_id,
            "number": row.entry.number,
            "name": row.entry.player.name,
            "seat": row.seat,
            "hand": row.hand.number if row.hand else None,
            "stack": row.stack,
            **place_public(places.get(row.entry_id)),
        }
        for row in rows
    ]


class BustsView(TabletView):
    @extend_schema(responses=BustSerializer(many=True))
    def get(self, request, tournament_pk, number):
        """Who busted at this table, latest first, with their places."""
        tournament = tournament_or_404(tournament_pk)
        _table(tournament, number)
        return Response(busts_data(tournament, number))

    @extend_schema(request=BustsSerializer, responses={201: BustSerializer(many=True)})
    def post(self, request, tournament_pk, number):
        """Bust players in the hand being played (or the last hand, if none is): they
        are placed by their stacks at the start of that hand (IFP 4.27)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(BustsSerializer, request.data)
        services.table_busts_record(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            seats=data["seats"],
            eliminators=data.get("eliminators"),
        )
        return Response(busts_data(tournament, number), status=status.HTTP_201_CREATED)


class HandForHandView(APIView):
    parser_classes = [JSONParser]

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return [role_permission(*HAND_FOR_HAND)()]

    @extend_schema(responses=HandForHandStatusSerializer)
    def get(self, request, tournament_pk):
        """Hand-for-hand (RP-8): the round, finished and held tables, the showdown in
        turn, whether it is suggested."""
        tournament = tournament_or_404(tournament_pk)
        settings = hand_for_hand(tournament.pk)
        return Response(h4h_public(tournament, settings, current_round(tournament, settings)))

    @extend_schema(request=HandForHandSerializer, responses=HandForHandStatusSerializer)
    def post(self, request, tournament_pk):
        """{"action": "start"} announces it (RP-8 A); {"action": "stop"} ends it."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(HandForHandSerializer, request.data)
        act = services.h4h_start if data["action"] == "start" else services.h4h_stop
        act(actor=request.user, tournament_id=tournament.pk)
        return self.get(request, tournament_pk)

    @extend_schema(request=HandForHandSettingsSerializer, responses=HandForHandStatusSerializer)
    def patch(self, request, tournament_pk):
        """House settings: places paid, time per hand (RP-8 B, C), margin, alert time."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(HandForHandSettingsSerializer, request.data)
        services.h4h_settings_update(actor=request.user, tournament_id=tournament.pk, data=data)
        return self.get(request, tournament_pk)


# --- Errors found during a hand (TDA 23, 34-A, 36; casino §16 c, §25, §32) ----------------

ACTIONS_HELP = _(
    "Only for a hand whose actions are not logged: the actions in turn so far, as the "
    "dealer or floor reports them (the posted blinds are none, TDA 36)."
)


def _actions_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ChoiceField(choices=betting.KINDS),
        max_length=100,
        required=False,
        allow_null=True,
        help_text=ACTIONS_HELP,
    )


class StartEventSerializer(serializers.Serializer):
    event = serializers.ChoiceField(
        choices=[event.value for event in StartEvent],
        help_text=_(
            "What started the hand, as the house reads it: TDA 23 riffle, shuffler or push; "
            "casino §25, §32 cut."
        ),
    )


class ButtonErrorSerializer(serializers.Serializer):
    button = _seat(help_text=_("The seat the button should have been on for this hand."))
    actions = _actions_field()


class LevelErrorSerializer(serializers.Serializer):
    level = serializers.IntegerField(
        min_value=1, max_value=1000, help_text=_("The level the hand should be dealt at.")
    )
    actions = _actions_field()


class CorrectionSerializer(serializers.Serializer):
    ruling = serializers.ChoiceField(
        choices=["corrected", "stands"],
        help_text=_("corrected: the hand is re-dealt right; stands: the hand plays on."),
    )
    rule = serializers.CharField()
    actions_counted = serializers.ListField(child=serializers.CharField())
    hand = HandDetailSerializer()


class HandStartMarkView(TabletView):
    @extend_schema(request=StartEventSerializer, responses={201: StartMarkSerializer})
    def post(self, request, tournament_pk, number):
        """TDA 23; casino §25, §32: the dealer marks the start of the next hand (the events
        the house's `hand_starts` allows, else 400). The level in play now is the hand's
        level: the deal keeps it even after the clock's change. Marked already, a hand in
        play, a break on the clock: 409, nothing written."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(StartEventSerializer, request.data)
        services.hand_start_mark(
            actor=request.user, tournament_id=tournament.pk, number=number, event=data["event"]
        )
        mark = start_mark_public(_table(tournament, number))
        return Response(mark, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, tournament_pk, number):
        """Take back the mark of the next hand's start (tapped by mistake): the deal then
        reads the level in play when it comes. None marked: 409."""
        tournament = tournament_or_404(tournament_pk)
        services.hand_start_unmark(actor=request.user, tournament_id=tournament.pk, number=number)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _correction_data(correction) -> dict:
    return {**correction.public(), "hand": hand_data(correction.hand)}


class HandButtonErrorView(TabletView):
    @extend_schema(request=ButtonErrorSerializer, responses=CorrectionSerializer)
    def post(self, request, tournament_pk, number, hand_number):
        """The button was in the wrong place for the hand in play. The house's reading
        (`button_error`) rules: TDA 34-A, before substantial action (TDA 36), or casino
        §16 c, before two chip actions, the hand is re-dealt with the button and blinds
        right (`corrected`); after it the hand `stands` and the button moves on from
        where it stood."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(ButtonErrorSerializer, request.data)
        correction = services.hand_button_correct(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            button=data["button"],
            actions=data.get("actions"),
        )
        return Response(_correction_data(correction))


class HandLevelErrorView(TabletView):
    @extend_schema(request=LevelErrorSerializer, responses=CorrectionSerializer)
    def post(self, request, tournament_pk, number, hand_number):
        """TDA 23: the hand in play was dealt at the wrong level. Before substantial
        action (TDA 36) it is re-dealt at the right level's blinds (`corrected`); after it
        the hand `stands` at the level it was dealt."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(LevelErrorSerializer, request.data)
        correction = services.hand_level_correct(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            hand_number=hand_number,
            level=data["level"],
            actions=data.get("actions"),
        )
        return Response(_correction_data(correction))
