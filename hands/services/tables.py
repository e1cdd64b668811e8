"""The button: drawn by high card before the first hand, or set by the dealer; kept in
the table's state (seating.models.TableState), which balancing reads."""

import random
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record, staff_user
from floorman.errors import Invalid, NotFound
from hands.models import TabletLink
from hands.selectors import hand_in_play
from hands.services.common import publish_table, refuse, table_of
from seating.engine import blinds
from seating.models import TableState
from seating.selectors import table_now
from tournaments.services import tournament_lock


def _state_before(state: TableState) -> dict:
    return {
        "button": state.button,
        "small_blind_seat": state.small_blind_seat,
        "big_blind": state.big_blind,
    }


@transaction.atomic
def button_draw(*, actor, tournament_id: int, number: int) -> TableState:
    """IFP 2.1, casino §16: one card to each player, the high card takes the button
    (suits rank spades, hearts, diamonds, clubs). The seed is kept: replayable."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    if hand_in_play(table):
        raise refuse("hand_in_play", hand=hand_in_play(table).number)
    now = table_now(table)
    if len(now.occupied) < 2:
        raise refuse("too_few_players")
    if now.state.big_blind is not None:
        raise refuse("button_drawn")
    seed = secrets.randbits(63)
    cards = blinds.button_draw(now.seats, now.occupied, random.Random(seed))
    state = now.state
    before = _state_before(state)
    state.button = blinds.first_button(cards)
    state.small_blind_seat = state.big_blind = None
    state.draw_seed = seed
    state.draw_cards = {str(seat): card for seat, card in sorted(cards.items())}
    state.save()
    audit_record(
        actor=actor,
        action="table.button_draw",
        obj=table,
        tournament=tournament,
        before=before,
        after={**_state_before(state), "seed": seed, "cards": state.draw_cards},
    )
    publish_table(table)
    return state


@transaction.atomic
def button_set(
    *, actor, tournament_id: int, number: int, button: int, big_blind: int | None = None
) -> TableState:
    """The dealer puts the button where it is at the table (a table that played before
    Floorman took over, or a correction). With last hand's big blind the next hand moves
    on from there (TDA 32); without it the next hand opens from this button."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    if hand_in_play(table):
        raise refuse("hand_in_play", hand=hand_in_play(table).number)
    now = table_now(table)
    errors = {}
    if button not in now.seats:
        errors["button"] = refusal_seat(button)
    if big_blind is not None and (big_blind not in now.seats or big_blind == button):
        errors["big_blind"] = refusal_seat(big_blind)
    if errors:
        raise Invalid(errors)
    state = now.state
    before = _state_before(state)
    state.button = button
    state.big_blind = big_blind
    state.small_blind_seat = None  # the engine takes the seat before the big blind
    if big_blind is None:
        state.last_dealt = []
    else:
        state.last_dealt = list(now.occupied.values())  # everyone seated has played here
    state.save()
    audit_record(
        actor=actor,
        action="table.button_set",
        obj=table,
        tournament=tournament,
        before=before,
        after=_state_before(state),
    )
    publish_table(table)
    return state


def refusal_seat(seat: int) -> str:
    return _("Seat %(seat)s is not a seat in play at this table.") % {"seat": seat}


# --- Tablet links: a table's page without an account -------------------------------------


@transaction.atomic
def tablet_link_create(*, actor, tournament_id: int, number: int) -> TabletLink:
    """A new link for one table's tablet (a QR code the floor hands the dealer)."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    link = TabletLink.objects.create(table=table, created_by=staff_user(actor))
    audit_record(
        actor=actor, action="tablet.link", obj=link, tournament=tournament, after={"table": number}
    )
    return link


@transaction.atomic
def tablet_link_revoke(*, actor, tournament_id: int, link_id: int) -> TabletLink:
    """The floor takes a link back: the page it opens refuses from the next request on."""
    tournament = tournament_lock(tournament_id)
    link = TabletLink.objects.filter(pk=link_id, table__tournament=tournament).first()
    if link is None:
        raise NotFound(_("No such tablet link."))
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        audit_record(
            actor=actor,
            action="tablet.revoke",
            obj=link,
            tournament=tournament,
            after={"table": link.table.number},
        )
    return link
