"""MiniWars scenario files: schema, checks, and the validated set-up.

Besides the common header (``ruleset``, ``title``, ``turn_limit``) and the
``[map]`` table, a MiniWars scenario has ``[[sides]]`` with deployment zones,
optional ``[unit_types.<key>]`` beyond the catalogue, ``[[forces.<side>]]``
with one table per unit (``id``, ``type``, ``at``), ``[options]`` for the
rulings with two readings, and ``[victory]``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, ValidationError

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.kit import scenario as kit
from warbench.rulesets.miniwars.board import Board
from warbench.rulesets.miniwars.data import UnitType, catalogue, charts, unit_type
from warbench.scenario.errors import from_validation
from warbench.scenario.hexmap import MAX_MAP_SIZE, HexMapSpec, build_hexmap, check_unit_count
from warbench.scenario.model import Scenario
from warbench.scenario.schema import MAX_POINTS, Description, Key, Label, ScenarioModel, Title
from warbench.scenario.sides import check_sides

Edge = Literal["north", "south", "east", "west"]
DEFAULT_TURN_LIMIT = 50
"""Ruling 11: the text has no turn limit; this safeguard ends the rare game that
would otherwise not end (see docs/rules/miniwars.md for how often it decides)."""
AT_TURN_LIMIT_RULES = ("units", "points", "draw")
"""[victory] at_turn_limit readings besides a side's name (ruling 11)."""


class _Strict(ScenarioModel):
    pass


class UnitTypeSpec(_Strict):
    name: Label | None = None
    move: int = Field(ge=1, le=20)
    cavalry: bool = False
    cs: int = Field(ge=1, le=5)
    missile: Literal["", "A", "B", "C", "D", "E"] = ""
    morale: Literal["+", "=", "-", "!"]
    cost: int = Field(ge=0, le=MAX_POINTS)


class UnitSpec(_Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,11}$")
    type: Key
    at: str


class DeploySpec(_Strict):
    within: int = Field(ge=0, le=2 * MAX_MAP_SIZE)
    of: list[str] | None = Field(default=None, min_length=1)
    edge: Edge | None = None


class SideSpec(_Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,23}$")
    title: Label | None = None
    deploy: DeploySpec | None = None


class OptionsSpec(_Strict):
    fired_units: Literal["no_melee", "free", "hold"] = "free"
    hold_and_melee: bool = True
    hedgerow: Literal["as_printed", "swapped"] = "as_printed"
    los_along_edge: Literal["both", "either"] = "either"
    first_initiative_tie: Literal["reroll", "first_side"] = "reroll"


class VictorySpec(_Strict):
    at_turn_limit: Key = "units"


class ScenarioSpec(_Strict):
    ruleset: str
    title: Title
    description: Description = ""
    turn_limit: int = Field(default=DEFAULT_TURN_LIMIT, ge=1, le=200)
    map: HexMapSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    unit_types: dict[Key, UnitTypeSpec] = Field(default_factory=dict)
    forces: dict[str, list[UnitSpec]]
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    victory: VictorySpec = Field(default_factory=VictorySpec)


