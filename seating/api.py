"""REST API for tables, seats, draws, moves, balancing, breaking and seat lookup (/api/v1/).

Thin: each view checks the shape of the input, calls one service or selector and renders
the result. Bodies are JSON. Who sits where is public (lobby screens and players' phones
show it, never contact data); changing it, and the balancing plan, are floor work.
"""

import dataclasses

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.fields import empty
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from floorman.api import valid_data
from floorman.errors import Conflict
from floorman.inputs import SEARCH_MAX_LENGTH
from floorman.parsers import JSONParser
from floorman.ratelimit import LookupThrottle
from floorman.roles import SEATING, role_permission
from seating import engine, services
from seating.engine import PLAN_KEY_MAX
from seating.engine.breaking import BreakPlan
from seating.messages import refusal_message, undo_summary
from seating.models import MAX_SEATS, MIN_SEATS, Move, Seat, SeatingAction
from seating.selectors import day2_seats, seat_lookup, seating_public, table_views, undo_plan
from seating.services.day2 import day2_start
from tournaments.lookups import tournament_or_404
from tournaments.messages import day2_refusal
from tournaments.models import Bag, BagStatus, Entry, Tournament
from tournaments.selectors import bag_label, day2_state, house_settings
from tournaments.services.day2 import bag_choose

MAX_ID = 2**63 - 1
MAX_TABLE = 9999  # as services.table_add
MAX_TABLES = 500  # more tables than any card room has


def table_number(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_TABLE, **kwargs)


def seat_number(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_SEATS, **kwargs)


def entry_id(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class OptionalBool(serializers.BooleanField):
    """A flag that may be left out; left out means "unchanged" (DRF would read a missing
    flag of an empty form body as False)."""

    default_empty_html = empty


# --- Input ---------------------------------------------------------------------------------


class TableCreateSerializer(serializers.Serializer):
    number = table_number()
    seats = serializers.IntegerField(
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        required=False,
        help_text=_("Seats at the table; by default the venue table's or the event's size."),
    )
    accessible = serializers.ListField(
        child=seat_number(),
        max_length=MAX_SEATS,
        required=False,
        help_text=_("Seats a wheelchair can reach (TDA 9); by default the venue table's."),
    )


class SeatSetSerializer(serializers.Serializer):
    blocked = OptionalBool(required=False)
    accessible = OptionalBool(required=False, help_text=_("A wheelchair can reach it (TDA 9)."))
    wait_for_button = OptionalBool(
        required=False, help_text=_("Dealt in once the button has passed (TDA 8-A, 10-A).")
    )

    def validate(self, data):
        if not data:
            raise serializers.ValidationError(
                _("Say what to change: blocked, accessible or wait_for_button.")
            )
        return data


class BreakOrderSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=table_number(),
        max_length=MAX_TABLES,
        help_text=_("Every table in play, the one to break first first (TDA 10-B)."),
    )


class TableBreakSerializer(serializers.Serializer):
    plan = serializers.CharField(
        max_length=PLAN_KEY_MAX,
        required=False,
        help_text=_(
            "The `plan` of GET on this address, echoed back: the table breaks only if that "
            "is still what the break does (409 break_plan_changed otherwise). Needed when "
            "the break opens an empty table (409 break_opens_table without it)."
        ),
    )


class HaltWaiverSerializer(serializers.Serializer):
    waived = serializers.BooleanField(default=True)


class DrawSerializer(serializers.Serializer):
    tables = serializers.IntegerField(
        min_value=1,
        max_value=MAX_TABLES,
        required=False,
        help_text=_("Open at least this many tables (first draw only)."),
    )
    keep_free = serializers.IntegerField(
        min_value=0,
        max_value=MAX_TABLES * MAX_SEATS,
        default=0,
        help_text=_("Seats to keep free for late entries (casino §8a, first draw only)."),
    )


