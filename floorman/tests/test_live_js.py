"""static/js/live.js, shared by the live screens (clock.js, seats.js, tablet.js,
console.js, seating-map.js), run with node."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from floorman import live

JS_TESTS = Path(__file__).parent / "js"
TEMPLATES = Path(settings.BASE_DIR) / "templates"
STATIC_JS = Path(settings.BASE_DIR) / "static" / "js"

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node for JS tests")


@needs_node
def test_live_js():
    result = subprocess.run(
        ["node", str(JS_TESTS / "live_test.js")], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_pages_load_live_js_before_the_scripts_that_use_it():
    pages = []
    for template in sorted(TEMPLATES.rglob("*.html")):
        text = template.read_text()
        for script in (
            "{% static 'js/clock.js' %}",
            "{% static 'js/seats.js' %}",
            "{% static 'js/tablet.js' %}",
        ):
            if script in text:
                pages.append(template.name)
                live = text.find("{% static 'js/live.js' %}")
                assert 0 <= live < text.index(script), template

    assert sorted(set(pages)) == [
        "board.html",
        "entry_public.html",
        "hand_for_hand.html",
        "lobby.html",
        "tablet.html",
    ]


@needs_node
def test_live_js_one_socket_per_page():
    result = subprocess.run(
        ["node", str(JS_TESTS / "channel_test.js")], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_only_live_js_opens_a_websocket():
    """Every screen connects through live.js's one client (issue 14)."""
    scripts = sorted(STATIC_JS.parent.rglob("*.js"))

    opening = [
        str(script.relative_to(STATIC_JS.parent))
        for script in scripts
        if "new WebSocket" in script.read_text()
    ]

    assert len(scripts) > 1
    assert opening == ["js/live.js"]


def test_live_js_knows_every_kind_the_server_publishes():
    """The console refreshes on any event: live.js's KINDS are floorman/live.py's."""
    text = (STATIC_JS / "live.js").read_text()
    listed = re.search(r"var KINDS = \[(.*?)\];", text, re.S).group(1)

    assert re.findall(r'"([\w.]+)"', listed) == list(live.KINDS)


def test_pages_load_live_js_before_the_console_and_the_map():
    for name, script in (
        ("clock/console.html", "{% static 'js/console.js' %}"),
        ("seating/map.html", "{% static 'js/seating-map.js' %}"),
    ):
        text = (TEMPLATES / name).read_text()

        assert 0 <= text.find("{% static 'js/live.js' %}") < text.index(script), name
