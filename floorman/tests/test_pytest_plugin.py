"""The test run keeps to the Redis database the developer gives (issue 15)."""

from django.conf import settings

from floorman.pytest_plugin import redis_key_prefix


def test_each_xdist_worker_gets_keys_of_its_own_in_the_given_database():
    environ = {"REDIS_URL": "redis://127.0.0.1:6379/5", "PYTEST_XDIST_WORKER": "gw3"}

    first, second = redis_key_prefix(environ), redis_key_prefix(environ)

    assert environ["REDIS_URL"] == "redis://127.0.0.1:6379/5"
    assert first.startswith("floorman-test-") and first.endswith("-gw3")
    assert first != second  # two runs at once never share keys


def test_a_prefix_the_developer_set_is_kept_in_front():
    assert redis_key_prefix({"REDIS_KEY_PREFIX": "casino"}).startswith("casino-test-")


def test_redis_clients_use_the_run_s_prefix_not_the_production_one():
    prefix = settings.REDIS_KEY_PREFIX

    assert "-test-" in prefix
    if settings.REDIS_URL:
        assert settings.CACHES["default"]["KEY_PREFIX"] == prefix
        assert settings.CACHES["ratelimit"]["KEY_PREFIX"] == prefix
        assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] == prefix
        assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] == f"{prefix}:"