class MoveSerializer(serializers.Serializer):
    entry = entry_id()
    to_table = table_number()
    to_seat = seat_number()
    reason = serializers.CharField(max_length=200, default="", allow_blank=True)


class BigBlindNextField(serializers.DictField):
    """{"<table>": <seat>}: the seat due the big blind on the next hand at each table."""

    child = seat_number()

    def to_internal_value(self, data):
        seats = super().to_internal_value(data)
        if len(seats) > MAX_TABLES:
            raise serializers.ValidationError(_("Too many tables."))
        if not all(key.isascii() and key.isdigit() and len(key) <= 4 for key in seats):
            raise serializers.ValidationError(_("Keys are table numbers, from 1 to 9999."))
        return {int(key): seat for key, seat in seats.items()}


class BalanceSerializer(serializers.Serializer):
    big_blind_next = BigBlindNextField(
        default=dict,
        help_text=_(
            "For each table involved, the seat due the big blind on the next hand "
            '(TDA 11-A), e.g. {"1": 4, "2": 5}.'
        ),
    )
    plan = serializers.CharField(
        max_length=PLAN_KEY_MAX,
        required=False,
        help_text=_(
            "The `plan` of GET balance/ (with the same big blind seats), echoed back: the "
            "moves are made only if they are still exactly those (409 balance_plan_changed "
            "otherwise, naming the `plan` as it is now; nothing is moved). Without it the "
            "moves worked out now are made."
        ),
    )


class BalanceQuerySerializer(serializers.Serializer):
    bb = serializers.ListField(
        child=serializers.CharField(max_length=20),
        max_length=MAX_TABLES,
        default=list,
        help_text=_(
            "Repeat for each table: table:seat, the seat due the big blind on the next hand "
            "(TDA 11-A), e.g. ?bb=1:4&bb=2:5. With them the plan names players and seats."
        ),
    )

    def validate_bb(self, values: list[str]) -> dict[int, int]:
        known = {}
        for value in values:
            table, colon, seat = value.partition(":")
            if not (colon and _number(table, MAX_TABLE) and _number(seat, MAX_SEATS)):
                raise serializers.ValidationError(_("Write table:seat, for example 3:5."))
            known[int(table)] = int(seat)
        return known


def _number(text: str, highest: int) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= highest


class PositionsSerializer(serializers.Serializer):
    """Casino §30: who would have had each position at the last tables (entry ids)."""

    big_blind = serializers.ListField(child=entry_id(), max_length=MAX_SEATS, default=list)
    button = serializers.ListField(child=entry_id(), max_length=MAX_SEATS, default=list)
    small_blind = serializers.ListField(child=entry_id(), max_length=MAX_SEATS, default=list)


class FinalTableSerializer(serializers.Serializer):
    table = table_number(
        required=False, help_text=_("The table to play on; by default the one that breaks last.")
    )
    positions = PositionsSerializer(
        required=False,
        help_text=_("Used when the house draws final seats by blind position (casino §30)."),
    )


class LookupQuerySerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=SEARCH_MAX_LENGTH, help_text=_("A name (accents optional) or an entry number.")
    )


# --- Output (shapes for the schema; the views answer with plain dicts) --------------------


class OccupantSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()


class SeatSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    accessible = serializers.BooleanField()
    blocked = serializers.BooleanField()
    wait_for_button = serializers.BooleanField()
    occupant = OccupantSerializer(allow_null=True)


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    size = serializers.IntegerField(help_text=_("Seats at the table."))
    players = serializers.IntegerField()
    break_order = serializers.IntegerField(help_text=_("1 breaks first."))
    halted = serializers.BooleanField(help_text=_("Play halts here (TDA 11-D)."))
    halt_rule = serializers.CharField(
        allow_null=True, help_text=_("The rule it halts by, as the house setting reads it.")
    )
    halt_waived = serializers.BooleanField()
    may_not_start = serializers.BooleanField(
        help_text=_(
            "Too few players to deal while other tables play (casino §17, when the house "
            "setting asks for three)."
        )
    )
    seats = SeatSerializer(many=True)


class MoveOutSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    from_table = serializers.IntegerField(allow_null=True)
    from_seat = serializers.IntegerField(allow_null=True)
    to_table = serializers.IntegerField()
    to_seat = serializers.IntegerField()
    reason = serializers.CharField()


class SeatingActionSerializer(serializers.Serializer):
    action = serializers.IntegerField()
    kind = serializers.CharField()
    seed = serializers.CharField(help_text=_("The random seed, to replay the draw."))
    undone = serializers.BooleanField()
    moves = MoveOutSerializer(many=True)


class AssignmentSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()


class DrawResultSerializer(serializers.Serializer):
    action = serializers.IntegerField()
    seed = serializers.CharField()
    assignments = AssignmentSerializer(many=True)
    short_tables = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_(
            "Tables that may not deal with so few players (casino §17: fewer than three), "
            "when the house setting asks for a minimum."
        ),
    )


class PublicSeatSerializer(AssignmentSerializer):
    wait_for_button = serializers.BooleanField()


class LookupSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)


class PlannedMoveSerializer(serializers.Serializer):
    entry = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    from_table = serializers.IntegerField()
    from_seat = serializers.IntegerField(allow_null=True)
    to_table = serializers.IntegerField()
    to_seat = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()


class HaltedSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    rule = serializers.CharField()


class BalancePlanSerializer(serializers.Serializer):
    moves = PlannedMoveSerializer(many=True)
    halted_tables = HaltedSerializer(many=True)
    needs_big_blind_next = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_("Tables whose seat due the big blind next is still needed."),
    )
    big_blind_next = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=_(
            "Table -> the seat due the big blind next that the plan used, for the tables "
            "it moves players from or to: from the table's button and hand log, or as "
            "given in ?bb= (TDA 11-A)."
        ),
    )
    big_blind_guesses = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=_(
            "Table -> a guess at its seat due the big blind next, for each table in "
            "needs_big_blind_next (its tablet logged no button and no hand). Only a "
            "guess: the plan does not use it unless it is given."
        ),
    )
    plan = serializers.CharField(
        allow_null=True,
        help_text=_(
            "The exact moves and big blind seats in a few characters: echo it in the POST "
            "to make exactly these moves (issue 16). Null while a seat due the big blind "
            "next is still needed, or nothing is to move."
        ),
    )


class BreakShareSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    fewest = serializers.IntegerField(help_text=_("Players it takes at least."))
    most = serializers.IntegerField(help_text=_("Players it takes at most."))
    opens = serializers.BooleanField(help_text=_("An empty table, opened for them."))


class BreakPlanSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    players = serializers.IntegerField(help_text=_("Players who move."))
    free = serializers.IntegerField(help_text=_("Open seats at the tables in play."))
    opens = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_("Empty tables the break opens; none when the players fit in play."),
    )
    shares = BreakShareSerializer(many=True)
    plan = serializers.CharField(help_text=_("Echo it in the POST to confirm this plan."))


# --- Reading -------------------------------------------------------------------------------


def _people(entry_ids) -> dict[int, tuple[int, str]]:
    rows = Entry.objects.filter(pk__in=list(entry_ids)).values_list("pk", "number", "player__name")
    return {pk: (number, name) for pk, number, name in rows}


