"""Rate limits on the login form, the public seat lookup and the password page
(floorman.ratelimit).

Each test asks from addresses of its own (random), so counts left in a shared cache by
an earlier run never reach it, and holds django-ratelimit's clock still, so a test never
straddles the end of a counting window.
"""

import random
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings
from django.urls import reverse
from django_ratelimit import core

from floorman import settings as project_settings
from floorman.env import env_int
from floorman.models import AuditEntry
from floorman.ratelimit import client_ip
from tournaments.tests.factories import STAFF_PASSWORD, field, staff, tournament

pytestmark = pytest.mark.django_db

THROUGH_THE_PROXY = {"HTTP_X_FORWARDED_PROTO": "https"}  # as conftest's client


@pytest.fixture(autouse=True)
def clock_stands_still(monkeypatch):
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))


def address() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def browser(ip: str | None = None) -> Client:
    """A browser at `ip`, as the proxy forwards it (X-Real-IP) or as it connects."""
    ip = ip or address()
    return Client(**THROUGH_THE_PROXY, REMOTE_ADDR=ip, HTTP_X_REAL_IP=ip)


def sign_in(client: Client, username: str, password: str = "wrong-password"):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_eleventh_login_in_a_minute_from_one_address_is_turned_away(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    client = browser()
    for n in range(10):
        response = sign_in(client, f"someone{n}-{random.random()}")
        assert response.status_code == 200  # the form again, with its error

    response = sign_in(client, f"someone-else-{random.random()}")

    assert response.status_code == 429
    # django-ratelimit staggers each key's window, so the wait depends on the address;
    # the page names the same wait as the Retry-After header ("1 second" or "N seconds").
    seconds = int(response["Retry-After"])
    assert 1 <= seconds <= 60
    unit = "second" if seconds == 1 else "seconds"
    assert f"Please wait {seconds} {unit}, then try again." in response.content.decode()


def test_the_right_password_is_turned_away_too_once_over_the_limit(settings):
    settings.FLOORMAN_RATE_LOGIN = "3/m"
    user = staff("floor", f"floor-{random.randrange(10**9)}")
    client = browser()
    for _ in range(3):
        sign_in(client, "nobody")

    assert sign_in(client, user.username, STAFF_PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_login_limit_counts_one_username_across_addresses(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    username = f"director-{random.randrange(10**9)}"
    for _ in range(10):
        assert sign_in(browser(), username).status_code == 200

    assert sign_in(browser(), username.upper()).status_code == 429
    assert sign_in(browser(), "someone-else").status_code == 200


def test_other_addresses_and_the_login_page_itself_are_not_limited(settings):
    settings.FLOORMAN_RATE_LOGIN = "2/m"
    client = browser()
    for n in range(3):
        sign_in(client, f"user{n}")
    assert sign_in(client, "user9").status_code == 429

    assert client.get(reverse("login")).status_code == 200
    assert sign_in(browser(), "user9-elsewhere").status_code == 200


def test_a_user_under_the_limit_signs_in(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    user = staff("cashier", f"cashier-{random.randrange(10**9)}")
    client = browser()

    response = sign_in(client, user.username, STAFF_PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_limit_off_when_empty(settings):
    settings.FLOORMAN_RATE_LOGIN = ""
    client = browser()
    for _ in range(30):
        assert sign_in(client, "someone").status_code == 200


@pytest.fixture
def event():
    event = tournament()
    field(event, 3)
    return event


def search(client: Client, event, q: str = "Player"):
    return client.get(reverse("seats:lookup", args=[event.pk]), {"q": q})


def test_lookup_limit_turns_away_searches_over_the_rate(settings, event):
    settings.FLOORMAN_RATE_LOOKUP = "3/m"
    phone = browser()
    for _ in range(3):
        assert search(phone, event).status_code == 200

    response = search(phone, event)

    assert response.status_code == 429
    assert "Please wait" in response.content.decode()
    assert search(browser(), event).status_code == 200  # another address


def test_json_lookup_counts_with_the_lookup_page(settings, event):
    """One count per address whichever door a phone or a script uses."""
    settings.FLOORMAN_RATE_LOOKUP = "3/m"
    phone = browser()
    api = f"/api/v1/tournaments/{event.pk}/lookup/"
    assert search(phone, event).status_code == 200
    assert phone.get(api, {"q": "Player"}).status_code == 200
    assert search(phone, event).status_code == 200

    response = phone.get(api, {"q": "Player"})

    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "detail" in response.json()
    assert browser().get(api, {"q": "Player"}).status_code == 200  # another address


def test_lookup_form_without_a_search_is_not_counted(settings, event):
    settings.FLOORMAN_RATE_LOOKUP = "2/m"
    phone = browser()
    for _ in range(5):
        assert phone.get(reverse("seats:lookup", args=[event.pk])).status_code == 200
    assert search(phone, event).status_code == 200
    assert search(phone, event).status_code == 200
    assert search(phone, event).status_code == 429


def test_lookup_limit_off_when_empty(settings, event):
    settings.FLOORMAN_RATE_LOOKUP = ""
    phone = browser()
    for _ in range(50):
        assert search(phone, event).status_code == 200


def test_lookup_served_when_the_cache_cannot_count(settings, event, monkeypatch):
    settings.FLOORMAN_RATE_LOOKUP = "1/m"

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr("floorman.ratelimit.usage", down)
    phone = browser()

    assert search(phone, event).status_code == 200
    assert search(phone, event).status_code == 200


def request_from(remote: str, real: str = "") -> SimpleNamespace:
    meta = {"REMOTE_ADDR": remote}
    if real:
        meta["HTTP_X_REAL_IP"] = real
    return SimpleNamespace(META=meta)


def test_client_address_behind_the_proxy_is_the_one_it_saw(settings):
    settings.EMBEDDED = False

    assert client_ip("g", request_from("172.18.0.5", "203.0.113.7")) == "203.0.113.7"
    assert client_ip("g", request_from("172.18.0.5")) == "172.18.0.5"


def test_client_address_without_a_proxy_ignores_the_header(settings):
    settings.EMBEDDED = True

    assert client_ip("g", request_from("192.0.2.1", "203.0.113.7")) == "192.0.2.1"


def test_ipv6_clients_count_per_64(settings):
    settings.EMBEDDED = True

    one = client_ip("g", request_from("2001:db8:1:2:aaaa::1"))
    other = client_ip("g", request_from("2001:db8:1:2:bbbb::2"))

    assert one == other == "2001:db8:1:2::"


@pytest.mark.parametrize("value", ["10/m", "120/m", "100/5m", "1/s", "1000/d", ""])
def test_rate_settings_accept(monkeypatch, value):
    monkeypatch.setenv("FLOORMAN_RATE_LOOKUP", value)

    assert project_settings._env_rate("FLOORMAN_RATE_LOOKUP", "120/m") == value


@pytest.mark.parametrize("value", ["10", "ten/m", "10/minute", "0/m", "10/0m", "-1/m"])
def test_rate_settings_refuse_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("FLOORMAN_RATE_LOGIN", value)

    with pytest.raises(ImproperlyConfigured, match="FLOORMAN_RATE_LOGIN"):
        project_settings._env_rate("FLOORMAN_RATE_LOGIN", "10/m")


def test_rate_settings_default_when_unset(monkeypatch):
    monkeypatch.delenv("FLOORMAN_RATE_LOGIN", raising=False)

    assert project_settings._env_rate("FLOORMAN_RATE_LOGIN", "10/m") == "10/m"


@pytest.mark.redis
def test_redis_counter_increments_only_keys_that_exist_and_keeps_their_expiry():
    from django.core.cache import caches

    from floorman.cache import CounterCache

    cache = caches["ratelimit"]
    assert isinstance(cache, CounterCache)
    key = f"test-count-{random.randrange(10**12)}"

    assert cache.add(key, 1, 30)
    assert not cache.add(key, 1, 30)
    assert cache.incr(key) == 2
    assert cache.incr(key, 5) == 7
    redis = cache._cache.get_client(key, write=True)
    assert 0 < redis.ttl(cache.make_and_validate_key(key)) <= 30
    assert redis is cache._cache.get_client(key, write=True)  # one client, reused

    cache.delete(key)
    with pytest.raises(ValueError):
        cache.incr(key)
    assert cache.get(key) is None  # not made again without an expiry


@pytest.mark.redis
def test_redis_counts_in_one_round_trip_what_django_ratelimit_reads(settings):
    """floorman.ratelimit.usage counts with one script where django-ratelimit would `add`
    then `incr`: the same key and window, so the library reads the same count, and the
    key it made expires with the window."""
    from django.core.cache import caches

    from floorman.ratelimit import usage

    cache = caches["ratelimit"]
    request = request_from(address())
    value = f"phone-{random.randrange(10**12)}"
    sent = []
    real_count = cache.count
    cache.count = lambda *args, **kwargs: sent.append(args) or real_count(*args, **kwargs)
    try:
        counted = [usage(request, "test-group", value, "3/m") for _ in range(4)]
    finally:
        del cache.count

    assert [u["count"] for u in counted] == [1, 2, 3, 4]
    assert [u["should_limit"] for u in counted] == [False, False, False, True]
    assert len(sent) == 4  # the one script, once per count
    read = core.get_usage(
        request, group="test-group", key=lambda g, r: value, rate="3/m", increment=False
    )
    assert read["count"] == 4 and read["should_limit"]
    key = cache.make_and_validate_key(sent[0][0])
    assert 0 < cache._cache.get_client(key, write=True).ttl(key) <= 60 + core.EXPIRATION_FUDGE


def test_api_login_throttle_is_not_escaped_by_a_made_up_forwarded_for(settings):
    """The proxy appends the address it saw to X-Forwarded-For; what the client wrote
    before it must not give it a fresh count (FLOORMAN_RATE_LOGIN per address: 10 a
    minute; a new username each time, so that only the address is counted)."""
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    real = address()
    client = Client(**THROUGH_THE_PROXY, REMOTE_ADDR=real)
    statuses = [
        client.post(
            reverse("api-token"),
            {"username": f"nobody-{n}-{random.random()}", "password": "guess"},
            content_type="application/json",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, {real}",
        ).status_code
        for n in range(11)
    ]

    assert statuses == [400] * 10 + [429]


# --- The API's token endpoint: the login page's limits (issue 15) --------------------

PROXY = "172.18.0.5"  # the reverse proxy, as the app sees it


def api_sign_in(ip: str, username: str, password: str = "wrong-password"):
    """A token request from `ip` as the proxy forwards it: X-Real-IP and the address
    appended to X-Forwarded-For are the client's; the connection is the proxy's. The
    header is trusted only behind the proxy (production settings), so the request is
    made with those, whichever database this run uses."""
    client = Client(**THROUGH_THE_PROXY, REMOTE_ADDR=PROXY)
    with override_settings(EMBEDDED=False):
        return client.post(
            reverse("api-token"),
            {"username": username, "password": password},
            content_type="application/json",
            HTTP_X_REAL_IP=ip,
            HTTP_X_FORWARDED_FOR=ip,
        )


def ipv6_64() -> str:
    return f"2001:db8:{random.randrange(1, 65536):x}:{random.randrange(65536):x}"


def test_api_token_limit_counts_one_username_across_one_ipv6_64(settings):
    """The attack: one username tried from ever new addresses of one /64."""
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    network, username = ipv6_64(), f"director-{random.randrange(10**9)}"
    statuses = [api_sign_in(f"{network}:{n + 1:x}::1", username).status_code for n in range(40)]

    assert statuses == [400] * 10 + [429] * 30


def test_api_token_limit_counts_one_username_across_addresses(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    username = f"director-{random.randrange(10**9)}"
    for _ in range(10):
        assert api_sign_in(address(), username).status_code == 400

    response = api_sign_in(address(), username.upper())

    assert response.status_code == 429
    assert api_sign_in(address(), f"someone-else-{random.random()}").status_code == 400


def test_api_token_limit_counts_one_ipv6_64_across_usernames(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    network = ipv6_64()
    for n in range(10):
        assert api_sign_in(f"{network}:{n}::7", f"user{n}-{random.random()}").status_code == 400

    response = api_sign_in(f"{network}:ffff::7", f"user-{random.random()}")

    assert response.status_code == 429
    assert api_sign_in(f"{ipv6_64()}::7", f"user-{random.random()}").status_code == 400


def test_api_token_limit_answers_json_with_retry_after(settings):
    settings.FLOORMAN_RATE_LOGIN = "1/m"
    ip = address()
    api_sign_in(ip, f"someone-{random.random()}")

    response = api_sign_in(ip, f"someone-{random.random()}")

    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    seconds = int(response["Retry-After"])
    assert 1 <= seconds <= 60
    assert response.json() == {
        "detail": f"Request was throttled. Expected available in {seconds} "
        + ("second." if seconds == 1 else "seconds.")
    }


def test_api_token_right_password_turned_away_too_once_over_the_limit(settings):
    settings.FLOORMAN_RATE_LOGIN = "3/m"
    user = staff("floor", f"floor-{random.randrange(10**9)}")
    for _ in range(3):
        api_sign_in(address(), user.username)

    assert api_sign_in(address(), user.username, STAFF_PASSWORD).status_code == 429


def test_api_token_and_login_page_share_one_count(settings):
    """One rule, one count: a guesser gets no more tries by using both doors."""
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    username = f"director-{random.randrange(10**9)}"
    for _ in range(5):
        assert sign_in(browser(), username).status_code == 200
        assert api_sign_in(address(), username).status_code == 400

    assert api_sign_in(address(), username).status_code == 429
    assert sign_in(browser(), username).status_code == 429


def test_api_token_under_the_limit_gives_the_token(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    user = staff("cashier", f"cashier-{random.randrange(10**9)}")

    response = api_sign_in(address(), user.username, STAFF_PASSWORD)

    assert response.status_code == 200
    assert len(response.json()["token"]) == 40


def test_api_token_malformed_body_is_a_400(settings):
    settings.FLOORMAN_RATE_LOGIN = "10/m"
    client = Client(**THROUGH_THE_PROXY, REMOTE_ADDR=address())
    for body in ("{", "[1, 2]", '"name"', '{"username": {"a": 1}, "password": "x"}'):
        response = client.post(reverse("api-token"), body, content_type="application/json")
        assert response.status_code == 400, body


# --- Every limiter serves when the cache is down (issue 15) -----------------------

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens there: the connection is refused


@pytest.fixture
def cache_down(settings):
    """Every cache points at a closed port, as when Redis is down."""
    settings.CACHES = {
        name: {"BACKEND": "floorman.cache.CounterCache", "LOCATION": CLOSED_PORT}
        for name in settings.CACHES
    }


def not_counted(caplog, group: str) -> bool:
    return any(
        record.name == "floorman.ratelimit"
        and record.levelname == "WARNING"
        and f"rate limit {group} not counted" in record.getMessage()
        for record in caplog.records
    )


def test_api_token_served_uncounted_when_the_cache_is_down(settings, cache_down, caplog):
    settings.FLOORMAN_RATE_LOGIN = "1/m"
    user = staff("cashier", f"cashier-{random.randrange(10**9)}")
    ip = address()

    assert api_sign_in(ip, user.username).status_code == 400
    assert api_sign_in(ip, user.username).status_code == 400
    assert api_sign_in(ip, user.username, STAFF_PASSWORD).status_code == 200
    assert not_counted(caplog, "login")


def test_login_page_served_uncounted_when_the_cache_is_down(settings, cache_down, caplog):
    settings.FLOORMAN_RATE_LOGIN = "1/m"
    user = staff("cashier", f"cashier-{random.randrange(10**9)}")
    client = browser()

    assert sign_in(client, user.username).status_code == 200
    assert sign_in(client, user.username).status_code == 200
    assert sign_in(client, user.username, STAFF_PASSWORD).status_code == 302
    assert not_counted(caplog, "login")


def test_lookup_page_and_api_served_uncounted_when_the_cache_is_down(
    settings, event, cache_down, caplog
):
    settings.FLOORMAN_RATE_LOOKUP = "1/m"
    phone = browser()
    api = f"/api/v1/tournaments/{event.pk}/lookup/"

    for _ in range(2):
        assert search(phone, event).status_code == 200
        assert phone.get(api, {"q": "Player"}).status_code == 200
    assert not_counted(caplog, "seat-lookup")


def api_views():
    """Every view behind the URL patterns, with the pattern's route."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.callback

    return list(walk(get_resolver().url_patterns))


def test_every_api_throttle_counts_with_the_rate_limits():
    """A DRF throttle of its own (AnonRateThrottle and kin) would count in the default
    cache and fail with a 500 while Redis is down; every throttle in use counts through
    floorman.ratelimit, which serves uncounted instead."""
    from floorman.ratelimit import RateThrottle

    throttles = {}
    for route, callback in api_views():
        view = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        for throttle in getattr(view, "throttle_classes", ()):
            throttles.setdefault(throttle, route)

    assert throttles  # the token endpoint and the seat lookup at least
    assert {t: r for t, r in throttles.items() if not issubclass(t, RateThrottle)} == {}


@pytest.mark.parametrize(("value", "number"), [("", 1000), ("0", 0), ("250", 250)])
def test_sockets_per_address_setting_accepts(monkeypatch, value, number):
    monkeypatch.setenv("FLOORMAN_WEBSOCKETS_PER_ADDRESS", value)

    assert env_int("FLOORMAN_WEBSOCKETS_PER_ADDRESS", 1000) == number


@pytest.mark.parametrize("value", ["many", "-1", "1.5", "1e3"])
def test_sockets_per_address_setting_refuses_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("FLOORMAN_WEBSOCKETS_PER_ADDRESS", value)

    with pytest.raises(ImproperlyConfigured, match="FLOORMAN_WEBSOCKETS_PER_ADDRESS"):
        env_int("FLOORMAN_WEBSOCKETS_PER_ADDRESS", 1000)


# --- The password page: tries of one's current password (issue 15) -----------------------

NEW_PASSWORD = "Chip-Race-At-Level-9"


@pytest.fixture
def window_of_its_own(monkeypatch):
    """django-ratelimit's clock held still in a counting window no other test uses: the
    password page counts per account, and on SQLite a rolled-back test hands its account
    id to the next one."""
    now = 1_800_000_000.0 + random.randrange(1, 10**6) * 86_400
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: now))


def signed_in_at(ip: str, role: str = "floor"):
    """A new account signed in from `ip`, and its browser."""
    user = staff(role, f"{role}-{random.randrange(10**9)}")
    client = browser(ip)
    assert sign_in(client, user.username, STAFF_PASSWORD).status_code == 302
    return user, client


def password_change(client: Client, old: str = "wrong-password"):
    return client.post(
        reverse("password-change"),
        {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )


def test_password_page_turns_away_the_right_password_after_too_many_tries(
    settings, window_of_its_own, monkeypatch
):
    settings.FLOORMAN_RATE_PASSWORD = "3/15m"
    user, client = signed_in_at(address())
    for _ in range(3):
        response = password_change(client)
        assert response.status_code == 400
        assert "This is not your current password." in response.content.decode()
    checked = []
    check = User.check_password
    monkeypatch.setattr(User, "check_password", lambda *a: checked.append(a) or check(*a))

    response = password_change(client, STAFF_PASSWORD)

    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 15 * 60
    assert "Please wait" in response.content.decode()
    assert checked == []  # the password was not even checked
    user.refresh_from_db()
    assert user.check_password(STAFF_PASSWORD)
    assert not AuditEntry.objects.filter(action="staff.password_change").exists()


def test_password_tries_count_per_account_from_any_address(settings, window_of_its_own):
    settings.FLOORMAN_RATE_PASSWORD = "3/15m"
    user, first = signed_in_at(address())
    for _ in range(3):
        assert password_change(first).status_code == 400
    elsewhere = browser()
    assert sign_in(elsewhere, user.username, STAFF_PASSWORD).status_code == 302

    assert password_change(elsewhere, STAFF_PASSWORD).status_code == 429


def test_other_people_change_their_password_while_one_is_turned_away(settings, window_of_its_own):
    settings.FLOORMAN_RATE_PASSWORD = "3/15m"
    _user, guesser = signed_in_at(address())
    for _ in range(4):
        password_change(guesser)
    assert password_change(guesser, STAFF_PASSWORD).status_code == 429

    other, client = signed_in_at(address(), role="cashier")

    assert password_change(client, STAFF_PASSWORD).status_code == 302
    other.refresh_from_db()
    assert other.check_password(NEW_PASSWORD)


def test_password_tries_count_per_address_ipv6_per_64(settings, window_of_its_own):
    settings.FLOORMAN_RATE_PASSWORD = "3/15m"
    network = ipv6_64()
    _one, first = signed_in_at(f"{network}:1::1")
    for _ in range(3):
        assert password_change(first).status_code == 400

    _two, same_64 = signed_in_at(f"{network}:2::2")
    _three, other_64 = signed_in_at(f"{ipv6_64()}::3")

    assert password_change(same_64, STAFF_PASSWORD).status_code == 429
    assert password_change(other_64, STAFF_PASSWORD).status_code == 302


def test_password_page_served_uncounted_when_the_cache_is_down(
    settings, cache_down, caplog, window_of_its_own
):
    settings.FLOORMAN_RATE_PASSWORD = "1/15m"
    user, client = signed_in_at(address())

    assert password_change(client).status_code == 400
    assert password_change(client).status_code == 400
    assert password_change(client, STAFF_PASSWORD).status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not_counted(caplog, "password-change")
