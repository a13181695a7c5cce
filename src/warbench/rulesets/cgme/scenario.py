"""CGME scenario files: schema, checks, and the validated set-up.

Besides the common header (``ruleset``, ``title``, ``turn_limit``) and the
``[map]`` table, a CGME scenario has ``[[sides]]``, optional
``[unit_types.<key>]`` beside the world's catalogue, ``[forces]`` with one
entry per unit or counter (``id``, ``type``, ``at``; ``count`` for a counter
of several squads, ``riding`` to start aboard a carrier), ``[[buildings]]``
where the world has them, ``[options]`` (which ones depend on the world) and
``[victory]`` (what the turn limit decides, and objectives).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, ValidationError

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.hexgrid import Hex, HexError, HexGrid
from warbench.rulesets.cgme.board import Board
from warbench.rulesets.cgme.data import (
    Crossing,
    SpilloverHits,
    UnitType,
    Unstated,
    World,
    load_world,
    unit_type,
)
from warbench.rulesets.kit import scenario as kit
from warbench.scenario.errors import field_path, from_validation, problem_of
from warbench.scenario.hexmap import (
    MAX_MAP_SIZE,
    MAX_UNITS,
    HexMapSpec,
    build_hexmap,
    check_unit_count,
)
from warbench.scenario.model import Scenario
from warbench.scenario.schema import MAX_POINTS, Description, Key, Label, ScenarioModel, Title
from warbench.scenario.sides import check_sides

Edge = Literal["north", "south", "east", "west"]
Rating = Annotated[int, Field(ge=0, le=30)]
Value = Annotated[int, Field(ge=0, le=MAX_POINTS)]


def _attack_rating(value: object) -> int | str:
    if value in ("x", "X") or (
        isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 30
    ):
        return value
    raise ValueError("an ATT rating is a whole number from 0 to 30, or x")


AttackRating = Annotated[int | Literal["x", "X"], PlainValidator(_attack_rating)]


class Strict(ScenarioModel):
    pass


class UnitTypeSpec(Strict):
    name: Label | None = None
    att: AttackRating
    rng: Rating = 0
    dfn: Rating = Field(alias="def")
    mov: Rating
    move_class: Key = Field(alias="class")
    value: Value | None = None
    stack_parts: int | None = Field(default=None, ge=0, le=30)
    capacity: int = Field(default=0, ge=0, le=20)
    riders_attack: bool = False
    road_only: bool = False
    road_bonus: bool = True
    move_or_shoot: bool = False
    note: Label = ""


class UnitSpec(Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,10}$")
    type: Key
    at: str | None = None
    count: int = Field(default=1, ge=1, le=26)
    riding: Key | None = None
    wounded: bool = False


class BuildingSpec(Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,11}$")
    side: Key
    at: str
    dfn: Rating = Field(alias="def")
    sp: int = Field(ge=1, le=999)
    value: Value | None = None


class SideSpec(Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,23}$")
    title: Label | None = None


class ZoneSpec(Strict):
    hexes: list[str] | None = None
    edge: Edge | None = None
    within: int = Field(default=0, ge=0, le=2 * MAX_MAP_SIZE)


class ObjectiveSpec(Strict):
    side: Key
    destroy: list[Key] | None = None
    reach: ZoneSpec | None = None
    count: int = Field(default=1, ge=1, le=MAX_UNITS)


class VictorySpec(Strict):
    at_turn_limit: Key = "points"
    objectives: list[ObjectiveSpec] = Field(default_factory=list)


class CoreOptionsSpec(Strict):
    """Options of the bare core (a world may add its own: V.E.G.'s ``VegOptionsSpec``)."""

    combined_attacks: bool | None = None

    def options(self, world: World) -> Options:
        combined = world.core.combined if self.combined_attacks is None else self.combined_attacks
        return Options(combined_attacks=combined, stacking_limit=world.stacking_limit)


class ScenarioSpec(Strict):
    ruleset: str
    title: Title
    description: Description = ""
    turn_limit: int = Field(default=10, ge=1, le=200)
    map: HexMapSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    unit_types: dict[Key, UnitTypeSpec] = Field(default_factory=dict)
    forces: dict[str, list[UnitSpec]]
    buildings: list[BuildingSpec] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    victory: VictorySpec = Field(default_factory=VictorySpec)


@dataclass(frozen=True, slots=True)
class Options:
    """Every ruling and optional rule the engine reads, whatever the world.

    A world's options schema decides which of them a scenario may set; the
    rest keep these defaults (the bare core has no stacking, no attacks during
    movement, and so on).
    """

    combined_attacks: bool = True
    stacking_limit: int | None = None
    attack_during_movement: bool = False
    building_damage: Literal["att", "margin"] = "att"
    move_or_shoot: bool = False
    spillover_hits: SpilloverHits = "all"
    hexside_crossing: Crossing = "beyond_step"
    unstated_terrain: Unstated = "borrow"


DEFAULT_OPTIONS = Options()
"""The options a scenario does not set (a world's schema gives its own defaults from it)."""


@dataclass(frozen=True, slots=True)
class Placement(kit.Placement[UnitType]):
    riding: str | None = None
    wounded: bool = False


@dataclass(frozen=True, slots=True)
class BuildingPlacement:
    id: str
    side: str
    at: Hex
    dfn: int
    sp: int
    value: int


@dataclass(frozen=True, slots=True)
class Objective:
    """A side wins at once when the targets are all destroyed, or when ``count``
    of its units stand in ``zone`` at the end of its player turn."""

    side: str
    kind: Literal["destroy", "reach"]
    targets: tuple[str, ...] = ()
    zone: frozenset[Hex] = frozenset()
    count: int = 1

    def describe(self) -> str:
        if self.kind == "destroy":
            return f"{self.side} wins by destroying {', '.join(self.targets)}"
        return f"{self.side} wins with {self.count} unit(s) in its objective zone"


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything a CGME game needs from its scenario, validated."""

    world: World
    board: Board
    sides: tuple[str, ...]
    titles: Mapping[str, str]
    units: tuple[Placement, ...]
    buildings: tuple[BuildingPlacement, ...]
    options: Options
    turn_limit: int
    at_turn_limit: str
    objectives: tuple[Objective, ...]
    types: Mapping[str, UnitType] = field(default_factory=dict)
    """The world's unit types and the scenario's own, by key."""

    @property
    def parts_limit(self) -> int | None:
        """The stacking limit in parts (V.E.G.: thirds of a squad), or None."""
        limit = self.options.stacking_limit
        return None if limit is None else limit * self.world.parts_per_unit


def _options(
    raw: Mapping[str, Any], model: type[CoreOptionsSpec], world: World, file: str
) -> Options:
    try:
        spec = model.model_validate(raw)
    except ValidationError as exc:
        item = exc.errors(include_url=False)[0]
        loc = item["loc"][:1]  # options are flat; deeper parts name union branches
        message = problem_of(item)
        if item["type"] == "extra_forbidden":
            known = ", ".join(model.model_fields)
            message = f"unknown option (check the spelling); options of {world.name}: {known}"
        raise ScenarioError(file, field_path(("options", *loc)), message) from None
    return spec.options(world)


def _zone(spec: ZoneSpec, grid: HexGrid, file: str, path: str) -> frozenset[Hex]:
    return kit.zone(grid, spec.hexes, spec.edge, spec.within, file, path)


def _unit_types(spec: ScenarioSpec, world: World, file: str) -> dict[str, UnitType]:
    types = dict(world.units)
    for key, t in spec.unit_types.items():
        path = f"unit_types.{key}"
        if t.move_class not in world.classes:
            raise ScenarioError(
                file,
                f"{path}.class",
                f"unknown movement class '{excerpt(t.move_class)}'; "
                f"classes: {', '.join(world.classes)}",
            )
        if t.capacity and world.rider_class is None:
            raise ScenarioError(file, f"{path}.capacity", f"{world.name} has no transport")
        if t.stack_parts is not None and world.stacking_limit is None:
            raise ScenarioError(file, f"{path}.stack_parts", f"{world.name} has no stacking")
        row = t.model_dump(by_alias=True, exclude_none=True)
        types[key] = unit_type(key, row, world.parts_per_unit)
    return types


def build_setup(
    raw: Mapping[str, Any],
    file: str,
    world_package: str,
    options_model: type[CoreOptionsSpec],
) -> tuple[ScenarioSpec, Setup]:
    """Validate a scenario of a CGME world and build its set-up; ScenarioError on any problem."""
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(file, exc) from None
    check_unit_count(file, sum(unit.count for units in spec.forces.values() for unit in units))
    base_world = load_world(world_package)
    options = _options(spec.options, options_model, base_world, file)
    world = load_world(world_package, options.unstated_terrain)
    hexmap = build_hexmap(spec.map, file, world.terrain, world.hexsides)
    board = Board(hexmap, world, options.hexside_crossing)
    grid = hexmap.grid
    names = [side.name for side in spec.sides]
    check_sides(file, names, spec.forces)
    types = _unit_types(spec, world, file)
    limit = spec.victory.at_turn_limit
    if limit not in ("points", "draw", *names):
        raise ScenarioError(
            file,
            "victory.at_turn_limit",
            f"'{excerpt(limit)}' is not points, draw or a side ({', '.join(names)})",
        )

    def hex_at(label: str, path: str) -> Hex:
        try:
            return grid.parse(label)
        except HexError as exc:
            raise ScenarioError(file, path, str(exc)) from None

    seen: dict[str, str] = {}

    def claim(uid: str, path: str) -> None:
        if uid.lower() in seen:
            raise ScenarioError(file, path, f"duplicate id '{uid}' (also in {seen[uid.lower()]})")
        seen[uid.lower()] = path

    placements: list[Placement] = []
    paths: dict[str, str] = {}
    given_at: dict[str, str | None] = {}
    for side in names:
        for i, unit in enumerate(spec.forces[side]):
            path = f"forces.{side}[{i}]"
            kind = kit.known_type(types, unit.type, file, path)
            if unit.at is None and unit.riding is None:
                raise ScenarioError(file, f"{path}.at", "required field is missing")
            ids = (
                [unit.id]
                if unit.count == 1
                else [f"{unit.id}{chr(ord('a') + k)}" for k in range(unit.count)]
            )
            at = hex_at(unit.at, f"{path}.at") if unit.at is not None else Hex(0, 0)
            for uid in ids:
                claim(uid, f"{path}.id")
                paths[uid] = path
                given_at[uid] = unit.at
                placements.append(Placement(uid, side, kind, at, unit.riding, unit.wounded))
    by_id = {p.id.lower(): p for p in placements}
    resolved: list[Placement] = []
    load: dict[str, int] = {}
    for p in placements:
        path = paths[p.id]
        if p.riding is None:
            resolved.append(p)
            continue
        carrier = by_id.get(p.riding.lower())
        if carrier is None or carrier.side != p.side:
            raise ScenarioError(
                file,
                f"{path}.riding",
                f"no carrier '{excerpt(p.riding)}' among {p.side}'s units",
            )
        if carrier.riding is not None:
            raise ScenarioError(file, f"{path}.riding", f"{carrier.id} is itself riding")
        if world.rider_class is None or p.type.move_class != world.rider_class:
            raise ScenarioError(file, f"{path}.riding", f"{p.type.name} cannot ride in a carrier")
        if given_at[p.id] is not None and p.at != carrier.at:
            raise ScenarioError(
                file, f"{path}.at", f"a rider stands where its carrier {carrier.id} is"
            )
        load[carrier.id] = load.get(carrier.id, 0) + p.type.parts
        if load[carrier.id] > carrier.type.capacity:
            raise ScenarioError(
                file,
                f"{path}.riding",
                f"{carrier.id} ({carrier.type.name}) cannot carry so many "
                f"(capacity {carrier.type.capacity // world.parts_per_unit} squads)",
            )
        resolved.append(Placement(p.id, p.side, p.type, carrier.at, carrier.id, p.wounded))
    parts: dict[Hex, int] = {}
    parts_limit = (
        None if options.stacking_limit is None else options.stacking_limit * world.parts_per_unit
    )
    for p in resolved:
        if p.riding is not None:
            continue
        path = paths[p.id]
        i = board.index[p.at]
        if not board.standable[p.type.move_class][i]:
            raise ScenarioError(
                file,
                f"{path}.at",
                f"{p.type.name} ({p.type.move_class}) cannot stand in "
                f"{hexmap.terrain_at(p.at)} at {p.at.label}",
            )
        if p.type.road_only and not board.on_road[i]:
            raise ScenarioError(
                file, f"{path}.at", f"{p.type.name} may only travel on roads; {p.at.label} has none"
            )
        parts[p.at] = parts.get(p.at, 0) + p.type.parts
        if parts_limit is not None and parts[p.at] > parts_limit:
            raise ScenarioError(
                file,
                f"{path}.at",
                f"hex {p.at.label} holds more than {options.stacking_limit} units (stacking)",
            )
    buildings: list[BuildingPlacement] = []
    if spec.buildings and not world.buildings:
        raise ScenarioError(file, "buildings", f"{world.name} has no buildings")
    for i, b in enumerate(spec.buildings):
        path = f"buildings[{i}]"
        claim(b.id, f"{path}.id")
        if b.side not in names:
            raise ScenarioError(
                file, f"{path}.side", f"no side '{excerpt(b.side)}'; sides: {', '.join(names)}"
            )
        at = hex_at(b.at, f"{path}.at")
        if any(o.at == at for o in buildings):
            raise ScenarioError(file, f"{path}.at", f"hex {b.at} already has a building")
        buildings.append(
            BuildingPlacement(
                b.id, b.side, at, b.dfn, b.sp, b.value if b.value is not None else b.sp
            )
        )
    objectives: list[Objective] = []
    owner = {p.id.lower(): p.side for p in resolved} | {b.id.lower(): b.side for b in buildings}
    canonical = {p.id.lower(): p.id for p in resolved} | {b.id.lower(): b.id for b in buildings}
    for i, o in enumerate(spec.victory.objectives):
        path = f"victory.objectives[{i}]"
        if o.side not in names:
            raise ScenarioError(
                file, f"{path}.side", f"no side '{excerpt(o.side)}'; sides: {', '.join(names)}"
            )
        if (o.destroy is None) == (o.reach is None):
            raise ScenarioError(file, path, "give exactly one of 'destroy' or 'reach'")
        if o.destroy is not None:
            if not o.destroy:
                raise ScenarioError(file, f"{path}.destroy", "name at least one target")
            for k, target in enumerate(o.destroy):
                if owner.get(target.lower()) in (None, o.side):
                    raise ScenarioError(
                        file,
                        f"{path}.destroy[{k}]",
                        f"'{excerpt(target)}' is not a unit or building of {o.side}'s enemy",
                    )
            targets = tuple(canonical[t.lower()] for t in o.destroy)
            objectives.append(Objective(o.side, "destroy", targets))
        else:
            assert o.reach is not None
            zone = _zone(o.reach, grid, file, f"{path}.reach")
            objectives.append(Objective(o.side, "reach", zone=zone, count=o.count))
    setup = Setup(
        world=world,
        board=board,
        sides=tuple(names),
        titles={s.name: s.title or s.name for s in spec.sides},
        units=tuple(resolved),
        buildings=tuple(buildings),
        options=options,
        turn_limit=spec.turn_limit,
        at_turn_limit=limit,
        objectives=tuple(objectives),
        types=types,
    )
    return spec, setup


def build_scenario(
    raw: Mapping[str, Any],
    file: str,
    scenario_id: str,
    ruleset: str,
    world_package: str,
    options_model: type[CoreOptionsSpec],
) -> Scenario:
    spec, setup = build_setup(raw, file, world_package, options_model)
    return kit.made(ruleset, raw, file, scenario_id, spec.title, setup, dict(spec.options))
