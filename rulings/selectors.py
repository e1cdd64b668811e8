"""Reads for the floor: incidents, penalties being served, a player's record, the TDA 22
dispute window, the house rules."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from hands.models import Hand, OutOfTurn
from rulings.models import (
    Dispute,
    HouseRule,
    Incident,
    Penalty,
    PenaltyKind,
)
from tournaments.models import Entry, Venue
from tournaments.selectors import default_venue, venue_house_settings

__all__ = ["default_venue"]  # the rule book pages and API read it from here too

# TDA 22: at a break, a pot may be disputed for one minute after it is awarded.
BREAK_DISPUTE = timedelta(minutes=1)
SERVED_AWAY = (PenaltyKind.MISSED_HANDS, PenaltyKind.MISSED_ROUNDS)


def house_readings():
    """The house settings the floor calculators follow: the default venue's, the TDA's
    without a venue (a calculator is asked outside any event)."""
    return venue_house_settings(default_venue())


def house_rules(venue: Venue | None, *, tda: str | None = None):
    if venue is None:
        return HouseRule.objects.none()
    rules = HouseRule.objects.filter(venue=venue)
    return rules.filter(tda=tda) if tda else rules


def house_rules_search(venue: Venue | None, query: str):
    rules = house_rules(venue)
    for word in query.split():
        rules = rules.filter(
            Q(title__icontains=word) | Q(text__icontains=word) | Q(number__iexact=word)
        )
    return rules


# --- Incidents ----------------------------------------------------------------------------


def incidents_search(
    tournament_id: int | None = None,
    *,
    query: str = "",
    category: str = "",
    player_id: int | None = None,
    table: int | None = None,
):
    found = Incident.objects.select_related("tournament", "decided_by").prefetch_related(
        "entries__player"
    )
    if tournament_id is not None:
        found = found.filter(tournament_id=tournament_id)
    if category:
        found = found.filter(category=category)
    if player_id is not None:
        found = found.filter(entries__player_id=player_id)
    if table is not None:
        found = found.filter(table_number=table)
    for word in query.split():
        found = found.filter(
            Q(description__icontains=word)
            | Q(decision__icontains=word)
            | Q(entries__player__name__icontains=word)
        )
    return found.distinct()


@dataclass(frozen=True)
class DisputeWindow:
    """TDA 22: whether the decision on a pot can still be disputed."""

    kind: str
    open: bool
    until: datetime | None  # a time, for the break case
    reason: str  # "next_hand_started", "substantial_action", "minute_passed", "open"


def dispute_window(incident: Incident, now: datetime | None = None) -> DisputeWindow | None:
    if not incident.dispute:
        return None
    now = now or timezone.now()
    if incident.dispute == Dispute.BREAK:
        awarded = incident.pot_awarded_at or incident.at
        until = awarded + BREAK_DISPUTE
        return DisputeWindow(
            incident.dispute, now < until, until, "open" if now < until else "minute_passed"
        )
    next_hand = _next_hand(incident)
    if next_hand is None:
        return DisputeWindow(incident.dispute, True, None, "open")
    if incident.dispute == Dispute.READING:
        return DisputeWindow(incident.dispute, False, None, "next_hand_started")
    if _substantial_action(next_hand):
        return DisputeWindow(incident.dispute, False, None, "substantial_action")
    return DisputeWindow(incident.dispute, True, None, "open")


def _next_hand(incident: Incident):
    """The hand dealt at the incident's table after its hand, if the table logs hands."""
    if incident.table_number is None or incident.hand_number is None:
        return None
    return (
        Hand.objects.filter(
            tournament_id=incident.tournament_id,
            table__number=incident.table_number,
            number__gt=incident.hand_number,
        )
        .order_by("number")
        .first()
    )


def _substantial_action(hand) -> bool:
    """TDA 36: two actions in turn, at least one putting chips in; or any three actions.
    Hands without an action log count as past it once they are finished."""
    kinds = list(
        hand.actions.exclude(out_of_turn=OutOfTurn.KILLED)  # a hand killed is no action
        .order_by("sequence")
        .values_list("kind", flat=True)
    )
    if not kinds:
        return hand.status == "finished"
    chips = {"bet", "raise", "call", "all-in"}
    return len(kinds) >= 3 or (len(kinds) >= 2 and any(k in chips for k in kinds[:2]))


