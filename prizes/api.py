"""Prize money under /api/v1/tournaments/{id}/: the payout table, results, payments and
deals. Money is in cents. Reading payouts and results is public (no contact data).

And events made from other events: a copy of an event (/tournaments/{id}/copy/) and the
house's event templates (/event-templates/), the director's."""

from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from floorman.api import valid_data
from floorman.names import validate_visible_name
from floorman.parsers import JSONParser
from floorman.roles import (
    ALL_ROLES,
    DEAL_FIGURES,
    MANAGE_TOURNAMENTS,
    PAY_PRIZES,
    role_permission,
)
from payouts.models import PayoutSettings, PayoutTemplate, PlacesMode
from payouts.selectors import payout_table
from prizes import services
from prizes.models import DealMethod, EventTemplate
from prizes.selectors import (
    bounty_knockouts,
    bounty_totals,
    knockout_public,
    payouts_public,
    results,
    results_public,
)
from prizes.services import bounties, events
from tournaments.lookups import MAX_ID, money, tournament_or_404
from tournaments.models import MAX_CHIPS, start_at_plausible

MAX_PLACES = 1_000_000
MAX_DEAL_PLAYERS = 1_000


def _percent(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=Decimal(100),
        **kwargs,
    )


# --- Input ------------------------------------------------------------------------------


class PayoutsInput(serializers.Serializer):
    """Every field is optional: what is given changes, the rest stays."""

    places_mode = serializers.ChoiceField(choices=PlacesMode.choices, required=False)
    places_percent = _percent(required=False)
    places_fixed = serializers.IntegerField(
        min_value=1, max_value=MAX_PLACES, allow_null=True, required=False
    )
    winner_share = _percent(
        allow_null=True, required=False, help_text=_("Percent of the pool; null: automatic.")
    )
    min_cash_multiple = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal(0),
        max_value=Decimal(100),
        required=False,
    )
    unit = serializers.IntegerField(min_value=1, max_value=10**9, required=False)
    shares = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000),
        allow_null=True,
        required=False,
        max_length=MAX_PLACES,
        help_text=_("A house table: basis points per place, best first; null: the generator."),
    )
    template = serializers.PrimaryKeyRelatedField(
        queryset=PayoutTemplate.objects.all(),
        required=False,
        help_text=_("Take the settings of a saved template."),
    )
    lines = serializers.ListField(
        child=money(),
        required=False,
        max_length=MAX_PLACES,
        help_text=_("Amounts by place, best first: typed lines lock the table."),
    )
    locked = serializers.BooleanField(required=False)


class PaymentInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    amount = money(
        required=False,
        help_text=_("The prize the cashier was shown: if it has changed since, 409."),
    )


class BountiesPayAllInput(serializers.Serializer):
    entry = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text=_("The entry whose bounties are paid.")
    )


class PlaceInput(serializers.Serializer):
    place = serializers.IntegerField(min_value=1, max_value=MAX_PLACES, allow_null=True)


def _chips_list(**kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_CHIPS),
        min_length=2,
        max_length=MAX_DEAL_PLAYERS,
        **kwargs,
    )


class DealCalculateInput(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=[DealMethod.ICM, DealMethod.CHIP_CHOP, DealMethod.SAVE]
    )
    chips = _chips_list(help_text=_("Each player's chips, in any order."))
    prizes = serializers.ListField(
        child=money(),
        required=False,
        max_length=MAX_DEAL_PLAYERS,
        help_text=_("The prizes to share, best first; default: the places still unpaid."),
    )
    save = money(required=False, help_text=_("Left for the winner (method save)."))


class DealPlayerInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    chips = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    amount = money()


class DealInput(serializers.Serializer):
    method = serializers.ChoiceField(choices=DealMethod.choices)
    players = serializers.ListField(
        child=DealPlayerInput(), min_length=2, max_length=MAX_DEAL_PLAYERS
    )
    save = money(required=False, default=0)
    continue_play = serializers.BooleanField(required=False, default=False)


def _event_name(**kwargs) -> serializers.CharField:
    return serializers.CharField(max_length=120, validators=[validate_visible_name], **kwargs)


class EventNewInput(serializers.Serializer):
    name = _event_name(help_text=_("The new event's name."))
    start_at = serializers.DateTimeField(validators=[start_at_plausible])
    tables = serializers.BooleanField(
        required=False,
        default=True,
        help_text=_("Take the tables too (numbers, seats; nobody seated). Default: yes."),
    )