def tables_data(tournament: Tournament, number: int | None = None) -> list[dict]:
    """The open tables with every seat and who sits there, and which tables halt."""
    _plan, halted, views = services.balance_state(tournament)
    halt_rule = dict(halted)
    short = set(engine.short_tables(views, rule=house_settings(tournament).table_minimum))
    seats = Seat.objects.filter(table__tournament=tournament, table__broken_at=None)
    if number is not None:
        seats = seats.filter(table__number=number)
    rows = seats.order_by("table__number", "number").values_list(
        "table__number",
        "table__seats",
        "table__break_order",
        "table__halt_waived",
        "number",
        "accessible",
        "blocked",
        "wait_for_button",
        "entry_id",
        "entry__number",
        "entry__player__name",
    )
    tables: dict[int, dict] = {}
    for table, size, order, waived, seat, accessible, blocked, wait, entry, nr, name in rows:
        data = tables.setdefault(
            table,
            {
                "number": table,
                "size": size,
                "players": 0,
                "break_order": order,
                "halted": table in halt_rule,
                "halt_rule": halt_rule.get(table),
                "halt_waived": waived,
                "may_not_start": table in short,
                "seats": [],
            },
        )
        occupant = {"entry": entry, "number": nr, "name": name} if entry is not None else None
        data["players"] += occupant is not None
        data["seats"].append(
            {
                "number": seat,
                "accessible": accessible,
                "blocked": blocked,
                "wait_for_button": wait,
                "occupant": occupant,
            }
        )
    return list(tables.values())


def action_data(action: SeatingAction) -> dict:
    rows = Move.objects.filter(action=action).values_list(
        "entry_id",
        "entry__number",
        "entry__player__name",
        "from_table",
        "from_seat",
        "to_table",
        "to_seat",
        "reason",
    )
    keys = ("entry", "number", "name", "from_table", "from_seat", "to_table", "to_seat", "reason")
    return {
        "action": action.pk,
        "kind": action.kind,
        "seed": action.seed,
        "undone": action.undone_at is not None,
        "moves": [dict(zip(keys, row, strict=True)) for row in rows.order_by("id")],
    }


def _planned(move: engine.PlannedMove, people: dict) -> dict:
    number, name = people.get(move.entry, (None, None))
    return {
        "entry": move.entry,
        "number": number,
        "name": name,
        "from_table": move.from_table,
        "from_seat": move.from_seat,
        "to_table": move.to_table,
        "to_seat": move.to_seat,
        "reason": move.reason,
    }


def plan_data(plan: engine.BalancePlan, halted: list[tuple[int, str]]) -> dict:
    """TDA 11-A moves (players and seats where the next big blinds are known), 11-D halts."""
    people = _people(m.entry for m in plan.moves if m.entry is not None)
    return {
        "moves": [_planned(m, people) for m in plan.moves],
        "halted_tables": [{"table": table, "rule": rule} for table, rule in halted],
        "needs_big_blind_next": list(plan.needs_big_blind),
        "big_blind_next": {str(n): seat for n, seat in plan.big_blind_next.items()},
        "big_blind_guesses": {str(n): seat for n, seat in plan.guesses.items() if seat is not None},
        "plan": plan.key if plan.moves and not plan.needs_big_blind else None,
    }


def break_data(plan: BreakPlan) -> dict:
    return {
        "table": plan.table,
        "players": plan.players,
        "free": plan.free,
        "opens": list(plan.opens),
        "shares": [
            {"table": s.table, "fewest": s.fewest, "most": s.most, "opens": s.opens}
            for s in plan.shares
        ],
        "plan": plan.key,
    }


# --- Views ---------------------------------------------------------------------------------


class SeatingView(APIView):
    """Changing the seating is floor work (directors too); bodies are JSON."""

    parser_classes = [JSONParser]
    permission_classes = [role_permission(*SEATING)]


