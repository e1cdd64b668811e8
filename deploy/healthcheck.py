"""Container health check (docker-compose.yml): GET /health/ on this container's server.

    python deploy/healthcheck.py [port]

Exits 0 when /health/ answers 200 (database and cache reachable), 1 otherwise. Django
answers only to the host names in ALLOWED_HOSTS, so the request names the first of
them; it says X-Forwarded-Proto: https, as the proxy does, so that production settings
do not redirect it to HTTPS. Standard library only: it runs without Django set up.
"""

import http.client
import os
import sys


def host_name() -> str:
    hosts = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    host = hosts[0] if hosts else "localhost"
    if host == "*":
        return "localhost"
    return host.lstrip(".")  # ".example.com" also allows example.com itself


def main() -> int:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/health/", headers={"Host": host_name(), "X-Forwarded-Proto": "https"})
        response = conn.getresponse()
        body = response.read(500).decode(errors="replace")
    except (OSError, http.client.HTTPException) as exc:
        print(f"health check: no answer on port {port}: {exc}")
        return 1
    finally:
        conn.close()
    print(f"health check: HTTP {response.status} {body}")
    return 0 if response.status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
