"""What talks to the real processes in the fault tests: a dealer's tablet or the
floor's API client over HTTP, and a screen listening to a tournament's live events."""

import json
import threading
import time
import urllib.error
import urllib.request

from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from floorman.tests import servers


class Api:
    """JSON over HTTP with a staff token, through the TLS proxy as in production."""

    def __init__(self, web: servers.Process, token: str):
        self.web = web
        self.token = token

    def call(self, method: str, path: str, data: dict | None = None) -> tuple[int, dict]:
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(
            f"{self.web.url}/api/v1/{path}",
            data=body,
            method=method,
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
                "X-Forwarded-Proto": "https",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, {"body": text.decode(errors="replace")[:500]}

    def ok(self, method: str, path: str, data: dict | None = None) -> dict:
        status, answer = self.call(method, path, data)
        assert status in (200, 201), f"{method} {path}: {status} {answer}"
        return answer


class LiveEvents:
    """A screen on /ws/tournaments/<id>/ that keeps every event it receives and, like
    live.js, connects again when the connection is lost."""

    def __init__(self, web: servers.Process, tournament_id: int):
        self.url = web.url.replace("http://", "ws://") + f"/ws/tournaments/{tournament_id}/"
        self.origin = web.url
        self.events: list[dict] = []
        self.connections: list[float] = []  # when each connection opened (monotonic)
        self.connected = False
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="live-events")

    def __enter__(self) -> "LiveEvents":
        self.thread.start()
        servers.wait_until(lambda: self.connected, 10, "the screen did not connect")
        return self

    def __exit__(self, *exc) -> None:
        self.closing.set()
        self.thread.join(5)

    def _run(self) -> None:
        while not self.closing.is_set():
            try:
                with connect(self.url, origin=self.origin, open_timeout=3) as socket:
                    with self.lock:
                        self.connections.append(time.monotonic())
                        self.connected = True
                    while not self.closing.is_set():
                        try:
                            text = socket.recv(timeout=0.2)
                        except TimeoutError:
                            continue
                        with self.lock:
                            self.events.append(json.loads(text))
            except (OSError, WebSocketException):
                self.connected = False
                time.sleep(0.3)  # the server is away: try again, as live.js does

    def wait_steady(self, since: float, timeout: float, steady: float = 1.0) -> None:
        """Wait for a connection opened after `since` (monotonic) that stays open for
        `steady` seconds."""

        def steady_now() -> bool:
            with self.lock:
                last = self.connections[-1] if self.connections else 0.0
            return self.connected and last > since and time.monotonic() - last >= steady

        servers.wait_until(steady_now, timeout, "the screen did not connect again for good")

    def of_kind(self, kind: str) -> list[dict]:
        with self.lock:
            return [event for event in self.events if event.get("type") == kind]

    def wait_for(self, kind: str, timeout: float, where=lambda data: True) -> dict:
        """The first `kind` event whose data satisfies `where`, waiting up to `timeout`."""
        found: list[dict] = []

        def arrived() -> bool:
            found[:] = [e for e in self.of_kind(kind) if where(e["data"])]
            return bool(found)

        servers.wait_until(arrived, timeout, f"no {kind} event arrived")
        return found[0]["data"]