class TablesView(SeatingView):
    """The tournament's tables in play, with their seats and players."""

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return super().get_permissions()

    @extend_schema(responses=TableSerializer(many=True))
    def get(self, request, tournament_pk):
        """Public, like the seating board: names, tables and seats, never contact data."""
        return Response(tables_data(tournament_or_404(tournament_pk)))

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    def post(self, request, tournament_pk):
        """Bring a table into play; the table added last breaks first (casino §8)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(TableCreateSerializer, request.data)
        table = services.table_add(
            actor=request.user,
            tournament_id=tournament.pk,
            number=data["number"],
            seats=data.get("seats"),
            accessible=",".join(map(str, data.get("accessible", []))),
        )
        (body,) = tables_data(tournament, table.number)
        return Response(body, status=status.HTTP_201_CREATED)


class TableView(SeatingView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, tournament_pk, number):
        """Take an empty table out of play (a table with players is broken instead)."""
        tournament = tournament_or_404(tournament_pk)
        services.table_remove(actor=request.user, tournament_id=tournament.pk, number=number)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableBreakView(SeatingView):
    @extend_schema(responses=BreakPlanSerializer)
    def get(self, request, tournament_pk, number):
        """TDA 10-B: what breaking the table would do: the tables that take its players
        and how many each, and any empty table it opens. 409 with the reason when it
        cannot be broken. Nothing is changed; the seats are drawn only by the POST."""
        tournament = tournament_or_404(tournament_pk)
        plan = services.break_preview(tournament_id=tournament.pk, number=number)
        return Response(break_data(plan))

    @extend_schema(request=TableBreakSerializer, responses=SeatingActionSerializer)
    def post(self, request, tournament_pk, number):
        """TDA 10-B: break the table; its players draw open seats at the tables in play
        (2-step random). A break that opens an empty table is made only with the plan of
        the GET echoed back. The answer lists the moves and the seed."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(TableBreakSerializer, request.data)
        action = services.table_break(
            actor=request.user, tournament_id=tournament.pk, number=number, plan=data.get("plan")
        )
        return Response(action_data(action))


class HaltWaiverView(SeatingView):
    @extend_schema(request=HaltWaiverSerializer, responses=TableSerializer)
    def post(self, request, tournament_pk, number):
        """TDA 11-D: let a short table play on ({"waived": false} halts it again)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(HaltWaiverSerializer, request.data)
        services.halt_waive(
            actor=request.user, tournament_id=tournament.pk, number=number, waived=data["waived"]
        )
        (body,) = tables_data(tournament, number)
        return Response(body)


class BreakOrderView(SeatingView):
    @extend_schema(request=BreakOrderSerializer, responses=TableSerializer(many=True))
    def put(self, request, tournament_pk):
        """TDA 10-B: the predetermined order in which tables break."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(BreakOrderSerializer, request.data)
        services.break_order_set(
            actor=request.user, tournament_id=tournament.pk, numbers=data["order"]
        )
        return Response(tables_data(tournament))


class SeatView(SeatingView):
    @extend_schema(request=SeatSetSerializer, responses=SeatSerializer)
    def post(self, request, tournament_pk, number, seat):
        """Block or open a seat, mark it accessible (TDA 9), or deal its newcomer in only
        after the button passes (TDA 8-A, 10-A). Fields left out stay as they are."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(SeatSetSerializer, request.data)
        row = services.seat_set(
            actor=request.user, tournament_id=tournament.pk, number=number, seat=seat, **data
        )
        (table,) = tables_data(tournament, number)
        return Response(next(s for s in table["seats"] if s["number"] == row.number))


class DrawView(SeatingView):
    @extend_schema(request=DrawSerializer, responses=DrawResultSerializer)
    def post(self, request, tournament_pk):
        """TDA 7: seat every unseated active entry at random (later: late entries at the
        shortest tables, TDA 8-A). 409 when seats are missing, saying how many tables."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(DrawSerializer, request.data)
        action, _assignments = services.seating_draw(
            actor=request.user,
            tournament_id=tournament.pk,
            tables=data.get("tables"),
            keep_free=data["keep_free"],
        )
        moves = action_data(action)["moves"]
        return Response(
            {
                "action": action.pk,
                "seed": action.seed,
                "assignments": [
                    {
                        "entry": m["entry"],
                        "number": m["number"],
                        "name": m["name"],
                        "table": m["to_table"],
                        "seat": m["to_seat"],
                    }
                    for m in moves
                ],
                "short_tables": engine.short_tables(
                    table_views(tournament.pk), rule=house_settings(tournament).table_minimum
                ),
            }
        )


