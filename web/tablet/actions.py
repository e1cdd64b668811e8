"""What the dealer or floor does on the tablet: one function an intention. Each reads
its posted form (`_valid`), calls one service on the tablet's own table as the tablet's
actor (`_done`), and tells the dealer what happened (`_told`: POST/redirect/GET). An
invalid form or a refusal is answered at once (`Answered`): the page again, with the
reasons and the service's status (400, 409), and nothing changed."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from floorman.errors import Invalid
from floorman.pages import message_for_page, service_call
from hands import services
from hands.engine import betting
from hands.forms import (
    BustForm,
    ButtonErrorForm,
    ButtonForm,
    FinishForm,
    HandForm,
    ItemForm,
    ItemRulingForm,
    KillForm,
    LevelErrorForm,
    OutOfTurnForm,
    SkippedRulingForm,
    StartMarkForm,
    TabletActionForm,
    UndoBustForm,
    UpcardsForm,
)
from hands.messages import OOT_PENALTY, item_note, killed_note, oot_note, refusal_message
from hands.models import Elimination
from hands.selectors import place_public, places_window
from rulings.services import blinds_dodged_rule
from seating.models import Seat
from seating.services.counts import table_counts_record
from tournaments.models import Tournament
from tournaments.services.bags import bag_record
from tournaments.templatetags.floorman_format import chips as chips_text
from web.flights.forms import TabletBagForm
from web.tablet.forms import DodgedBlindsForm, TabletCountForm
from web.tablet.page import Tablet, render_tablet


class Answered(Exception):
    """An action answered before it was done: its form was invalid or its service
    refused. `act` returns the response."""

    def __init__(self, response):
        super().__init__()
        self.response = response


def _tell(request, tablet: Tablet, text: str, level: int = messages.SUCCESS) -> None:
    """What the dealer is told after an action: shown on this table's tablet only, never
    on another table's tablet open in the same browser (issue 16)."""
    message_for_page(request, level, text, page=tablet.url())


def _told(request, tablet: Tablet, *texts: str, level: int = messages.SUCCESS):
    """Done: the dealer is told, and the tablet shows again (POST/redirect/GET)."""
    for text in texts:
        _tell(request, tablet, text, level)
    return redirect(tablet.url())


def _answered_with(request, tablet: Tablet, texts, status: int) -> Answered:
    for text in texts:
        _tell(request, tablet, text, messages.ERROR)
    return Answered(render_tablet(request, tablet, status=status))


def _form_errors(form) -> list[str]:
    shown = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        for error in errors:
            text = f"{field.label}: {error}" if field is not None and field.label else error
            if text not in shown:
                shown.append(text)
    return shown


def _valid(request, tablet: Tablet, form_class):
    """The posted form, valid; else the page again with each reason (400)."""
    form = form_class(request.POST)
    if not form.is_valid():
        raise _answered_with(request, tablet, _form_errors(form), 400)
    return form


def _done(request, tablet: Tablet, service, *, on_table: bool = True, **kwargs):
    """One service, as the tablet's actor (a link acts for nobody) and on the tablet's
    own table (`on_table`); its result, or the page again with the refusal: every
    field's reason for invalid input (400), else the service's message and status."""

    def as_tablet(*, actor, **data):  # service_call passes request.user: a link is nobody
        return service(actor=tablet.actor, **data)

    if on_table:
        kwargs["number"] = tablet.table.number
    outcome = service_call(
        request, as_tablet, flash=False, tournament_id=tablet.tournament.pk, **kwargs
    )
    if outcome.ok:
        return outcome.value
    error = outcome.error
    if isinstance(error, Invalid) and error.fields:
        texts = [str(text) for texts in error.fields.values() for text in texts]
        raise _answered_with(request, tablet, texts, 400)
    raise _answered_with(request, tablet, [error.message], error.http_status)


def _floor_only(tablet: Tablet) -> None:
    """The floor rules on the table (RP-22, TDA 1): a dealer, or a link, may not."""
    if not tablet.may_rule:
        raise PermissionDenied


def _bust_lines(tournament: Tournament, entries: list[int]) -> list[str]:
    """Each bust-out with the place it finishes in (IFP 4.27), for the dealer to say."""
    if not entries:
        return []
    # The busts of one hand: their places only, not the whole field's (issue 20).
    places = places_window(tournament.pk, entry_id=entries[0]).places
    rows = (
        Elimination.objects.filter(tournament=tournament, entry_id__in=entries)
        .select_related("entry__player")
        .order_by("seat")
    )
    lines = []
    for row in rows:
        place = place_public(places.get(row.entry_id))
        if place["place_shared"]:
            shown = f"{min(place['place_shared'])}–{max(place['place_shared'])}"
        else:
            shown = place["place"] or "?"
        lines.append(
            _("%(name)s (#%(number)s) is out: place %(place)s.")
            % {"name": row.entry.player.name, "number": row.entry.number, "place": shown}
        )
    return lines


