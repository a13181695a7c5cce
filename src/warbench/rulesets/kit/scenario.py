"""Scenario scaffolding the hex rulesets share: a unit as placed, a unit type looked
up by key, and the :class:`~warbench.scenario.model.Scenario` a set-up makes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.hexgrid import Hex, HexGrid
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


def zone(
    grid: HexGrid,
    hexes: Sequence[str] | None,
    edge: str | None,
    within: int,
    file: str,
    path: str,
    key: str = "hexes",
) -> frozenset[Hex]:
    """The hexes within ``within`` of the listed ``hexes`` (labels; ``key`` names the
    list in the file) or of a map ``edge`` (its own row or column counts as 0)."""
    if (hexes is None) == (edge is None):
        named = "'hexes'" if key == "hexes" else f"'{key}' (hexes)"
        raise ScenarioError(file, path, f"give exactly one of {named} or 'edge'")
    if hexes is not None:
        centres = []
        for i, label in enumerate(hexes):
            try:
                centres.append(grid.parse(label))
            except ValueError as exc:  # a HexError
                raise ScenarioError(file, f"{path}.{key}[{i}]", str(exc)) from None
        if not centres:
            raise ScenarioError(file, f"{path}.{key}", "list at least one hex")
        return frozenset(h for h in grid.hexes if min(h.distance(c) for c in centres) <= within)

    def edge_distance(h: Hex) -> int:
        column, row = h.to_offset()
        distances = {
            "west": column - 1,
            "east": grid.columns - column,
            "north": row - 1,
            "south": grid.rows - row,
        }
        return distances[edge or "west"]

    return frozenset(h for h in grid.hexes if edge_distance(h) <= within)


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
    sides, turn_limit = setup.sides, setup.turn_limit
    return Scenario(scenario_id, title, ruleset, file, raw, sides, turn_limit, options, setup)
