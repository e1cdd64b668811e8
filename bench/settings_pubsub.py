"""Benchmark-only settings: production settings with channels_redis's pub/sub layer.

bench/clock_ws.py serves the app with DJANGO_SETTINGS_MODULE=bench.settings_pubsub
(the project root is on sys.path, and bench/ imports as a namespace package) to
compare RedisPubSubChannelLayer with the core RedisChannelLayer that floorman.settings
configures. The pub/sub layer builds its pools with redis-py's ConnectionPool.from_url(
address, **host), so the same host dict (socket timeout, keepalive) applies, but for the
bounded pool's options (floorman.layers): its pool fails rather than waits when full, so
it keeps the large pool the core layer had before.
"""

import copy

from django.core.exceptions import ImproperlyConfigured

from floorman.settings import *  # noqa: F403
from floorman.settings import CHANNEL_LAYERS, REDIS_URL

if not REDIS_URL:
    raise ImproperlyConfigured("bench.settings_pubsub needs REDIS_URL.")

CHANNEL_LAYERS = copy.deepcopy(CHANNEL_LAYERS)
CHANNEL_LAYERS["default"]["BACKEND"] = "channels_redis.pubsub.RedisPubSubChannelLayer"
HOST = CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
HOST.pop("pool_timeout", None)
HOST["max_connections"] = 2000