# --- The button and the deal -----------------------------------------------------------


def _draw(request, tablet: Tablet):
    state = _done(request, tablet, services.button_draw)
    return _told(
        request,
        tablet,
        _("Seat %(seat)s drew the high card and takes the button (IFP 2.1).")
        % {"seat": state.button},
    )


def _button(request, tablet: Tablet):
    data = _valid(request, tablet, ButtonForm).cleaned_data
    state = _done(
        request, tablet, services.button_set, button=data["button"], big_blind=data["big_blind"]
    )
    return _told(request, tablet, _("Button set on seat %(seat)s.") % {"seat": state.button})


def _start(request, tablet: Tablet):
    hand = _done(request, tablet, services.hand_start)
    return _told(request, tablet, _("Hand %(hand)s is dealt.") % {"hand": hand.number})


def _start_mark(request, tablet: Tablet):
    """TDA 23; casino §25, §32: the next hand has started; its level is the one now."""
    data = _valid(request, tablet, StartMarkForm).cleaned_data
    mark = _done(request, tablet, services.hand_start_mark, event=data["event"])
    return _told(
        request,
        tablet,
        _("The next hand has started: it plays at level %(level)s (TDA 23).")
        % {"level": mark.level},
    )


def _start_unmark(request, tablet: Tablet):
    _done(request, tablet, services.hand_start_unmark)
    return _told(request, tablet, _("The mark is taken back: the hand has not started (TDA 23)."))


def _upcards(request, tablet: Tablet):
    """Stud: the upcards just dealt; the log then knows who acts (RP-10 D, E)."""
    form = _valid(request, tablet, UpcardsForm)
    _done(
        request,
        tablet,
        services.hand_upcards,
        hand_number=form.cleaned_data["hand"],
        cards=form.cards(),
    )
    return _told(request, tablet, _("Upcards entered."))


# --- The hand's end ----------------------------------------------------------------------


def _finish(request, tablet: Tablet):
    form = _valid(request, tablet, FinishForm)
    hand_number = form.cleaned_data["hand"]
    busted = Seat.objects.filter(
        table=tablet.table, number__in=form.cleaned_data["busts"]
    ).values_list("entry_id", flat=True)
    busted = [entry for entry in busted if entry]
    _done(
        request,
        tablet,
        services.hand_finish,
        hand_number=hand_number,
        busts=form.cleaned_data["busts"],
        stacks=form.stacks() or None,
        eliminators=form.eliminators(),
    )
    return _told(
        request,
        tablet,
        _("Hand %(hand)s is done.") % {"hand": hand_number},
        *_bust_lines(tablet.tournament, busted),
    )


def _hold(request, tablet: Tablet):
    data = _valid(request, tablet, HandForm).cleaned_data
    hand = _done(request, tablet, services.hand_hold, hand_number=data["hand"])
    return _told(
        request,
        tablet,
        _("Hand %(hand)s holds: cards face down until the floor calls this table (RP-8 F).")
        % {"hand": hand.number},
    )


def _misdeal(request, tablet: Tablet):
    data = _valid(request, tablet, HandForm).cleaned_data
    hand = _done(request, tablet, services.hand_misdeal, hand_number=data["hand"])
    return _told(
        request,
        tablet,
        _("Misdeal: deal hand %(hand)s again, the same button, blinds and players (TDA 35-C).")
        % {"hand": hand.number},
    )


def _bust(request, tablet: Tablet):
    form = _valid(request, tablet, BustForm)
    busted = _done(
        request,
        tablet,
        services.table_busts_record,
        seats=form.cleaned_data["seats"],
        eliminators=form.eliminators(),
    )
    return _told(request, tablet, *_bust_lines(tablet.tournament, [entry.pk for entry in busted]))


def _undo_bust(request, tablet: Tablet):
    data = _valid(request, tablet, UndoBustForm).cleaned_data
    entry = _done(request, tablet, services.table_bust_undo, entry_id=data["entry"])
    where = entry.seat_restored
    words = {"name": entry.player.name, "number": entry.number}
    if where is not None and where.table == tablet.table.number:
        text = _("Bust taken back: %(name)s (#%(number)s) is back in seat %(seat)s.")
        words["seat"] = where.seat
    elif where is not None:  # the seat was taken meanwhile: seating gave a new one
        text = _(
            "Bust taken back: %(name)s (#%(number)s) now sits at table %(table)s, seat %(seat)s."
        )
        words.update(table=where.table, seat=where.seat)
    else:
        text = _("Bust taken back: %(name)s (#%(number)s) has no seat yet: call the floor.")
    return _told(request, tablet, text % words)


