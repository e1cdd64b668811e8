"""Results and deals: the cashier pays the places, the director corrects them, and the
floor works out a deal at the final table (casino §6).

Thin views: each POST parses a form and calls one service through
`floorman.pages.service_call`, then redirects (or re-renders the form with what the
service refused). Every page works as plain HTML forms, without JavaScript.
"""

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clock import services as clock_services
from clock.selectors import clock_public
from floorman.pages import role_required, service_call
from floorman.roles import (
    ALL_ROLES,
    DEAL_FIGURES,
    MANAGE_TOURNAMENTS,
    PAY_PRIZES,
    user_has_role,
)
from payouts.selectors import payout_table
from prizes import selectors, services
from prizes.engine import deals
from prizes.forms.results import (
    FIGURE_METHODS,
    DealChipsForm,
    DealRecordForm,
    PayForm,
    PlaceForm,
    amount_name,
    chips_name,
)
from prizes.messages import refusal_message
from prizes.models import Deal, DealMethod, Payment
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus
from tournaments.selectors import bounty_money, chips_in_play
from tournaments.templatetags.floorman_format import minor_to_major, money


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _results_url(tournament: Tournament, entry_id: int | None = None) -> str:
    """The results page; with `entry_id`, the page that shows the entry's row, at it."""
    url = reverse("tournaments:results", args=[tournament.pk])
    return f"{url}?entry={entry_id}#result-{entry_id}" if entry_id else url


# --- Results ------------------------------------------------------------------------------

# Fifty places to a page, and twenty players still playing (the director's place forms): at
# 1,000 entries the whole list took a second to render, and the cashier waited for it
# after every prize paid (issue 16).
RESULTS_PER_PAGE = 50
PLAYING_PER_PAGE = 20


def _page_number(request, rows) -> str | int | None:
    """The page asked for, else the one that holds `?entry=` (the redirect after a
    payment or a place entered)."""
    entry = request.GET.get("entry", "")
    if "page" not in request.GET and entry.isascii() and entry.isdigit():
        index = next((i for i, row in enumerate(rows) if row.entry_id == int(entry)), None)
        if index is not None:
            return index // RESULTS_PER_PAGE + 1
    return request.GET.get("page")


@role_required(ALL_ROLES)
def results(request, tournament_id: int):
    """Places, prizes and payments, a page at a time; any staff may look, the cashier
    pays."""
    tournament = _tournament(tournament_id)
    found = selectors.results(tournament, entries=False)
    page = Paginator(found.rows, RESULTS_PER_PAGE).get_page(_page_number(request, found.rows))
    paid_differs = [row for row in found.rows if row.paid_differs]
    selectors.results_entries(tournament, [*page.object_list, *paid_differs])
    playing = None
    if user_has_role(request.user, MANAGE_TOURNAMENTS):
        # The director may place an entry the bust-outs have not (the winner of an
        # event ended by hand, a bust recorded at no table).
        playing = Paginator(found.playing_ids, PLAYING_PER_PAGE).get_page(
            request.GET.get("playing")
        )
        playing.object_list = list(
            Entry.objects.filter(pk__in=playing.object_list)
            .select_related("player")
            .order_by("number")
        )
    return render(
        request,
        "prizes/results.html",
        {
            "tournament": tournament,
            "found": found,
            "page": page,
            "pool": found.table.pool,
            "bounty": bounty_money(tournament),  # issue 18: apart from the prize pool
            "playing": playing,
            "paid_differs": paid_differs,
        },
    )


@role_required(PAY_PRIZES)
@require_POST
def pay(request, tournament_id: int, entry_id: int):
    """Pay an entry its prize: only the amount the button showed, which must still be due."""
    tournament = _tournament(tournament_id)
    form = PayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The payment did not say which amount to pay: nothing paid."))
    else:
        outcome = service_call(
            request,
            services.prize_pay,
            tournament_id=tournament.pk,
            entry_id=entry_id,
            expected=form.cleaned_data["amount"],
        )
        if outcome.ok:
            payment = outcome.value
            messages.success(
                request,
                _("Paid %(amount)s to %(player)s (entry #%(number)s).")
                % {
                    "amount": money(-payment.line.amount, tournament.currency),
                    "player": payment.entry.player.name,
                    "number": payment.entry.number,
                },
            )
    return redirect(_results_url(tournament, entry_id))


