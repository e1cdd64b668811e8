"""The websocket every screen of a tournament listens on: /ws/tournaments/<id>/; and a
player's phone page's, /ws/tournaments/<id>/entries/<entry id>/ (EntryConsumer).

A lobby screen's handshake must stay cheap when a room full of screens (or an attacker)
connects at once (issue 15): it reads no session and no user (web.asgi adds no auth
middleware), asks the database whether the tournament exists only the first time this
process sees it, and never waits for the one thread Channels gives the database. The
address's limits (floorman.ratelimit: handshakes per minute, sockets held open) are
checked before the socket joins any group.
"""

import json
import time

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from floorman.groups import entry_group, phones_group, series_group, tournament_group
from floorman.ratelimit import scope_request, socket_close, socket_open
from tournaments.models import Entry, Series, Tournament

# Tournaments are never deleted by Floorman, so an id seen to exist is remembered for
# the life of the process (a bounded number of them); an unknown id is asked each time.
KNOWN_MAX = 10_000
_known: set[int] = set()

# A time probe is about 50 characters: anything much longer is not one, and is not parsed.
FRAME_MAX = 1024
# A clock in ms since the epoch, as a browser's Date.now(): the largest exact integer in
# JavaScript bounds it (and refuses NaN and the infinities, which no comparison passes).
CLIENT_CLOCK_MAX = 2**53

REFUSED = 4429  # too many handshakes or open sockets from the address: try again later
NOT_FOUND = 4404


@database_sync_to_async
def _tournament_exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


async def tournament_known(tournament_id: int) -> bool:
    if tournament_id in _known:
        return True
    if not await _tournament_exists(tournament_id):
        return False
    if len(_known) >= KNOWN_MAX:
        _known.clear()
    _known.add(tournament_id)
    return True


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    """Read-only: pushes live events; what clients send is ignored but for the time probe."""

    groups: tuple[str, ...] = ()  # the groups joined, once joined
    counted = ""  # the open-socket count to release (floorman.ratelimit.socket_open)

    async def connect(self) -> None:
        # The counts live in Redis: read in a worker thread (never the database's one),
        # so that a slow cache holds up this handshake only, not the event loop.
        admitted, self.counted = await sync_to_async(socket_open, thread_sensitive=False)(
            scope_request(self.scope)
        )
        if not admitted:
            await self.close(code=REFUSED)
            return
        found = await self.watched()
        if found is None:
            await self.release()
            await self.close(code=NOT_FOUND)
            return
        self.groups, hello = found
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", **hello})

    async def watched(self) -> tuple[tuple[str, ...], dict] | None:
        """The groups this socket joins and what its hello names; None: no such one."""
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await tournament_known(self.tournament_id):
            return None
        return (tournament_group(self.tournament_id),), {"tournament": self.tournament_id}

    async def websocket_connect(self, message: dict) -> None:
        try:
            await super().websocket_connect(message)
        except BaseException:
            await self.release()  # a failed handshake leaves no group or count behind
            raise

    async def websocket_disconnect(self, message: dict) -> None:
        # As Channels' own, without closing old database connections: none was opened.
        await self.release()
        raise StopConsumer()

    async def release(self) -> None:
        """Leave the groups and give back the open-socket count; safe to call twice."""
        groups, self.groups = self.groups, ()
        counted, self.counted = self.counted, ""
        try:
            for group in groups:
                await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            if counted:
                await sync_to_async(socket_close, thread_sensitive=False)(counted)

    async def dispatch(self, message: dict) -> None:
        # Channels runs close_old_connections in its one database thread before every
        # handler. No handler here holds a connection (_tournament_exists closes its own),
        # and with hundreds of screens those thread hops queue up: the broadcast waits
        # (bench/clock_ws.py) and so does every handshake (issue 15).
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        # Binary, empty and oversized frames are garbage: ignored, the socket stays open.
        if not text_data or len(text_data) > FRAME_MAX:
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return json.loads(text_data)
        except (ValueError, RecursionError):
            return None  # garbage from a client is ignored, never an error

    @classmethod
    async def encode_json(cls, content) -> str:
        return json.dumps(content, allow_nan=False)  # strict JSON: no NaN, no Infinity

    async def receive_json(self, content, **kwargs) -> None:
        """Only the time probe is answered: screens estimate their offset to server time.

        The screen sends {"type": "time.ping", "client": <its clock, ms>}; the answer
        carries the server's clock in ms since the epoch, and the screen takes the
        midpoint of the round trip (NTP's idea, one sample per probe).
        """
        if not isinstance(content, dict) or content.get("type") != "time.ping":
            return
        client = content.get("client")
        if isinstance(client, bool) or not isinstance(client, int | float):
            return
        if not -CLIENT_CLOCK_MAX <= client <= CLIENT_CLOCK_MAX:
            return
        await self.send_json({"type": "time.pong", "client": client, "server": time.time() * 1000})

    async def live_event(self, event: dict) -> None:
        await self.send(text_data=event["text"])


@database_sync_to_async
def _series_public(series_id: int) -> bool:
    return Series.objects.filter(pk=series_id, public=True).exists()


class SeriesConsumer(TournamentConsumer):
    """/ws/series/<id>/: a public series' schedule hears its events' public changes
    (issue 17: their status). Read-only, as a tournament's socket; a series whose
    schedule is not public (or none) is refused as not found. The series may turn
    private at any time, so its existence is asked at every handshake."""

    async def watched(self) -> tuple[tuple[str, ...], dict] | None:
        self.series_id = int(self.scope["url_route"]["kwargs"]["series_id"])
        if not await _series_public(self.series_id):
            return None
        return (series_group(self.series_id),), {"series": self.series_id}


# Entries are never deleted by Floorman (a refund cancels one) nor change tournament: the
# entries seen are remembered, as tournaments are. The first phone of a tournament in
# this process reads all its entries at once (5,000 phones connecting after a restart ask
# the database's one thread once, not 5,000 times); an entry registered since is asked
# alone. Bounded: beyond ENTRIES_KNOWN_MAX ids, all are forgotten.
ENTRIES_KNOWN_MAX = 200_000
_entries_known: dict[int, set[int]] = {}


@database_sync_to_async
def _entries_of(tournament_id: int, entry_id: int | None = None) -> set[int]:
    entries = Entry.objects.filter(tournament_id=tournament_id)
    if entry_id is not None:
        entries = entries.filter(pk=entry_id)
    return set(entries.values_list("pk", flat=True))


async def entry_known(tournament_id: int, entry_id: int) -> bool:
    known = _entries_known.get(tournament_id)
    if known is not None and entry_id in known:
        return True
    found = await _entries_of(tournament_id, None if known is None else entry_id)
    if not found:
        return False  # nothing remembered: an unknown id is asked each time
    if sum(map(len, _entries_known.values())) + len(found) > ENTRIES_KNOWN_MAX:
        _entries_known.clear()
    _entries_known.setdefault(tournament_id, set()).update(found)
    return entry_id in found


class EntryConsumer(TournamentConsumer):
    """/ws/tournaments/<id>/entries/<entry id>/: a player's phone page (issue 20, item 8).

    It hears its entry's seat and status and the few whole-field messages its page shows
    (floorman.phones), not every event of the tournament: with thousands of phones, the
    tournament's group made each clock pause cost them all. Same limits, hello and time
    probe as a screen's socket; an entry not of the tournament is refused as not found.
    """

    async def watched(self) -> tuple[tuple[str, ...], dict] | None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.entry_id = int(self.scope["url_route"]["kwargs"]["entry_id"])
        if not await entry_known(self.tournament_id, self.entry_id):
            return None
        groups = (entry_group(self.tournament_id, self.entry_id), phones_group(self.tournament_id))
        return groups, {"tournament": self.tournament_id, "entry": self.entry_id}
