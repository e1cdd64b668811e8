"""What a webhook says (issue 22): `{"type", "timestamp", "data"}` (Standard Webhooks'
shape), `data` holding the event (id and name) and the public facts of the change,
read from the lower apps' public selectors after the commit.

Only what a public screen may show: players by name, nickname and country
(`tournaments.selectors.player_public`), never contact data (email, phone, birth year);
chips only where the house publishes counts (`Tournament.chip_counts_public`).
"""

from clock.selectors import clock_steps, step_public
from floorman.models import AuditEntry
from hands.models import Knockout
from hands.selectors import finishing_places, hand_for_hand, place_public
from prizes.models import DealShare
from prizes.selectors import results, results_public
from seating.models import Move
from tournaments.models import Entry, Tournament
from tournaments.selectors import entry_public, player_public
from webhooks.engine import events


def envelope(event_type: str, at, data: dict) -> dict:
    return {"type": event_type, "timestamp": at.isoformat(), "data": data}


def tournament_public(tournament: Tournament) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "event_id": tournament.parent_id,  # a flight's event; None for an event
        "flight_name": tournament.flight_name or None,
    }


def steps_break(tournament_id: int):
    """`is_break(position)` for the event map, reading the structure once when asked."""
    steps = []

    def is_break(position: int) -> bool:
        if not steps:
            steps.append(clock_steps(tournament_id)[1])
        found = step_public(steps[0], position)
        return bool(found and found["is_break"])

    return is_break


def data_of(event_type: str, entry: AuditEntry, tournament: Tournament) -> dict:
    """The event's data: the event, and the facts of `entry`'s change."""
    data = {"tournament": tournament_public(tournament)}
    build = _BUILDERS.get(event_type)
    if build is not None:
        data.update(build(entry, tournament))
    return data


def _entry(entry_id, tournament: Tournament) -> dict | None:
    found = Entry.objects.select_related("player").filter(pk=entry_id).first()
    return None if found is None else entry_public(found, chips=tournament.chip_counts_public)


def _object_entry(entry: AuditEntry, tournament: Tournament) -> dict:
    return {"entry": _entry(entry.object_id, tournament)}


def _bust(entry: AuditEntry, tournament: Tournament) -> dict:
    place = finishing_places(tournament.pk).get(int(entry.object_id))
    return {"entry": _entry(entry.object_id, tournament), **place_public(place)}


def _prize(entry: AuditEntry, tournament: Tournament) -> dict:
    after = entry.after or {}
    return {
        "entry": _entry(entry.object_id, tournament),
        "place": after.get("place"),
        "amount": after.get("amount"),
        "currency": tournament.currency,
    }


def _moves(entry: AuditEntry, tournament: Tournament) -> dict:
    moves = Move.objects.filter(action_id=entry.object_id).select_related("entry__player")
    return {
        "moves": [
            {
                "entry": {"id": move.entry_id, "number": move.entry.number},
                "player": player_public(move.entry.player),
                "from": None
                if move.from_table is None
                else {"table": move.from_table, "seat": move.from_seat},
                "to": {"table": move.to_table, "seat": move.to_seat},
                "reason": move.reason,
            }
            for move in moves.order_by("pk")
        ]
    }


def _clock(entry: AuditEntry, tournament: Tournament) -> dict:
    after = entry.after or {}
    position = after.get("position")
    level = None
    if position:
        level = step_public(clock_steps(tournament.pk)[1], position)
    return {"clock": {"status": after.get("status"), "position": position}, "level": level}


def _h4h(entry: AuditEntry, tournament: Tournament) -> dict:
    settings = hand_for_hand(tournament.pk)
    return {"hand_for_hand": {"active": settings.active, "round": settings.round}}


def _bounties(entry: AuditEntry, tournament: Tournament) -> dict:
    after = entry.after or {}
    paid = after.get("paid") or [after]
    knockouts = Knockout.objects.filter(pk__in=[p.get("knockout") for p in paid])
    found = {k.pk: k for k in knockouts.select_related("winner__player", "busted__player")}
    rows = []
    for p in paid:
        knockout = found.get(p.get("knockout"))
        if knockout is None:
            continue
        rows.append(
            {
                "knockout": knockout.pk,
                "winner": {"id": knockout.winner_id, "number": knockout.winner.number},
                "winner_player": player_public(knockout.winner.player),
                "busted": {"id": knockout.busted_id, "number": knockout.busted.number},
                "busted_player": player_public(knockout.busted.player),
                "amount": p.get("amount"),
            }
        )
    return {"bounties": rows, "currency": tournament.currency}


def _deal(entry: AuditEntry, tournament: Tournament) -> dict:
    after = entry.after or {}
    shares = DealShare.objects.filter(deal_id=entry.object_id).select_related("entry__player")
    chips = tournament.chip_counts_public
    return {
        "method": after.get("method"),
        "ends_tournament": after.get("ends_tournament"),
        "currency": tournament.currency,
        "shares": [
            {
                "entry": {"id": share.entry_id, "number": share.entry.number},
                "player": player_public(share.entry.player),
                "amount": share.amount,
                "chips": share.chips if chips else None,
            }
            for share in shares.order_by("pk")
        ],
    }


def _results(entry: AuditEntry, tournament: Tournament) -> dict:
    return {"results": results_public(tournament, results(tournament))}


def _counts(entry: AuditEntry, tournament: Tournament) -> dict:
    after = entry.after or {}
    chips = tournament.chip_counts_public
    data = {"level": after.get("level"), "sweep": after.get("sweep")}
    if entry.action == "count.entry":
        data["entry"] = _entry(entry.object_id, tournament)
        data["table"] = after.get("table")
        data["chips"] = after.get("chips") if chips else None
    elif entry.action == "counts.table":
        number = (entry.object_repr or "").strip()  # the table's str() is its number
        data["table"] = int(number) if number.isdecimal() else None
        data["counts"] = (
            [{"seat": int(seat), "chips": n} for seat, n in after.get("counts", {}).items()]
            if chips
            else None
        )
    else:  # the sweep closed: the counts are in; fetch the leaders
        data["sweep"] = int(entry.object_id)
        data["tables_counted"] = after.get("counts")
    return data


_BUILDERS = {
    events.ENTRY_REGISTERED: _object_entry,
    events.ENTRY_REENTERED: _object_entry,
    events.ENTRY_BUSTED: _bust,
    events.PRIZE_PAID: _prize,
    events.SEAT_ASSIGNED: _moves,
    events.SEAT_MOVED: _moves,
    events.TABLE_BROKEN: _moves,
    events.TABLES_BALANCED: _moves,
    events.LEVEL_STARTED: _clock,
    events.BREAK_STARTED: _clock,
    events.CLOCK_STARTED: _clock,
    events.CLOCK_PAUSED: _clock,
    events.CLOCK_RESUMED: _clock,
    events.H4H_STARTED: _h4h,
    events.H4H_ROUND: _h4h,
    events.H4H_STOPPED: _h4h,
    events.BOUNTY_PAID: _bounties,
    events.DEAL_MADE: _deal,
    events.RESULTS_FINAL: _results,
    events.CHIPS_COUNTED: _counts,
}


def test_data(endpoint) -> dict:
    """The data of "send a test event"."""
    scope = (
        {"tournament": tournament_public(endpoint.tournament)}
        if endpoint.tournament_id
        else {"venue": {"id": endpoint.venue_id, "name": endpoint.venue.name}}
    )
    return {**scope, "endpoint": endpoint.pk, "test": True}
