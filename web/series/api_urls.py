from django.urls import include, path
from rest_framework.routers import SimpleRouter

from web.series.api import SeriesViewSet

router = SimpleRouter()
router.register("series", SeriesViewSet, basename="series")

urlpatterns = [path("", include(router.urls))]
