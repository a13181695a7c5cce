"""Scenario scaffolding the hex rulesets share: a unit as placed, a unit type looked
up by key, and the :class:`~warbench.scenario.model.Scenario` a set-up makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.hexgrid import Hex
from warbench.scenario.errors import listing
from warbench.scenario.model import Scenario

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Placement(Generic[T]):
    """A unit as the scenario places it: its id, side, type and hex."""

    id: str
    side: str
    type: T
    at: Hex


def known_type(types: Mapping[str, T], key: str, file: str, path: str) -> T:
    """The unit type ``key`` of the unit at ``path`` (``forces.<side>[i]``), or the error."""
    if key not in types:
        listed = listing(types)
        raise ScenarioError(
            file, f"{path}.type", f"unknown unit type '{excerpt(key)}'; known: {listed}"
        )
    return types[key]


def made(
    ruleset: str,
    raw: Mapping[str, Any],
    file: str,
    scenario_id: str,
    title: str,
    setup: Any,
    options: dict[str, Any],
) -> Scenario:
    """The scenario of a validated ``setup`` (with ``sides`` and ``turn_limit``)."""
    return Scenario(
        id=scenario_id,
        title=title,
        ruleset=ruleset,
        source=file,
        raw=raw,
        sides=setup.sides,
        turn_limit=setup.turn_limit,
        options=options,
        spec=setup,
    )
