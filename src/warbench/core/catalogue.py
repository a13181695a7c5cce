"""What there is to play, for ``warbench rulesets`` and ``warbench scenarios``, cached.

Listing the rulesets and the built-in scenarios with how each is won needs every
ruleset imported and every scenario validated: most of a second, for a list that
changes only when the code or a scenario file does. So the list is kept in a
cache file keyed by a fingerprint of the sources it comes from (the ``.py`` and
``.toml`` files of ``core``, ``scenario``, ``geometry`` and every folder of
:mod:`warbench.rulesets`, hashed in a few milliseconds). A command that finds the
file with the current fingerprint imports no ruleset at all; any change to those
sources gives a new fingerprint, and the next listing computes it again.

The cache folder is ``$WARBENCH_CACHE`` if set (empty: no cache), else
``$XDG_CACHE_HOME/warbench`` or ``~/.cache/warbench`` (none without a home folder).
A folder that cannot be written only costs the speed-up.

Rulesets registered by code in the running process (a test's toy ruleset, a
plugin imported by hand) are not in the cache: they are added from the registry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import warbench
import warbench.rulesets
from warbench.core import registry

FORMAT = 1
"""Changes when the cache file's layout does."""

SOURCES = ("core", "scenario", "geometry")
"""The folders of ``warbench`` (besides the rulesets) whose code the listing depends on."""


@dataclass(frozen=True, slots=True)
class RulesetRow:
    """One line of ``warbench rulesets``."""

    name: str
    aliases: tuple[str, ...]
    version: str
    geometry: str
    title: str


@dataclass(frozen=True, slots=True)
class ScenarioRow:
    """One built-in scenario: id, ruleset, title, and its goal lines
    (``Ruleset.goal``: the description, then each victory condition)."""

    id: str
    ruleset: str
    title: str
    goal: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The rulesets and built-in scenarios."""

    rulesets: tuple[RulesetRow, ...]
    scenarios: tuple[ScenarioRow, ...]


def _folders() -> list[Path]:
    base = Path(warbench.__file__).parent
    return [base / name for name in SOURCES] + [Path(p) for p in warbench.rulesets.__path__]


def fingerprint() -> str:
    """A hash of every source the catalogue is computed from (paths and contents)."""
    digest = hashlib.sha256(f"{FORMAT} {warbench.__version__}".encode())
    for folder in _folders():
        digest.update(str(folder).encode())
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".toml") and path.is_file():
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_folder() -> Path | None:
    """Where the catalogue is kept, or None for no cache (``WARBENCH_CACHE=``)."""
    chosen = os.environ.get("WARBENCH_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "warbench"
    home = os.path.expanduser("~")
    return None if home.startswith("~") else Path(home) / ".cache" / "warbench"


def compute() -> Catalogue:
    """The catalogue from the rulesets themselves (imports and validates everything)."""
    from warbench.core.loader import list_scenarios, load_scenario

    rulesets = tuple(
        RulesetRow(r.info.name, r.info.aliases, r.info.version, r.info.geometry, r.info.title)
        for r in registry.all_rulesets()
    )
    scenarios = []
    for found in list_scenarios():
        scenario = load_scenario(found.id)
        goal = tuple(registry.get(scenario.ruleset).goal(scenario))
        scenarios.append(ScenarioRow(found.id, found.ruleset, found.title, goal))
    return Catalogue(rulesets, tuple(scenarios))


def _read(path: Path, key: str) -> Catalogue | None:
    try:
        data: dict[str, Any] = json.loads(path.read_text("utf-8"))
        if data.get("fingerprint") != key:
            return None
        return Catalogue(
            tuple(
                RulesetRow(r["name"], tuple(r["aliases"]), r["version"], r["geometry"], r["title"])
                for r in data["rulesets"]
            ),
            tuple(
                ScenarioRow(s["id"], s["ruleset"], s["title"], tuple(s["goal"]))
                for s in data["scenarios"]
            ),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write(path: Path, key: str, catalogue: Catalogue) -> None:
    data = {
        "fingerprint": key,
        "rulesets": [asdict(r) for r in catalogue.rulesets],
        "scenarios": [asdict(s) for s in catalogue.scenarios],
    }
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=".catalogue-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out)
            os.replace(name, path)  # whole or not at all, whoever else writes it
        except OSError:
            Path(name).unlink(missing_ok=True)


_current: Catalogue | None = None


def catalogue() -> Catalogue:
    """The catalogue: from the cache when its fingerprint is current, else computed
    (and cached). Computed once a process."""
    global _current
    if _current is None:
        folder = cache_folder()
        if folder is None:
            _current = compute()
        else:
            key = fingerprint()
            path = folder / "catalogue.json"
            _current = _read(path, key)
            if _current is None:
                _current = compute()
                _write(path, key, _current)
    return _current


def ruleset_rows() -> list[RulesetRow]:
    """Every ruleset by name: the built-in ones, and any registered in this process."""
    rows = {row.name: row for row in catalogue().rulesets}
    for ruleset in registry.registered():
        info = ruleset.info
        rows[info.name] = RulesetRow(
            info.name, info.aliases, info.version, info.geometry, info.title
        )
    return [rows[name] for name in sorted(rows)]


def scenario_rows() -> list[ScenarioRow]:
    """Every built-in scenario, in the order of ``loader.builtin_scenarios``."""
    return list(catalogue().scenarios)
