"""Benchmark: the hand engine, and hand-for-hand on the bubble at 150 tables.

1. Replay 10,000 logged hands through hands.engine. The hands are generated first, not
   timed, from a fixed seed: 2 to 9 players with random stacks and blinds, mostly
   no-limit hold'em, some pot-limit and fixed-limit; each player to act picks one of
   `legal_actions()` until the hand ends, and the hand is logged as its actions
   (seat, kind, amount), as HandAction rows keep it. A hand that reaches the showdown
   gets random hole cards and a board. The replay is timed: `start_hand`, each action
   through `HandState.apply`, the pots (`pots.build_pots`) and, at a showdown,
   `showdown.award_pots` (pokerkit ranks the hands). Median of BENCH_RUNS runs after
   one untimed run; every run must award the chips the generated hands left in their
   showdown pots.
2. Hand-for-hand at 150 tables of 9 on PostgreSQL (a scratch database): 1,350 entries
   drawn with `seating.services.seating_draw`, a clock structure, places paid, a button at each
   table, hand-for-hand started. ONE uvicorn process serves the app (web.asgi, as
   production serves /ws/ and the API) and 150 websocket clients, one tablet a table,
   listen on /ws/tournaments/<id>/ from this process. Each round every table deals
   (POST .../tables/<n>/hands/) and 149 report their hand done
   (POST .../hands/<h>/finish/); once the tablets have received those reports, the last
   table reports, and each tablet's latency is the time from sending that request to
   receiving the "hand_for_hand.updated" message with "deal": true and the new round.
   The requests go through the API as a floor user, so that the server publishes the
   events as in production; the latency therefore includes the server's work on the
   last report (the round's end, the clock) up to its commit. A first round warms up
   and is not counted. Layers: in-memory, and channels_redis core (floorman.settings
   with REDIS_URL) when REDIS_URL is set. A round takes some 40 s on two cores, most
   of it the server publishing every deal and report to 150 screens: the default of 5
   rounds keeps the whole benchmark near 10 minutes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/hands.py

Prints "hands: replay 10000 hands <n> hands/s (<ms> ms)" and "hands: hand-for-hand deal
to 150 tablets, <layer>: p50 <x> ms, p99 <y> ms (target p99 <= 250 ms)", then details.
As in bench/clock_ws.py the clients share the machine and one event loop with the
requests, so their own work is part of the figures. The Celery tasks the server queues
in Redis (hand-for-hand alerts, clock announcements; no worker runs here) are removed
afterwards.
Environment: BENCH_HANDS (default 10000), BENCH_RUNS (default 3), BENCH_TABLES (default
150), BENCH_SCREENS (lobby screens listening besides the tablets, not measured; default
0), BENCH_ROUNDS (default 5).
"""

import asyncio
import http.client
import json
import math
import os
import random
import secrets
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from statistics import median

from common import (
    CLOCK_STRUCTURE_SETUP,
    ROOT,
    celery_leftovers_remove,
    fail,
    free_port,
    manage,
    percentile,
    production_env,
    raise_open_file_limit,
    screen_open,
    serving,
    uvicorn_command,
    verdict,
)
from websockets.asyncio.client import ClientConnection

try:  # the server runs on uvloop (uvicorn[standard]); the clients too, to keep up
    from uvloop import run as run_loop
except ImportError:
    from asyncio import run as run_loop

