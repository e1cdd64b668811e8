"""Channel-layer group names, in one place."""


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def series_group(series_id: int) -> str:
    """A series' schedule page hears its events' public changes here (issue 17)."""
    return f"series.{series_id}"


def entry_group(tournament_id: int, entry_id: int) -> str:
    """A player's phone page hears what concerns its entry here (floorman.phones)."""
    return f"tournament.{tournament_id}.entry.{entry_id}"


def phones_group(tournament_id: int) -> str:
    """Every phone page of the tournament: the few messages the whole field needs."""
    return f"tournament.{tournament_id}.phones"
