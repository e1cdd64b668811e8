"""The director's webhook pages (issue 22): a venue's or an event's endpoints, one
endpoint with its delivery log, and the actions, each one service
(webhooks.services). The secret shows once: on the first page after the POST that made
or rotated it (kept for that one page in the session, which is server-side), never on a
page fetched later; a reload of that page does not post the form again."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from tournaments.lookups import tournament_or_404
from tournaments.models import Venue
from webhooks import selectors, services
from webhooks.forms import EndpointForm
from webhooks.labels import TYPE_LABELS
from webhooks.models import DeliveryStatus, Endpoint

DELIVERIES_PER_PAGE = 50
SECRET_SHOWN = "webhooks:secret:%d"  # the session's slot for a secret not yet shown


def _secret_show(request, endpoint: Endpoint, secret: str):
    """Post/redirect/get: the endpoint's page shows the secret once, then forgets it."""
    request.session[SECRET_SHOWN % endpoint.pk] = secret
    return redirect("webhooks:endpoint", endpoint.pk)


def _scope_page(request, *, venue=None, tournament=None, form=None, status=200):
    endpoints = list(selectors.endpoints_of(venue=venue, tournament=tournament))
    return render(
        request,
        "webhooks/endpoints.html",
        {
            "venue": venue,
            "tournament": tournament,
            "here": "webhooks",
            "endpoints": endpoints,
            "form": form or EndpointForm(),
            "labels": TYPE_LABELS,
        },
        status=status,
    )


def _create(request, *, venue=None, tournament=None):
    form = EndpointForm(request.POST)
    if not form.is_valid():
        return _scope_page(request, venue=venue, tournament=tournament, form=form, status=400)
    outcome = service_call(
        request,
        services.endpoint_create,
        form=form,
        venue_id=venue and venue.pk,
        tournament_id=tournament and tournament.pk,
        **form.cleaned_data,
    )
    if not outcome.ok:
        return _scope_page(request, venue=venue, tournament=tournament, form=form, status=400)
    return _secret_show(request, outcome.value.endpoint, outcome.value.secret)


@role_required(MANAGE_TOURNAMENTS)
def tournament_endpoints(request, tournament_id: int):
    """An event's endpoints (its flights' events reach them too), and the form to add one."""
    tournament = tournament_or_404(tournament_id)
    if request.method == "POST":
        return _create(request, tournament=tournament)
    return _scope_page(request, tournament=tournament)


@role_required(MANAGE_TOURNAMENTS)
def venue_endpoints(request, venue_id: int):
    """A venue's endpoints: every event at the venue reaches them."""
    venue = get_object_or_404(Venue, pk=venue_id)
    if request.method == "POST":
        return _create(request, venue=venue)
    return _scope_page(request, venue=venue)


def _endpoint_page(request, endpoint: Endpoint, *, form=None, secret: str = "", status=200):
    status_filter = request.GET.get("status", "")
    if status_filter not in DeliveryStatus.values:
        status_filter = ""
    deliveries = selectors.deliveries_of(endpoint, status=status_filter)
    page = Paginator(deliveries, DELIVERIES_PER_PAGE).get_page(request.GET.get("page"))
    initial = {
        "url": endpoint.url,
        "description": endpoint.description,
        "event_types": endpoint.event_types,
        "active": endpoint.active,
    }
    answer = render(
        request,
        "webhooks/endpoint.html",
        {
            "endpoint": endpoint,
            "tournament": endpoint.tournament,
            "venue": endpoint.venue,
            "here": "webhooks",
            "form": form or EndpointForm(initial=initial),
            "secret": secret,
            "page": page,
            "status_filter": status_filter,
            "statuses": DeliveryStatus.choices,
            "labels": TYPE_LABELS,
        },
        status=status,
    )
    if secret:  # never kept by a browser's cache or shown again by its back button
        patch_cache_control(answer, no_store=True, private=True)
    return answer


def _endpoint(endpoint_id: int) -> Endpoint:
    return get_object_or_404(Endpoint.objects.select_related("venue", "tournament"), pk=endpoint_id)


@role_required(MANAGE_TOURNAMENTS)
def endpoint_detail(request, endpoint_id: int):
    """One endpoint: its settings (POST saves them) and its delivery log."""
    endpoint = _endpoint(endpoint_id)
    if request.method != "POST":
        secret = request.session.pop(SECRET_SHOWN % endpoint.pk, "")
        return _endpoint_page(request, endpoint, secret=secret)
    form = EndpointForm(request.POST)
    if not form.is_valid():
        return _endpoint_page(request, endpoint, form=form, status=400)
    outcome = service_call(
        request, services.endpoint_update, form=form, endpoint_id=endpoint.pk, **form.cleaned_data
    )
    if not outcome.ok:
        return _endpoint_page(request, _endpoint(endpoint_id), form=form, status=400)
    messages.success(request, _("Webhook saved."))
    return redirect("webhooks:endpoint", endpoint.pk)


def _back(endpoint: Endpoint):
    if endpoint.tournament_id:
        return redirect("webhooks:tournament", endpoint.tournament_id)
    return redirect("webhooks:venue", endpoint.venue_id)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def endpoint_delete(request, endpoint_id: int):
    endpoint = _endpoint(endpoint_id)
    outcome = service_call(request, services.endpoint_delete, endpoint_id=endpoint.pk)
    if outcome.ok:
        messages.success(request, _("Webhook removed."))
    return _back(endpoint)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def endpoint_rotate(request, endpoint_id: int):
    """A new secret, shown on the next page only."""
    endpoint = _endpoint(endpoint_id)
    outcome = service_call(request, services.endpoint_secret_rotate, endpoint_id=endpoint.pk)
    if not outcome.ok:
        return redirect("webhooks:endpoint", endpoint.pk)
    return _secret_show(request, outcome.value.endpoint, outcome.value.secret)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def endpoint_test(request, endpoint_id: int):
    endpoint = _endpoint(endpoint_id)
    outcome = service_call(request, services.endpoint_test_send, endpoint_id=endpoint.pk)
    if outcome.ok:
        messages.success(
            request,
            _("Test event %(id)s is on its way.") % {"id": outcome.value.message_id},
        )
    return redirect("webhooks:endpoint", endpoint.pk)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def delivery_resend(request, endpoint_id: int, delivery_id: int):
    endpoint = _endpoint(endpoint_id)
    outcome = service_call(
        request, services.delivery_resend, endpoint_id=endpoint.pk, delivery_id=delivery_id
    )
    if outcome.ok:
        messages.success(
            request, _("%(id)s will be sent again.") % {"id": outcome.value.message_id}
        )
    return redirect("webhooks:endpoint", endpoint.pk)
