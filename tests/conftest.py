"""Shared fixtures: the test-only "duel" ruleset (``core/toy_ruleset.py``), registered per test.

The tests run with ``--import-mode=importlib``, so test modules cannot import
``toy_ruleset.py`` by name; it is loaded from its file here and handed out as a
fixture. Registration lasts one test: at teardown the toy is taken out of the
registry again, so tests that list every registered ruleset (the conformance
tests) never meet it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from warbench.core import registry
from warbench.core.odds import OddsQuery

# Hypothesis draws the same examples on every run of ``make test`` (CI must not
# fail on the luck of the draw); ``WARBENCH_HYPOTHESIS=explore`` draws new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("WARBENCH_HYPOTHESIS", "ci"))

# The catalogue cache (``warbench.core.catalogue``) is not written under the home
# folder by tests; those of the cache give it a folder of their own.
os.environ.setdefault("WARBENCH_CACHE", "")

_MODULE_NAME = "warbench_tests_toy_ruleset"


def _load_toy() -> ModuleType:
    module = sys.modules.get(_MODULE_NAME)
    if module is None:
        path = Path(__file__).parent / "core" / "toy_ruleset.py"
        spec = importlib.util.spec_from_file_location(_MODULE_NAME, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[_MODULE_NAME] = module
        spec.loader.exec_module(module)
    return module


@pytest.fixture
def duel() -> Iterator[ModuleType]:
    """The toy module (``duel.scenario()``, ``duel.Throw``, ...), its ruleset registered."""
    toy = _load_toy()
    registry.all_rulesets()  # load the built-in rulesets first, as any caller would
    ruleset = toy.Duel()
    registry.register(ruleset)
    try:
        yield toy
    finally:
        info = ruleset.info
        registry._rulesets.pop(info.name, None)
        for name in (info.name, *info.aliases):
            if registry._aliases.get(name) == info.name:
                del registry._aliases[name]


def _check_odds_queries(queries: Mapping[str, OddsQuery]) -> None:
    """Every query answers its defaults with probabilities summing to one, as JSON, and
    every key's default written out as text parses back to itself."""
    for name, query in queries.items():
        assert query.name == name
        result = query([])
        assert sum(result.outcomes.values()) == 1
        assert all(0 <= p <= 1 for p in (*result.outcomes.values(), *result.extra.values()))
        json.dumps(result.to_json())
        texts = [f"{key.name}={key.default}" for key in query.keys]
        assert query.parse_args(texts) == query.parse_args([])
        assert all(key.describe().startswith(key.name) for key in query.keys)


@pytest.fixture
def check_odds_queries() -> Callable[[Mapping[str, OddsQuery]], None]:
    """The checks every ruleset's odds queries must pass (shared by the conformance
    suite and rulesets not registered yet)."""
    return _check_odds_queries
