"""The packages form layers: no package imports one above it, so there are no import circles.

errors -> geometry -> scenario -> core -> rulesets -> bots / sim / render -> cli.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "warbench"

LAYERS: dict[str, set[str]] = {
    "geometry": {"errors", "geometry"},
    "scenario": {"errors", "geometry", "scenario"},
    "core": {"errors", "geometry", "scenario", "core", "rulesets"},
}
"""Packages each package may import (core's registry imports ``warbench.rulesets``
only to discover the packages in it, by name)."""


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("warbench.")}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_package_imports_only_the_layers_below(package: str) -> None:
    allowed = LAYERS[package]
    bad = []
    for path in sorted((SRC / package).rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[1]
            if top not in allowed:
                bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert not bad, "\n".join(bad)


def test_core_takes_nothing_from_a_ruleset_but_discovery() -> None:
    bad = []
    for path in sorted((SRC / "core").rglob("*.py")):
        bad += [f"{path.name}: {n}" for n in _imports(path) if n.startswith("warbench.rulesets.")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "rules", sorted(SRC.glob("rulesets/*/rules.py")), ids=lambda p: p.parent.name
)
def test_a_rulesets_rules_do_not_import_their_own_consumers(rules: Path) -> None:
    """Odds, evaluation, pictures and playouts import the rules, and are assembled in the
    package (``ruleset.py``), so the rules never import them back."""
    package = f"warbench.rulesets.{rules.parent.name}"
    consumers = {f"{package}.{name}" for name in ("odds", "evaluate", "playout", "annotate")}
    assert not (_imports(rules) & consumers)


def test_the_server_knows_no_ruleset_and_no_command() -> None:
    """Nothing rules-specific in the server: it talks to games through the core, and the
    CLI (``warbench serve``) sits above it."""
    bad = []
    for path in sorted((SRC / "server").rglob("*.py")):
        for name in _imports(path):
            if name.startswith(("warbench.rulesets", "warbench.cli")):
                bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert not bad, "\n".join(bad)
