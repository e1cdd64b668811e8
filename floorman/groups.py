"""Channel-layer group names, in one place."""


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"
