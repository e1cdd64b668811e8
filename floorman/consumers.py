"""The websocket every screen of a tournament listens on: /ws/tournaments/<id>/."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from floorman.groups import tournament_group


@database_sync_to_async
def _tournament_exists(tournament_id: int) -> bool:
    from tournaments.models import Tournament

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

    async def receive_json(self, content, **kwargs) -> None:
        return None

    async def live_event(self, event: dict) -> None:
        await self.send_json(event["message"])