class MovesView(SeatingView):
    @extend_schema(request=MoveSerializer, responses={201: SeatingActionSerializer})
    def post(self, request, tournament_pk):
        """TDA 7: move one player with their stack to an open seat."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(MoveSerializer, request.data)
        action = services.entry_move(
            actor=request.user,
            tournament_id=tournament.pk,
            entry_id=data["entry"],
            to_table=data["to_table"],
            to_seat=data["to_seat"],
            reason=data["reason"],
        )
        return Response(action_data(action), status=status.HTTP_201_CREATED)


class BalanceView(SeatingView):
    @extend_schema(parameters=[BalanceQuerySerializer], responses=BalancePlanSerializer)
    def get(self, request, tournament_pk):
        """TDA 11-A, 11-D: the moves that would balance the tables, and halted tables.
        Nothing is changed."""
        tournament = tournament_or_404(tournament_pk)
        known = valid_data(BalanceQuerySerializer, {"bb": request.query_params.getlist("bb")})["bb"]
        plan, halted, _views = services.balance_state(tournament, known)
        return Response(plan_data(plan, halted))

    @extend_schema(request=BalanceSerializer, responses=SeatingActionSerializer)
    def post(self, request, tournament_pk):
        """TDA 11-A: make the balancing moves. 400 names each table whose seat due the
        big blind next is still needed; 409 when the tables are balanced, or when the
        echoed `plan` is no longer what balancing would do (nothing is moved)."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(BalanceSerializer, request.data)
        action = services.tables_balance(
            actor=request.user,
            tournament_id=tournament.pk,
            big_blind_next=data["big_blind_next"],
            plan=data.get("plan"),
        )
        return Response(action_data(action))