class EventTemplateInput(serializers.Serializer):
    tournament = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text=_("The event to save.")
    )
    name = _event_name(help_text=_("A template of the same name is replaced."))


class EventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    start_at = serializers.DateTimeField()


class EventTemplateOutput(serializers.ModelSerializer):
    class Meta:
        model = EventTemplate
        fields = ["id", "name", "saved_from", "saved_at"]


# --- Output (for the schema) ---------------------------------------------------------------

PayoutsOutput = inline_serializer(
    "Payouts",
    {
        "currency": serializers.CharField(),
        "prize_pool": serializers.DictField(child=serializers.IntegerField()),
        "settings": serializers.DictField(),
        "lock": serializers.CharField(),
        "locked": serializers.BooleanField(),
        "locked_reason": serializers.CharField(allow_null=True),
        "edited": serializers.BooleanField(),
        "places_paid": serializers.IntegerField(),
        "seats": serializers.IntegerField(help_text=_("A satellite's seats (issue 17).")),
        "seat_value": serializers.IntegerField(help_text=_("What each seat is worth, cents.")),
        "lines": serializers.ListField(child=serializers.DictField()),
        "adjustments": serializers.ListField(child=serializers.CharField()),
        "balanced": serializers.BooleanField(),
        "difference": serializers.IntegerField(),
    },
)
ResultsOutput = inline_serializer(
    "Results",
    {
        "currency": serializers.CharField(),
        "status": serializers.CharField(),
        "prize_pool": serializers.IntegerField(),
        "places_paid": serializers.IntegerField(),
        "playing": serializers.IntegerField(),
        "deal": serializers.DictField(allow_null=True),
        "results": serializers.ListField(child=serializers.DictField()),
    },
)


class KnockoutEntrySerializer(serializers.Serializer):
    """The busted entry or the winner of a knockout: one schema component for both."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    player = serializers.DictField()


KNOCKOUT_FIELDS = {
    "id": serializers.IntegerField(),
    "busted": KnockoutEntrySerializer(),
    "winner": KnockoutEntrySerializer(),
    "hand": serializers.DictField(
        allow_null=True, help_text=_("The logged hand: its number and table; null if none.")
    ),
    "cash": serializers.IntegerField(help_text=_("The bounty paid in cash, cents.")),
    "added": serializers.IntegerField(
        help_text=_("PKO: what it added to the eliminator's own bounty, cents.")
    ),
    "draw": serializers.IntegerField(
        allow_null=True, help_text=_("A mystery bounty: the number of its draw.")
    ),
    "source": serializers.ChoiceField(
        choices=["hand", "floor", "winner"],
        help_text=_(
            "hand: from the logged hand; floor: named by the floor; winner: the "
            "winner's own bounty at the end (PKO)."
        ),
    ),
    "recorded_at": serializers.DateTimeField(),
    "paid": serializers.BooleanField(help_text=_("Paid at the cage.")),
}
KnockoutsOutput = inline_serializer(
    "Knockouts",
    {
        "currency": serializers.CharField(),
        "bounty_format": serializers.CharField(),
        "won": serializers.IntegerField(help_text=_("The cash of the knockouts that stand.")),
        "paid": serializers.IntegerField(),
        "left": serializers.IntegerField(help_text=_("Won and not paid yet.")),
        "knockouts": inline_serializer("Knockout", KNOCKOUT_FIELDS, many=True),
    },
)
DealFiguresOutput = inline_serializer(
    "DealFigures",
    {
        "method": serializers.CharField(),
        "prizes": serializers.ListField(child=serializers.IntegerField()),
        "left_to_play": serializers.IntegerField(),
        "players": serializers.ListField(child=serializers.DictField()),
    },
)


# --- Views ------------------------------------------------------------------------------


def payouts_data(tournament) -> dict:
    return payouts_public(tournament, payout_table(tournament))


def results_data(tournament) -> dict:
    return results_public(tournament, results(tournament))


class PrizeView(APIView):
    parser_classes = [JSONParser]
    write_roles: tuple[str, ...] = MANAGE_TOURNAMENTS

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return [role_permission(*self.write_roles)()]


class PayoutsView(PrizeView):
    @extend_schema(responses=PayoutsOutput)
    def get(self, request, tournament_pk):
        """The payout table in force, the prize pool it shares out and whether it is
        locked. While registration is open the table follows the pool."""
        return Response(payouts_data(tournament_or_404(tournament_pk)))

    @extend_schema(request=PayoutsInput, responses=PayoutsOutput)
    def put(self, request, tournament_pk):
        """Change the settings, type the lines (they must add up to the prize pool), lock
        or unlock. The director only."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(PayoutsInput, request.data)
        settings = {k: v for k, v in data.items() if k in PayoutSettings.SETTINGS}
        services.payouts_update(
            actor=request.user,
            tournament_id=tournament.pk,
            settings=settings or None,
            lines=data.get("lines"),
            locked=data.get("locked"),
            template=data.get("template"),
        )
        return Response(payouts_data(tournament))


