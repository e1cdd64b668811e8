"""Floorman settings, read from the environment (see README "Configuration").

Two modes:
- embedded (no DATABASE_URL): SQLite under var/, in-memory channel layer and cache,
  Celery on an in-memory broker with its worker inside the server process;
- production (DATABASE_URL and REDIS_URL): PostgreSQL, Redis for channels, Celery and
  the cache. No state lives in process memory, so web and worker processes scale out.
"""

import re
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from floorman.env import (
    env_bool,
    env_duration,
    env_int,
    env_list,
    env_str,
    env_time_zone,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("FLOORMAN_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", default=False)
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
# Every key Floorman writes to Redis (channel groups, cache, task queues) starts with
# this, so two installations or a test run can share one Redis database.
REDIS_KEY_PREFIX = env_str("REDIS_KEY_PREFIX", "floorman")
EMBEDDED = not DATABASE_URL


def _secret_key() -> str:
    key = env_str("SECRET_KEY")
    if key:
        if not DEBUG and len(key) < 50:
            raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long.")
        return key
    if DEBUG:
        return "insecure-debug-only-" + "x" * 40
    if EMBEDDED:
        # Quick start on one machine: make a key once and keep it under var/.
        path = VAR_DIR / "secret_key"
        if not path.exists():
            VAR_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(64))
            path.chmod(0o600)
        return path.read_text().strip()
    raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "django_htmx",
    "floorman",
    "tournaments",
    "seating",
    "clock",
    "payouts",
    "hands",
    "rulings",
    "prizes",
    "simulation",
    "webhooks",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "floorman.middleware.DatabaseDownMiddleware",
    "floorman.middleware.ApiUseMiddleware",
]

ROOT_URLCONF = "web.urls"
WSGI_APPLICATION = "web.wsgi.application"
ASGI_APPLICATION = "web.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "floorman.pages.page_messages",  # this page's messages (issue 16)
                "floorman.roles.roles_context",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------
# Django's PostgreSQL and SQLite backends with what the audit log needs (floorman.database):
# its chain appended last in each transaction, and a flush that may empty its table.
database_backends = {
    "django.db.backends.postgresql": "floorman.database.postgresql",
    "django.db.backends.sqlite3": "floorman.database.sqlite3",
}
if EMBEDDED:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "floorman.database.sqlite3",
            "NAME": VAR_DIR / "floorman.sqlite3",
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
else:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    # env_url above admits postgres:// and sqlite:// only.
    DATABASES["default"]["ENGINE"] = database_backends[DATABASES["default"]["ENGINE"]]
    if DATABASES["default"]["ENGINE"] == "floorman.database.postgresql":
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Under ASGI (web/asgi.py) each request runs in a thread of its own, and a connection kept
# per thread outlived it; Django's pool (psycopg_pool) is used there instead, one per
# process: at most DATABASE_POOL_MAX connections to PostgreSQL, DATABASE_POOL_MIN kept
# open. A request that finds all in use waits up to `timeout` seconds (then 503).
# gunicorn's sync workers (one request at a time each) keep their own (CONN_MAX_AGE).
DATABASE_POOL_MIN = env_int("DATABASE_POOL_MIN", 2)
DATABASE_POOL_MAX = env_int("DATABASE_POOL_MAX", 10)
if DATABASE_POOL_MAX < max(1, DATABASE_POOL_MIN):
    raise ImproperlyConfigured(
        f"DATABASE_POOL_MAX={DATABASE_POOL_MAX} must be 1 or more, and at least "
        f"DATABASE_POOL_MIN={DATABASE_POOL_MIN}."
    )
DATABASE_POOL = {"min_size": DATABASE_POOL_MIN, "max_size": DATABASE_POOL_MAX, "timeout": 10}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery --------------------------------------
if REDIS_URL:
    # redis-py 8 reads with a 5 s socket timeout; channels_redis blocks up to 5 s per read
    # (channels_redis issue 422): a longer timeout with keepalive keeps a quiet room of
    # lobby screens connected (floorman/tests/test_live_redis.py). Each group command
    # takes a connection from the pool: floorman.layers bounds the pool per process and
    # lets a burst of handshakes wait up to pool_timeout for a free connection, rather
    # than open (and keep) one each (web/tests/test_consumers.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "floorman.layers.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                        "socket_keepalive": True,
                        "health_check_interval": 30,
                        "max_connections": 20,
                        "pool_timeout": 20,
                    }
                ],
                "prefix": REDIS_KEY_PREFIX,
            },
        }
    }
    CACHES = {
        # Clients shared by the process (floorman/cache.py): the clock's read (clock.cache)
        # makes one round trip, not a new client each time.
        "default": {
            "BACKEND": "floorman.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
        },
        # Rate limit counts (floorman.ratelimit): one client, one round trip per count.
        # A Redis that does not answer within a second counts as down: the request is
        # served uncounted rather than held up.
        "ratelimit": {
            "BACKEND": "floorman.cache.CounterCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
        # Public screens' pages and numbers by version (floorman.versions, issue 20): one
        # client per process, and a Redis that does not answer within a second is skipped.
        "screens": {
            "BACKEND": "floorman.cache.CounterCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    CELERY_BROKER_URL = REDIS_URL
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "floorman.layers.InMemoryChannelLayer"}}
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "ratelimit",
        },
        "screens": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "screens",
        },
    }
    CELERY_BROKER_URL = "memory://"

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Clock announcements wait in Redis with an eta up to a level's length; a task not
# acknowledged within this time is delivered again (harmless: see clock.services).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 4 * 3600,
    "global_keyprefix": f"{REDIS_KEY_PREFIX}:",
}

# --- Auth ---------------------------------------------------------------------
# Every place that sets a password checks it with these (validate_password): Django's
# admin and management commands, and floorman.bootstrap for the first director.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "floorman.passwords.HouseWordsValidator"},  # "floorman", "pokerpoker"
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:list"
LOGOUT_REDIRECT_URL = "login"

# --- Languages, time -------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = env_time_zone("TIME_ZONE", "Europe/Vienna")

# --- Static files -----------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True  # serve without collectstatic in the quick start
if EMBEDDED:
    STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- API --------------------------------------------------------------------------
REST_FRAMEWORK = {
    # A staff member's token (expires, floorman.tokens), another tool's API key
    # (floorman.keys), or the browser's session. The token comes first: a refused request
    # answers 401 with `WWW-Authenticate: Token`.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "floorman.authentication.ExpiringTokenAuthentication",
        "floorman.authentication.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["floorman.roles.ReadOnlyOrStaff"],
    # Bodies are JSON only (issue 22): a client generated from the schema sends one body in
    # one encoding; another media type is refused with 415. Floorman's JSON parser refuses
    # too deeply nested bodies with a 400 (issue 15).
    "DEFAULT_PARSER_CLASSES": ["floorman.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "floorman.pagination.Pagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "floorman.errors.api_exception_handler",
    # Throttles (the API login) tell clients apart by address. Behind the proxy that is the
    # last X-Forwarded-For entry, the one nginx appends; left unset, DRF would key on the
    # whole header, which a client can vary at will to escape the throttle.
    "NUM_PROXIES": 0 if EMBEDDED else 1,
}
# A staff member's API token (POST /api/v1/auth/token/) ends this long after its last use;
# each use renews it (floorman.tokens).
API_TOKEN_TTL = env_duration("FLOORMAN_API_TOKEN_TTL", "12h")

SPECTACULAR_SETTINGS = {
    "TITLE": "Floorman API",
    "DESCRIPTION": "Poker tournament management: tournaments, players, entries.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The URLs' <id:...> parts are whole numbers (floorman.converters): a generated client
    # takes them as integers (issue 22).
    "PATH_CONVERTER_OVERRIDES": {"id": int},
    # Several models have a "status"; name each set of choices after its model.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "AlternateStatusEnum": "tournaments.models.AlternateStatus",
        "BettingActionEnum": "hands.engine.betting.KINDS",
        "PenaltyKindEnum": "rulings.models.PenaltyKind",
        "ApiKeyScopeEnum": "floorman.models.ApiKeyScope",
        # The clock's status, in the clock's state and the live-reporting feed (issue 18).
        "ClockStateStatusEnum": "clock.engine.STATUSES",
        # The house settings' readings (issue 19), which several settings, the bet
        # calculator and the rulings offer alike: one name for each set of readings
        # (`tournaments.house.SCHEMA_ENUMS`).
        **{
            name: f"tournaments.house.SCHEMA_ENUMS.{name}"
            for name in ("ReadingTdaIfpEnum", "ReadingTdaCasinoEnum", "ReadingTdaMakeUpEnum")
        },
    },
}

# Content Security Policy (django-csp): scripts only from our own static files, never
# inline (data for scripts comes in json_script blocks, which are not executed). Inline
# style attributes stay allowed: the seating board sets its colours with CSS variables,
# and htmx adds its indicator styles. Websockets go to the same host.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'", "ws:", "wss:"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}


