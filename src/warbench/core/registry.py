"""Rulesets registered by name (with aliases), looked up by name.

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


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        # Every package under warbench.rulesets registers itself on import, so
        # adding a ruleset needs no change here.
        for module in pkgutil.iter_modules(warbench.rulesets.__path__):
            if module.ispkg:
                importlib.import_module(f"warbench.rulesets.{module.name}")


def get(name: str) -> Ruleset[Any]:
    """The ruleset called ``name`` (or an alias); the error lists the known names."""
    _load_builtins()
    key = _aliases.get(name.lower())
    if key is None:
        known = ", ".join(sorted(_rulesets))
        raise UnknownRuleset(f"unknown ruleset '{excerpt(name)}'; known rulesets: {known}")
    return _rulesets[key]


def all_rulesets() -> list[Ruleset[Any]]:
    """Every registered ruleset, by name."""
    _load_builtins()
    return [_rulesets[name] for name in sorted(_rulesets)]
