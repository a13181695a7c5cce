"""Rulesets registered by name (with aliases), looked up by name.

Every package under :mod:`warbench.rulesets` registers itself when imported,
so adding a ruleset needs no change here. Importing every ruleset costs most
of a command's start-up (the table rulesets pull in shapely and scipy), so a
lookup by name imports only what it needs: the package named after the name
first (``invisible-enemy`` is ``warbench.rulesets.invisible_enemy``), and all
of them only when that does not register the name (an alias such as ``ie``,
or a ruleset whose package is named otherwise). Listing every ruleset imports
them all.

>>> get("miniwars").info.name
'miniwars'
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import warbench.rulesets
from warbench.core.ruleset import Ruleset
from warbench.errors import UnknownRuleset, excerpt

_rulesets: dict[str, Ruleset[Any]] = {}
_aliases: dict[str, str] = {}
_loaded = False
_packages: frozenset[str] | None = None


def register(ruleset: Ruleset[Any]) -> Ruleset[Any]:
    """Add a ruleset to the registry under its name and aliases."""
    info = ruleset.info
    names = (info.name, *info.aliases)
    for name in names:  # check every name before changing anything
        owner = _aliases.get(name)
        if owner is not None and owner != info.name:
            raise ValueError(f"ruleset name '{name}' is taken by '{owner}'")
    for name in names:
        _aliases[name] = info.name
    _rulesets[info.name] = ruleset
    return ruleset


def builtin_packages() -> frozenset[str]:
    """The names of the packages under ``warbench.rulesets`` (found on disk, not imported)."""
    global _packages
    if _packages is None:
        _packages = frozenset(
            module.name
            for module in pkgutil.iter_modules(warbench.rulesets.__path__)
            if module.ispkg
        )
    return _packages


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for package in sorted(builtin_packages()):
            importlib.import_module(f"warbench.rulesets.{package}")


def _load_named(key: str) -> None:
    """Import the package named after ``key`` if there is one, else every package."""
    package = key.replace("-", "_")
    if package in builtin_packages():
        importlib.import_module(f"warbench.rulesets.{package}")
    if key not in _aliases:
        _load_builtins()


def get(name: str) -> Ruleset[Any]:
    """The ruleset called ``name`` (or an alias); the error lists the known names."""
    key = name.lower()
    if key not in _aliases:
        _load_named(key)
    owner = _aliases.get(key)
    if owner is None:
        known = ", ".join(sorted(_rulesets))
        raise UnknownRuleset(f"unknown ruleset '{excerpt(name)}'; known rulesets: {known}")
    return _rulesets[owner]


def registered() -> list[Ruleset[Any]]:
    """The rulesets registered so far in this process (none imported for it), by name."""
    return [_rulesets[name] for name in sorted(_rulesets)]


def all_rulesets() -> list[Ruleset[Any]]:
    """Every registered ruleset, by name."""
    _load_builtins()
    return [_rulesets[name] for name in sorted(_rulesets)]