class Placement(kit.Placement[UnitType]):
    """A unit as the scenario places it."""


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything a MiniWars game needs from its scenario, validated."""

    board: Board
    sides: tuple[str, ...]
    titles: Mapping[str, str]
    units: tuple[Placement, ...]
    options: OptionsSpec
    at_turn_limit: str
    turn_limit: int
    deploy_zones: Mapping[str, frozenset[Hex]]


def _zone(deploy: DeploySpec, board: Board, file: str, path: str) -> frozenset[Hex]:
    grid = board.map.grid
    return kit.zone(grid, deploy.of, deploy.edge, deploy.within, file, path, key="of")


_BOARDS: dict[str, Board] = {}
"""Boards by their map and options, the last few: a board is read-only once built and
its caches (sight, fire lanes) are the slow part, so scenarios on one map share it (a
calibration recasts the forces of one map thousands of times)."""
_BOARDS_KEPT = 8


def _board(spec: ScenarioSpec, file: str) -> Board:
    key = json.dumps(
        [spec.map.model_dump(mode="json"), spec.options.hedgerow, spec.options.los_along_edge],
        sort_keys=True,
    )
    board = _BOARDS.get(key)
    if board is None:
        rule_charts = charts(spec.options.hedgerow)
        hexmap = build_hexmap(spec.map, file, rule_charts.terrain, rule_charts.hexsides)
        board = Board(hexmap, rule_charts, spec.options.los_along_edge)
        if len(_BOARDS) >= _BOARDS_KEPT:
            del _BOARDS[next(iter(_BOARDS))]
        _BOARDS[key] = board
    return board


def build_setup(raw: Mapping[str, Any], file: str) -> tuple[ScenarioSpec, Setup]:
    """Validate a MiniWars scenario and build its set-up; ScenarioError on any problem."""
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(file, exc) from None
    check_unit_count(file, sum(len(units) for units in spec.forces.values()))
    board = _board(spec, file)
    names = [side.name for side in spec.sides]
    check_sides(file, names, spec.forces)
    types = dict(catalogue())
    for key, t in spec.unit_types.items():
        types[key] = unit_type(key, t.model_dump())
    limit = spec.victory.at_turn_limit
    if limit not in (*AT_TURN_LIMIT_RULES, *names):
        raise ScenarioError(
            file,
            "victory.at_turn_limit",
            f"'{excerpt(limit)}' is not points, draw or a side ({', '.join(names)}), "
            "or units (the default)",
        )
    zones = {
        side.name: _zone(side.deploy, board, file, f"sides[{i}].deploy")
        for i, side in enumerate(spec.sides)
        if side.deploy is not None
    }
    placements: list[Placement] = []
    seen_ids: dict[str, str] = {}
    occupied: dict[Hex, Placement] = {}
    for side in names:
        for i, unit in enumerate(spec.forces[side]):
            path = f"forces.{side}[{i}]"
            kind = kit.known_type(types, unit.type, file, path)
            if unit.id.lower() in seen_ids:
                raise ScenarioError(
                    file,
                    f"{path}.id",
                    f"duplicate unit id '{unit.id}' (also in {seen_ids[unit.id.lower()]})",
                )
            seen_ids[unit.id.lower()] = path
            try:
                at = board.map.grid.parse(unit.at)
            except ValueError as exc:
                raise ScenarioError(file, f"{path}.at", str(exc)) from None
            if not board.terrain_allows(at, kind.move_class):
                raise ScenarioError(
                    file,
                    f"{path}.at",
                    f"{kind.move_class} cannot stand in {board.map.terrain_at(at)} at {unit.at}",
                )
            if at in occupied:
                other = occupied[at]
                what = "two units of opposing sides" if other.side != side else "two units"
                raise ScenarioError(
                    file, f"{path}.at", f"{what} in hex {unit.at} ({other.id} and {unit.id})"
                )
            if side in zones and at not in zones[side]:
                raise ScenarioError(
                    file, f"{path}.at", f"hex {unit.at} is outside {side}'s deployment zone"
                )
            placement = Placement(unit.id, side, kind, at)
            occupied[at] = placement
            placements.append(placement)
    setup = Setup(
        board=board,
        sides=tuple(names),
        titles={s.name: s.title or s.name for s in spec.sides},
        units=tuple(placements),
        options=spec.options,
        at_turn_limit=limit,
        turn_limit=spec.turn_limit,
        deploy_zones={k: v for k, v in zones.items()},
    )
    return spec, setup


def build_scenario(raw: Mapping[str, Any], file: str, scenario_id: str) -> Scenario:
    spec, setup = build_setup(raw, file)
    options = spec.options.model_dump()
    return kit.made("miniwars", raw, file, scenario_id, spec.title, setup, options)
