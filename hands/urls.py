"""Pages of the hands app: table tablets and hand-for-hand (filled in by hands.views)."""

app_name = "hands"
urlpatterns: list = []
