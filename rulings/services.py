"""The only code that changes rulings: house rules and imported rule books, incidents,
penalties. One transaction per intention, the tournament row locked where the floor
and a table's tablet could collide, one audit entry each, live events on commit."""

import re
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.services import clock_heads_up_sync
from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid, NotFound
from hands.engine import stud
from hands.models import DeadBlinds
from hands.selectors import next_hand_number, open_table
from hands.services.away import away_end, away_start
from hands.services.busts import play_end
from hands.services.common import publish_table, table_of
from hands.services.dead_blinds import dead_blinds_owe
from hands.services.levels import level_now
from rulings.engine import dodged_blinds as dodges
from rulings.engine import housebook, rulebook
from rulings.models import (
    Category,
    Dispute,
    HouseRule,
    HouseRuleKind,
    Incident,
    Penalty,
    PenaltyKind,
    PenaltyStatus,
    Venue,
)
from rulings.selectors import SERVED_AWAY, incident_public, penalty_public
from seating.models import Seat
from seating.services import seat_release
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import house_settings
from tournaments.services import entry_locked, entry_out, tournament_lock

# "45", "45-B", "TDA 45-B", "RP-8": references the TDA index must know.
TDA_REFERENCE = re.compile(r"^(tda\s*)?(\d{1,3}(-?[a-z])?|rp[\s-]?\d{1,2})$", re.IGNORECASE)
MAX_ROUNDS = 10  # missed rounds: beyond this a TD disqualifies
MAX_HANDS = 500


def _refuse(code: str, message: str, **data) -> Conflict:
    return Conflict(message, code=code, data=data)


# --- Rule references ------------------------------------------------------------------------


def rules_checked(references: list[str], field: str = "rules") -> list[str]:
    """Rule references as the floor types them: TDA numbers must exist ("45-B", "RP-8");
    casino, IFP and house references are kept as written."""
    checked = []
    for reference in references:
        text = " ".join(str(reference).split())
        if not text:
            continue
        if len(text) > 40:
            raise Invalid({field: _("A rule reference is at most 40 characters.")})
        if TDA_REFERENCE.match(text) and rulebook.entry(text) is None:
            raise Invalid({field: _("There is no TDA rule %(rule)s.") % {"rule": text}})
        checked.append(text)
    return checked


# --- Venues and house rules -----------------------------------------------------------------


@transaction.atomic
def venue_save(*, actor, name: str, is_default: bool, venue_id=None):
    venue = Venue.objects.select_for_update().filter(pk=venue_id).first() if venue_id else None
    if venue_id and venue is None:
        raise NotFound(_("No such venue."))
    if Venue.objects.filter(name__iexact=name).exclude(pk=venue_id).exists():
        raise Invalid({"name": _("A venue of this name exists.")})
    if is_default:
        Venue.objects.filter(is_default=True).exclude(pk=venue_id).update(is_default=False)
    venue = venue or Venue()
    venue.name, venue.is_default = name, is_default
    venue.save()
    audit_record(
        actor=actor,
        action="venue.save",
        obj=venue,
        after={"name": name, "default": is_default},
    )
    return venue


def _venue(venue_id: int) -> Venue:
    venue = Venue.objects.select_for_update().filter(pk=venue_id).first()
    if venue is None:
        raise NotFound(_("No such venue."))
    return venue


@transaction.atomic
def house_rule_save(*, actor, venue_id: int, data: dict, rule_id: int | None = None):
    venue = _venue(venue_id)
    rule = HouseRule.objects.filter(venue=venue, pk=rule_id).first() if rule_id else None
    if rule_id and rule is None:
        raise NotFound(_("No such house rule."))
    tda = ""  # a rule of the house's own stands on no TDA rule
    if data["kind"] != HouseRuleKind.OWN:
        cited = (data.get("tda") or "").strip()
        found = rulebook.entry(cited) if cited else None
        if found is None:
            raise Invalid({"tda": _("Name the TDA rule this house rule changes, e.g. 29.")})
        tda = found.number
    rule = rule or HouseRule(venue=venue, position=_next_position(venue))
    rule.kind, rule.tda = data["kind"], tda
    rule.number, rule.title, rule.text = data.get("number", ""), data["title"], data["text"]
    rule.save()
    audit_record(
        actor=actor,
        action="house_rule.save",
        obj=rule,
        after={"venue": venue.pk, "kind": rule.kind, "tda": tda, "title": rule.title},
    )
    return rule


def _next_position(venue: Venue) -> int:
    last = HouseRule.objects.filter(venue=venue).order_by("-position").first()
    return (last.position + 1) if last else 1


