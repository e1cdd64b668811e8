"""The dealer's table tablet and its links: the pages of web.tablet, in the "hands" URL
namespace they have always had (web.urls includes them with hands.urls).

The tablet is one page per table, for a phone or tablet held in one hand: who sits
where with the button and blinds (TDA 32, 34-B, 10-A), the hand in play, one big button
for the next step (draw, start, hand done), the result with bust-outs and chip counts,
and whatever the table must know now: hand-for-hand (RP-8), a halt (TDA 11-D), a new
level from the next hand (TDA 23), the player clock (TDA 29), the end of the day, the
players away (TDA 71-C) and those warned or penalised (RP-15). During a logged hand the
dealer records a bet made with an item of no value (RP-22); where the house leaves it to
the floor, the floor rules on it here. An action out of turn is recorded and held until
the action reaches the seat, and the floor called (TDA 53-A); after substantial action out
of turn past a skipped player the floor rules on that hand here (TDA 53-B). A hand killed
during play, whoever's turn it is, is recorded here too (TDA 65-A, 66). It ties hands
to the clock and the rulings, so it lives at the top of the house (docs/architecture.md).

Staff open it with the dealer or floor role; a dealer without an account opens it from
a per-table link (a QR code the floor hands out and may revoke). Writes through a link
act for nobody (actor None) and only ever on the link's own table: the table comes from
the link, never from the request.

Thin views: what the page shows is web.tablet.page; each POST is one action of
web.tablet.actions, calling one service (a refusal is shown on the page with the service's
status, 400 or 409, and changes nothing; success redirects back). static/js/tablet.js
keeps the page live: on each event it fetches the state endpoint, which answers the
page's live regions rendered by the same templates.
"""

import segno
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from floorman.pages import role_required, service_call
from floorman.roles import TABLET
from hands import services
from hands.forms import (
    LinkActionForm,
)
from hands.models import TabletLink
from hands.selectors import (
    open_table,
    tablet_link_table,
)
from tournaments.lookups import tournament_or_404
from web.tablet.actions import act
from web.tablet.page import TABLET_LINKS, Tablet, render_tablet, tablet_context, tablet_live


def _staff_tablet(request, tournament_id: int, number: int) -> Tablet:
    tournament = tournament_or_404(tournament_id)
    table = open_table(tournament.pk, number)
    if table is None:
        raise Http404(_("This tournament has no table %(number)s in play.") % {"number": number})
    return Tablet(tournament=tournament, table=table, user=request.user)


def _link_tablet(token: str) -> Tablet | None:
    table = tablet_link_table(token)
    if table is None:
        return None
    return Tablet(tournament=table.tournament, table=table, token=token)


def _link_invalid(request):
    return render(request, "hands/link_invalid.html", status=404)


def _tablet_page(request, tablet: Tablet):
    if request.method != "POST":
        return render_tablet(request, tablet)
    return act(request, tablet)


@never_cache
@role_required(TABLET)
@require_http_methods(["GET", "POST"])
def tablet(request, tournament_id: int, number: int):
    """The table's tablet for a dealer or the floor."""
    return _tablet_page(request, _staff_tablet(request, tournament_id, number))


@never_cache
@require_http_methods(["GET", "POST"])
def link(request, token: str):
    """The same tablet opened from a tablet link, without an account."""
    opened = _link_tablet(token)
    if opened is None:
        return _link_invalid(request)
    return _tablet_page(request, opened)


@never_cache
@role_required(TABLET)
@require_safe
def tablet_state(request, tournament_id: int, number: int):
    """The tablet's live regions as JSON, for tablet.js after each event."""
    opened = _staff_tablet(request, tournament_id, number)
    return JsonResponse(tablet_live(request, tablet_context(opened)))


@never_cache
@require_safe
def link_state(request, token: str):
    opened = _link_tablet(token)
    if opened is None:
        return JsonResponse(
            {"code": "link_revoked", "detail": _("This link is no longer valid.")}, status=404
        )
    return JsonResponse(tablet_live(request, tablet_context(opened)))


# --- Tablet links (the floor) ----------------------------------------------------------


def _qr_svg(url: str) -> str:
    # Dark on white with a quiet zone, so phones read it off a dark screen too.
    return mark_safe(
        segno.make(url, error="m").svg_inline(scale=4, border=2, light="#fff", omitsize=True)
    )


@never_cache
@role_required(TABLET_LINKS)
@require_http_methods(["GET", "POST"])
def tablet_links(request, tournament_id: int, number: int):
    """A table's tablet links: create one (shown as text and QR code), revoke one."""
    opened = _staff_tablet(request, tournament_id, number)
    here = reverse("hands:tablet-links", args=[opened.tournament.pk, opened.table.number])
    status = 200
    if request.method == "POST":
        form = LinkActionForm(request.POST)
        if not form.is_valid():
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
            status = 400
        elif form.cleaned_data["action"] == "create":
            outcome = service_call(
                request,
                services.tablet_link_create,
                tournament_id=opened.tournament.pk,
                number=opened.table.number,
            )
            if outcome.ok:
                messages.success(request, _("New tablet link made: hand it to the dealer."))
                return redirect(here)
            status = outcome.error.http_status
        else:
            # Only this table's links are revoked from its page.
            get_object_or_404(TabletLink, pk=form.cleaned_data["link"], table=opened.table)
            outcome = service_call(
                request,
                services.tablet_link_revoke,
                tournament_id=opened.tournament.pk,
                link_id=form.cleaned_data["link"],
            )
            if outcome.ok:
                messages.success(request, _("The link is revoked: it opens nothing any more."))
                return redirect(here)
            status = outcome.error.http_status
    links = []
    for row in TabletLink.objects.filter(table=opened.table).order_by("-created_at"):
        url = request.build_absolute_uri(reverse("hands:link", args=[row.token]))
        links.append(
            {
                "link": row,
                "url": url,
                "qr": _qr_svg(url) if row.revoked_at is None else "",
            }
        )
    return render(
        request,
        "hands/links.html",
        {
            "tournament": opened.tournament,
            "table": opened.table,
            "tablet": opened,
            "links": links,
        },
        status=status,
    )
