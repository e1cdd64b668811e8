"""The websocket every screen of a tournament listens on: /ws/tournaments/<id>/."""

import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from floorman.groups import tournament_group
from tournaments.models import Tournament


@database_sync_to_async
def _tournament_exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    """Read-only: pushes live events; what clients send is ignored."""

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await _tournament_exists(self.tournament_id):
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "tournament": self.tournament_id})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):
            # Garbage from a client is ignored, never an error: deeply nested brackets
            # make Python's decoder recurse too deep (issue 15).
            return None

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
        await self.send_json({"type": "time.pong", "client": client, "server": time.time() * 1000})

    async def dispatch(self, message: dict) -> None:
        # Channels runs close_old_connections in a thread before every handler; a live
        # event touches no database, and with hundreds of screens those thread hops
        # queue up and delay the broadcast (bench/clock_ws.py).
        if message.get("type") == "live.event":
            await self.live_event(message)
            return
        await super().dispatch(message)

    async def live_event(self, event: dict) -> None:
        await self.send(text_data=event["text"])
