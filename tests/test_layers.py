"""The packages form layers: no package imports one above it, so there are no import circles.

errors -> geometry -> scenario -> core -> rulesets -> bots / sim / render -> cli.
Inside ``core`` the modules form no circle either, counting every import: at the top,
inside a function (a lazy import) or for type checking only.
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


def _core_graph() -> dict[str, set[str]]:
    """Each module of ``core`` with the ``core`` modules it imports, wherever it does."""
    graph: dict[str, set[str]] = {}
    modules = {path.stem for path in (SRC / "core").glob("*.py")}
    for path in sorted((SRC / "core").glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module == "warbench.core":
                    names = [alias.name for alias in node.names]
                else:
                    names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.removeprefix("warbench.core.").split(".")
                if name.startswith("warbench.core.") or name in modules:
                    found.add(parts[0])
        graph[path.stem] = found & modules - {path.stem}
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first again at the end)."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph[module]):
            found = visit(imported, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return None


def test_core_has_no_import_circle() -> None:
    circle = _circle(_core_graph())
    assert circle is None, "import circle in core: " + " -> ".join(circle or [])


def test_the_circle_check_finds_a_lazy_circle() -> None:
    graph = {"game": {"record"}, "record": {"dice"}, "dice": set()}
    assert _circle(graph) is None
    graph["dice"] = {"game"}  # say, an import inside a function
    assert _circle(graph) == ["dice", "game", "record", "dice"]


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