# --- Chips: bags and counts ---------------------------------------------------------------


def _bag(request, tablet: Tablet):
    """Issue 17: a survivor's chips counted into a bag at the table, once the flight has
    stopped; only a player seated at the tablet's own table."""
    data = _valid(request, tablet, TabletBagForm).cleaned_data
    seat = Seat.objects.filter(table=tablet.table, number=data["seat"]).first()
    if seat is None or seat.entry_id is None:
        raise _answered_with(request, tablet, [_("Nobody sits in that seat.")], 400)
    bag = _done(
        request, tablet, bag_record, on_table=False, entry_id=seat.entry_id, chips=data["chips"]
    )
    return _told(
        request,
        tablet,
        _("Bag %(number)s: seat %(seat)s, %(chips)s chips.")
        % {"number": bag.number, "seat": seat.number, "chips": chips_text(bag.chips)},
    )


def _count(request, tablet: Tablet):
    """Issue 18: the table's counts in one screen (at a break, or when the floor asks),
    each stamped with the level in play; the players' stacks become the counts."""
    form = _valid(request, tablet, TabletCountForm)
    counted = _done(request, tablet, table_counts_record, counts=form.counts())
    return _told(
        request,
        tablet,
        ngettext(
            "%(count)s count entered at level %(level)s.",
            "%(count)s counts entered at level %(level)s.",
            len(counted),
        )
        % {"count": len(counted), "level": counted[0].level},
    )


# --- During the hand: what the floor is called for ------------------------------------------


def _logged_note(logged) -> str:
    return item_note(seat=logged.seat, item=logged.item, kind=logged.kind, amount=logged.amount)


def _item(request, tablet: Tablet):
    """RP-22: the player in turn bet with an item of no value."""
    data = _valid(request, tablet, ItemForm).cleaned_data
    _hand, logged = _done(
        request,
        tablet,
        services.hand_item,
        hand_number=data["hand"],
        item=data["item"],
        seat=data["seat"],
    )
    if logged is None:  # the house leaves it to the floor
        note = item_note(seat=data["seat"], item=data["item"], kind=None)
        return _told(request, tablet, note, level=messages.WARNING)
    return _told(request, tablet, _logged_note(logged))


def _item_ruling(request, tablet: Tablet):
    """RP-22, TDA 1: the floor rules the item a call or all-in; a dealer may not."""
    _floor_only(tablet)
    data = _valid(request, tablet, ItemRulingForm).cleaned_data
    _hand, logged = _done(
        request, tablet, services.hand_item_rule, hand_number=data["hand"], ruling=data["ruling"]
    )
    return _told(request, tablet, _logged_note(logged))


def _oot(request, tablet: Tablet):
    """TDA 53-A: a player acted out of turn: recorded and held until the action reaches
    the seat; the floor is called (the action is subject to penalty)."""
    data = _valid(request, tablet, OutOfTurnForm).cleaned_data
    _hand, state = _done(
        request,
        tablet,
        services.hand_out_of_turn,
        hand_number=data["hand"],
        seat=data["seat"],
        kind=data["kind"],
        amount=data["amount"] if data["kind"] in (betting.BET, betting.RAISE) else None,
    )
    held = state.pending[-1]
    row = {"seat": held.seat, "kind": held.kind, "amount": held.amount, "out_of_turn": "action"}
    notes = [oot_note(row)]
    if state.awaiting:
        notes.append(refusal_message("oot_floor", seat=state.awaiting[0]))
    notes.append(str(OOT_PENALTY))
    return _told(request, tablet, *notes, level=messages.WARNING)


def _oot_ruling(request, tablet: Tablet):
    """TDA 53-B: the floor rules on a skipped hand, dead or check, call or fold only; a
    dealer may not."""
    _floor_only(tablet)
    data = _valid(request, tablet, SkippedRulingForm).cleaned_data
    _done(
        request,
        tablet,
        services.hand_skipped_rule,
        hand_number=data["hand"],
        seat=data["seat"],
        ruling=data["ruling"],
    )
    row = {"seat": data["seat"], "kind": data["ruling"], "amount": None, "out_of_turn": "ruling"}
    return _told(request, tablet, oot_note(row))