# Rate limits (floorman.ratelimit): "<count>/<period>", period s, m, h or d ("10/m",
# "100/5m"); "" turns the limit off. Sign-in (the login form and the API's token
# endpoint, one count) counts POSTs per address and per username; the public seat lookup
# counts searches per address, generously, because a whole room of phones may share one
# address; the live-reporting feed (its JSON, Atom feed and results export) counts reads per
# address; so do websocket handshakes, and the sockets an address holds open (a venue's
# lobby screens, tablets and phones behind one NAT). deploy/nginx.conf limits /ws/ too.
# The password page counts the tries of one's current password per account and address.
def _env_rate(name: str, default: str) -> str:
    value = env_str(name, default)
    if value and not re.fullmatch(r"[1-9][0-9]*/([1-9][0-9]*)?[smhd]", value):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a rate: use e.g. 10/m (count/period, s m h d) or empty."
        )
    return value


FLOORMAN_RATE_LOGIN = _env_rate("FLOORMAN_RATE_LOGIN", "10/m")
FLOORMAN_RATE_LOOKUP = _env_rate("FLOORMAN_RATE_LOOKUP", "120/m")
FLOORMAN_RATE_FEED = _env_rate("FLOORMAN_RATE_FEED", "60/m")
FLOORMAN_RATE_WEBSOCKET = _env_rate("FLOORMAN_RATE_WEBSOCKET", "600/m")
FLOORMAN_RATE_PASSWORD = _env_rate("FLOORMAN_RATE_PASSWORD", "5/15m")
FLOORMAN_WEBSOCKETS_PER_ADDRESS = env_int("FLOORMAN_WEBSOCKETS_PER_ADDRESS", 1000)  # 0: no limit
RATELIMIT_USE_CACHE = "ratelimit"
# A count the cache could not make lets the request through (django-ratelimit would
# refuse it); floorman.ratelimit does the same when the cache cannot be reached at all.
RATELIMIT_FAIL_OPEN = True

# During a rush of searches the public seat lookup answers from an index that may be up
# to this many seconds behind the database (seating.lookup.IndexCache).
SEAT_LOOKUP_MAX_AGE = 0.25

# --- Outbound webhooks (issue 22) ---------------------------------------------------
# Hosts a webhook may reach although their addresses are loopback, private or link-local
# (a server on the venue's own network), as written in the URL: comma-separated names or
# addresses. Every other such address is refused (webhooks.engine.addresses).
WEBHOOK_ALLOWED_HOSTS = env_list("WEBHOOK_ALLOWED_HOSTS", [])
# Seconds to connect, and to wait for each part of the answer; a receiver that is slower
# fails the try (it is tried again), never the floor: deliveries run in Celery.
WEBHOOK_CONNECT_TIMEOUT = 3.0
WEBHOOK_READ_TIMEOUT = 5.0
WEBHOOK_TOTAL_TIMEOUT = 15.0  # a whole try once connected: a receiver trickling its answer
# Waits in seconds before each new try after a failure: 5 s, 30 s, 2 min, 10 min, 1 h, 6 h;
# then the delivery is dead (kept, listed, and may be sent again).
WEBHOOK_RETRY_SCHEDULE = (5, 30, 120, 600, 3600, 6 * 3600)
# An endpoint whose latest this many deliveries all ended dead is switched off, and the
# director sees why on its page (0: never).
WEBHOOK_DISABLE_AFTER = env_int("WEBHOOK_DISABLE_AFTER", 5)

# --- Security (production) ----------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
HSTS_PRELOAD_MINIMUM = 365 * 24 * 60 * 60  # the browsers' preload lists ask for a year
if not DEBUG and not EMBEDDED:
    # Behind the reverse proxy, which terminates TLS or sits behind what does.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    # Container health checks call /health/ over plain HTTP from inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^health/(live/)?$"]
    # SECURE_SSL_REDIRECT=false serves plain HTTP (a local `docker compose up`): cookies
    # marked secure would never come back, and HSTS has no place there.
    SESSION_COOKIE_SECURE = SECURE_SSL_REDIRECT
    CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT
    SECURE_HSTS_SECONDS = (
        env_int("SECURE_HSTS_SECONDS", HSTS_PRELOAD_MINIMUM) if SECURE_SSL_REDIRECT else 0
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
    SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS >= HSTS_PRELOAD_MINIMUM
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO").upper()},
}