class FinalTableView(SeatingView):
    @extend_schema(request=FinalTableSerializer, responses=SeatingActionSerializer)
    def post(self, request, tournament_pk):
        """RP-9: combine the last tables into the final table, seats drawn at random."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(FinalTableSerializer, request.data)
        action = services.final_table_draw(
            actor=request.user,
            tournament_id=tournament.pk,
            number=data.get("table"),
            positions=data.get("positions"),
        )
        return Response(action_data(action))


class UndoSerializer(serializers.Serializer):
    action = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text=_("The seating action to undo, as GET named it: only the last one is."),
    )


class UndoMoveSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    from_table = serializers.IntegerField(
        allow_null=True, help_text=_("Where the undo puts the player; null: no seat.")
    )
    from_seat = serializers.IntegerField(allow_null=True)
    to_table = serializers.IntegerField(help_text=_("Where the player sits now."))
    to_seat = serializers.IntegerField()


class UndoPlanSerializer(serializers.Serializer):
    action = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField(help_text=_("What the undo undoes, in words."))
    undoable = serializers.BooleanField()
    refusal = serializers.CharField(
        allow_blank=True, help_text=_("Why it cannot be undone (a refusal code), or empty.")
    )
    moves = UndoMoveSerializer(many=True)
    reopens = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Broken tables that open again.")
    )


class UndoView(SeatingView):
    @extend_schema(responses=UndoPlanSerializer)
    def get(self, request, tournament_pk):
        """What undoing the last seating action would do: which action, each player's way
        back, the tables that open again, and whether it can still be undone."""
        tournament = tournament_or_404(tournament_pk)
        plan = undo_plan(tournament.pk)
        if plan is None:
            raise Conflict(refusal_message("nothing_to_undo"), code="nothing_to_undo")
        return Response(
            {
                "action": plan.action.pk,
                "kind": plan.action.kind,
                "summary": undo_summary(plan.action, plan.moves),
                "undoable": not plan.refusal,
                "refusal": plan.refusal,
                "moves": [dataclasses.asdict(m) for m in plan.moves],
                "reopens": list(plan.reopens),
            }
        )

    @extend_schema(request=UndoSerializer, responses=SeatingActionSerializer)
    def post(self, request, tournament_pk):
        """Undo the seating action named (`action`, as GET shows it) while it is the last
        one and its players still sit where it put them; any other is refused (409), so a
        repeated request never undoes an earlier action. The answer lists the moves that
        were reversed."""
        tournament = tournament_or_404(tournament_pk)
        data = valid_data(UndoSerializer, request.data)
        action = services.seating_undo(
            actor=request.user, tournament_id=tournament.pk, action_id=data["action"]
        )
        return Response(action_data(action))


class SeatingListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=PublicSeatSerializer(many=True))
    def get(self, request, tournament_pk):
        """Public: every seated player by name with table and seat; no contact data."""
        return Response(seating_public(tournament_or_404(tournament_pk).pk))


# The serializer's one field, made once: a serializer copies its fields on every use.
LOOKUP_QUERY = LookupQuerySerializer().fields["q"]


class JsonOnly(BaseContentNegotiation):
    """JSON whatever the client accepts (DRF's own recipe, IgnoreClientContentNegotiation):
    reading the Accept header was half of DRF's own time on the lookup (issue 20)."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class LookupView(APIView):
    # Public and hot when a draw is announced: no user to authenticate, no body to parse,
    # JSON only.
    authentication_classes = []
    permission_classes = [AllowAny]
    parser_classes = []
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JsonOnly
    throttle_classes = [LookupThrottle]  # with the lookup page: FLOORMAN_RATE_LOOKUP

    @extend_schema(parameters=[LookupQuerySerializer], responses=LookupSerializer(many=True))
    def get(self, request, tournament_pk):
        """Public seat lookup by name (Müller finds Mueller) or entry number."""
        # The hot path of a draw announcement: at most one small query (seating.lookup).
        try:
            query = LOOKUP_QUERY.run_validation(request.query_params.get("q", ""))
        except serializers.ValidationError as error:
            tournament_or_404(tournament_pk)
            raise serializers.ValidationError({"q": error.detail}) from None
        rows = seat_lookup(tournament_pk, query)
        if rows is None:  # no such tournament, told by the lookup's index
            raise Http404
        return Response(rows)


# --- Day 2 of an event with flights (issue 17) ------------------------------------------------


class BagOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    tag = serializers.CharField(help_text=_("The bag's flight and number, e.g. 1B-7."))
    entry = serializers.IntegerField(help_text=_("The entry in the flight."))
    player = serializers.DictField(help_text=_("id and name"))
    chips = serializers.IntegerField()
    status = serializers.ChoiceField(choices=BagStatus.choices)
    forfeit_reason = serializers.CharField()
    day2_entry = serializers.IntegerField(allow_null=True)


class FlightDay2Serializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    flight_name = serializers.CharField()
    status = serializers.CharField()
    stopped = serializers.BooleanField(help_text=_("Play stopped for the day."))
    confirmed = serializers.BooleanField(help_text=_("Its bags are confirmed."))
    survivors = serializers.IntegerField()
    bags = BagOutSerializer(many=True)


class DoubleSerializer(serializers.Serializer):
    player = serializers.DictField(help_text=_("id and name"))
    bags = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("First flight first.")
    )
    kept = serializers.IntegerField(
        allow_null=True, help_text=_("The bag that plays Day 2; null while the player chooses.")
    )
    must_choose = serializers.BooleanField()


class Day2SeatSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    chips = serializers.IntegerField()
    bag = serializers.CharField(allow_null=True, help_text=_("null for a late entry."))


class Day2StateSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    survivor_keeps = serializers.CharField()
    started = serializers.BooleanField()
    ready = serializers.BooleanField(help_text=_("Day 2 can start now."))
    refusal = serializers.DictField(
        allow_null=True, help_text=_("Why it cannot start yet: code and message.")
    )
    flights = FlightDay2Serializer(many=True)
    doubles = DoubleSerializer(many=True)
    field = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("The bags that play Day 2, biggest first.")
    )
    field_chips = serializers.IntegerField()
    seats = Day2SeatSerializer(many=True)


