"""The webhooks' pure rules (issue 22): the map from audit entries to event types, the
addresses a delivery may reach, the retry schedule. No database."""

import random

import pytest

from webhooks.engine import addresses, backoff, events
from webhooks.engine.events import Change, event_type


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("entry.register", "entry.registered"),
        ("entry.reenter", "entry.reentered"),
        ("seating.draw", "seat.assigned"),
        ("seating.late", "seat.assigned"),
        ("seating.final", "seat.assigned"),
        ("seating.move", "seat.moved"),
        ("seating.break", "table.broken"),
        ("seating.balance", "tables.balanced"),
        ("clock.pause", "clock.paused"),
        ("clock.resume", "clock.resumed"),
        ("h4h.start", "hand_for_hand.started"),
        ("clock.hand_for_hand", "hand_for_hand.round"),
        ("h4h.stop", "hand_for_hand.stopped"),
        ("entry.bust", "entry.busted"),
        ("prize.pay", "prize.paid"),
        ("bounty.pay", "bounty.paid"),
        ("bounty.pay_all", "bounty.paid"),
        ("deal.record", "deal.made"),
        ("tournament.finished", "results.final"),
        ("counts.table", "chips.counted"),
        ("count.entry", "chips.counted"),
        ("counts.sweep_close", "chips.counted"),
        ("hand.finish", None),
        ("webhook.disable", None),
        ("api_key.create", None),
    ],
)
def test_each_audit_action_has_its_webhook_type(action, expected):
    assert event_type(Change(action)) == expected


def test_every_type_the_map_gives_can_be_chosen():
    for action in events.MAPPED_ACTIONS:
        change = Change(action, {"position": 1}, {"position": 2})
        assert event_type(change, is_break=lambda p: False) in events.EVENT_TYPES


def test_a_clock_moved_to_a_new_level_starts_a_level_and_to_a_break_a_break():
    moved = Change("clock.next", {"position": 3}, {"position": 4})

    assert event_type(moved, is_break=lambda p: False) == "level.started"
    assert event_type(moved, is_break=lambda p: p == 4) == "break.started"


def test_the_clock_moving_on_by_its_own_time_starts_a_level_or_a_break():
    timed = Change("clock.level", {"position": 4}, {"position": 5})

    assert event_type(timed, is_break=lambda p: False) == "level.started"
    assert event_type(timed, is_break=lambda p: True) == "break.started"


def test_the_time_set_within_a_level_is_no_new_level():
    same = Change("clock.set", {"position": 4}, {"position": 4})

    assert event_type(same, is_break=lambda p: False) is None


def test_types_are_kept_in_the_lists_order_and_unknown_ones_named():
    chosen, unknown = events.types_clean(["entry.busted", "nope", "entry.registered"])

    assert chosen == ["entry.registered", "entry.busted"]
    assert unknown == ["nope"]


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.1.2.3",
        "10.0.0.5",
        "172.16.4.4",
        "192.168.1.10",
        "169.254.169.254",  # the clouds' metadata services
        "100.64.0.1",  # shared address space
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "::ffff:127.0.0.1",  # IPv4 wrapped in IPv6
        "::ffff:10.1.1.1",
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
    ],
)
def test_private_and_local_addresses_are_refused(address):
    assert addresses.address_refusal(address) is not None


@pytest.mark.parametrize("address", ["93.184.215.14", "2606:4700:4700::1111", "8.8.8.8"])
def test_public_addresses_may_be_reached(address):
    assert addresses.address_refusal(address) is None


def test_a_host_with_one_private_address_among_public_ones_is_refused():
    found = ["93.184.215.14", "10.0.0.1"]

    assert addresses.addresses_refusal("hooks.example.org", found, []) == addresses.ADDRESS


def test_the_house_may_allow_a_named_host_on_its_own_network():
    allowed = ["Printer.Venue.Lan", "[::1]"]

    assert addresses.addresses_refusal("printer.venue.lan", ["192.168.1.4"], allowed) is None
    assert addresses.addresses_refusal("::1", ["::1"], allowed) is None
    assert addresses.addresses_refusal("other.venue.lan", ["192.168.1.5"], allowed)


@pytest.mark.parametrize(
    ("url", "refusal"),
    [
        ("ftp://example.org/x", addresses.BAD_SCHEME),
        ("file:///etc/passwd", addresses.BAD_SCHEME),
        ("https://", addresses.NO_HOST),
        ("https://user:pw@example.org/", addresses.CREDENTIALS),
        ("https://example.org:99999/", addresses.BAD_PORT),
        ("https://example.org/" + "a" * 500, addresses.TOO_LONG),
    ],
)
def test_urls_other_than_http_and_https_to_a_host_are_refused(url, refusal):
    assert addresses.url_parse(url) == refusal


def test_a_url_gives_its_host_port_and_path():
    target = addresses.url_parse("HTTPS://Hooks.Example.org/in?x=1")

    assert target == addresses.Target("https", "hooks.example.org", 443, "/in?x=1")
    assert addresses.url_parse("http://[::1]:8080").port == 8080


def test_waits_grow_along_the_schedule_then_the_delivery_is_dead():
    schedule = (5, 30, 120)
    no_jitter = random.Random()
    no_jitter.random = lambda: 0.0

    waits = [backoff.retry_wait(schedule, tries, rng=no_jitter) for tries in (1, 2, 3, 4)]

    assert waits == [5, 30, 120, None]
    assert backoff.total_tries(schedule) == 4


def test_a_wait_is_stretched_by_at_most_a_tenth():
    for seed in range(50):
        wait = backoff.retry_wait((100,), 1, rng=random.Random(seed))
        assert 100 <= wait <= 110


def test_an_endpoint_is_switched_off_at_the_limit_of_dead_letters_in_a_row():
    assert not backoff.should_disable(4, 5)
    assert backoff.should_disable(5, 5)
    assert not backoff.should_disable(50, 0)  # 0: never
