"""The Redis channel layer with a bounded pool (settings.CHANNEL_LAYERS).

channels_redis takes a connection from its pool for each group_add, group_discard and
group_send. Its pool opens a new connection whenever none is free and keeps every one
open afterwards, and past `max_connections` it fails ("Too many connections"). A burst
of 2,000 handshakes therefore opened hundreds of Redis connections at once (connection
timeouts under load) and left 368 of them open (issue 15). Here the pool waits for a
free connection instead (redis-py's BlockingConnectionPool, up to `pool_timeout`
seconds), so a process never holds more than `max_connections`; each command takes a
fraction of a millisecond, so a small pool serves a room full of screens.
"""

from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(ChannelsRedisLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address")
        host["timeout"] = host.pop("pool_timeout", 20)
        return BlockingConnectionPool.from_url(address, **host)
