"""What a player's phone page hears (floorman.phones): only its entry's part of a live
message, and the whole field's few messages (issue 20, item 8)."""

from floorman import live
from floorman.groups import entry_group, phones_group
from floorman.phones import ENTRY_UPDATED, SEATING_UPDATED, WHOLE_FIELD, phone_messages

T = 7


def row(entry: int, table: int, seat: int, from_table: int | None = None) -> dict:
    return {
        "entry": entry,
        "number": entry + 100,
        "name": f"Player {entry}",
        "table": table,
        "seat": seat,
        "from_table": from_table,
        "from_seat": 1 if from_table else None,
    }


def seating(seats=(), freed=(), **data) -> dict:
    return {
        "type": "seating.updated",
        "tournament": T,
        "data": {"seats": list(seats), "freed": list(freed), **data},
    }


def test_a_break_tells_each_moved_entry_its_own_row_only():
    moves = [row(1, 2, 4, from_table=5), row(2, 3, 9, from_table=5), row(3, 4, 1, from_table=5)]

    sent = phone_messages(T, seating(moves))

    assert sent == [
        (entry_group(T, 1), seating([moves[0]])),
        (entry_group(T, 2), seating([moves[1]])),
        (entry_group(T, 3), seating([moves[2]])),
    ]


def test_a_freed_seat_goes_to_its_entry_alone():
    sent = phone_messages(T, seating([row(1, 2, 4)], freed=[8, 8]))

    assert sent == [
        (entry_group(T, 1), seating([row(1, 2, 4)])),
        (entry_group(T, 8), seating(freed=[8])),
    ]


def test_an_entry_freed_and_seated_in_one_message_hears_both_once():
    sent = phone_messages(T, seating([row(1, 2, 4)], freed=[1]))

    assert sent == [(entry_group(T, 1), seating([row(1, 2, 4)], freed=[1]))]


def test_a_whole_draw_goes_to_every_phone_once():
    message = seating(resync=True)

    assert phone_messages(T, message) == [(phones_group(T), message)]


def test_an_entrys_status_goes_to_its_own_phone():
    message = {"type": "entry.updated", "tournament": T, "data": {"id": 4, "status": "busted"}}

    assert phone_messages(T, message) == [(entry_group(T, 4), message)]


def test_the_players_count_and_level_go_to_every_phone():
    for kind in ("counts.updated", "clock.level"):
        message = {"type": kind, "tournament": T, "data": {"level": 3}}
        assert phone_messages(T, message) == [(phones_group(T), message)]


def test_what_no_phone_shows_goes_to_no_phone():
    for kind in ("clock.updated", "table.updated", "entry.registered", "announcements.updated"):
        assert phone_messages(T, {"type": kind, "tournament": T, "data": {"id": 4}}) == []


def test_a_message_naming_its_series_keeps_it():
    message = {**seating([row(1, 2, 4)]), "series": 3}

    [(group, part)] = phone_messages(T, message)

    assert part["series"] == 3 and part["data"]["seats"] == [row(1, 2, 4)]


def test_the_kinds_are_the_publishers():
    assert {SEATING_UPDATED, ENTRY_UPDATED, *WHOLE_FIELD} <= set(live.KINDS)
