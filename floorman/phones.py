"""What a player's phone page hears: only what concerns its entry (issue 20, item 8).

The phone page (static/js/seats.js EntryScreen) cares about the seat and status of one
entry. On the tournament's group it received every event of the event: with 5,000
phones, each clock pause and each table break cost the websocket processes a second of
CPU and delayed the moved players' alerts by many seconds (bench/cluster.py). A phone
joins instead its entry's group and the tournament's phones' group (web.consumers
EntryConsumer), and a live message is split here, once per message, by the publisher:

- "seating.updated": to each moved or freed entry's group, the same message with only
  that entry's row in "seats" and its id in "freed" (seatChange in seats.js reads it as
  before); a whole draw ("resync") to the phones' group instead;
- "entry.updated": to that entry's group;
- what every phone's page shows from the whole field (the player's count, rank and big
  blinds: "counts.updated", "clock.level"): to the phones' group;
- anything else: to no phone.

Pure: no Django, no channel layer.
"""

from floorman.groups import entry_group, phones_group

# The kinds, as floorman.live names them (it imports this module, not the reverse).
SEATING_UPDATED = "seating.updated"
ENTRY_UPDATED = "entry.updated"
# The player's count on their page (templates/tournaments/_entry_count.html) follows these.
WHOLE_FIELD = frozenset({"counts.updated", "clock.level"})


def phone_messages(tournament_id: int, message: dict) -> list[tuple[str, dict]]:
    """(group, message) for every phone group that should hear `message`, in order."""
    kind = message.get("type")
    data = message.get("data") or {}
    if kind == SEATING_UPDATED:
        if data.get("resync"):
            return [(phones_group(tournament_id), message)]
        out = []
        freed = list(dict.fromkeys(data.get("freed") or ()))
        for row in data.get("seats") or ():
            # An entry both moved and freed in one message is told both, as before.
            mine = [row["entry"]] if row["entry"] in freed else []
            out.append((row["entry"], {"seats": [row], "freed": mine}))
        told = {entry for entry, _ in out}
        out.extend((entry, {"seats": [], "freed": [entry]}) for entry in freed if entry not in told)
        return [
            (entry_group(tournament_id, entry), {**message, "data": {**data, **mine}})
            for entry, mine in out
        ]
    if kind == ENTRY_UPDATED and data.get("id") is not None:
        return [(entry_group(tournament_id, data["id"]), message)]
    if kind in WHOLE_FIELD:
        return [(phones_group(tournament_id), message)]
    return []
