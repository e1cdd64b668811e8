"""Rulings under /api/v1/: the TDA index (public), incidents and penalties (floor and
director only), a player's record, and the stateless floor calculators (public)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clock import services as clock_services
from floorman.api import valid_data
from floorman.parsers import JSONParser
from floorman.roles import MANAGE_TOURNAMENTS, RULINGS, role_permission
from rulings import calculators, selectors, services
from rulings.engine import dodged_blinds as dodges
from rulings.engine import rulebook
from rulings.forms.floor import IncidentFilterForm
from rulings.models import Category, Dispute, PenaltyKind
from seating.models import MAX_SEATS
from tournaments import house
from tournaments.lookups import tournament_or_404
from tournaments.models import Player, Venue
from tournaments.selectors import house_settings as house_settings_of

MAX_ID = 2**63 - 1
MAX_TEXT = 10_000


def _id(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class RulesField(serializers.ListField):
    child = serializers.CharField(max_length=40)

    def __init__(self, **kwargs):
        super().__init__(max_length=20, required=False, **kwargs)


# --- Shapes for the schema ------------------------------------------------------------------

RuleOutput = inline_serializer(
    "Rule",
    {
        "number": serializers.CharField(),
        "section": serializers.CharField(),
        "title": serializers.CharField(),
        "summary": serializers.CharField(),
        "keywords": serializers.ListField(child=serializers.CharField()),
    },
)
RuleDetailOutput = inline_serializer(
    "RuleDetail",
    {
        "number": serializers.CharField(),
        "title": serializers.CharField(),
        "summary": serializers.CharField(),
        "house_rules": serializers.ListField(child=serializers.DictField()),
    },
)
IncidentOutput = inline_serializer(
    "Incident",
    {"id": serializers.IntegerField(), "dispute": serializers.DictField(allow_null=True)},
)
PenaltyOutput = inline_serializer(
    "Penalty", {"id": serializers.IntegerField(), "hands_left": serializers.IntegerField()}
)
RecordOutput = inline_serializer(
    "PlayerRecord",
    {
        "incidents": serializers.ListField(child=serializers.DictField()),
        "penalties": serializers.ListField(child=serializers.DictField()),
    },
)


def _answer(name: str, **fields) -> serializers.Serializer:
    return inline_serializer(
        name,
        {
            **fields,
            "rules": serializers.ListField(child=serializers.CharField()),
            "explanation": serializers.CharField(),
        },
    )


BetOutput = _answer(
    "BetRuling",
    action=serializers.CharField(),
    to=serializers.IntegerField(),
    min_raise_to=serializers.IntegerField(),
    reopened=serializers.BooleanField(),
)
PotLimitOutput = _answer(
    "PotLimitAnswer",
    max_to=serializers.IntegerField(),
    to_call=serializers.IntegerField(),
    pot_after_call=serializers.IntegerField(),
)
PotsOutput = _answer(
    "PotsAnswer",
    pots=serializers.ListField(child=serializers.DictField()),
    totals=serializers.DictField(),
)
ChipRaceOutput = _answer(
    "ChipRaceAnswer",
    results=serializers.ListField(child=serializers.DictField()),
    chips_to_race=serializers.IntegerField(),
    new_chips_raced=serializers.IntegerField(),
)
ShowdownRightsOutput = _answer(
    "ShowdownRightsAnswer",
    answer=serializers.ChoiceField(choices=["yes", "discretion", "no"]),
    must_table=serializers.BooleanField(),
    last_aggressor=serializers.CharField(allow_null=True),
)
ChipsFoundOutput = _answer(
    "ChipsFoundAnswer",
    outcome=serializers.CharField(),
    kept_value=serializers.IntegerField(),
    removed_value=serializers.IntegerField(),
    exchanged_chips=serializers.IntegerField(),
    disqualification_possible=serializers.BooleanField(),
    action=inline_serializer(
        "ChipsRemovedAction",
        {
            "name": serializers.CharField(help_text="The API operation: api-chips-removed."),
            "method": serializers.CharField(),
            "api": serializers.CharField(),
            "body": serializers.DictField(),
            "page": serializers.CharField(allow_null=True),
        },
        allow_null=True,
        help_text="Chips taken out of play (TDA 8-B, 63, 64): where to record the removal.",
    ),
)
WrongSeatOutput = _answer(
    "WrongSeatAnswer",
    outcome=serializers.ChoiceField(choices=["move", "td_decides"]),
    after_hand=serializers.BooleanField(),
)
LateErrorOutput = _answer(
    "LateErrorAnswer", corrected=serializers.BooleanField(), to=serializers.IntegerField()
)


# --- The rule book --------------------------------------------------------------------------


def entry_public(entry, language: str) -> dict:
    return {
        "number": entry.number,
        "section": entry.section,
        "title": entry.title(language),
        "summary": entry.summary(language),
        "keywords": list(entry.keywords(language)),
    }


def _language(request) -> str:
    return rulebook.language_of(request.LANGUAGE_CODE)


class RuleBookView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=inline_serializer("RuleList", {"rules": serializers.ListField(child=RuleOutput)})
    )
    def get(self, request):
        """The TDA rules and recommended procedures, in your words; ?q= searches English
        and German titles, summaries and keywords."""
        query = request.query_params.get("q", "")[:200]
        language = _language(request)
        found = rulebook.search(query, language=language) if query.strip() else rulebook.entries()
        return Response({"rules": [entry_public(e, language) for e in found]})


class RuleView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="rulings_rule", responses=RuleDetailOutput)
    def get(self, request, number: str):
        """One rule: "45", "45-B", "RP-8"; with the default venue's house rules on it."""
        entry = rulebook.entry(number[:20])
        if entry is None:
            return Response({"detail": _("No such rule.")}, status=status.HTTP_404_NOT_FOUND)
        venue = selectors.default_venue()
        house = selectors.house_rules(venue, tda=entry.number)
        return Response(
            {
                **entry_public(entry, _language(request)),
                "house_rules": [
                    {"kind": r.kind, "number": r.number, "title": r.title, "text": r.text}
                    for r in house
                ],
            }
        )


