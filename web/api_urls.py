from django.urls import include, path

from floorman.api import TokenObtainView

urlpatterns = [
    path("auth/token/", TokenObtainView.as_view(), name="api-token"),
    path("", include("web.desk.api_urls")),
    path("", include("prizes.api_urls")),
    path("", include("clock.api_urls")),
    path("", include("seating.api_urls")),
    path("", include("hands.api_urls")),
    path("", include("rulings.api_urls")),
]