# --- Penalties ------------------------------------------------------------------------------


def penalties_serving(tournament_id: int):
    """Penalties whose player is away now: read through the away record (hands.Away)."""
    return Penalty.objects.filter(
        tournament_id=tournament_id, away__isnull=False, away__ended_at__isnull=True
    ).select_related("entry__player", "away")


def penalties_given(tournament_id: int):
    """The tournament's penalties, latest first."""
    return (
        Penalty.objects.filter(tournament_id=tournament_id)
        .select_related("entry__player", "given_by", "incident", "away")
        .order_by("-at", "-id")
    )


def warned_entries(tournament_id: int) -> set[int]:
    """Entries warned or penalised in this tournament: RP-15 has the outgoing dealer
    tell the incoming one, so the tablet shows it at the seat."""
    return set(
        Penalty.objects.filter(tournament_id=tournament_id)
        .exclude(away__cancelled=True)
        .values_list("entry_id", flat=True)
    )


def player_record(player_id: int):
    """Every incident and penalty of a player, across tournaments (TDA 71-A escalation)."""
    entries = Entry.objects.filter(player_id=player_id)
    incidents = (
        Incident.objects.filter(entries__in=entries)
        .select_related("tournament", "decided_by")
        .prefetch_related("entries__player")  # each incident lists its players
        .distinct()
    )
    penalties = Penalty.objects.filter(entry__in=entries).select_related(
        "tournament", "given_by", "entry", "away"
    )
    return incidents, penalties


def penalty_public(penalty: Penalty) -> dict:
    return {
        "id": penalty.pk,
        "tournament": penalty.tournament_id,
        "entry": penalty.entry_id,
        "kind": penalty.kind,
        "rounds": penalty.rounds,
        "hands": penalty.hands,
        "players_at_table": penalty.players_at_table,
        "table": penalty.table_number,
        "after_hand": penalty.after_hand,
        "hands_served": penalty.hands_served,
        "hands_left": penalty.hands_left,
        "chips_removed": penalty.chips_removed,
        "status": penalty.status,
        "reason": penalty.reason,
        "rules": penalty.rules,
        "incident": penalty.incident_id,
        "given_by": penalty.given_by.username if penalty.given_by else None,
        "at": penalty.at,
    }


def incident_public(incident: Incident, now: datetime | None = None) -> dict:
    window = dispute_window(incident, now)
    return {
        "id": incident.pk,
        "tournament": incident.tournament_id,
        "table": incident.table_number,
        "hand": incident.hand_number,
        "category": incident.category,
        "description": incident.description,
        "rules": incident.rules,
        "decision": incident.decision,
        "entries": [
            {"id": e.pk, "number": e.number, "player": {"id": e.player_id, "name": e.player.name}}
            for e in incident.entries.all()
        ],
        "decided_by": incident.decided_by.username if incident.decided_by else None,
        "at": incident.at,
        "dispute": (
            {
                "kind": window.kind,
                "open": window.open,
                "until": window.until,
                "reason": window.reason,
            }
            if window
            else None
        ),
    }


def dodge_public(ruled) -> dict:
    """The floor's ruling on dodged blinds (rulings.services.blinds_dodged_rule), with the
    penalty to give next: due by TDA 33, 71-B, possible by older TDA 22."""
    ruling = ruled.ruling
    return {
        "incident": incident_public(ruled.incident),
        "reading": ruling.reading,
        "rules": list(ruling.rules),
        "entry": ruled.entry.pk,
        "seat": ruled.seat,
        "small_blind": ruling.small_blind,
        "big_blind": ruling.big_blind,
        "dead_money": ruling.dead_money,
        "penalty_due": ruling.penalty_due,
        "penalty": {
            "url": reverse("api-penalties", args=[ruled.incident.tournament_id]),
            "entry": ruled.entry.pk,
            "incident": ruled.incident.pk,
            "rules": list(ruling.rules),
        },
    }
