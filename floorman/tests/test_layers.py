"""The layers of docs/architecture.md, as far as issue 14 has taken them: hands reads and
counts nothing of the rulings any more. `make test` runs import-linter on the whole
house; this checks the hands app on its own, late imports included, and that its
upward imports are gone from the list of debts for good."""

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ABOVE_HANDS = ("rulings", "web", "simulation")


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def test_hands_imports_nothing_from_the_rulings_or_above():
    found = {
        (str(path.relative_to(ROOT)), module)
        for path in (ROOT / "hands").rglob("*.py")
        if "tests" not in path.relative_to(ROOT).parts
        for module in imported_modules(path)
        if module.split(".")[0] in ABOVE_HANDS
    }

    assert found == set()


def test_no_upward_import_from_hands_to_the_rulings_is_ignored():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (layers,) = [
        contract
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers"
    ]

    ignored = [line for line in layers["ignore_imports"] if line.startswith("hands")]

    assert [line for line in ignored if "rulings" in line] == []
