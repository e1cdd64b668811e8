"""The channel layers (settings.CHANNEL_LAYERS): Redis with a bounded pool, and the
in-memory layer sending in slices.

channels_redis takes a connection from its pool for each group_add, group_discard and
group_send. Its pool opens a new connection whenever none is free and keeps every one
open afterwards, and past `max_connections` it fails ("Too many connections"). A burst
of 2,000 handshakes therefore opened hundreds of Redis connections at once (connection
timeouts under load) and left 368 of them open (issue 15). Here the pool waits for a
free connection instead (redis-py's BlockingConnectionPool, up to `pool_timeout`
seconds), so a process never holds more than `max_connections`; each command takes a
fraction of a millisecond, so a small pool serves a room full of screens.

A group without a member costs channels_redis two round trips per message all the same,
and most messages go to such groups: a phone's group is empty unless that player has the
page open (floorman.phones). `groups_listening` asks for a batch of groups in one round
trip, and floorman.live sends only to those with a member.
"""

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Iterable

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as InMemoryLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer
from redis.asyncio import BlockingConnectionPool

log = logging.getLogger(__name__)


class RedisChannelLayer(ChannelsRedisLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address")
        host["timeout"] = host.pop("pool_timeout", 20)
        return BlockingConnectionPool.from_url(address, **host)

    async def groups_listening(self, groups: Iterable[str]) -> set[str]:
        """Of `groups`, those with a member now: one round trip per Redis host. A member
        older than `group_expiry` counts as gone, as group_send itself drops it."""
        by_host = defaultdict(list)
        for group in dict.fromkeys(groups):
            by_host[self.consistent_hash(group)].append(group)
        expired = int(time.time()) - self.group_expiry  # group_send drops scores up to it
        listening = set()
        for index, names in by_host.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for group in names:
                pipe.zcount(self._group_key(group), f"({expired}", "+inf")
            counts = await pipe.execute()
            listening.update(group for group, count in zip(names, counts, strict=True) if count)
        return listening


class InMemoryChannelLayer(InMemoryLayer):
    """The in-memory layer (no REDIS_URL: one process serves the pages and the screens),
    fanning a group message out in slices.

    Channels' own group_send makes a task per member and delivers to all of them at once;
    the event loop then runs every screen's send before anything else, and a request
    served by the same loop (its answer, the next request) waited for 1,000 of them
    (bench/clock_ws.py, issue 20). Here the loop is given back after each slice, and
    floorman.live hands its messages to `publish`, which sends them one after another
    without the publishing thread waiting. The loop is the one the screens joined from.
    """

    SLICE = 50  # screens served between two turns of the event loop
    # Channels' layer looks through every channel for expired messages on each receive
    # and group send: with 5,000 screens, 25 million looks per message. Once a second
    # is enough for messages that expire after a minute.
    CLEAN_EVERY = 1.0

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue | None = None
        self._outbox_loop: asyncio.AbstractEventLoop | None = None
        self._outbox_task: asyncio.Task | None = None
        self._cleaned_at = -self.CLEAN_EVERY

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at >= self.CLEAN_EVERY:
            self._cleaned_at = now
            super()._clean_expired()

    async def group_add(self, group: str, channel: str) -> None:
        self.loop = asyncio.get_running_loop()
        await super().group_add(group, channel)

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for n, channel in enumerate(list(self.groups.get(group, ()))):
            if n and not n % self.SLICE:
                await asyncio.sleep(0)  # let the loop answer a request between slices
            with contextlib.suppress(ChannelFull):  # as channels': a full screen misses it
                await self.send(channel, message)

    def publish(self, group: str, message: dict) -> bool:
        """Queue a group message for sending in order, from any thread; returns at once.
        False when no screen ever joined in a running loop (nobody to send to)."""
        loop = self.loop
        if loop is None or loop.is_closed() or not loop.is_running():
            return False
        loop.call_soon_threadsafe(self._queue, group, message)
        return True

    def _queue(self, group: str, message: dict) -> None:
        loop = asyncio.get_running_loop()
        if self._outbox is None or self._outbox_loop is not loop:
            self._outbox, self._outbox_loop = asyncio.Queue(), loop
            self._outbox_task = loop.create_task(self._drain(self._outbox))
        self._outbox.put_nowait((group, message))

    async def _drain(self, outbox: asyncio.Queue) -> None:
        while True:
            group, message = await outbox.get()
            try:
                await self.group_send(group, message)
            except Exception:  # one lost message must not stop the ones after it
                log.exception("live event for %s was not sent", group)