@transaction.atomic
def house_rule_delete(*, actor, venue_id: int, rule_id: int) -> None:
    venue = _venue(venue_id)
    rule = HouseRule.objects.filter(venue=venue, pk=rule_id).first()
    if rule is None:
        raise NotFound(_("No such house rule."))
    audit_record(actor=actor, action="house_rule.delete", obj=rule, before={"title": rule.title})
    rule.delete()


@transaction.atomic
def rulebook_import(*, actor, venue_id: int, text: str, source: str = "") -> list[HouseRule]:
    """The house's own rule book, from its text or Markdown file: one house rule per
    section, replacing what the last import brought (rules typed by hand stay)."""
    venue = _venue(venue_id)
    try:
        sections = housebook.split_sections(text)
    except ValueError:  # too long, or too many sections for a rule book
        raise Invalid(
            {"text": _("This is too much for one rule book: at most 2,000 sections.")}
        ) from None
    if not sections:
        raise Invalid({"text": _("No rules found: the file needs headings or numbered rules.")})
    HouseRule.objects.filter(venue=venue, imported=True).delete()
    start = _next_position(venue)
    rules = HouseRule.objects.bulk_create(
        HouseRule(
            venue=venue,
            kind=HouseRuleKind.ADDITION if section.tda else HouseRuleKind.OWN,
            tda=section.tda or "",
            number=section.number[:20],
            title=section.title[:200],
            text=section.text,
            position=start + i,
            imported=True,
        )
        for i, section in enumerate(sections)
    )
    audit_record(
        actor=actor,
        action="rulebook.import",
        obj=venue,
        after={"source": source[:200], "sections": len(rules)},
    )
    return rules


# --- Incidents --------------------------------------------------------------------------------


def _entries_of(tournament: Tournament, entry_ids: list[int]) -> list[Entry]:
    ids = list(dict.fromkeys(entry_ids))
    entries = list(Entry.objects.filter(tournament=tournament, pk__in=ids))
    if len(entries) != len(ids):
        raise Invalid({"entries": _("Every player must hold an entry in this tournament.")})
    return entries


@transaction.atomic
def incident_record(*, actor, tournament_id: int, data: dict) -> Incident:
    """Log a floor call: the situation, who, the rules cited and the decision."""
    tournament = tournament_lock(tournament_id)
    entries = _entries_of(tournament, data.get("entries", []))
    dispute = data.get("dispute", "")
    if dispute in (Dispute.READING, Dispute.ACCOUNTING) and data.get("hand") is None:
        raise Invalid({"hand": _("Give the hand: the dispute window runs from it (TDA 22).")})
    incident = Incident.objects.create(
        tournament=tournament,
        table_number=data.get("table"),
        hand_number=data.get("hand"),
        category=data["category"],
        description=data["description"],
        rules=rules_checked(data.get("rules", [])),
        decision=data["decision"],
        dispute=dispute,
        pot_awarded_at=timezone.now() if dispute == Dispute.BREAK else None,
        decided_by=staff_user(actor),
    )
    incident.entries.set(entries)
    audit_record(
        actor=actor,
        action="incident.record",
        obj=incident,
        tournament=tournament,
        after={k: v for k, v in incident_public(incident).items() if k not in ("at", "dispute")},
    )
    return incident


# --- Penalties (TDA 71, casino §49) -------------------------------------------------------------


def _seat_of(entry: Entry):
    return (
        Seat.objects.filter(entry=entry, table__broken_at__isnull=True)
        .select_related("table")
        .first()
    )


def _hand_now(table) -> int | None:
    """The hand being played at the table, or the last dealt: the penalty starts after it
    (TDA 68). None where the table logs no hands."""
    return (next_hand_number(table) - 1) or None


def missed_hands(kind: str, *, rounds: int | None, hands: int | None, players: int) -> int:
    """TDA 71-A: a missed round is one hand for every player at the table when the
    penalty is given, the offender included."""
    if kind == PenaltyKind.MISSED_ROUNDS:
        return rounds * players
    if kind == PenaltyKind.MISSED_HANDS:
        return hands
    return 0