def _kill(request, tablet: Tablet):
    """TDA 65-A, 66: a hand killed during play, dead at once whoever's turn it is. A
    fouled hand that can be identified stays in play (TDA 65-B): the service says so."""
    data = _valid(request, tablet, KillForm).cleaned_data
    _hand, state = _done(
        request,
        tablet,
        services.hand_kill,
        hand_number=data["hand"],
        seat=data["seat"],
        reason=data["reason"],
    )
    kill = state.kills[-1]
    _tell(
        request,
        tablet,
        killed_note(seat=kill.seat, reason=kill.reason, returned=kill.returned),
        messages.WARNING,
    )
    if len(state.in_hand) != 1:
        return _told(request, tablet)
    return _told(
        request,
        tablet,
        _(
            "Seat %(seat)s holds the last live hand and wins the pot, as when everyone "
            "folds: record the hand's result."
        )
        % {"seat": state.in_hand[0]},
    )


# --- Corrections (TDA 23, 34-A) ---------------------------------------------------------


def _correction_told(request, tablet: Tablet, correction, redealt: str, stands: str):
    text = redealt if correction.ruling.corrected else stands
    return _told(
        request, tablet, text % {"hand": correction.hand.number, "rule": correction.ruling.rule}
    )


def _button_error(request, tablet: Tablet):
    """TDA 34-A, casino §16 c: the button was in the wrong place for the hand in play."""
    form = _valid(request, tablet, ButtonErrorForm)
    correction = _done(
        request,
        tablet,
        services.hand_button_correct,
        hand_number=form.cleaned_data["hand"],
        button=form.cleaned_data["button"],
        actions=form.actions(),
    )
    return _correction_told(
        request,
        tablet,
        correction,
        _(
            "Hand %(hand)s is void (%(rule)s): deal it again with the button and blinds "
            "shown, the same players and stacks."
        ),
        _(
            "Hand %(hand)s stands (%(rule)s): play on. The button moves on from where it "
            "stood after this hand."
        ),
    )


def _level_error(request, tablet: Tablet):
    """TDA 23: the hand in play was dealt at the wrong level."""
    form = _valid(request, tablet, LevelErrorForm)
    correction = _done(
        request,
        tablet,
        services.hand_level_correct,
        hand_number=form.cleaned_data["hand"],
        level=form.cleaned_data["level"],
        actions=form.actions(),
    )
    return _correction_told(
        request,
        tablet,
        correction,
        _("Hand %(hand)s is void (%(rule)s): deal it again with the blinds of the right level."),
        _("Hand %(hand)s stands (%(rule)s): it continues at the level it was dealt at."),
    )


def _dodged_blinds(request, tablet: Tablet):
    """TDA 33, 71-B; older TDA 22: the floor rules that a seated player dodged the blinds.
    By the TDA the penalty is due: the floor page's penalty form opens with the player and
    the floor call filled in. By the older translation the blinds are posted as dead money
    in the player's next hand; a penalty may still be given from the floor page."""
    _floor_only(tablet)
    data = _valid(request, tablet, DodgedBlindsForm).cleaned_data
    ruled = _done(request, tablet, blinds_dodged_rule, seat=data["seat"], blinds=data["blinds"])
    words = {
        "seat": ruled.seat,
        "rule": ruled.ruling.rule,
        "chips": chips_text(ruled.ruling.dead_money),
    }
    if ruled.ruling.penalty_due:
        messages.warning(
            request,
            _("Seat %(seat)s dodged the blinds (%(rule)s): give the penalty.") % words,
        )
        floor = reverse("rulings:floor", args=[tablet.tournament.pk])
        return redirect(f"{floor}?incident={ruled.incident.pk}#give-penalty")
    return _told(
        request,
        tablet,
        _(
            "Seat %(seat)s dodged the blinds (%(rule)s): the player posts %(chips)s as dead "
            "money in their next hand. A penalty may be given from the floor page."
        )
        % words,
        level=messages.WARNING,
    )


ACTIONS = {
    "dodged_blinds": _dodged_blinds,
    "upcards": _upcards,
    "start_mark": _start_mark,
    "start_unmark": _start_unmark,
    "button_error": _button_error,
    "level_error": _level_error,
    "item": _item,
    "item_ruling": _item_ruling,
    "oot": _oot,
    "oot_ruling": _oot_ruling,
    "kill": _kill,
    "bag": _bag,
    "count": _count,
    "draw": _draw,
    "undo_bust": _undo_bust,
    "button": _button,
    "start": _start,
    "finish": _finish,
    "hold": _hold,
    "misdeal": _misdeal,
    "bust": _bust,
}


def act(request, tablet: Tablet):
    """The action posted to the tablet (`TabletActionForm`), answered."""
    try:
        chosen = _valid(request, tablet, TabletActionForm).cleaned_data["action"]
        return ACTIONS[chosen](request, tablet)
    except Answered as answer:
        return answer.response
