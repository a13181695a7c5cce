"""The registry: rulesets registered by name and aliases, looked up by name (STYLE item 6)."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from warbench.core import registry
from warbench.core.loader import scenario_from_dict
from warbench.core.ruleset import RulesetInfo
from warbench.errors import UnknownRuleset, WarbenchError
from warbench.rulesets.miniwars import MiniWars


@pytest.fixture
def restore_registry() -> Iterator[None]:
    """Whatever a test registers (or half-registers) is gone afterwards."""
    registry.all_rulesets()
    rulesets, aliases = dict(registry._rulesets), dict(registry._aliases)
    try:
        yield
    finally:
        registry._rulesets.clear()
        registry._rulesets.update(rulesets)
        registry._aliases.clear()
        registry._aliases.update(aliases)


def _variant(name: str, *aliases: str) -> MiniWars:
    """A MiniWars under another name: the smallest ruleset that can be registered."""
    info = RulesetInfo(name=name, title=name, version="1", geometry="hex", aliases=aliases)
    return type(f"Variant_{name.replace('-', '_')}", (MiniWars,), {"info": info})()


def test_miniwars_is_registered_under_its_name() -> None:
    ruleset = registry.get("miniwars")
    assert ruleset.info.name == "miniwars"
    assert ruleset in registry.all_rulesets()


@pytest.mark.parametrize("alias", ["mw", "mini-wars", "MiniWars", "MW"])
def test_a_ruleset_is_found_by_any_alias_in_any_case(alias: str) -> None:
    assert registry.get(alias) is registry.get("miniwars")


def test_an_unknown_name_is_refused_listing_the_known_names() -> None:
    with pytest.raises(UnknownRuleset, match="unknown ruleset 'chess'") as caught:
        registry.get("chess")
    assert "known rulesets: " in str(caught.value)
    for ruleset in registry.all_rulesets():
        assert ruleset.info.name in str(caught.value)
    assert isinstance(caught.value, WarbenchError)
    assert isinstance(caught.value, LookupError)


def test_all_rulesets_are_listed_once_in_name_order() -> None:
    names = [r.info.name for r in registry.all_rulesets()]
    assert names == sorted(set(names))


def test_a_registered_ruleset_is_found_by_name_and_alias(restore_registry: None) -> None:
    variant = registry.register(_variant("variant-one", "v1"))
    assert registry.get("variant-one") is variant
    assert registry.get("V1") is variant
    assert variant in registry.all_rulesets()


def test_registering_a_name_another_ruleset_holds_is_refused(restore_registry: None) -> None:
    with pytest.raises(ValueError, match="'mw' is taken by 'miniwars'"):
        registry.register(_variant("variant-two", "mw"))
    assert registry.get("mw").info.name == "miniwars"


def test_a_refused_registration_leaves_the_registry_unchanged(restore_registry: None) -> None:
    aliases = dict(registry._aliases)
    with pytest.raises(ValueError):
        registry.register(_variant("variant-three", "v3", "mw"))
    assert registry._aliases == aliases
    with pytest.raises(UnknownRuleset):
        registry.get("variant-three")


def test_registering_the_same_ruleset_again_is_harmless(restore_registry: None) -> None:
    variant = _variant("variant-four", "v4")
    registry.register(variant)
    registry.register(variant)
    assert [r for r in registry.all_rulesets() if r is variant] == [variant]


def test_the_toy_ruleset_is_registered_for_a_test_that_asks_for_it(duel: ModuleType) -> None:
    ruleset = registry.get(duel.ALIAS)
    assert ruleset.info.name == duel.NAME
    scenario = scenario_from_dict({"ruleset": duel.ALIAS, "sides": ["x", "y"]}, "raw", "raw")
    assert scenario.sides == ("x", "y")


def test_the_toy_ruleset_is_not_registered_for_other_tests() -> None:
    import sys

    if "warbench_tests_toy_ruleset" not in sys.modules:
        pytest.skip("the toy was never loaded in this run")
    with pytest.raises(UnknownRuleset):
        registry.get("test-duel")
    assert "test-duel" not in [r.info.name for r in registry.all_rulesets()]