@transaction.atomic
def penalty_give(*, actor, tournament_id: int, data: dict) -> Penalty:
    """A penalty (TDA 71), under the tournament's lock: a warning is recorded; missed
    hands or rounds send the player away from the table (hands.services.away.away_start:
    counted from the end of the hand in play, which the player plays out live, TDA 68;
    from the next hand dealt in dead, 71-C); a
    disqualification takes the entry out of play (71-D), and one that leaves a single
    player finishes the tournament (hands.services.busts.play_end). One audit entry; the
    table's tablet is told."""
    tournament = tournament_lock(tournament_id)
    entry = entry_locked(tournament, data["entry"])
    if entry.status != EntryStatus.ACTIVE:
        raise _refuse("entry_not_active", _("Only a player still in the tournament is penalised."))
    kind = data["kind"]
    incident = None
    if data.get("incident"):
        incident = Incident.objects.filter(tournament=tournament, pk=data["incident"]).first()
        if incident is None:
            raise Invalid({"incident": _("No such incident in this tournament.")})
    seat = _seat_of(entry)
    players = seat.table.seat_set.filter(entry__isnull=False).count() if seat else None
    if kind == PenaltyKind.MISSED_ROUNDS and not data.get("rounds"):
        raise Invalid({"rounds": _("Give the number of rounds.")})
    if kind == PenaltyKind.MISSED_HANDS and not data.get("hands"):
        raise Invalid({"hands": _("Give the number of hands.")})
    if kind in SERVED_AWAY and seat is None:
        raise _refuse("not_seated", _("The player has no seat: a missed-hand penalty needs one."))
    hands = missed_hands(kind, rounds=data.get("rounds"), hands=data.get("hands"), players=players)
    away = None
    if kind in SERVED_AWAY:
        away = away_start(tournament=tournament, entry=entry, table=seat.table, hands=hands)
    penalty = Penalty.objects.create(
        tournament=tournament,
        entry=entry,
        incident=incident,
        kind=kind,
        rounds=data.get("rounds") if kind == PenaltyKind.MISSED_ROUNDS else None,
        hands=hands,
        players_at_table=players,
        table_number=seat.table.number if seat else None,
        after_hand=_hand_now(seat.table) if seat else None,
        away=away,
        reason=data.get("reason", ""),
        rules=rules_checked(data.get("rules", [])),
        given_by=staff_user(actor),
    )
    if kind == PenaltyKind.DISQUALIFICATION:
        _disqualify(actor, tournament, entry, penalty)
    audit_record(
        actor=actor,
        action=f"penalty.{kind}",
        obj=penalty,
        tournament=tournament,
        after={k: v for k, v in penalty_public(penalty).items() if k != "at"},
    )
    _publish_table(tournament, penalty.table_number)
    if kind == PenaltyKind.DISQUALIFICATION:
        play_end(actor=actor, tournament=tournament)  # one player left: the winner
    return penalty


def _disqualify(actor, tournament: Tournament, entry: Entry, penalty: Penalty) -> None:
    """TDA 71-D, under penalty_give's lock: the chips leave play (they count no more in
    the chips a deal must add up to); the entry leaves play (tournaments), its seat is
    freed (seating) and the clock learns how many are left (casino §31)."""
    penalty.chips_removed = entry.chips
    penalty.save(update_fields=["chips_removed"])
    entry_out(actor=actor, tournament=tournament, entry=entry, status=EntryStatus.DISQUALIFIED)
    seat_release(tournament=tournament, entry=entry)
    clock_heads_up_sync(tournament_id=tournament.pk)


@transaction.atomic
def penalty_end(*, actor, tournament_id: int, penalty_id: int) -> Penalty:
    """The TD lets a player back before the hands are served (or the penalty was a
    mistake): under the tournament's lock, the away record ends, cancelled
    (hands.services.away.away_end); one audit entry; the table's tablet is told. A
    disqualification is not taken back here."""
    tournament = tournament_lock(tournament_id)
    penalty = (
        Penalty.objects.filter(tournament=tournament, pk=penalty_id).select_related("away").first()
    )
    if penalty is None:
        raise NotFound(_("No such penalty in this tournament."))
    if penalty.status != PenaltyStatus.SERVING:
        raise _refuse("penalty_not_serving", _("This penalty is not being served."))
    away_end(away=penalty.away)
    audit_record(
        actor=actor,
        action="penalty.end",
        obj=penalty,
        tournament=tournament,
        after={"hands_served": penalty.hands_served, "hands": penalty.hands},
    )
    _publish_table(tournament, penalty.table_number)
    return penalty


def _publish_table(tournament: Tournament, table_number: int | None) -> None:
    if table_number is None:
        return
    table = open_table(tournament.pk, table_number)
    if table is not None:
        publish_table(table)


# --- Dodged blinds (TDA 33, 71-B; older TDA 22; casino §22) ----------------------------------


@dataclass(frozen=True)
class DodgeRuled:
    """The floor's ruling on dodged blinds: its record (a floor call naming the player),
    the ruling by the house's reading, and the dead money owed (older TDA 22) if any."""

    incident: Incident
    ruling: dodges.DodgeRuling
    entry: Entry
    seat: int
    owed: DeadBlinds | None