# --- Incidents and penalties --------------------------------------------------------------


class IncidentInput(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=10_000, required=False, allow_null=True)
    hand = serializers.IntegerField(min_value=1, max_value=10**6, required=False, allow_null=True)
    category = serializers.ChoiceField(choices=Category.choices)
    description = serializers.CharField(max_length=MAX_TEXT)
    rules = RulesField()
    decision = serializers.CharField(max_length=MAX_TEXT)
    dispute = serializers.ChoiceField(choices=Dispute.choices, required=False, default="")
    entries = serializers.ListField(child=_id(), max_length=20, required=False, default=list)


class PenaltyInput(serializers.Serializer):
    entry = _id()
    kind = serializers.ChoiceField(choices=PenaltyKind.choices)
    rounds = serializers.IntegerField(
        min_value=1, max_value=services.MAX_ROUNDS, required=False, allow_null=True
    )
    hands = serializers.IntegerField(
        min_value=1, max_value=services.MAX_HANDS, required=False, allow_null=True
    )
    reason = serializers.CharField(max_length=MAX_TEXT, required=False, allow_blank=True)
    rules = RulesField()
    incident = _id(required=False, allow_null=True)


class DodgedBlindsInput(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)
    blinds = serializers.ChoiceField(
        choices=dodges.BLINDS,
        help_text=_("The blinds the player dodged: the small, the big or both (TDA 33)."),
    )


DodgedBlindsOutput = inline_serializer(
    "DodgedBlinds",
    {
        "incident": IncidentOutput,
        "reading": serializers.ChoiceField(choices=dodges.READINGS),
        "rules": serializers.ListField(child=serializers.CharField()),
        "entry": serializers.IntegerField(),
        "seat": serializers.IntegerField(),
        "small_blind": serializers.IntegerField(),
        "big_blind": serializers.IntegerField(),
        "dead_money": serializers.IntegerField(
            help_text=_("Posted as dead money in the player's next hand (older TDA 22).")
        ),
        "penalty_due": serializers.BooleanField(
            help_text=_("TDA 33, 71-B: a penalty must follow; otherwise it may.")
        ),
        "penalty": serializers.DictField(
            help_text=_("What to post to the penalties endpoint to give the penalty.")
        ),
    },
)


class FloorView(APIView):
    parser_classes = [JSONParser]

    def get_permissions(self):
        return [role_permission(*RULINGS)()]


