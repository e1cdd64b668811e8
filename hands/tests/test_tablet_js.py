"""The pure functions, the tablet screen and the hand-for-hand page of static/js/tablet.js,
run with node."""

import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node for JS tests")


def test_tablet_js():
    result = subprocess.run(
        ["node", str(JS_TESTS / "tablet_test.js")], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_hand_for_hand_js():
    result = subprocess.run(
        ["node", str(JS_TESTS / "round_test.js")], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr
