"""Live events: the one publisher services use to tell open screens what changed.

Messages are typed JSON: {"type": "<kind>", "tournament": id, "data": {...}}. They are
sent only after the transaction commits, so a screen never sees a change that was
rolled back. Data must be public: no contact details.

A flight's entries, busts and bags also concern its event (issue 17): such an event of a
flight is followed by a light "overview.changed" to the event's group, and the event's
screens fetch its overview once. Nobody subscribes to anything new, and the relay reads
no database: the flight's lock noted its event (flight_note).

Services run in plain threads (gunicorn's workers, Celery, commands), and the channel
layer is asyncio. asgiref's `async_to_sync` would start a new event loop for each
message, and channels_redis keeps its connections per event loop: every message opened
and closed a Redis connection, 10–17 ms on the shared machine, in the request (issue 16).
The Redis layer is driven instead from one event loop per process, in a thread of its
own, which keeps its connections open between messages.

The request that changes state does not wait for the screens (issue 20): with 1,000
screens open, a pause was answered after about 2 s, once the frames had gone out. The
message is encoded in the publishing thread (a snapshot of its data) and handed to the
process's sender, which sends the messages one after another, in the order they were
handed over: the order of a service's messages holds within the process, as before.
A message that fails is logged and the next one is sent. What waits is sent as a
batch: the Redis layer is asked once which of its groups have a member, and the groups
nobody listens to (most phones' groups) are skipped. At exit the process waits
(up to SEND_TIMEOUT) for what it handed over, so a command's events are not lost. The
in-memory layer (no REDIS_URL: one process serves pages and screens) is sent to in the
event loop of the screens it serves, in slices, so that a request served by that loop
is answered between two slices (floorman.layers.InMemoryChannelLayer).
"""

import asyncio
import atexit
import json
import logging
import os
import threading
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from floorman.groups import series_group, tournament_group
from floorman.phones import phone_messages

log = logging.getLogger(__name__)

# Message kinds: every app's live events, one constant each.
ENTRY_REGISTERED = "entry.registered"
ENTRY_UPDATED = "entry.updated"
TOURNAMENT_UPDATED = "tournament.updated"
ALTERNATES_UPDATED = "alternates.updated"
CLOCK_UPDATED = "clock.updated"  # the full clock state after any change
CLOCK_WARNING = "clock.warning"  # RP-7: a level change or break is near
CLOCK_LEVEL = "clock.level"  # a new level or break has begun (TDA 23: from the next hand)
PLAYER_CLOCK = "player_clock.updated"  # TDA 29
ANNOUNCEMENTS = "announcements.updated"
SEATING_UPDATED = "seating.updated"  # who now sits where, whose seat is free
TABLE_UPDATED = "table.updated"  # a table's button, blinds and hand in play
HAND_FOR_HAND = "hand_for_hand.updated"  # RP-8: the round, who has reported, deal
PAYOUTS_UPDATED = "payouts.updated"  # the payout table: settings, lock, lines
# A place entered, a prize paid, a deal agreed: the summary and the changed lines only
# ("changed": null when many may have changed: GET the results).
RESULTS_UPDATED = "results.updated"
# Something changed in one of the event's flights (issue 17): its screens fetch the
# event's overview once. {"flight": id, "change": the flight's own kind}
OVERVIEW_CHANGED = "overview.changed"
FLIGHT_UPDATED = "flight.updated"  # issue 17: a flight stopped, a bag counted, bags confirmed
# Issue 18: a bounty paid at the cage or taken back; the bounty totals.
BOUNTIES_UPDATED = "bounties.updated"
# Issue 18: chips counted (a table, a player) or a count sweep started or closed; no chips
# in it: the screens fetch the leaders again. {"table"|"entry"|"sweep": id, "level": n}
COUNTS_UPDATED = "counts.updated"
KINDS = (
    ENTRY_REGISTERED,
    ENTRY_UPDATED,
    TOURNAMENT_UPDATED,
    ALTERNATES_UPDATED,
    CLOCK_UPDATED,
    CLOCK_WARNING,
    CLOCK_LEVEL,
    PLAYER_CLOCK,
    ANNOUNCEMENTS,
    SEATING_UPDATED,
    TABLE_UPDATED,
    HAND_FOR_HAND,
    PAYOUTS_UPDATED,
    RESULTS_UPDATED,
    OVERVIEW_CHANGED,
    FLIGHT_UPDATED,
    BOUNTIES_UPDATED,
    COUNTS_UPDATED,
)
# A flight's events that say nothing of its entries, survivors or bags: not relayed.
NOT_OVERVIEW = frozenset(
    {
        CLOCK_UPDATED,
        CLOCK_WARNING,
        CLOCK_LEVEL,
        PLAYER_CLOCK,
        ANNOUNCEMENTS,
        TABLE_UPDATED,
        HAND_FOR_HAND,
        OVERVIEW_CHANGED,
        BOUNTIES_UPDATED,
    }
)


def live_publish(
    *, tournament_id: int, kind: str, data: dict, series_id: int | None = None
) -> None:
    """Send `kind` to every screen watching the tournament, once the transaction commits;
    with `series_id`, to the screens watching that series' schedule as well (issue 17:
    the message then names its series)."""
    if kind not in KINDS:
        raise ValueError(f"unknown live event kind {kind!r}")
    message = {"type": kind, "tournament": tournament_id, "data": data}
    if series_id is not None:
        message["series"] = series_id
    transaction.on_commit(lambda: _send(tournament_id, message))
    parent_id = _parents.get(tournament_id)
    if parent_id is not None and kind not in NOT_OVERVIEW:
        relayed = {
            "type": OVERVIEW_CHANGED,
            "tournament": parent_id,
            "data": {"flight": tournament_id, "change": kind},
        }
        transaction.on_commit(lambda: _send(parent_id, relayed))


# A flight's parent event, noted when the flight's row is locked (tournament_lock): every
# service that changes a flight locks it before it publishes, so the relay to the event's
# screens asks the database nothing. A flight never changes its event.
PARENTS_MAX = 10_000
_parents: dict[int, int] = {}


def flight_note(tournament_id: int, parent_id: int | None) -> None:
    """Remember whether the tournament is a flight, and of which event (issue 17)."""
    if parent_id is None:
        _parents.pop(tournament_id, None)
        return
    if len(_parents) >= PARENTS_MAX:
        _parents.clear()
    _parents[tournament_id] = parent_id


def _send(tournament_id: int, message: dict) -> None:
    """Hand the committed change's message to this process's sender; returns at once."""
    groups = [tournament_group(tournament_id)]
    if message.get("series") is not None:
        groups.append(series_group(message["series"]))
    try:
        layer = get_channel_layer()
        # Encoded once here, not once per connected screen: a room may have thousands.
        text = json.dumps(message, separators=(",", ":"), cls=DjangoJSONEncoder)
        outgoing = [(group, {"type": "live.event", "text": text}) for group in groups]
        outgoing.extend(_phone_events(tournament_id, message))
    except Exception:  # a lost live update must never undo a committed change
        log.exception("live event %s for %s was not sent", message["type"], groups[0])
        return
    for group, event in outgoing:
        if isinstance(layer, InMemoryChannelLayer):
            _send_in_memory(layer, group, event)
        else:
            _sender_get().hand_over(layer, group, event)


def _send_in_memory(layer: InMemoryChannelLayer, group: str, event: dict) -> None:
    publish = getattr(layer, "publish", None)  # floorman.layers': in the screens' loop
    try:
        if publish is None or not publish(group, event):
            async_to_sync(layer.group_send)(group, event)  # no screen's loop: as before
    except Exception:
        log.exception("live event for %s was not sent", group)


def _phone_events(tournament_id: int, message: dict) -> list[tuple[str, dict]]:
    """Phone pages hear only their entry's part of a message (floorman.phones)."""
    return [
        (group, {"type": "live.event", "text": _encoded(part)})
        for group, part in phone_messages(tournament_id, message)
    ]


def _encoded(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"), cls=DjangoJSONEncoder)


# Longer than the Redis layer's connect timeout (5 s): a Redis that is down is reported
# by the layer itself. Messages waiting beyond OUTBOX_MAX (Redis down or far behind)
# are dropped and logged rather than kept without bound.
SEND_TIMEOUT = 10
OUTBOX_MAX = 10_000
BATCH_MAX = 200  # messages asked about together (which groups listen)


@dataclass
class _Sender:
    """This process's event loop for the channel layer, in a daemon thread, and the
    queue of messages it sends in order."""

    pid: int
    loop: asyncio.AbstractEventLoop
    outbox: asyncio.Queue

    def hand_over(self, layer, group: str, event: dict) -> None:
        self.loop.call_soon_threadsafe(self._put, (layer, group, event))

    def _put(self, item: tuple) -> None:
        try:
            self.outbox.put_nowait(item)
        except asyncio.QueueFull:
            log.error("live event for %s was not sent: %d waiting", item[1], OUTBOX_MAX)

    async def drain(self) -> None:
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < BATCH_MAX and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            try:
                await _batch_send(batch)
            finally:
                for _ in batch:
                    self.outbox.task_done()


async def _batch_send(batch: list[tuple]) -> None:
    """Send what waited, in order, to the groups somebody listens to: asked of the Redis
    layer in one round trip for the whole batch (floorman.layers.groups_listening)."""
    listening = None
    layer = batch[0][0]
    if all(item[0] is layer for item in batch) and hasattr(layer, "groups_listening"):
        try:
            listening = await asyncio.wait_for(
                layer.groups_listening(group for _, group, _ in batch), SEND_TIMEOUT
            )
        except Exception:  # unknown: send to every group, as group_send alone would
            log.exception("live events: could not ask which groups listen")
    for layer, group, event in batch:
        if listening is not None and group not in listening:
            continue  # nobody to tell: no phone open for that entry, no screen
        try:
            await asyncio.wait_for(layer.group_send(group, event), SEND_TIMEOUT)
        except Exception:  # one lost message must not stop the ones after it
            log.exception("live event for %s was not sent", group)


_sender: _Sender | None = None
_sender_lock = threading.Lock()


def _sender_get() -> _Sender:
    """This process's sender, started on first use, and again in a process forked after
    it (the thread stays behind in the parent)."""
    global _sender
    with _sender_lock:
        if _sender is None or _sender.pid != os.getpid():
            loop = asyncio.new_event_loop()
            sender = _Sender(os.getpid(), loop, asyncio.Queue(OUTBOX_MAX))
            threading.Thread(target=loop.run_forever, name="live-events", daemon=True).start()
            asyncio.run_coroutine_threadsafe(sender.drain(), loop)
            _sender = sender
        return _sender


def flush(timeout: float = SEND_TIMEOUT) -> bool:
    """Wait until every message this process handed over has been sent (or failed);
    False if that took longer than `timeout` seconds."""
    sender = _sender
    if sender is None or sender.pid != os.getpid():
        return True
    done = asyncio.run_coroutine_threadsafe(sender.outbox.join(), sender.loop)
    try:
        done.result(timeout)
    except TimeoutError:
        done.cancel()
        return False
    return True


atexit.register(flush)  # a command's or worker's last events go out before it exits