class ResultsView(PrizeView):
    @extend_schema(responses=ResultsOutput)
    def get(self, request, tournament_pk):
        """Finishing places and prizes: public. Tied places show their range (RP-8 A)."""
        return Response(results_data(tournament_or_404(tournament_pk)))


class PlaceView(PrizeView):
    @extend_schema(request=PlaceInput, responses=ResultsOutput)
    def put(self, request, tournament_pk, entry_pk):
        """The director enters an entry's place by hand; null goes back to the bust-outs."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(PlaceInput, request.data)
        services.place_enter(
            actor=request.user, tournament_id=tournament.pk, entry_id=entry_pk, place=data["place"]
        )
        return Response(results_data(tournament))


class PaymentsView(PrizeView):
    write_roles = PAY_PRIZES

    @extend_schema(request=PaymentInput, responses={201: ResultsOutput})
    def post(self, request, tournament_pk):
        """The cashier pays an entry its prize: a payout line in the ledger. Paying an
        entry twice is refused (409)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(PaymentInput, request.data)
        services.prize_pay(
            actor=request.user,
            tournament_id=tournament.pk,
            entry_id=data["entry"],
            expected=data.get("amount"),
        )
        return Response(results_data(tournament), status=status.HTTP_201_CREATED)


class PaymentView(PrizeView):
    write_roles = PAY_PRIZES

    @extend_schema(request=None, responses=ResultsOutput)
    def delete(self, request, tournament_pk, entry_pk):
        """Take back a payment made by mistake: the ledger line is reversed."""
        tournament = tournament_or_404(tournament_pk)
        services.prize_pay_undo(actor=request.user, tournament_id=tournament.pk, entry_id=entry_pk)
        return Response(results_data(tournament))


class DealCalculateView(PrizeView):
    write_roles = DEAL_FIGURES

    @extend_schema(request=DealCalculateInput, responses=DealFiguresOutput)
    def post(self, request, tournament_pk):
        """Casino §6: each player's amount under ICM (Malmuth–Harville), chip chop, or
        with an amount left for the winner; in the order given, summing exactly to the
        prizes (less the save). Changes nothing."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(DealCalculateInput, request.data)
        figures = services.deal_calculate(
            tournament_id=tournament.pk,
            method=data["method"],
            chips=data["chips"],
            prizes=data.get("prizes"),
            save=data.get("save"),
        )
        return Response(figures)


class DealView(PrizeView):
    @extend_schema(request=DealInput, responses={201: ResultsOutput})
    def post(self, request, tournament_pk):
        """Record the deal the players agreed (casino §6). Without `continue_play` the
        tournament is finished; with it, `save` is left for the winner."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(DealInput, request.data)
        services.deal_record(
            actor=request.user,
            tournament_id=tournament.pk,
            method=data["method"],
            players=[dict(p) for p in data["players"]],
            save=data["save"],
            continue_play=data["continue_play"],
        )
        tournament.refresh_from_db()
        return Response(results_data(tournament), status=status.HTTP_201_CREATED)


# --- Events made from other events ----------------------------------------------------------


class EventView(APIView):
    """The director's, reading as well as writing: templates are the house's own."""

    parser_classes = [JSONParser]

    def get_permissions(self):
        return [role_permission(*MANAGE_TOURNAMENTS)()]


