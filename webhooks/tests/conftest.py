"""The webhooks' test pieces: a real HTTP receiver on 127.0.0.1 (a port of its own),
the deliveries handed to the worker recorded, and the tries run by the test."""

import http.server
import threading
from dataclasses import dataclass, field

import pytest
from django.test import TestCase

from webhooks import services
from webhooks.tasks import webhook_deliver

WAIT = 10  # seconds: the most a test waits for a condition before it fails


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass
class Receiver:
    """A receiver as a live-reporting site runs one: it answers each POST with the next
    answer given (`answer(...)`; 200 once they are used up) and keeps what it got.
    An answer may "hang": the handler waits for `release` (a receiver that does not
    answer), never longer than WAIT."""

    server: http.server.ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    answers: list[tuple] = field(default_factory=list)
    got_one: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def answer(self, *answers: tuple) -> None:
        self.answers.extend(answers)


def _handler(receiver: Receiver):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            body = self.rfile.read(length)
            receiver.received.append(Received(self.path, dict(self.headers), body))
            receiver.got_one.set()
            kind, *rest = receiver.answers.pop(0) if receiver.answers else ("status", 200, b"ok")
            if kind == "hang":
                receiver.release.wait(WAIT)
                kind, rest = "status", [200, b"late"]
            if kind == "redirect":
                self.send_response(rest[0])
                self.send_header("Location", rest[1])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status, text = rest
            self.send_response(status)
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

    return Handler


@pytest.fixture
def receiver():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)
    found = Receiver(server=server)
    server.RequestHandlerClass = _handler(found)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield found
    found.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def webhook_settings(settings):
    """The test's receiver on 127.0.0.1 allowed, small timeouts, retries at once."""
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.WEBHOOK_CONNECT_TIMEOUT = 2.0
    # Ample for a receiver on the loopback however loaded the machine; the hanging
    # receiver of the timeout tests waits for the test, not for a time.
    settings.WEBHOOK_READ_TIMEOUT = 2.0
    settings.WEBHOOK_TOTAL_TIMEOUT = 5.0
    settings.WEBHOOK_RETRY_SCHEDULE = (0, 0, 0)
    settings.WEBHOOK_DISABLE_AFTER = 2
    return settings


class Queue(list):
    """The deliveries handed to the worker: (delivery id, countdown)."""

    def run(self, limit: int = 20) -> list[str]:
        """Run the tries waiting, as the worker would, the retries they send too; their
        outcomes in order."""
        outcomes = []
        while self and limit:
            delivery_id, _countdown = self.pop(0)
            # The retry is handed over as the try's record commits.
            with TestCase.captureOnCommitCallbacks(execute=True):
                outcomes.append(services.delivery_attempt(delivery_id=delivery_id))
            limit -= 1
        return outcomes


@pytest.fixture(autouse=True)
def queued(monkeypatch) -> Queue:
    found = Queue()

    def record(args=None, kwargs=None, countdown=None, **options):
        found.append((args[0], countdown))

    monkeypatch.setattr(webhook_deliver, "apply_async", record)
    return found