@role_required(PAY_PRIZES)
@require_POST
def pay_undo(request, tournament_id: int, entry_id: int):
    """Take a payment back (the ledger line is reversed), after a confirmation page."""
    tournament = _tournament(tournament_id)
    if request.POST.get("confirm") != "yes":
        entry = get_object_or_404(
            Entry.objects.select_related("player"), tournament=tournament, pk=entry_id
        )
        payment = Payment.objects.filter(entry=entry).select_related("line").first()
        if payment is None:
            messages.error(request, _("This entry has not been paid."))
            return redirect(_results_url(tournament, entry_id))
        return render(
            request,
            "prizes/_results_undo_confirm.html",
            {
                "tournament": tournament,
                "entry": entry,
                "amount": -payment.line.amount,
                "back_url": _results_url(tournament, entry_id),
            },
        )
    outcome = service_call(
        request, services.prize_pay_undo, tournament_id=tournament.pk, entry_id=entry_id
    )
    if outcome.ok:
        entry = outcome.value
        messages.success(
            request,
            _("Payment to %(player)s (entry #%(number)s) taken back.")
            % {"player": entry.player.name, "number": entry.number},
        )
    return redirect(_results_url(tournament, entry_id))


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def place(request, tournament_id: int, entry_id: int):
    """The director sets an entry's place by hand, or clears it back to the bust-outs."""
    tournament = _tournament(tournament_id)
    form = PlaceForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("place", []):
            messages.error(request, error)
        return redirect(_results_url(tournament))
    place_given = form.place_or_none
    outcome = service_call(
        request,
        services.place_enter,
        tournament_id=tournament.pk,
        entry_id=entry_id,
        place=place_given,
    )
    if outcome.ok:
        entry = outcome.value
        if place_given is None:
            text = _("Entry #%(number)s: the place entered by hand is cleared.")
        else:
            text = _("Entry #%(number)s: place %(place)s entered.")
        messages.success(request, text % {"number": entry.number, "place": place_given})
        return redirect(_results_url(tournament, entry.pk))
    return redirect(_results_url(tournament))


# --- Deals (casino §6) ----------------------------------------------------------------------


def _players_left(tournament: Tournament) -> list[Entry]:
    entries = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
        .select_related("player", "seat__table")
        .order_by("-chips", "number")
    )
    for entry in entries:
        try:
            seat = entry.seat
        except ObjectDoesNotExist:  # not seated (yet)
            seat = None
        entry.seat_text = f"{seat.table.number}-{seat.number}" if seat else ""
    return entries


def _setting(tournament: Tournament) -> dict:
    """What a deal is made on: the players left, the prizes still to be won, the chips."""
    entries = _players_left(tournament)
    table = payout_table(tournament)
    prizes = selectors.unpaid_prizes(table, len(entries)) if entries else []
    return {
        "entries": entries,
        "table": table,
        "prizes": prizes,
        "prize_total": sum(prizes),
        "next_prize": prizes[-1] if prizes else 0,
        "in_play": chips_in_play(tournament),
        "save_most": deals.save_most(prizes),
    }


def _deal_figures(*, actor, **kwargs) -> dict:
    """The figures shown side by side. Run through service_call for its refusals; it
    hands over the actor, which a read has no use for."""
    return services.deal_figures_by_method(methods=FIGURE_METHODS, **kwargs)


def _comparison(setting: dict, form: DealChipsForm, figures: dict | None) -> dict:
    """The players' rows with their chip fields and, once calculated, the figures side by
    side: a column per method, each amount with what it is above the prize of the next
    place to go (what a player makes sure of by dealing)."""
    figures = figures or {}
    labels = dict(DealMethod.choices)
    columns = [
        {
            "method": method,
            "label": labels[method],
            "total": sum(p["amount"] for p in found["players"]),
            "left_to_play": found["left_to_play"],
        }
        for method, found in figures.items()
    ]
    rows = []
    for index, (entry, field) in enumerate(form.chip_fields()):
        cells = []
        for found in figures.values():
            amount = found["players"][index]["amount"]
            cells.append({"amount": amount, "over": amount - setting["next_prize"]})
        rows.append({"entry": entry, "field": field, "cells": cells})
    return {"columns": columns, "rows": rows}


def _record_initial(setting: dict, form: DealChipsForm, figures: dict, method: str) -> dict:
    """The record form filled in with the chosen method's figures, in major units."""
    currency = form.currency
    found = figures[method]
    initial = {"method": method, "continue_play": method == DealMethod.SAVE}
    if method == DealMethod.SAVE:
        initial["save"] = minor_to_major(found["left_to_play"], currency)
    for entry, player in zip(setting["entries"], found["players"], strict=True):
        initial[chips_name(entry)] = player["chips"]
        initial[amount_name(entry)] = minor_to_major(player["amount"], currency)
    return initial


def _chips_form(tournament: Tournament, setting: dict, data=None) -> DealChipsForm:
    return DealChipsForm(
        data,
        entries=setting["entries"],
        currency=tournament.currency,
        save_most=setting["save_most"],
        initial={chips_name(entry): entry.chips for entry in setting["entries"]},
    )


def _prizes_left(prizes: list[int]) -> dict:
    """The places still paying, and the range of those below them that pay nothing (a
    deal before the money): listing those as 0.00 would bury the prizes that matter."""
    places = [
        {"place": place, "amount": amount}
        for place, amount in enumerate(prizes, start=1)
        if amount > 0
    ]
    unpaid = (len(places) + 1, len(prizes)) if len(prizes) > len(places) else None
    return {"places": places, "unpaid_places": unpaid}


def _deal_render(
    request,
    tournament: Tournament,
    setting: dict,
    *,
    chips_form: DealChipsForm,
    figures: dict | None = None,
    record_form: DealRecordForm | None = None,
):
    return render(
        request,
        "prizes/deal.html",
        {
            "tournament": tournament,
            **setting,
            **_prizes_left(setting["prizes"]),
            "clock": clock_public(tournament, steps=False),
            "form": chips_form,
            "counted": chips_form.counted(),
            "comparison": _comparison(setting, chips_form, figures),
            "record_form": record_form,
            "can_record": user_has_role(request.user, MANAGE_TOURNAMENTS),
        },
    )


def _deal_recorded(request, tournament: Tournament, deal: Deal):
    shares = deal.shares.select_related("entry__player")
    return render(
        request,
        "prizes/deal.html",
        {
            "tournament": tournament,
            "deal": deal,
            "shares": shares,
            "deal_total": sum(share.amount for share in shares) + deal.left_to_play,
        },
    )


def _deal_refusal(tournament: Tournament) -> tuple[Deal | None, str]:
    """The deal recorded, or why none can be made now ("" while one can)."""
    deal = Deal.objects.filter(tournament=tournament).select_related("created_by").first()
    if deal is not None:
        return deal, "deal_exists"
    return None, selectors.deal_refusal(tournament) or ""


def _deal_closed(request, tournament: Tournament, deal: Deal | None):
    """After a deal is recorded it is shown, read only; before the tournament runs
    (or once it is over) the page says that a deal is made while it runs, and offers
    the way on: the director starts the tournament here (issue 16: no page dead-ends),
    or the results once it is over."""
    if deal is not None:
        return _deal_recorded(request, tournament, deal)
    return render(
        request,
        "prizes/deal.html",
        {
            "tournament": tournament,
            "not_running": True,
            "can_start": tournament.status == TournamentStatus.REGISTERING,
            "can_record": user_has_role(request.user, MANAGE_TOURNAMENTS),
        },
    )


@role_required(DEAL_FIGURES)
@require_http_methods(["GET", "POST"])
def deal(request, tournament_id: int):
    """Casino §6: the chips of the players left, and what ICM, the chip chop and a deal
    leaving an amount for the winner give each of them. POST calculates; nothing changes."""
    tournament = _tournament(tournament_id)
    deal_made, refusal = _deal_refusal(tournament)
    if refusal:
        return _deal_closed(request, tournament, deal_made)
    setting = _setting(tournament)
    if request.method == "GET":
        return _deal_render(
            request, tournament, setting, chips_form=_chips_form(tournament, setting)
        )
    form = _chips_form(tournament, setting, request.POST)
    if not form.is_valid():
        return _deal_render(request, tournament, setting, chips_form=form)
    outcome = service_call(
        request,
        _deal_figures,
        form=form,
        tournament_id=tournament.pk,
        chips=form.chips(),
        save=form.cleaned_data["save"],
    )
    if not outcome.ok:
        return _deal_render(request, tournament, setting, chips_form=form)
    figures = outcome.value
    record_form = None
    if user_has_role(request.user, MANAGE_TOURNAMENTS):
        use = request.POST.get("use")
        if use not in figures:
            use = DealMethod.SAVE if DealMethod.SAVE in figures else DealMethod.ICM
        record_form = DealRecordForm(
            entries=setting["entries"],
            currency=tournament.currency,
            save_most=setting["save_most"],
            initial=_record_initial(setting, form, figures, use),
        )
    return _deal_render(
        request, tournament, setting, chips_form=form, figures=figures, record_form=record_form
    )


@role_required(DEAL_FIGURES)
@require_POST
def deal_pause(request, tournament_id: int):
    """Casino §6: the clock stops while the players negotiate."""
    tournament = _tournament(tournament_id)
    outcome = service_call(
        request, clock_services.clock_act, tournament_id=tournament.pk, action="pause"
    )
    if outcome.ok:
        messages.success(request, _("The clock is paused for the deal (casino §6)."))
    return redirect("tournaments:deal", tournament.pk)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def deal_record(request, tournament_id: int):
    """Record the deal every player left agreed to; without play going on it ends the
    tournament (casino §6)."""
    tournament = _tournament(tournament_id)
    _deal_made, refusal = _deal_refusal(tournament)
    if refusal:
        messages.error(request, refusal_message(refusal))
        return redirect("tournaments:deal", tournament.pk)
    setting = _setting(tournament)
    form = DealRecordForm(
        request.POST,
        entries=setting["entries"],
        currency=tournament.currency,
        save_most=setting["save_most"],
    )
    if form.is_valid():
        data = form.cleaned_data
        outcome = service_call(
            request,
            services.deal_record,
            form=form,
            tournament_id=tournament.pk,
            method=data["method"],
            players=form.players(),
            save=data["save"],
            continue_play=data["continue_play"],
        )
        if outcome.ok:
            deal = outcome.value
            if deal.ends_tournament:
                text = _("Deal recorded: the tournament is over (casino §6).")
            else:
                text = _("Deal recorded: play continues for %(amount)s (casino §6).") % {
                    "amount": money(deal.left_to_play, tournament.currency)
                }
            messages.success(request, text)
            return redirect("tournaments:results", tournament.pk)
    # Show the figures again beside the form the director is correcting.
    chips_form = _chips_form(tournament, setting, request.POST)
    figures = None
    if not chips_form.is_valid():
        chips_form = _chips_form(tournament, setting)  # the record form shows what is wrong
    else:
        figured = service_call(
            request,
            _deal_figures,
            flash=False,
            tournament_id=tournament.pk,
            chips=chips_form.chips(),
            save=chips_form.cleaned_data["save"],
        )
        figures = figured.value
    return _deal_render(
        request,
        tournament,
        setting,
        chips_form=chips_form,
        figures=figures,
        record_form=form,
    )