class EventCopyView(EventView):
    @extend_schema(request=EventNewInput, responses={201: EventOutput})
    def post(self, request, tournament_pk):
        """Copy the event under a new name and start: a planned event with its settings,
        its own copy of the blind structure, the clock, payout, seating and hand-for-hand
        settings and (unless `tables` is false) its tables. Never its entries, players,
        hands, payments or results. 409 if another event has one of the tables in play."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(EventNewInput, request.data)
        made = events.event_copy(actor=request.user, tournament_id=tournament.pk, **data)
        return Response(EventOutput(made).data, status=status.HTTP_201_CREATED)


class EventTemplatesView(EventView):
    @extend_schema(responses=EventTemplateOutput(many=True))
    def get(self, request):
        """The saved event templates, by name."""
        templates = EventTemplate.objects.order_by("name", "id")
        return Response(EventTemplateOutput(templates, many=True).data)

    @extend_schema(request=EventTemplateInput, responses={201: EventTemplateOutput})
    def post(self, request):
        """Save an event's setup as a template under a name."""
        data = valid_data(EventTemplateInput, request.data)
        tournament = tournament_or_404(data["tournament"])
        template = events.event_template_save(
            actor=request.user, tournament_id=tournament.pk, name=data["name"]
        )
        return Response(EventTemplateOutput(template).data, status=status.HTTP_201_CREATED)


class EventTemplateView(EventView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, template_pk):
        """Delete a template; the events started from it stay."""
        events.event_template_delete(actor=request.user, template_id=template_pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventTemplateStartView(EventView):
    @extend_schema(request=EventNewInput, responses={201: EventOutput})
    def post(self, request, template_pk):
        """Start a new planned event from a template, under a name and start."""
        data = valid_data(EventNewInput, request.data)
        made = events.event_template_start(actor=request.user, template_id=template_pk, **data)
        return Response(EventOutput(made).data, status=status.HTTP_201_CREATED)


# --- Bounties (issue 18) ----------------------------------------------------------------


def knockouts_data(tournament) -> dict:
    found = list(bounty_knockouts(tournament))
    totals = bounty_totals(found)
    return {
        "currency": tournament.currency,
        "bounty_format": tournament.bounty_format,
        "won": totals.won,
        "paid": totals.paid,
        "left": totals.left,
        "knockouts": [knockout_public(knockout) for knockout in found],
    }


class BountyView(APIView):
    """Staff only: who knocked out whom and what the cage paid."""

    parser_classes = [JSONParser]

    def get_permissions(self):
        if self.request.method == "GET":
            return [role_permission(*ALL_ROLES)()]
        return [role_permission(*PAY_PRIZES)()]


class KnockoutsView(BountyView):
    @extend_schema(responses=KnockoutsOutput)
    def get(self, request, tournament_pk):
        """The knockouts that stand, in the order they were recorded: the busted entry
        and its eliminator, the cash, what a PKO added to the eliminator's bounty, the
        mystery draw, where it came from and whether the cage paid it; the bounty money
        won, paid and left to pay. Corrected knockouts are left out."""
        return Response(knockouts_data(tournament_or_404(tournament_pk)))


class KnockoutPaymentView(BountyView):
    @extend_schema(request=None, responses={201: KnockoutsOutput})
    def post(self, request, tournament_pk, knockout_pk):
        """The cashier pays a knockout's bounty: a BOUNTY line in the ledger, never from
        the prize pool. Paid already, corrected, or no cash to pay (PKO): 409."""
        tournament = tournament_or_404(tournament_pk)
        bounties.bounty_pay(
            actor=request.user, tournament_id=tournament.pk, knockout_id=knockout_pk
        )
        return Response(knockouts_data(tournament), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=KnockoutsOutput)
    def delete(self, request, tournament_pk, knockout_pk):
        """Take back a bounty paid by mistake: its line is reversed. Not paid: 409."""
        tournament = tournament_or_404(tournament_pk)
        bounties.bounty_pay_undo(
            actor=request.user, tournament_id=tournament.pk, knockout_id=knockout_pk
        )
        return Response(knockouts_data(tournament))


class KnockoutPaymentsView(BountyView):
    @extend_schema(request=BountiesPayAllInput, responses={201: KnockoutsOutput})
    def post(self, request, tournament_pk):
        """The cashier pays every bounty still due to one entry at once: one BOUNTY line
        each. Nothing due: 409."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(BountiesPayAllInput, request.data)
        bounties.bounties_pay_all(
            actor=request.user, tournament_id=tournament.pk, entry_id=data["entry"]
        )
        return Response(knockouts_data(tournament), status=status.HTTP_201_CREATED)
