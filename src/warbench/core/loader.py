"""Find and validate scenarios (built-in ids or paths on disk) through the registry.

A built-in scenario is named ``<ruleset>/<name>`` and lives in that ruleset's
``scenarios/`` folder. Anything else is read as a path. Reading and parsing the
file is :mod:`warbench.scenario.files`; the ruleset named in it validates the
rest. This lives in core because it needs the registry: the ``scenario``
package (schemas and helpers the rulesets use) never imports core. Errors never escape as
tracebacks: bad TOML, an unknown ruleset or a schema problem all become a
:class:`~warbench.errors.ScenarioError` naming the file and field.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from warbench.core import registry
from warbench.errors import ScenarioError, UnknownRuleset, UnknownScenario, excerpt
from warbench.scenario.files import parse_toml, read_scenario_file
from warbench.scenario.model import Scenario


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    """A line of the scenario list."""

    id: str
    ruleset: str
    title: str


def _scenario_folder(ruleset_name: str) -> Traversable | None:
    """The ``scenarios/`` folder beside the ruleset's module, if it has a package."""
    ruleset = registry.get(ruleset_name)
    package = type(ruleset).__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        return resources.files(package) / "scenarios"
    except (ModuleNotFoundError, ValueError):
        return None


def builtin_scenarios() -> dict[str, Traversable]:
    """Every built-in scenario id with its file."""
    found: dict[str, Traversable] = {}
    for ruleset in registry.all_rulesets():
        folder = _scenario_folder(ruleset.info.name)
        if folder is None or not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".toml"):
                found[f"{ruleset.info.name}/{entry.name.removesuffix('.toml')}"] = entry
    return found


CALIBRATION_NAME = "arena"
"""A built-in scenario named ``arena`` is a ruleset's calibration arena (mirrored forces
for ``warbench calibrate``): playable, but not a story to play first."""


def is_calibration(scenario_id: str) -> bool:
    """Whether ``scenario_id`` names a calibration arena (``RULESET/arena``)."""
    return scenario_id.rpartition("/")[2] == CALIBRATION_NAME


def list_scenarios() -> list[ScenarioInfo]:
    """Id, ruleset and title of every built-in scenario."""
    return [
        ScenarioInfo(s.id, s.ruleset, s.title)
        for s in (load_scenario(sid) for sid in builtin_scenarios())
    ]


def _builtin_named(ref: str) -> Traversable | None:
    """The file of built-in scenario ``ref``, importing only the ruleset its prefix names.

    None when the prefix is not a ruleset's own name or its folder has no such
    file (an alias is not a scenario prefix: ids use the ruleset's name).
    """
    prefix, slash, stem = ref.partition("/")
    if (
        not slash
        or not stem
        or "/" in stem
        or prefix.replace("-", "_") not in (registry.builtin_packages())
    ):
        return None
    try:
        ruleset = registry.get(prefix)
    except UnknownRuleset:
        return None
    if ruleset.info.name != prefix:
        return None
    folder = _scenario_folder(prefix)
    if folder is None:
        return None
    entry = folder / f"{stem}.toml"
    return entry if entry.is_file() else None


def with_options(scenario: Scenario, given: Mapping[str, str]) -> Scenario:
    """``scenario`` with options set (``{"measuring": "free"}``): what players choose
    before a game where the text leaves it to them (``play --option``, the lobby, the
    API). Values are written as in a scenario file; each is checked against the
    options the ruleset offers (``Ruleset.scenario_options``), then the whole scenario
    is built again, so a bad value is refused as a bad file would be."""
    if not given:
        return scenario
    offered = {o["key"]: o for o in registry.get(scenario.ruleset).scenario_options(scenario)}
    raw = copy.deepcopy(dict(scenario.raw))
    options = dict(raw.get("options") or {})
    for key, text in given.items():
        option = offered.get(key)
        if option is None:
            names = ", ".join(offered) or "none"
            problem = f"no option '{excerpt(key, 60)}' (options: {names})"
            raise ScenarioError(scenario.source, "options", problem)
        text = str(text).strip()
        if text not in option["choices"] and not option["open"]:
            values = " or ".join(option["choices"])
            problem = f"{values}, not '{excerpt(text, 60)}'"
            raise ScenarioError(scenario.source, f"options.{key}", problem)
        options[key] = _option_value(text)
    raw["options"] = options
    return scenario_from_dict(raw, scenario.source, scenario.id)


def _option_value(text: str) -> Any:
    """A value as a scenario file would hold it: true/false, unset, a number, or text."""
    words = {"true": True, "false": False, "unset": None}
    if text in words:
        return words[text]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` words (``--option measuring=free``) as a mapping."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ScenarioError("--option", excerpt(pair, 60), "write KEY=VALUE (measuring=free)")
        out[key.strip()] = value.strip()
    return out


def load_scenario(ref: str) -> Scenario:
    """Load a built-in scenario by id, or a scenario file by path.

    A built-in id imports only its ruleset (``miniwars/danville`` loads
    MiniWars alone); a file loads the ruleset it names. Only an id that is
    neither (an error, or a ruleset whose package is named otherwise) looks
    through every ruleset's scenarios.
    """
    entry = _builtin_named(ref)
    if entry is not None:
        return scenario_from_dict(parse_toml(entry.read_text("utf-8"), ref), ref, ref)
    path = Path(ref)
    if path.is_file():
        return scenario_from_dict(read_scenario_file(path, ref), ref, path.stem)
    builtins = builtin_scenarios()
    if ref in builtins:
        entry = builtins[ref]
        return scenario_from_dict(parse_toml(entry.read_text("utf-8"), ref), ref, ref)
    known = ", ".join(builtins) or "none"
    raise UnknownScenario(
        f"no scenario '{excerpt(ref, 200)}': not a built-in id nor a file; "
        f"built-in scenarios: {known}"
    )


def scenario_from_dict(raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
    """Validate an already parsed scenario (from a file or a record)."""
    if not isinstance(raw, Mapping):
        raise ScenarioError(source, "", "a scenario is a table of fields")
    name = raw.get("ruleset")
    if name is None:
        raise ScenarioError(source, "ruleset", "required field is missing (a ruleset name)")
    if not isinstance(name, str):
        raise ScenarioError(source, "ruleset", "should be a ruleset name in quotes (text)")
    try:
        ruleset = registry.get(name)
    except UnknownRuleset as exc:
        raise ScenarioError(source, "ruleset", str(exc)) from None
    return ruleset.build_scenario(raw, source, scenario_id)
