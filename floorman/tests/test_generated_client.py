"""A client generated from the API's own schema runs an event (issue 22, item 9).

openapi-python-client (0.29, a common generator) writes a Python client from
`/api/v1/schema/` as a tool developer would; the test imports it and drives a short event
through the real server with it: a token, the tournament, its tables, the entries, the
draw, the seat lookup, the clock, the balance plan, the payouts, two bust-outs and the
results. Every request body is JSON, and the schema says so: a generator that met several
encodings for one body sent them all at once, and the server could not read it.
"""

import importlib
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from floorman.tests import servers
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(300)]

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "floorman_client"
# No formatting afterwards: the client is read by Python, not by people.
CONFIG = f"package_name_override: {PACKAGE}\npost_hooks: []\n"
NAMES = ["Anna Berger", "Bo Lindqvist", "Chris Moneymaker", "Dana Weiß", "Eli Cohen", "Fay Ho"]


@pytest.fixture
def fast_password_hashing():
    """Overrides the project-wide fixture: the server process checks passwords with the
    real hashers, which cannot read the fast hashes the test process would write."""


@pytest.fixture(scope="module")
def server(django_db_blocker):
    with django_db_blocker.unblock():
        process = servers.web_server().start()
    yield process
    process.close()


@pytest.fixture
def client_package(server, tmp_path, monkeypatch):
    """The client as the generator writes it from the served schema, importable."""
    schema = tmp_path / "schema.yaml"
    schema.write_bytes(httpx.get(f"{server.url}/api/v1/schema/", timeout=30).content)
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    subprocess.run(
        [GENERATOR, "generate", "--path", schema, "--config", config, "--meta", "none"]
        + ["--output-path", tmp_path / PACKAGE],
        check=True,
        capture_output=True,
        timeout=240,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module(PACKAGE)
    for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
        del sys.modules[name]


def call(package: str, operation: str, /, *path, **arguments):
    """One operation of the generated client, as its `sync_detailed` (the answer with
    its status, so that a refusal shows what the server said)."""
    module = importlib.import_module(f"{PACKAGE}.api.{package}.{operation}")
    response = module.sync_detailed(*path, **arguments)
    assert response.status_code < 400, (operation, response.status_code, response.content)
    return response.parsed


def model(kind: str, /, *value, **fields):
    """One of the client's models (or enums, given their value), by its schema name."""
    return getattr(importlib.import_module(f"{PACKAGE}.models"), kind)(*value, **fields)


def level(small_blind: int, big_blind: int):
    """A 20-minute level of the structure, as the client's model."""
    kind = model("StepKindEnum", "level")
    return model("StepRequest", kind=kind, minutes=20, small_blind=small_blind, big_blind=big_blind)


def test_a_generated_client_runs_an_event(server, client_package, transactional_db):
    factories.staff("director", "td-maria")
    anonymous = client_package.Client(base_url=server.url, raise_on_unexpected_status=True)
    token = call(
        "auth",
        "auth_token_create",
        client=anonymous,
        body=model("TokenRequestRequest", username="td-maria", password=factories.STAFF_PASSWORD),
    ).token
    td = client_package.AuthenticatedClient(base_url=server.url, token=token, prefix="Token")

    # The night's event, its blind structure and two tables of six.
    structure = call(
        "structures",
        "structures_create",
        client=td,
        body=model(
            "StructureRequest",
            name="Friday 20",
            steps=[level(100, 200), level(200, 400)],
        ),
    )
    event = call(
        "tournaments",
        "tournaments_create",
        client=td,
        body=model(
            "TournamentRequest",
            name="Friday Deepstack",
            buy_in=10_000,
            starting_stack=20_000,
            start_at=datetime.now(UTC),
            table_size=6,
        ),
    )
    call(
        "tournaments",
        "tournaments_clock_settings_update",
        event.id,
        client=td,
        body=model("ClockSettingsRequest", structure=structure.id),
    )
    for number in (1, 2):
        call(
            "tournaments",
            "tournaments_tables_create",
            event.id,
            client=td,
            body=model("TableCreateRequest", number=number, seats=6),
        )
    call(
        "tournaments",
        "tournaments_status_create",
        event.id,
        client=td,
        body=model("StatusRequest", status=model("TournamentStatusEnum", "registering")),
    )

    # Six players buy in and are drawn to their seats (TDA 2).
    entries = [
        call(
            "tournaments",
            "tournaments_entries_create",
            event.id,
            client=td,
            body=model("EntryCreateRequest", player=model("PlayerInputRequest", name=name)),
        )
        for name in NAMES
    ]
    assert [entry.number for entry in entries] == [1, 2, 3, 4, 5, 6]
    drawn = call(
        "tournaments", "tournaments_draw_create", event.id, client=td, body=model("DrawRequest")
    )
    assert drawn is not None

    # A player finds the seat (the public lookup), the clock starts.
    found = call("tournaments", "tournaments_lookup_list", event.id, client=td, q="lindqvist")
    assert [row.name for row in found] == ["Bo Lindqvist"]
    assert found[0].table in (1, 2) and 1 <= found[0].seat <= 6
    call(
        "tournaments",
        "tournaments_status_create",
        event.id,
        client=td,
        body=model("StatusRequest", status=model("TournamentStatusEnum", "running")),
    )
    clock = call(
        "tournaments",
        "tournaments_clock_create",
        event.id,
        client=td,
        body=model("ClockActionRequest", action=model("ClockActionActionEnum", "start")),
    )
    assert str(clock.status) == "running"

    # Two players go out; the balance plan, the payouts and the places follow.
    for entry in entries[:2]:
        call("tournaments", "tournaments_entries_bust_create", event.id, entry.id, client=td)
    plan = call("tournaments", "tournaments_balance_retrieve", event.id, client=td)
    assert plan is not None
    payouts = call("tournaments", "tournaments_payouts_retrieve", event.id, client=td)
    assert payouts.places_paid >= 1
    results = call("tournaments", "tournaments_results_retrieve", event.id, client=td)
    places = {row["entry"]["number"]: row["place"] for row in results.results if row["place"]}
    assert places == {1: 6, 2: 5}  # the first out finishes last (IFP 4.27)