class IncidentsView(FloorView):
    @extend_schema(
        responses=inline_serializer(
            "Incidents", {"incidents": serializers.ListField(child=IncidentOutput)}
        )
    )
    def get(self, request, tournament_pk):
        """The tournament's floor calls, latest first; ?q=, ?category=, ?table=."""
        tournament = tournament_or_404(tournament_pk)
        # The floor page's filters, read the same way: a garbled one is left out.
        filters = IncidentFilterForm(request.query_params).filters()
        found = selectors.incidents_search(tournament.pk, **filters)
        return Response({"incidents": [selectors.incident_public(i) for i in found[:500]]})

    @extend_schema(request=IncidentInput, responses={201: IncidentOutput})
    def post(self, request, tournament_pk):
        """Log a floor call and its decision."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(IncidentInput, request.data)
        incident = services.incident_record(
            actor=request.user, tournament_id=tournament.pk, data=data
        )
        return Response(selectors.incident_public(incident), status=status.HTTP_201_CREATED)


class PenaltiesView(FloorView):
    @extend_schema(
        responses=inline_serializer(
            "Penalties", {"penalties": serializers.ListField(child=PenaltyOutput)}
        )
    )
    def get(self, request, tournament_pk):
        """Penalties given in this tournament, latest first."""
        tournament = tournament_or_404(tournament_pk)
        penalties = selectors.penalties_given(tournament.pk)
        return Response({"penalties": [selectors.penalty_public(p) for p in penalties]})

    @extend_schema(request=PenaltyInput, responses={201: PenaltyOutput})
    def post(self, request, tournament_pk):
        """TDA 71: a warning, missed hands, missed rounds (one hand per player at the table,
        times the rounds) or disqualification (the chips leave play)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(PenaltyInput, request.data)
        penalty = services.penalty_give(actor=request.user, tournament_id=tournament.pk, data=data)
        return Response(selectors.penalty_public(penalty), status=status.HTTP_201_CREATED)


class PenaltyEndView(FloorView):
    @extend_schema(request=None, responses=PenaltyOutput)
    def post(self, request, tournament_pk, penalty_pk):
        """Let the player back before the hands are served."""
        tournament = tournament_or_404(tournament_pk)
        penalty = services.penalty_end(
            actor=request.user, tournament_id=tournament.pk, penalty_id=penalty_pk
        )
        return Response(selectors.penalty_public(penalty))


class DodgedBlindsView(FloorView):
    @extend_schema(request=DodgedBlindsInput, responses={201: DodgedBlindsOutput})
    def post(self, request, tournament_pk, number):
        """The player in a seat dodged the blinds (the small, the big or both, at the level
        in play). By the house's `dodged_blinds`: TDA 33, 71-B a penalty is due (give it
        through the penalties endpoint, naming the floor call); older TDA 22 the blinds go
        into the player's next pot as dead money, and a penalty may follow."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(DodgedBlindsInput, request.data)
        ruled = services.blinds_dodged_rule(
            actor=request.user,
            tournament_id=tournament.pk,
            number=number,
            seat=data["seat"],
            blinds=data["blinds"],
        )
        return Response(selectors.dodge_public(ruled), status=status.HTTP_201_CREATED)


class PlayerRecordView(FloorView):
    @extend_schema(responses=RecordOutput)
    def get(self, request, player_pk):
        """A player's floor record across tournaments (TDA 71-A: repeat offences escalate)."""
        if not Player.objects.filter(pk=player_pk).exists():
            return Response({"detail": _("No such player.")}, status=status.HTTP_404_NOT_FOUND)
        incidents, penalties = selectors.player_record(player_pk)
        return Response(
            {
                "incidents": [selectors.incident_public(i) for i in incidents],
                "penalties": [selectors.penalty_public(p) for p in penalties],
            }
        )


# --- Floor calculators (stateless) -------------------------------------------------------------


class CalculatorView(APIView):
    """Stateless: anyone may ask, nothing is recorded."""

    permission_classes = [AllowAny]
    parser_classes = [JSONParser]


