from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import floorman.converters  # noqa: F401 - registers the "id" path converter
from floorman import health
from floorman import views as staff_views
from floorman.ratelimit import LOGIN, rate_limited
from hands import urls as hands_urls
from prizes import urls as prizes_urls
from prizes.views.payouts import results_public
from rulings import urls as rulings_urls
from tournaments import urls as tournaments_urls
from web import views
from web.desk import urls as desk_urls
from web.flights import urls as flights_urls
from web.tablet import urls as tablet_urls

# At most FLOORMAN_RATE_LOGIN sign-in attempts from one address, and on one username,
# counted with the API's token endpoint (floorman.ratelimit.LOGIN).
login = rate_limited(LOGIN, counts=lambda request: request.method == "POST")(
    auth_views.LoginView.as_view()
)

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="tournaments:list", permanent=False)),
    path("favicon.ico", views.favicon, name="favicon"),
    path("health/", health.health, name="health"),
    path("health/live/", health.live, name="health-live"),
    path("login/", login, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("web.api_urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file: no inline script (CSP).
    path(
        "api/v1/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"
    ),
    # The desk's and the prize pages keep the "tournaments" namespace and names they had.
    path(
        "tournaments/",
        include(
            (
                tournaments_urls.urlpatterns
                + desk_urls.urlpatterns
                + prizes_urls.urlpatterns
                + flights_urls.urlpatterns
                + rulings_urls.tournament_urlpatterns,
                "tournaments",
            )
        ),
    ),
    path("results/<id:tournament_id>/", results_public, name="results-public"),
    path("", include("web.feed.urls")),
    path("", include("clock.urls.console")),
    path("", include("web.screens.urls")),
    path("", include("clock.urls.structures")),
    path("", include("seating.urls.tables")),
    path("", include("seating.urls.public")),
    # The tablet's pages keep the "hands" namespace and names they had.
    path("", include((hands_urls.urlpatterns + tablet_urls.urlpatterns, "hands"))),
    path("", include("rulings.urls")),
    path("tournaments/<id:tournament_id>/audit/", views.audit_log, name="audit-log"),
    path("staff/", staff_views.staff_access, name="staff-access"),
    path("staff/new/", staff_views.staff_create, name="staff-create"),
    path("staff/<id:user_id>/", staff_views.staff_account, name="staff-account"),
    path(
        "staff/<id:user_id>/password/",
        staff_views.staff_password_reset,
        name="staff-password-reset",
    ),
    path("staff/<id:user_id>/sign-out/", staff_views.staff_sign_out, name="staff-sign-out"),
    path("staff/<id:user_id>/active/", staff_views.staff_active, name="staff-active"),
    path("account/password/", staff_views.account_password, name="password-change"),
    path("keys/", staff_views.api_keys, name="keys"),
    path("keys/create/", staff_views.api_key_create, name="key-create"),
    path("keys/<id:key_id>/revoke/", staff_views.api_key_revoke, name="key-revoke"),
    path("", include("web.tickets.urls")),
    path("", include("web.series.urls")),
    path("", include("webhooks.urls")),
]

handler400 = "floorman.error_pages.bad_request"
handler404 = "floorman.error_pages.page_not_found"
