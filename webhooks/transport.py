"""One webhook POST, with the address rules kept at the moment of connecting (issue 22,
item 4).

The host's name is resolved once; each address is checked (webhooks.engine.addresses)
and the connection is made to that very address, never resolved again, so DNS cannot
answer a public address to the check and a private one to the connection (DNS
rebinding). For https the certificate is still checked against the host's name (SNI and
hostname verification on the pinned socket). Redirects are not followed (http.client
never does): a 3xx is a failed try. Of the answer only a short excerpt is read and
kept. Python's standard library only: no client that follows redirects or pools
connections behind our back.
"""

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from webhooks.engine.addresses import Target, addresses_refusal

EXCERPT_CHARS = 500  # of the answer's body, kept in the delivery log


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no HTTP answer (refused, timeout, connection failed)
    excerpt: str = ""
    error: str = ""
    duration_ms: int = 0
    sent: bool = False  # whether a request went out at all

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _PinnedHTTP(http.client.HTTPConnection):
    """A connection to `address`, whatever `host` resolves to now."""

    def __init__(self, host, port, *, address, connect_timeout, read_timeout, **kwargs):
        super().__init__(host, port, timeout=connect_timeout, **kwargs)
        self._address = address
        self._read_timeout = read_timeout

    def _raw_connect(self) -> socket.socket:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        sock.settimeout(self._read_timeout)
        return sock

    def connect(self) -> None:
        self.sock = self._raw_connect()


class _PinnedHTTPS(_PinnedHTTP):
    def __init__(self, host, port, *, context, **kwargs):
        super().__init__(host, port, **kwargs)
        self._context = context

    def connect(self) -> None:
        # The host's name for SNI and the certificate check, the pinned address for TCP.
        self.sock = self._context.wrap_socket(self._raw_connect(), server_hostname=self.host)


def _tls_context() -> ssl.SSLContext:
    """The system's trusted authorities, the certificate checked against the host's name."""
    return ssl.create_default_context()


def _addresses(host: str, port: int) -> list[str]:
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in found))


def resolve(host: str, port: int) -> list[str] | None:
    """The host's addresses, or None when the name does not resolve."""
    try:
        return _addresses(host, port)
    except (OSError, UnicodeError):
        return None


def post(
    target: Target,
    body: bytes,
    headers: dict[str, str],
    *,
    allowed: tuple[str, ...] | list[str],
    connect_timeout: float,
    read_timeout: float,
    total_timeout: float,
) -> Answer:
    """POST `body` to `target`; the answer, never an exception. `read_timeout` bounds each
    wait for the answer's next bytes; `total_timeout` the whole try once connected, so a
    receiver that trickles its answer byte by byte cannot hold a worker for long."""
    started = time.monotonic()

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    addresses = resolve(target.host, target.port)
    if not addresses:
        return Answer(None, error="the host name does not resolve", duration_ms=took())
    if addresses_refusal(target.host, addresses, allowed):
        return Answer(None, error="refused: not a public address", duration_ms=took())
    error = ""
    for address in addresses:
        options = {
            "address": address,
            "connect_timeout": connect_timeout,
            "read_timeout": read_timeout,
        }
        if target.scheme == "https":
            connection = _PinnedHTTPS(target.host, target.port, context=_tls_context(), **options)
        else:
            connection = _PinnedHTTP(target.host, target.port, **options)
        try:
            try:
                connection.connect()
            except OSError as exc:  # refused, unreachable, connect timeout: the next address
                error = _describe(exc)
                continue
            watchdog = _Watchdog(connection, total_timeout)
            try:
                connection.request("POST", target.path, body=body, headers=headers)
                response = connection.getresponse()
                excerpt = response.read(EXCERPT_CHARS * 4)  # UTF-8: at most 4 bytes a char
            except (OSError, http.client.HTTPException) as exc:
                error = "timed out" if watchdog.fired else _describe(exc)
                return Answer(None, error=error, duration_ms=took(), sent=True)
            finally:
                watchdog.cancel()
            if watchdog.fired:
                return Answer(None, error="timed out", duration_ms=took(), sent=True)
            text = excerpt.decode("utf-8", errors="replace")[:EXCERPT_CHARS]
            return Answer(response.status, excerpt=text, duration_ms=took(), sent=True)
        finally:
            connection.close()
    return Answer(None, error=error or "no address answered", duration_ms=took())


class _Watchdog:
    """Shuts the connection's socket once `seconds` have passed: the blocked read in the
    worker's thread then ends at once."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float):
        self.fired = False
        self._connection = connection
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        self.fired = True
        sock = self._connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self._timer.cancel()


def _describe(exc: Exception) -> str:
    if isinstance(exc, TimeoutError | socket.timeout):
        return "timed out"
    return (f"{type(exc).__name__}: {exc}")[:300]
