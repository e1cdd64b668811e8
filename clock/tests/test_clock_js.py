"""The pure time functions and the screen of static/js/clock.js, and the TD console's
static/js/console.js, run with node."""

import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node for JS tests")


@pytest.mark.parametrize("script", ["clock_test.js", "screen_test.js", "console_test.js"])
def test_clock_js(script):
    result = subprocess.run(
        ["node", str(JS_TESTS / script)], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr
