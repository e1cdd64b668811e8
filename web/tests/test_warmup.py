"""The first page after a start is as quick as any (issue 16): the web process loads the
URLconf, the views and the templates as it starts, before it accepts a request."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

STARTED = """
import json, sys
import {module}
from django.template import engines
loader = engines["django"].engine.template_loaders[0]
print(json.dumps({{
    "views": sorted(m for m in ("clock.views.console", "prizes.views.results",
        "seating.views.tables", "web.desk.views") if m in sys.modules),
    "templates": sorted(loader.get_template_cache),
}}))
"""


@pytest.mark.parametrize("module", ["web.wsgi", "web.asgi"])
def test_a_started_server_has_its_pages_ready_before_the_first_request(module):
    done = subprocess.run(
        [sys.executable, "-c", STARTED.format(module=module)],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "floorman.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    ready = json.loads(done.stdout.splitlines()[-1])

    assert ready["views"] == [
        "clock.views.console",
        "prizes.views.results",
        "seating.views.tables",
        "web.desk.views",
    ]
    for page in ("clock/console.html", "prizes/results.html", "seating/map.html", "base.html"):
        assert page in ready["templates"]
