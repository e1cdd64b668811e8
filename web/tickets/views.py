"""The cashier's tickets of an event (issue 17): issued, used and refunded, with their
holders, and where the house allows it the transfer to another player and the refund
as cash. Each action calls one service (tournaments.services.tickets)."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from floorman.pages import role_required, service_call
from floorman.roles import PAY_PRIZES, REGISTER
from tournaments.forms import PageForm
from tournaments.lookups import tournament_or_404
from tournaments.models import Player, Ticket, TicketStatus
from tournaments.selectors import tickets_of_event
from tournaments.services import tickets


class TransferForm(PageForm):
    player = forms.CharField(
        label=gettext_lazy("To player"),
        max_length=120,
        help_text=gettext_lazy("The player's number (ID) or full name."),
    )

    def clean_player(self) -> int:
        text = self.cleaned_data["player"].strip()
        if text.isdigit() and len(text) < 18:
            return int(text)
        found = list(Player.objects.filter(name__iexact=text).values_list("pk", flat=True)[:2])
        if not found:
            raise forms.ValidationError(_("No player with this name."))
        if len(found) > 1:
            raise forms.ValidationError(_("Several players have this name: give the ID."))
        return found[0]


@role_required(REGISTER)
def ticket_list(request, tournament_id: int, transfer_form=None, status: int = 200):
    """The tickets into this event, oldest first, with their counts."""
    tournament = tournament_or_404(tournament_id)
    found = list(tickets_of_event(tournament))
    counts = {value: 0 for value in TicketStatus.values}
    for ticket in found:
        counts[ticket.status] += 1
    return render(
        request,
        "tickets/list.html",
        {
            "tournament": tournament,
            "here": "tickets",
            "tickets": found,
            "counts": counts,
            "transfer_form": transfer_form or TransferForm(),
        },
        status=status,
    )


@role_required(REGISTER)
@require_POST
def ticket_transfer(request, ticket_id: int):
    ticket = get_object_or_404(Ticket, pk=ticket_id)
    form = TransferForm(request.POST)
    if not form.is_valid():
        return ticket_list(request, ticket.target_id, transfer_form=form, status=400)
    outcome = service_call(
        request,
        tickets.ticket_transfer,
        ticket_id=ticket.pk,
        player_id=form.cleaned_data["player"],
    )
    if outcome.ok:
        messages.success(
            request,
            _("Ticket #%(id)s now belongs to %(player)s.")
            % {"id": ticket.pk, "player": outcome.value.holder.name},
        )
    return redirect("tickets:list", ticket.target_id)


@role_required(PAY_PRIZES)
@require_POST
def ticket_refund(request, ticket_id: int):
    ticket = get_object_or_404(Ticket, pk=ticket_id)
    outcome = service_call(request, tickets.ticket_refund, ticket_id=ticket.pk)
    if outcome.ok:
        messages.success(request, _("Ticket #%(id)s paid out as cash.") % {"id": ticket.pk})
    return redirect("tickets:list", ticket.target_id)
