"""Redis caches whose clients are the process's (settings CACHES).

Django's Redis backend makes a new redis.Redis client for every operation (with redis-py 8
that costs more than the round trip itself: about 1 ms of CPU for each clock read, issue
20). These backends keep one client per connection pool (redis-py clients are
thread-safe). Django makes a cache object per thread and per async context: under ASGI,
one per websocket. Each would open connections of its own and leave them open (30
sockets, 30 Redis connections: web/tests/test_consumers.py), so the pools are the
process's, one per server and options, shared by every cache object.

`SharedRedisCache` is the default cache: the clock's rows (clock.cache) and anything
else kept there. `CounterCache` counts rate limits (CACHES["ratelimit"]): django-ratelimit
counts with `add` and then `incr`, and Django's `incr` asks twice: does the key exist,
then INCRBY. Counting one search cost about 0.55 ms that way; this backend increments an
existing key in one round trip: two round trips per count, about 0.1 ms. Its `count`
makes it one (floorman.ratelimit): a script that increments the key and gives the key it
made its expiry. Under load every round trip waits for Redis to be scheduled: the seat
lookup spent more on its two than on everything else (issue 20). Everything else is
Django's backend.
"""

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients = {}  # (server, options) -> redis.Redis on the process's one pool for them
_clients_lock = threading.Lock()

# INCRBY only a key that exists: a key that expired between add and incr is not made
# again without its expiry (it would count forever).
INCR_EXISTING = """
if redis.call('exists', KEYS[1]) == 1 then
    return redis.call('incrby', KEYS[1], ARGV[1])
end
return false
"""

# A count in one round trip: the key made by this INCRBY gets its expiry, one that
# exists keeps its own (the count's window does not move).
COUNT = """
local count = redis.call('incrby', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then
    redis.call('expire', KEYS[1], ARGV[2])
end
return count
"""


class SharedClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            server = (self._servers[index], repr(sorted(self._pool_options.items())))
            with _clients_lock:
                client = _clients.get(server)
                if client is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    client = _clients[server] = self._client(connection_pool=pool)
            self._clients[index] = client
        return client


class CounterClient(SharedClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._incr_script = None
        self._count_script = None

    def incr(self, key, delta):
        client = self.get_client(key, write=True)
        if self._incr_script is None:
            self._incr_script = client.register_script(INCR_EXISTING)
        value = self._incr_script(keys=[key], args=[delta], client=client)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value

    def count(self, key, delta, timeout):
        client = self.get_client(key, write=True)
        if self._count_script is None:
            self._count_script = client.register_script(COUNT)
        return self._count_script(keys=[key], args=[delta, timeout], client=client)


class SharedRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedClient


class CounterCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = CounterClient

    def count(self, key, timeout: int, delta: int = 1) -> int:
        """`key` incremented by `delta` (made at `delta`, to expire in `timeout` seconds,
        when missing), in one round trip: the count after."""
        key = self.make_and_validate_key(key)
        return self._cache.count(key, delta, int(timeout))
