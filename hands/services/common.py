"""What the hands services share: refusals, the open table, the table's live event.
The lock is the tournament's row, for desks, floor and tables alike
(tournaments.services.tournament_lock)."""

from floorman import live
from floorman.errors import Conflict, NotFound
from hands.messages import refusal_message
from hands.selectors import hand_in_play, open_table, table_state_public
from seating.models import Table
from seating.selectors import table_now
from tournaments.models import Tournament


def refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code, data=data)


def table_of(tournament: Tournament, number: int) -> Table:
    table = open_table(tournament.pk, number)
    if table is None:
        raise NotFound(refusal_message("no_table", number=number))
    return table


def publish_table(table: Table) -> None:
    """Tablets and the TD's map show the table's state as this transaction leaves it."""

    live.live_publish(
        tournament_id=table.tournament_id,
        kind=live.TABLE_UPDATED,
        data=table_state_public(table),
    )


def table_ready_to_deal(table: Table):
    """A table may start its next hand: none in play, two players or more, a button
    drawn. The table as it stands (`seating.selectors.table_now`), else 409."""
    playing = hand_in_play(table)
    if playing is not None:
        raise refuse("hand_in_play", hand=playing.number)
    now = table_now(table)
    if len(now.occupied) < 2:
        raise refuse("too_few_players")
    if now.state.button is None:
        raise refuse("no_button")
    return now