class BetView(CalculatorView):
    @extend_schema(request=calculators.BetInput, responses=BetOutput)
    def post(self, request):
        """How the floor reads a bet (TDA 40–57): the action, the amount, the next minimum
        raise and whether betting is re-opened, with the rules that decide it. Unclear
        amounts follow the default venue's house setting (TDA 57 or IFP 4.17) unless the
        body says `ambiguous`."""
        readings = selectors.house_readings()
        return Response(
            calculators.bet(
                request.data, ambiguous=readings.unclear_amount, undercall=readings.undercall
            )
        )


class PotLimitView(CalculatorView):
    @extend_schema(request=calculators.PotLimitInput, responses=PotLimitOutput)
    def post(self, request):
        """The largest pot-limit bet or raise (TDA 54-B pre-flop: full blinds assumed;
        54-C after the flop: the actual pot)."""
        return Response(calculators.pot_limit(request.data))


class PotsView(CalculatorView):
    @extend_schema(request=calculators.PotsInput, responses=PotsOutput)
    def post(self, request):
        """Main and side pots from each player's total, split among the winners with odd
        chips by seat (TDA 20, 21)."""
        odd_chips = selectors.house_readings().odd_chips
        return Response(calculators.pots(request.data, odd_chips=odd_chips))


class ChipRaceView(CalculatorView):
    @extend_schema(request=calculators.ChipRaceInput, responses=ChipRaceOutput)
    def post(self, request):
        """TDA 24: who receives a new chip in the race, from seat 1, at most one each,
        nobody raced out."""
        return Response(calculators.chip_race(request.data))


class ShowdownRightsView(CalculatorView):
    @extend_schema(request=calculators.ShowdownRightsInput, responses=ShowdownRightsOutput)
    def post(self, request):
        """May this player have that hand tabled? TDA 16 (all-in: every hand tabled),
        17-B (uncontested), 18-A (mucked: no rights), 18-B (a caller may see the river's
        last aggressor; all else at the TD's discretion)."""
        return Response(calculators.showdown(request.data))


class ChipsFoundView(CalculatorView):
    @extend_schema(request=calculators.FoundChipsInput, responses=ChipsFoundOutput)
    def post(self, request):
        """Chips the floor is called to: found after the chip race (TDA 24-C), behind an
        all-in (TDA 62, or IFP 4.20 where the event's house setting says so), out of view
        (63), lost and found (64), forfeited at a re-entry (8-B)."""
        return Response(calculators.chips_found(request.data))


class LateErrorView(CalculatorView):
    @extend_schema(request=calculators.LateErrorInput, responses=LateErrorOutput)
    def post(self, request):
        """A wrong bet noticed late: still corrected, or does it stand? Underraises (TDA
        52-A), pot-limit bets on a wrong count (52-B)."""
        return Response(calculators.late_error(request.data))


class WrongSeatView(CalculatorView):
    @extend_schema(request=calculators.WrongSeatInput, responses=WrongSeatOutput)
    def post(self, request):
        """A player found in the wrong seat (TDA 7): to the drawn seat with the stack they
        have now, after the hand in play (TDA 31); a wrong stack too: the TD decides
        (TDA 1). The move itself is the seating move (`seating.services.entry_move`)."""
        return Response(calculators.seat_wrong(request.data))


# --- House settings (issue 19) --------------------------------------------------------------


def _reading_help(setting: house.Setting) -> str:
    return "; ".join(
        f"{reading.value}: {reading.label} ({reading.rule})" for reading in setting.readings
    )


def _readings_serializer(name: str, *, changes: bool) -> type[serializers.Serializer]:
    """One field per house setting, its readings as the enum and their rules as the help:
    the schema documents every setting. A change may send null: back to the venue's reading
    (an event) or the TDA's (a venue)."""
    fields = {
        setting.key: serializers.ChoiceField(
            choices=list(setting.values),
            required=False,
            allow_null=changes,
            help_text=f"{setting.label}. {_reading_help(setting)}. Default: {setting.default}.",
        )
        for setting in house.SETTINGS
    }
    return type(name, (serializers.Serializer,), fields)


ReadingsOutput = _readings_serializer("HouseReadings", changes=False)
ReadingsChanges = _readings_serializer("HouseReadingChanges", changes=True)


class TournamentHouseInput(serializers.Serializer):
    venue = _id(required=False, allow_null=True, help_text="null: the default venue.")
    house_settings = ReadingsChanges(required=False)


class VenueHouseInput(serializers.Serializer):
    house_settings = ReadingsChanges()


