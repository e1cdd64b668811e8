"""Installs are reproducible (issue 15): every package, transitive ones included, is
pinned in a lock file written by pip-compile, and every install path uses the lock."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;#]+)", re.MULTILINE)


def _pins(path: Path) -> dict[str, str]:
    return {_name(name): version for name, version in PIN.findall(path.read_text())}


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def _requirements(path: Path) -> list[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("-")]


def test_every_requirement_is_pinned_and_locked_at_the_same_version():
    for source, lock in (
        ("requirements.txt", "requirements.lock"),
        ("requirements-dev.txt", "requirements-dev.lock"),
    ):
        asked = _requirements(ROOT / source)
        locked = _pins(ROOT / lock)
        for line in asked:
            match = PIN.match(line)
            assert match, f"{source}: {line!r} is not pinned with =="
            assert locked.get(_name(match[1])) == match[2], f"{lock} disagrees on {line!r}"


def test_the_development_lock_keeps_the_runtime_versions():
    runtime, development = _pins(ROOT / "requirements.lock"), _pins(ROOT / "requirements-dev.lock")

    assert {name: development.get(name) for name in runtime} == runtime


def test_lock_files_pin_only_exact_versions():
    for lock in ("requirements.lock", "requirements-dev.lock"):
        lines = _requirements(ROOT / lock)
        assert lines and all(PIN.match(line) for line in lines), lock


def test_make_and_the_image_install_the_locks():
    makefile = (ROOT / "Makefile").read_text()
    dockerfile = (ROOT / "Dockerfile").read_text()

    assert "pip install --quiet --disable-pip-version-check -r requirements.lock" in makefile
    assert "-r requirements-dev.lock" in makefile
    assert re.search(r"^RUN pip install -r requirements\.lock$", dockerfile, re.MULTILINE)
    assert "requirements.txt" not in dockerfile.replace("# ", "")
