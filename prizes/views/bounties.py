"""The cashier's bounties (issue 18): the knockouts that stand, who knocked out whom, in
which hand or as the floor named it, the cash and whether it was paid; the totals won,
paid and left to pay. Any staff may look; the cashier pays, as prizes are paid.

Thin views: each POST calls one service through `floorman.pages.service_call` and
redirects back to the knockout's row. Plain HTML forms, without JavaScript.
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from floorman.pages import role_required, service_call
from floorman.roles import ALL_ROLES, PAY_PRIZES
from hands.models import Knockout
from prizes.models import BountyPayment
from prizes.selectors import bounty_knockouts, bounty_totals, knockout_paid
from prizes.services import bounties as services
from tournaments.models import Tournament
from tournaments.templatetags.floorman_format import money

# A hundred knockouts to a page: a big field's cashier pays the latest ones.
KNOCKOUTS_PER_PAGE = 100


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _bounties_url(tournament: Tournament, knockout_id: int | None = None) -> str:
    url = reverse("tournaments:bounties", args=[tournament.pk])
    return f"{url}#knockout-{knockout_id}" if knockout_id else url


@role_required(ALL_ROLES)
def bounties(request, tournament_id: int):
    """Every knockout that stands, newest last, with pay and take-back buttons for the
    cashier, and the bounty totals."""
    tournament = _tournament(tournament_id)
    knockouts = list(bounty_knockouts(tournament))
    totals = bounty_totals(knockouts)
    due: dict[int, int] = {}  # winner entry → knockouts with cash left to pay
    for knockout in knockouts:
        knockout.paid_amount = knockout_paid(knockout)
        if knockout.paid_amount is None and knockout.cash > 0:
            due[knockout.winner_id] = due.get(knockout.winner_id, 0) + 1
    for knockout in knockouts:
        knockout.winner_due = due.get(knockout.winner_id, 0)
    page = Paginator(knockouts, KNOCKOUTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "prizes/bounties.html",
        {"tournament": tournament, "page": page, "totals": totals},
    )


@role_required(PAY_PRIZES)
@require_POST
def bounty_pay(request, tournament_id: int, knockout_id: int):
    tournament = _tournament(tournament_id)
    outcome = service_call(
        request, services.bounty_pay, tournament_id=tournament.pk, knockout_id=knockout_id
    )
    if outcome.ok:
        knockout = Knockout.objects.select_related("winner__player").get(pk=knockout_id)
        messages.success(
            request,
            _("Bounty of %(amount)s paid to %(player)s (entry #%(number)s).")
            % {
                "amount": money(-outcome.value.line.amount, tournament.currency),
                "player": knockout.winner.player.name,
                "number": knockout.winner.number,
            },
        )
    return redirect(_bounties_url(tournament, knockout_id))


@role_required(PAY_PRIZES)
@require_POST
def bounty_pay_undo(request, tournament_id: int, knockout_id: int):
    """Take a bounty payment back (its line is reversed), after a confirmation page."""
    tournament = _tournament(tournament_id)
    if request.POST.get("confirm") != "yes":
        knockout = get_object_or_404(
            Knockout.objects.select_related("winner__player", "busted__player"),
            tournament=tournament,
            pk=knockout_id,
        )
        payment = BountyPayment.objects.filter(knockout=knockout).select_related("line").first()
        if payment is None:
            messages.error(request, _("This bounty has not been paid."))
            return redirect(_bounties_url(tournament, knockout_id))
        return render(
            request,
            "prizes/_bounty_undo_confirm.html",
            {
                "tournament": tournament,
                "knockout": knockout,
                "amount": -payment.line.amount,
                "back_url": _bounties_url(tournament, knockout_id),
            },
        )
    outcome = service_call(
        request, services.bounty_pay_undo, tournament_id=tournament.pk, knockout_id=knockout_id
    )
    if outcome.ok:
        messages.success(request, _("Bounty payment taken back."))
    return redirect(_bounties_url(tournament, knockout_id))


@role_required(PAY_PRIZES)
@require_POST
def bounties_pay_all(request, tournament_id: int, entry_id: int):
    """Pay a player every bounty still due to one entry: one line each."""
    tournament = _tournament(tournament_id)
    outcome = service_call(
        request, services.bounties_pay_all, tournament_id=tournament.pk, entry_id=entry_id
    )
    if outcome.ok:
        payments = outcome.value
        messages.success(
            request,
            ngettext(
                "%(count)s bounty paid, %(amount)s in all.",
                "%(count)s bounties paid, %(amount)s in all.",
                len(payments),
            )
            % {
                "count": len(payments),
                "amount": money(sum(-p.line.amount for p in payments), tournament.currency),
            },
        )
    return redirect(_bounties_url(tournament))