def _day2_event(tournament_pk: int) -> Tournament:
    """The event; a flight's id names its event."""
    tournament = tournament_or_404(tournament_pk)
    if tournament.parent_id is not None:
        return tournament_or_404(tournament.parent_id)
    return tournament


def day2_data(event: Tournament) -> dict:
    state = day2_state(event)
    flights = {row.flight.pk: row.flight for row in state.flights}

    def bag_data(bag) -> dict:
        return {
            "id": bag.pk,
            "number": bag.number,
            "tag": bag_label(flights[bag.flight_id], bag),
            "entry": bag.entry_id,
            "player": {"id": bag.entry.player_id, "name": bag.entry.player.name},
            "chips": bag.chips,
            "status": bag.status,
            "forfeit_reason": bag.forfeit_reason,
            "day2_entry": bag.day2_entry_id,
        }

    refusal = None
    if state.refusal:
        code, data = state.refusal
        refusal = {"code": code, "message": day2_refusal(code, **data)}
    seats = day2_seats(event) if state.started else []
    return {
        "event": event.pk,
        "survivor_keeps": event.survivor_keeps,
        "started": state.started,
        "ready": state.ready,
        "refusal": refusal,
        "flights": [
            {
                "id": row.flight.pk,
                "name": row.flight.name,
                "flight_name": row.flight.flight_name,
                "status": row.flight.status,
                "stopped": row.stopped,
                "confirmed": row.confirmed,
                "survivors": row.survivors,
                "bags": [bag_data(b) for b in row.bags],
            }
            for row in state.flights
        ],
        "doubles": [
            {
                "player": {"id": d.player.pk, "name": d.player.name},
                "bags": [b.pk for b in d.bags],
                "kept": d.kept.pk if d.kept else None,
                "must_choose": d.must_choose,
            }
            for d in state.doubles
        ],
        "field": [b.pk for b in state.field],
        "field_chips": state.field_chips,
        "seats": [
            {
                "entry": s["entry"],
                "name": s["name"],
                "table": s["table"],
                "seat": s["seat"],
                "chips": s["chips"],
                "bag": f"{s['flight']}-{s['bag']}" if s["bag"] else None,
            }
            for s in seats
        ],
    }


class Day2View(SeatingView):
    @extend_schema(responses=Day2StateSerializer)
    def get(self, request, tournament_pk):
        """Day 2 of an event with flights (issue 17): each flight's end of day and bags,
        the players in two flights and the bag each keeps, the field, why Day 2 cannot
        start yet, and once it has, the seats. A flight's id answers for its event."""
        return Response(day2_data(_day2_event(tournament_pk)))


class Day2StartView(SeatingView):
    @extend_schema(request=None, responses=Day2StateSerializer)
    def post(self, request, tournament_pk):
        """Start Day 2: every flight stopped and its bags confirmed, the survivor rule
        applied (the other bags forfeited), one Day 2 entry per bag with its chips, the
        random redraw (TDA 7; its seed stored). 409 with the reason otherwise (codes as
        `refusal` of GET), and nothing written."""
        event = tournament_or_404(tournament_pk)
        day2_start(actor=request.user, event_id=event.pk)
        return Response(day2_data(event))


class Day2BagChooseView(SeatingView):
    @extend_schema(request=None, responses=Day2StateSerializer)
    def post(self, request, tournament_pk, bag_pk):
        """The player who survived two flights plays Day 2 with this bag; their other
        bags are forfeited. Only where the house lets the player choose, before Day 2
        starts (409 otherwise)."""
        event = _day2_event(tournament_pk)
        if not Bag.objects.filter(pk=bag_pk, flight__parent=event).exists():
            raise Http404
        bag_choose(actor=request.user, bag_id=bag_pk)
        return Response(day2_data(event))