@transaction.atomic
def blinds_dodged_rule(*, actor, tournament_id: int, number: int, seat: int, blinds: str):
    """The floor rules that the player in `seat` at table `number` dodged the blinds
    (`blinds`: small, big or both), worth what they are at the level in play, by the
    house's reading of `dodged_blinds` (rulings.engine.dodged_blinds).

    Steps: the blinds named (400) → lock → the table in play (404), a seat of it (400)
    with a player (409) → the level in play with blinds (a break, stud, no structure:
    409) → the ruling: TDA 33, 71-B a penalty is due (given through `penalty_give`, the
    floor call named); older TDA 22 the blinds are owed as dead money in the player's
    next hand (hands.services.dead_blinds.dead_blinds_owe: one debt at a time, else 409)
    and a penalty may follow → the floor call (`Incident`) naming the player, the rules
    and the decision → audit `blinds.dodged` → the table's tablet told."""
    if blinds not in dodges.BLINDS:
        raise Invalid({"blinds": _("Say which blinds were dodged: the small, the big or both.")})
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    place = (
        Seat.objects.filter(table=table, number=seat, blocked=False)
        .select_related("entry__player")
        .first()
    )
    if place is None:
        raise Invalid(
            {"seat": _("Table %(table)s has no seat %(seat)s.") % {"table": number, "seat": seat}}
        )
    if place.entry is None or place.entry.status != EntryStatus.ACTIVE:
        raise _refuse("seat_empty", _("Nobody sits in seat %(seat)s.") % {"seat": seat}, seat=seat)
    entry = place.entry
    level, step = _blinds_in_play(tournament)
    reading = house_settings(tournament).dodged_blinds
    ruling = dodges.dodge_ruling(
        reading, blinds=blinds, small_blind=step.small_blind, big_blind=step.big_blind
    )
    owed = None
    if ruling.dead_money:
        owed = dead_blinds_owe(
            tournament=tournament,
            entry=entry,
            table_number=table.number,
            seat=seat,
            level=level,
            small_blind=ruling.small_blind,
            big_blind=ruling.big_blind,
        )
    incident = Incident.objects.create(
        tournament=tournament,
        table_number=table.number,
        hand_number=_hand_now(table),
        category=Category.SEATING,
        description=dodge_description(entry, seat, ruling, level),
        rules=list(ruling.rules),
        decision=dodge_decision(ruling),
        decided_by=staff_user(actor),
    )
    incident.entries.set([entry])
    audit_record(
        actor=actor,
        action="blinds.dodged",
        obj=incident,
        tournament=tournament,
        after={
            "table": table.number,
            "seat": seat,
            "entry": entry.pk,
            "level": level,
            "blinds": blinds,
            "small_blind": ruling.small_blind,
            "big_blind": ruling.big_blind,
            "reading": reading,
            "rules": list(ruling.rules),
            "dead_money": ruling.dead_money,
            "penalty_due": ruling.penalty_due,
        },
    )
    publish_table(table)
    return DodgeRuled(incident=incident, ruling=ruling, entry=entry, seat=seat, owed=owed)


def _blinds_in_play(tournament: Tournament):
    """The level in play and its clock step, which must have blinds (409 otherwise)."""
    try:
        level, step, _position = level_now(tournament)
    except Conflict:  # a break on the clock
        raise _refuse(
            "no_blinds",
            _("The clock shows a break: rule on the dodged blinds at the level that follows."),
        ) from None
    game = (step.game if step else "") or tournament.game
    if step is None or stud.stud_game(game) or step.small_blind <= 0 or step.big_blind <= 0:
        raise _refuse(
            "no_blinds",
            _("The level in play has no blinds to make up (no blind structure, or stud)."),
        )
    return level, step


def dodge_description(entry: Entry, seat: int, ruling: dodges.DodgeRuling, level: int) -> str:
    words = {
        "seat": seat,
        "player": str(entry),
        "level": level,
        "small": ruling.small_blind,
        "big": ruling.big_blind,
    }
    if ruling.small_blind and ruling.big_blind:
        text = _(
            "Seat %(seat)s, %(player)s, dodged the small and the big blind (%(small)s and "
            "%(big)s, level %(level)s)."
        )
    elif ruling.big_blind:
        text = _("Seat %(seat)s, %(player)s, dodged the big blind (%(big)s, level %(level)s).")
    else:
        text = _("Seat %(seat)s, %(player)s, dodged the small blind (%(small)s, level %(level)s).")
    return text % words


def dodge_decision(ruling: dodges.DodgeRuling) -> str:
    if ruling.reading == dodges.MAKE_UP:
        return _(
            "%(rule)s: the player posts %(chips)s as dead money in their next hand; a "
            "penalty may be given as well."
        ) % {"rule": ruling.rule, "chips": ruling.dead_money}
    return _("%(rule)s: a penalty is due; nothing is made up.") % {"rule": ruling.rule}
