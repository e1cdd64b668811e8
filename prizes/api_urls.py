"""Prize money under /api/v1/tournaments/{id}/: the paths and names it had under the
tournaments API. A copy of an event, and the event templates (/api/v1/event-templates/)."""

from django.urls import path

from prizes import api

T = "tournaments/<id:tournament_pk>"

urlpatterns = [
    path(f"{T}/payouts/", api.PayoutsView.as_view(), name="api-payouts"),
    path(f"{T}/results/", api.ResultsView.as_view(), name="api-results"),
    path(f"{T}/results/<id:entry_pk>/place/", api.PlaceView.as_view(), name="api-place"),
    path(f"{T}/payments/", api.PaymentsView.as_view(), name="api-payments"),
    path(f"{T}/payments/<id:entry_pk>/", api.PaymentView.as_view(), name="api-payment"),
    path(
        f"{T}/deal/calculate/",
        api.DealCalculateView.as_view(),
        name="api-deal-calculate",
    ),
    path(f"{T}/deal/", api.DealView.as_view(), name="api-deal"),
    path(f"{T}/knockouts/", api.KnockoutsView.as_view(), name="api-knockouts"),
    path(
        f"{T}/knockouts/payments/",
        api.KnockoutPaymentsView.as_view(),
        name="api-knockout-payments",
    ),
    path(
        f"{T}/knockouts/<id:knockout_pk>/payment/",
        api.KnockoutPaymentView.as_view(),
        name="api-knockout-payment",
    ),
    path(f"{T}/copy/", api.EventCopyView.as_view(), name="api-event-copy"),
    path("event-templates/", api.EventTemplatesView.as_view(), name="api-event-templates"),
    path(
        "event-templates/<id:template_pk>/",
        api.EventTemplateView.as_view(),
        name="api-event-template",
    ),
    path(
        "event-templates/<id:template_pk>/start/",
        api.EventTemplateStartView.as_view(),
        name="api-event-template-start",
    ),
]