VenueHouseOutput = inline_serializer(
    "VenueHouseSettings",
    {
        "venue": serializers.IntegerField(),
        "name": serializers.CharField(),
        "house_settings": ReadingsOutput(help_text="The venue's reading of every setting."),
        "chosen": serializers.DictField(
            child=serializers.CharField(), help_text="The readings it chose over the TDA's."
        ),
    },
)
TournamentHouseOutput = inline_serializer(
    "TournamentHouseSettings",
    {
        "venue": serializers.IntegerField(allow_null=True),
        "venue_followed": serializers.IntegerField(allow_null=True),
        "house_settings": ReadingsOutput(help_text="The reading the event follows now."),
        "chosen": serializers.DictField(
            child=serializers.CharField(), help_text="The readings the event chose itself."
        ),
    },
)
GuideOutput = inline_serializer(
    "HouseSettingsGuide",
    {
        "settings": serializers.ListField(
            child=inline_serializer(
                "HouseSetting",
                {
                    "key": serializers.CharField(),
                    "label": serializers.CharField(),
                    "default": serializers.CharField(),
                    "readings": serializers.ListField(child=serializers.DictField()),
                },
            )
        )
    },
)


def _changes(body: dict) -> dict:
    """The changes as sent: unknown settings are refused by the service (400), which the
    serializer alone would drop silently."""
    raw = body.get("house_settings", {}) if isinstance(body, dict) else {}
    return raw if isinstance(raw, dict) else {}


def _venue_house(venue: Venue) -> dict:
    return {
        "venue": venue.pk,
        "name": venue.name,
        "house_settings": selectors.venue_house_settings(venue).values,
        "chosen": venue.house_settings,
    }


def _tournament_house(tournament) -> dict:
    followed = tournament.venue if tournament.venue_id else selectors.default_venue()
    return {
        "venue": tournament.venue_id,
        "venue_followed": followed.pk if followed else None,
        "house_settings": house_settings_of(tournament).values,
        "chosen": tournament.house_settings,
    }


class HouseSettingsGuideView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=GuideOutput)
    def get(self, request):
        """Every point where the rule books disagree: each setting's readings (TDA first, the
        default), the rule each follows and what it says."""
        settings = [
            {
                "key": setting.key,
                "label": str(setting.label),
                "default": setting.default,
                "readings": [
                    {
                        "value": r.value,
                        "label": str(r.label),
                        "rule": r.rule,
                        "summary": str(r.summary),
                    }
                    for r in setting.readings
                ],
            }
            for setting in house.SETTINGS
        ]
        return Response({"settings": settings})


class DirectorView(APIView):
    parser_classes = [JSONParser]

    def get_permissions(self):
        return [role_permission(*MANAGE_TOURNAMENTS)()]


class VenueHouseSettingsView(DirectorView):
    @extend_schema(responses=VenueHouseOutput)
    def get(self, request, venue_pk):
        """A venue's house settings: the reading its events follow where the books disagree."""
        return Response(_venue_house(get_object_or_404(Venue, pk=venue_pk)))

    @extend_schema(request=VenueHouseInput, responses=VenueHouseOutput)
    def patch(self, request, venue_pk):
        """Change some of the venue's readings; null takes a setting back to the TDA's."""
        venue = get_object_or_404(Venue, pk=venue_pk)
        valid_data(VenueHouseInput, request.data)
        venue = clock_services.venue_house_settings_save(
            actor=request.user, venue_id=venue.pk, changes=_changes(request.data)
        )
        return Response(_venue_house(venue))


class TournamentHouseSettingsView(DirectorView):
    @extend_schema(responses=TournamentHouseOutput)
    def get(self, request, tournament_pk):
        """The event's venue and the reading it follows for every house setting."""
        return Response(_tournament_house(tournament_or_404(tournament_pk)))

    @extend_schema(request=TournamentHouseInput, responses=TournamentHouseOutput)
    def patch(self, request, tournament_pk):
        """Choose the event's venue and its own readings; null follows the venue again."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(TournamentHouseInput, request.data)
        tournament = clock_services.house_settings_save(
            actor=request.user,
            tournament_id=tournament.pk,
            changes=_changes(request.data),
            venue_id=data["venue"] if "venue" in data else "keep",
        )
        return Response(_tournament_house(tournament))