HANDS = int(os.environ.get("BENCH_HANDS", "10000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
TABLES = int(os.environ.get("BENCH_TABLES", "150"))
SCREENS = int(os.environ.get("BENCH_SCREENS", "0"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SEED = 20260
SEATS = 9
DEADLINE = 10.0  # seconds after the request; a message later than this counts as missing
CONNECTING = 50  # websocket handshakes in flight at once
PAUSE_BEFORE_LAST = 0.3  # after the tablets have the 149 reports, before the last one
TARGET_P99_MS = 250

# A large id, so that the group name does not meet another run's on a shared Redis.
TOURNAMENT_ID = 9_000_000 + secrets.randbelow(1_000_000)

# --- 1. Replaying logged hands -------------------------------------------------------

# hands.engine is plain Python: no Django needed here. The project root goes first: from
# bench/, where this script runs, "hands" would be this very file.
sys.path.insert(0, str(ROOT))
from hands.engine import betting, showdown  # noqa: E402
from hands.engine.limits import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, SHOWDOWN, Structure  # noqa: E402

LIMITS = {NO_LIMIT: 8, POT_LIMIT: 1, FIXED_LIMIT: 1}  # weights
BLINDS = [(100, 200), (200, 400), (300, 600), (500, 1000), (1000, 2000), (2500, 5000)]
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@dataclass(frozen=True)
class LoggedHand:
    structure: Structure
    seats: tuple[tuple[int, int], ...]  # (seat, stack) in dealing order, the button last
    button: int
    small_blind: int | None
    big_blind: int
    actions: tuple[tuple[int, str, int | None], ...]  # (seat, kind, amount) as logged
    holdings: dict[int, str]  # hole cards of the players at the showdown; none without
    board: str


@dataclass(frozen=True)
class Outcome:
    showdowns: int
    pots: int  # chips in the pots of the hands that reached the showdown
    awarded: int  # chips the showdowns awarded

    def describe(self) -> str:
        return f"{self.showdowns} showdowns awarding {self.awarded} chips"


def action_choose(rng: random.Random, options: betting.LegalActions) -> betting.Action:
    """A plausible player: checks or calls mostly, folds to bets, sometimes bets or
    raises, now and then all-in (the largest wager allowed when the stack caps it)."""
    roll = rng.random()
    if options.wager and roll < (0.3 if options.can_check else 0.12):
        low, high = options.min_to, options.max_to
        if rng.random() < 0.15:
            to = high
        else:
            to = rng.randint(low, low + (high - low) // 4)
        return betting.Action(options.wager, options.seat, to)
    if options.can_check:
        return betting.check(options.seat)
    return betting.fold(options.seat) if roll < 0.65 else betting.call(options.seat)


def hand_generate(rng: random.Random) -> tuple[LoggedHand, betting.HandState]:
    """One random legal hand, played to its end, and the state it ends in."""
    limit = rng.choices(list(LIMITS), weights=list(LIMITS.values()))[0]
    small, big = rng.choice(BLINDS)
    structure = Structure(limit, small, big, ante=big if rng.random() < 0.5 else 0)
    taken = sorted(rng.sample(range(1, SEATS + 1), rng.randint(2, SEATS)))
    first = rng.randrange(len(taken))
    order = taken[first:] + taken[:first]  # clockwise from the seat left of the button
    button = order[-1]
    if len(order) == 2:  # heads-up the button posts the small blind
        small_blind, big_blind = button, order[0]
    else:
        small_blind = None if rng.random() < 0.03 else order[0]  # now and then a dead one
        big_blind = order[1]
    seats = tuple((seat, rng.randint(1, 150) * big + rng.randrange(big)) for seat in order)
    state = betting.start_hand(
        structure, seats, button=button, small_blind=small_blind, big_blind=big_blind
    )
    actions = []
    while (options := state.legal_actions()) is not None:
        action = action_choose(rng, options)
        state = state.apply(action)
        actions.append((action.seat, action.kind, action.amount))
    holdings, board = {}, ""
    if state.finished_at == SHOWDOWN and len(state.in_hand) > 1:
        deck = rng.sample(DECK, 2 * len(state.in_hand) + 5)
        holdings = {seat: "".join(deck[2 * i : 2 * i + 2]) for i, seat in enumerate(state.in_hand)}
        board = "".join(deck[-5:])
    logged = LoggedHand(
        structure, seats, button, small_blind, big_blind, tuple(actions), holdings, board
    )
    return logged, state


def hands_replay(hands: list[LoggedHand]) -> Outcome:
    """What the app does with a logged hand (hands.selectors.betting_state), then the
    pots and, at a showdown, who wins them."""
    showdowns = pots_total = awarded = 0
    for hand in hands:
        state = betting.start_hand(
            hand.structure,
            hand.seats,
            button=hand.button,
            small_blind=hand.small_blind,
            big_blind=hand.big_blind,
        )
        for seat, kind, amount in hand.actions:
            state = state.apply(betting.Action(kind, seat, amount))
        pots = state.pots()
        if hand.holdings:
            awards = showdown.award_pots(
                pots,
                hand.holdings,
                hand.board,
                order_from_button=[p.seat for p in state.players],
            )
            showdowns += 1
            pots_total += sum(pot.amount for pot in pots)
            awarded += sum(sum(award.shares.values()) for award in awards)
    return Outcome(showdowns, pots_total, awarded)


def bench_replay() -> None:
    rng = random.Random(SEED)
    hands, ends = zip(*(hand_generate(rng) for _ in range(HANDS)), strict=True)
    hands = list(hands)
    expected = hands_replay(hands)  # also warms up pokerkit's caches
    showdowns = [end for hand, end in zip(hands, ends, strict=True) if hand.holdings]
    generated = sum(pot.amount for end in showdowns for pot in end.pots())
    if not expected.awarded == expected.pots == generated:
        fail(
            f"the showdowns awarded {expected.awarded} chips of {expected.pots} in their "
            f"pots, {generated} when generated"
        )
    seconds = []
    for _ in range(RUNS):
        start = time.perf_counter()
        outcome = hands_replay(hands)
        seconds.append(time.perf_counter() - start)
        if outcome != expected:
            fail(f"replay: {outcome.describe()}, expected {expected.describe()}")
    taken = median(seconds)
    print(
        f"hands: replay {HANDS} hands {HANDS / taken:.0f} hands/s ({1000 * taken:.0f} ms) "
        "— target —"
    )
    limits = {limit: sum(h.structure.limit == limit for h in hands) for limit in LIMITS}
    print(
        f"hands: replay: {limits[NO_LIMIT]} no-limit, {limits[POT_LIMIT]} pot-limit, "
        f"{limits[FIXED_LIMIT]} fixed-limit hold'em hands of 2-{SEATS} players, "
        f"{sum(len(h.actions) for h in hands)} actions, {expected.describe()} "
        f"({sum(end.all_in_showdown for end in ends)} all-in showdowns); "
        f"median of {RUNS} runs, seed {SEED}"
    )


# --- 2. Hand-for-hand at 150 tables ----------------------------------------------------

PLACES_PAID = TABLES * SEATS - TABLES  # on the bubble; nobody busts here, so it never bursts

SETUP = (
    f"""
from django.contrib.auth.models import Group, User
from django.utils import timezone
from rest_framework.authtoken.models import Token
from hands import services as hands_services
from seating import services as seating_services
from seating.models import Seat, Table
from tournaments.models import Entry, Player, Tournament
user = User.objects.create_user("bench-floor", password=None)
user.groups.add(Group.objects.get(name="floor"))
t = Tournament.objects.create(pk={TOURNAMENT_ID}, name="Bench Bubble", buy_in=10000,
    fee=1000, starting_stack=30000, start_at=timezone.now(), status="running",
    table_size={SEATS})
people = Player.objects.bulk_create(
    [Player(name=f"Bubble Player {{i:05d}}", name_key=f"bubble player {{i:05d}}",
            name_plain=f"bubble player {{i:05d}}") for i in range({TABLES * SEATS})],
    batch_size=2000)
Entry.objects.bulk_create(
    [Entry(tournament=t, player=p, number=i + 1, chips=30000) for i, p in enumerate(people)],
    batch_size=2000)
rows = Table.objects.bulk_create(
    [Table(tournament=t, number=n, seats={SEATS}, break_order={TABLES} - n + 1)
     for n in range(1, {TABLES} + 1)])
Seat.objects.bulk_create(
    [Seat(table=row, number=s) for row in rows for s in range(1, {SEATS} + 1)],
    batch_size=5000)
seating_services.seating_draw(actor=None, tournament_id=t.pk)
"""
    + CLOCK_STRUCTURE_SETUP
    + f"""
services.clock_act(actor=user, tournament_id=t.pk, action="start")
hands_services.h4h_settings_update(actor=user, tournament_id=t.pk,
    data={{"places_paid": {PLACES_PAID}}})
for n in range(1, {TABLES} + 1):
    hands_services.button_set(actor=user, tournament_id=t.pk, number=n, button=1)
# No hand is in play: round 0 is over at once and round 1 is to be dealt everywhere.
hands_services.h4h_start(actor=user, tournament_id=t.pk)
print(Token.objects.create(user=user).key)
"""
)
SERVER_OPTIONS = (
    "--ws-per-message-deflate",
    "false",  # as production serves /ws/ (docker-compose.yml, manage.py serve)
)


@dataclass
class Layer:
    name: str
    env: dict
    latencies: list[float] = field(default_factory=list)  # seconds, tablets only
    expected: int = 0
    connected: int = 0
    connect_errors: list[str] = field(default_factory=list)
    request_errors: list[str] = field(default_factory=list)
    request_seconds: list[float] = field(default_factory=list)  # the last report's answer
    round_seconds: list[float] = field(default_factory=list)  # dealing and 149 reports
    round_max: list[float] = field(default_factory=list)  # the slowest tablet of each round


class Inbox:
    """hand_for_hand.updated messages as they arrive: (client, time, text), decoded only
    once the round is over (see bench/clock_ws.py: the clients share one event loop)."""

    def __init__(self) -> None:
        self.received: list[tuple[int, float, str]] = []

    def deals(self, start: int, round_number: int, deadline: float) -> dict[int, float]:
        """Client -> receipt time of the deal of `round_number`, among messages since
        `start`."""
        got: dict[int, float] = {}
        for client, at, raw in self.received[start:]:
            data = json.loads(raw)["data"]
            if data["deal"] and data["round"] == round_number and at <= deadline:
                got.setdefault(client, at)
        return got


async def listen(ws: ClientConnection, client: int, inbox: Inbox) -> None:
    async for raw in ws:
        at = time.perf_counter()
        if '"hand_for_hand.updated"' in raw:
            inbox.received.append((client, at, raw))


class Floor:
    """The tables' tablets as the API sees them: one floor user, one keep-alive
    connection, requests one after another. Every hand service takes the tournament's
    row lock, so tablets sending at once would queue there: four connections in
    parallel were no faster.

    The user authenticates with a DRF token (rest_framework.authtoken is installed and
    TokenAuthentication comes first in REST_FRAMEWORK): no login page, cookies or CSRF
    token to handle, as bench/clock_ws.py does.
    """

    def __init__(self, token: str) -> None:
        self.token = token
        self.hands: dict[int, int] = {}  # table -> its hand in play
        self.conn: http.client.HTTPConnection | None = None

    def post(self, port: int, path: str, expect: int) -> dict:
        if self.conn is None or self.conn.port != port:
            self.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        try:
            self.conn.request("POST", f"/api/v1/tournaments/{TOURNAMENT_ID}/{path}", "{}", headers)
            response = self.conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            self.close()  # the next request opens a new connection
            raise
        if response.status != expect:
            raise RuntimeError(f"POST {path}: HTTP {response.status} {body[:200]!r}")
        return json.loads(body)

    def deal(self, port: int, table: int) -> None:
        self.hands[table] = self.post(port, f"tables/{table}/hands/", 201)["number"]

    def finish(self, port: int, table: int) -> tuple[float, float]:
        """Report the table's hand done; return (time sent, time answered)."""
        sent = time.perf_counter()
        self.post(port, f"tables/{table}/hands/{self.hands.pop(table)}/finish/", 200)
        return sent, time.perf_counter()

    def deal_and_report(self, port: int, last: int) -> None:
        """Every table that has no hand in play deals; all but `last` report it done."""
        for table in range(1, TABLES + 1):
            if table not in self.hands:
                self.deal(port, table)
        for table in range(1, TABLES + 1):
            if table != last:
                self.finish(port, table)

    def round_now(self, port: int) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", f"/api/v1/tournaments/{TOURNAMENT_ID}/hand-for-hand/")
            response = conn.getresponse()
            state = json.loads(response.read())
        finally:
            conn.close()
        if response.status != 200 or not state["active"]:
            fail(f"hand-for-hand is not running: HTTP {response.status} {state!r}")
        return state["round"]

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


async def wait_for(inbox: Inbox, count: int, deadline: float) -> None:
    while len(inbox.received) < count and time.perf_counter() < deadline:
        await asyncio.sleep(0.005)


async def measure(layer: Layer, port: int, floor: Floor) -> None:
    inbox = Inbox()
    gate = asyncio.Semaphore(CONNECTING)
    opened = await asyncio.gather(
        *(
            screen_open(port, TOURNAMENT_ID, gate, partial(listen, client=n, inbox=inbox))
            for n in range(TABLES + SCREENS)
        ),
        return_exceptions=True,
    )
    clients = []
    tablets = 0  # clients 0 to TABLES - 1 are the tablets
    for n, result in enumerate(opened):
        if isinstance(result, BaseException):
            layer.connect_errors.append(f"{type(result).__name__}: {result}")
        else:
            clients.append(result)
            tablets += n < TABLES
    layer.connected = len(clients)
    last = TABLES
    try:
        round_number = await asyncio.to_thread(floor.round_now, port)
        for counted in range(-1, ROUNDS if clients else 0):  # -1: the warm-up round
            start = len(inbox.received)
            began = time.perf_counter()
            try:
                await asyncio.to_thread(floor.deal_and_report, port, last)
            except (OSError, http.client.HTTPException, RuntimeError) as exc:
                layer.request_errors.append(f"{type(exc).__name__}: {exc}")
                break  # the tables no longer agree with the server: stop this layer
            # Each report sent every client one hand_for_hand.updated: the last report
            # is sent once they have all arrived, so that none of them queues before it.
            await wait_for(inbox, start + (TABLES - 1) * len(clients), time.perf_counter() + 60)
            layer.round_seconds.append(time.perf_counter() - began)
            await asyncio.sleep(PAUSE_BEFORE_LAST)
            start = len(inbox.received)
            try:
                sent, answered = await asyncio.to_thread(floor.finish, port, last)
            except (OSError, http.client.HTTPException, RuntimeError) as exc:
                layer.request_errors.append(f"{type(exc).__name__}: {exc}")
                break
            round_number += 1
            deadline = sent + DEADLINE
            await wait_for(inbox, start + len(clients), deadline)
            got = inbox.deals(start, round_number, deadline)
            if counted < 0:
                continue
            layer.request_seconds.append(answered - sent)
            layer.expected += tablets
            latencies = [at - sent for client, at in got.items() if client < TABLES]
            layer.latencies.extend(latencies)
            layer.round_max.append(max(latencies, default=DEADLINE))
    finally:
        for _ws, listener in clients:
            listener.cancel()
        await asyncio.gather(*(ws.close() for ws, _ in clients), return_exceptions=True)


def bench_hand_for_hand() -> None:
    redis_url = os.environ.get("REDIS_URL", "").strip()
    env = production_env()
    env.pop("DJANGO_SETTINGS_MODULE", None)
    in_memory_env = {k: v for k, v in env.items() if k != "REDIS_URL"}
    manage(in_memory_env, "migrate", "--verbosity", "0")
    # The setup publishes and schedules in memory: nothing of it reaches a shared Redis.
    started = time.perf_counter()
    token = manage(in_memory_env, "shell", "--no-imports", "-c", SETUP).split()[-1]
    setup_seconds = time.perf_counter() - started
    open_files = raise_open_file_limit(2 * (TABLES + SCREENS) + 1024)

    layers = [Layer("in-memory", in_memory_env)]
    if redis_url:
        layers.append(Layer("redis", {**env, "REDIS_URL": redis_url}))
    floor = Floor(token)
    leftovers = 0
    for layer in layers:
        port = free_port()
        command = uvicorn_command(port, 1, *SERVER_OPTIONS)
        server = None
        try:
            with serving(command, layer.env, port) as server:
                run_loop(measure(layer, port, floor))
        finally:  # on Ctrl-C or SIGTERM too: no alert may stay queued on a shared Redis
            floor.close()
            if server is not None and "REDIS_URL" in layer.env:
                leftovers += celery_leftovers_remove(redis_url, server.pid)

    failed = []
    for layer in layers:
        got = len(layer.latencies)
        if got:
            values = sorted(layer.latencies)
            p50, p99, top = (1000 * percentile(values, p) for p in (50, 99, 100))
            figures = f"p50 {p50:.0f} ms, p99 {p99:.0f} ms"
        else:
            top, p99, figures = 0, math.inf, "no messages"
        print(
            f"hands: hand-for-hand deal to {TABLES} tablets, {layer.name}: {figures} "
            f"— target p99 ≤ {TARGET_P99_MS} ms: {verdict(p99 <= TARGET_P99_MS)}"
        )
        print(
            f"hands: hand-for-hand {layer.name}: max {top:.0f} ms, {got} of {layer.expected} "
            f"deals received, {layer.connected} of {TABLES + SCREENS} clients connected, "
            f"last report answered in {1000 * median(layer.request_seconds or [0]):.0f} ms, "
            f"deal and {TABLES - 1} reports in {median(layer.round_seconds or [0]):.1f} s "
            f"(medians), {len(layer.connect_errors)} connect errors, "
            f"{len(layer.request_errors)} failed requests"
        )
        slowest = " ".join(f"{1000 * seconds:.0f}" for seconds in layer.round_max)
        print(f"hands: hand-for-hand {layer.name}: slowest tablet by round {slowest} ms")
        for error in (layer.connect_errors + layer.request_errors)[:3]:
            print(f"hands: hand-for-hand {layer.name}: e.g. {error}")
        if layer.connected < TABLES + SCREENS or got < layer.expected or layer.request_errors:
            failed.append(layer)
        if not layer.expected:
            failed.append(layer)
    if not redis_url:
        print("hands: hand-for-hand Redis layer skipped (REDIS_URL is unset)")
    print(
        f"hands: hand-for-hand: {TABLES} tables of {SEATS} set up in {setup_seconds:.0f} s, "
        f"{SCREENS} lobby screens besides the tablets, one uvicorn process per layer, "
        f"{ROUNDS} rounds after 1 warm-up round, open files {open_files}, "
        f"{leftovers} queued tasks removed from Redis"
    )
    if failed:
        names = ", ".join(dict.fromkeys(layer.name for layer in failed))
        sys.exit(f"hands: {names}: tablets, deals or requests lost")


def main() -> None:
    bench_replay()
    bench_hand_for_hand()


if __name__ == "__main__":
    main()
