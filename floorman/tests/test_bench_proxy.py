"""bench/cluster.py runs the shipped proxy configuration (deploy/nginx.conf) on one machine,
its upstreams pointed at local servers (bench/common.py nginx_config)."""

import contextlib
import http.client
import http.server
import importlib.util
import subprocess
import threading
import time
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location(
    "bench_common", Path(__file__).resolve().parents[2] / "bench" / "common.py"
)
common = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(common)

needs_nginx = pytest.mark.skipif(
    not Path(common.NGINX).exists(), reason="needs nginx (apt-get install nginx-light)"
)


class Named(http.server.BaseHTTPRequestHandler):
    """Answers every GET with its server's name and the headers the proxy passed on."""

    def do_GET(self):
        body = f"{self.server.name} {self.path} {self.headers.get('X-Real-IP')}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def upstream(name: str):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Named)
    server.name = name
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def test_the_proxy_settings_are_docker_composes_defaults():
    assert common.proxy_defaults() == {
        "PROXY_WS_RATE": "10",
        "PROXY_WS_BURST": "500",
        "PROXY_WS_SOCKETS": "1000",
    }


def test_a_shipped_file_without_the_upstream_line_is_refused(tmp_path, monkeypatch):
    changed = tmp_path / "nginx.conf"
    changed.write_text(common.NGINX_SHIPPED.read_text().replace("http://ws:8000", "http://x:1"))
    monkeypatch.setattr(common, "NGINX_SHIPPED", changed)

    with pytest.raises(ValueError, match="ws_upstream"):
        common.nginx_config(tmp_path / "out", 8080, {"web": [1], "ws": [2]})


@needs_nginx
def test_the_shipped_routing_reaches_the_given_servers(tmp_path):
    with upstream("web") as web, upstream("ws") as ws:
        port = common.free_port()
        command = common.nginx_config(tmp_path, port, {"web": [web], "ws": [ws]})
        proxy = subprocess.Popen(command, start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError):
                    if get(port, "/proxy-health")[0] == 200:
                        break
                time.sleep(0.1)
            pages = get(port, "/seat/1/?q=x")
            sockets = get(port, "/ws/tournaments/1/")
            static = get(port, "/static/js/live.js")
        finally:
            common.stop(proxy)

    assert pages == (200, "web /seat/1/?q=x 127.0.0.1")
    assert sockets == (200, "ws /ws/tournaments/1/ 127.0.0.1")
    assert static == (200, "web /static/js/live.js 127.0.0.1")
    assert not (tmp_path / "nginx.pid").exists()  # stopped, and its files were its own
