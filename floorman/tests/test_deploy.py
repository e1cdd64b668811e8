"""The production deployment: docker-compose.yml, the proxy config and the health check.

No Docker engine runs where the tests run, so these check what the files promise an
operator: every long-running service is health-checked, data lives in named volumes,
secrets must be given, web migrates before it serves, and the proxy sends /ws/ to the
ASGI server and everything else to gunicorn.
"""

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
COMPOSE = ROOT / "docker-compose.yml"
NGINX = ROOT / "deploy" / "nginx.conf"


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def _healthcheck_module():
    spec = importlib.util.spec_from_file_location("healthcheck", ROOT / "deploy" / "healthcheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compose_runs_every_part_of_floorman():
    services = _compose()["services"]

    assert set(services) == {
        "postgres",
        "redis",
        "migrate",
        "web",
        "ws",
        "worker",
        "proxy",
        "backup",
    }


def test_every_long_running_service_has_a_healthcheck():
    services = _compose()["services"]

    running = {name: s for name, s in services.items() if s.get("restart") != "no"}
    assert "proxy" in running and "migrate" not in running
    assert [name for name, s in running.items() if "healthcheck" not in s] == []


def test_the_proxy_health_check_asks_nginx_itself():
    check = " ".join(_compose()["services"]["proxy"]["healthcheck"]["test"])

    assert "http://127.0.0.1/proxy-health" in check
    assert re.search(r"location = /proxy-health \{[^}]*return 200", NGINX.read_text())


def test_database_and_broker_keep_their_data_in_named_volumes():
    compose = _compose()
    declared = set(compose["volumes"])

    for name in ("postgres", "redis"):
        mounts = compose["services"][name]["volumes"]
        sources = {m.split(":")[0] for m in mounts}
        assert sources and sources <= declared, f"{name} must use a named volume"


def test_secrets_have_no_default_and_must_be_given():
    text = COMPOSE.read_text()

    assert re.search(r"SECRET_KEY: \$\{SECRET_KEY:\?", text)
    assert re.search(r"POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?", text)


def test_app_services_use_postgres_and_redis():
    services = _compose()["services"]

    for name in ("web", "ws", "worker"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://"), name
        assert env["REDIS_URL"].startswith("redis://"), name


def test_migrations_run_once_before_any_app_process_starts():
    """Several web processes must never migrate at once: a one-shot service does it."""
    services = _compose()["services"]

    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    for name in ("web", "ws", "worker"):
        assert "migrate" not in " ".join(services[name]["command"]), name
        waits = services[name]["depends_on"]["migrate"]["condition"]
        assert waits == "service_completed_successfully", name


def test_a_plain_local_compose_up_serves_http_without_redirecting():
    env = _compose()["services"]["web"]["environment"]

    assert env["SECURE_SSL_REDIRECT"] == "${SECURE_SSL_REDIRECT:-false}"


def test_backups_run_on_a_schedule_into_a_volume_and_are_kept_for_days():
    compose = _compose()
    backup = compose["services"]["backup"]

    assert backup["command"] == ["sh", "/deploy/backup.sh"]
    assert "backups:/backups" in backup["volumes"] and "backups" in compose["volumes"]
    assert backup["environment"]["BACKUP_KEEP_DAYS"] == "${BACKUP_KEEP_DAYS:-14}"
    assert backup["image"] == compose["services"]["postgres"]["image"]  # pg_dump matches


def test_websocket_server_is_uvicorn_on_the_asgi_app():
    command = _compose()["services"]["ws"]["command"]

    assert command[:2] == ["uvicorn", "web.asgi:application"]


def test_only_the_proxy_publishes_a_port():
    services = _compose()["services"]

    assert [name for name, s in services.items() if "ports" in s] == ["proxy"]


def test_proxy_sends_websockets_to_ws_and_the_rest_to_web():
    conf = NGINX.read_text()
    upstreams = dict(re.findall(r"set \$(\w+) (http://[\w:]+);", conf))
    locations = dict(re.findall(r"location (\S+) \{[^}]*?proxy_pass \$(\w+);", conf))

    assert upstreams[locations["/ws/"]] == "http://ws:8000"
    assert upstreams[locations["/"]] == "http://web:8000"
    assert "proxy_set_header Upgrade $http_upgrade;" in conf


@pytest.mark.parametrize(
    ("allowed_hosts", "host"),
    [
        ("floorman.example.com,localhost", "floorman.example.com"),
        (".example.com", "example.com"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_healthcheck_asks_with_a_host_name_django_accepts(monkeypatch, allowed_hosts, host):
    monkeypatch.setenv("ALLOWED_HOSTS", allowed_hosts)

    assert _healthcheck_module().host_name() == host


@pytest.mark.django_db(transaction=True)
def test_healthcheck_passes_against_a_running_server(live_server, monkeypatch, capsys):
    port = live_server.url.rsplit(":", 1)[1]
    monkeypatch.setenv("ALLOWED_HOSTS", "localhost")
    monkeypatch.setattr("sys.argv", ["healthcheck.py", port])

    assert _healthcheck_module().main() == 0
    assert "HTTP 200" in capsys.readouterr().out


def test_healthcheck_fails_when_nothing_answers(monkeypatch, capsys):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, not listening: the connection is refused
        monkeypatch.setattr("sys.argv", ["healthcheck.py", str(port)])

        assert _healthcheck_module().main() == 1
    assert "no answer" in capsys.readouterr().out


def test_the_asgi_server_keeps_no_database_connection_per_thread():
    """Each ASGI request runs in a thread of its own: kept connections would pile up
    until PostgreSQL refuses more (bench/asgi_vs_wsgi.py found it)."""
    from django.db import connections

    import web.asgi  # noqa: F401

    assert connections["default"].settings_dict["CONN_MAX_AGE"] == 0


def _proxy_settings() -> dict:
    return _compose()["services"]["proxy"]["environment"]


def _ws_location(conf: str) -> str:
    return re.search(r"location /ws/ \{(.*?)\n    \}", conf, re.S).group(1)


def test_proxy_limits_websocket_handshakes_and_open_sockets_per_address():
    """Issue 15: 2,000 handshakes from one address stalled every screen."""
    conf = NGINX.read_text()
    zones = dict(re.findall(r"limit_(req|conn)_zone \$binary_remote_addr zone=(\w+):", conf))
    location = _ws_location(conf)

    assert f"limit_req zone={zones['req']} burst=${{PROXY_WS_BURST}} nodelay;" in location
    assert f"limit_conn {zones['conn']} ${{PROXY_WS_SOCKETS}};" in location
    assert "rate=${PROXY_WS_RATE}r/s;" in conf
    assert "limit_req_status 429;" in location and "limit_conn_status 429;" in location


def test_proxy_limits_are_settings_with_defaults():
    """The nginx image fills the template's ${PROXY_WS_...} from the proxy's environment,
    and only those (its own $variables must stay as they are)."""
    conf = NGINX.read_text()
    proxy = _compose()["services"]["proxy"]
    used = set(re.findall(r"\$\{(PROXY_WS_\w+)\}", conf))
    settings = _proxy_settings()

    assert "./deploy/nginx.conf:/etc/nginx/templates/default.conf.template:ro" in proxy["volumes"]
    assert settings["NGINX_ENVSUBST_FILTER"] == "^PROXY_WS_"
    assert used == {"PROXY_WS_RATE", "PROXY_WS_BURST", "PROXY_WS_SOCKETS"}
    for name in used:
        assert re.fullmatch(rf"\$\{{{name}:-[1-9][0-9]*\}}", settings[name]), name


def _nginx_test(directory: Path) -> subprocess.CompletedProcess:
    """`nginx -t` of directory/nginx.conf, its paths relative to the directory."""
    return subprocess.run(
        ["nginx", "-t", "-c", str(directory / "nginx.conf"), "-p", str(directory)],
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.skipif(not shutil.which("nginx"), reason="needs nginx (apt-get install nginx-light)")
def test_proxy_config_is_valid_nginx(tmp_path):
    defaults = {
        name: re.fullmatch(r"\$\{\w+:-(\d+)\}", value).group(1)
        for name, value in _proxy_settings().items()
        if name.startswith("PROXY_WS_")
    }
    conf = re.sub(r"\$\{(PROXY_WS_\w+)\}", lambda m: defaults[m.group(1)], NGINX.read_text())
    (tmp_path / "default.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{ include {tmp_path}/default.conf; }}\n"
    )

    result = _nginx_test(tmp_path)

    assert result.returncode == 0, result.stderr


MAIN = ROOT / "deploy" / "nginx-main.conf"


def test_proxy_holds_a_festivals_phones():
    """Issue 20: the image's own main file allowed 1,024 connections per worker, about 500
    phones. The shipped one is mounted over it, and the container's file limit follows."""
    proxy = _compose()["services"]["proxy"]
    text = MAIN.read_text()
    connections = int(re.search(r"worker_connections (\d+);", text)[1])
    files = int(re.search(r"worker_rlimit_nofile (\d+);", text)[1])

    assert "./deploy/nginx-main.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert connections >= 2 * 5000  # two per proxied websocket
    assert files >= connections
    assert int(proxy["ulimits"]["nofile"]) >= files
    assert "include /etc/nginx/conf.d/*.conf;" in text  # where the image puts the site


@pytest.mark.skipif(not shutil.which("nginx"), reason="needs nginx (apt-get install nginx-light)")
def test_proxy_main_config_is_valid_nginx(tmp_path):
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "conf.d" / "site.conf").write_text("server { listen 127.0.0.1:1; }\n")
    (tmp_path / "mime.types").write_text("types { text/html html; }\n")
    text = MAIN.read_text().replace("user nginx;\n", "")  # no such user on a test machine
    for path in ("/var/log/nginx/", "/var/run/", "/etc/nginx/"):
        text = text.replace(path, f"{tmp_path}/")
    (tmp_path / "nginx.conf").write_text(text)

    result = _nginx_test(tmp_path)

    assert result.returncode == 0, result.stderr
