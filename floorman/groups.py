"""Channel-layer group names, in one place."""


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def series_group(series_id: int) -> str:
    """A series' schedule page hears its events' public changes here (issue 17)."""
    return f"series.{series_id}"
