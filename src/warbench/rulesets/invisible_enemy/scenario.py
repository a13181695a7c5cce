"""Invisible Enemy scenario files: schema, checks, and the validated set-up.

A scenario has the common header (``ruleset``, ``title``, ``description``), the
number of ``turns``, a ``[table]`` in inches, two ``[[sides]]`` (each with its
``nation``, an optional ``tech`` level overriding the nation's, its starting
``network_dice`` (2.0; the set-up sheet that gave them is missing), Type 2
markers held at the start, and ``vector_superiority``, the optional set-up
feature of 2.0), ``[options]``, ``[[units.<side>]]`` (1.4: a unit ``id``, an
optional ``formation``, an engineer unit's ``mission`` (1.3), and its
``bases``: ``id``, ``model`` from the stats page, ``at``, ``facing``),
``[[features]]`` (terrain: a ``kind`` of the 1.5 chart and a shape; a fungus
tower also has its ``hull`` of 6 or 9 and whether it is ``live``) and
``[victory]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pydantic import Field, ValidationError

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import (
    Feature,
    Figure,
    RoundBase,
    Table,
    TableGeometryError,
    TableSpec,
    Terrain,
)
from warbench.geometry.table.serial import (
    MAX_FEATURES,
    MAX_FIGURES,
    FacingSpec,
    PointSpec,
)
from warbench.rulesets.invisible_enemy.charts import Mission, base_interval, nation_tech
from warbench.rulesets.invisible_enemy.data import (
    TerrainKind,
    VehicleModel,
    terrain_chart,
    vehicles,
)
from warbench.rulesets.kit.eye import Measuring
from warbench.scenario.errors import from_validation, listing
from warbench.scenario.model import Scenario
from warbench.scenario.schema import Description, Key, Label, ScenarioModel, Title
from warbench.scenario.sides import check_sides
from warbench.scenario.table import (
    ID_PATTERN,
    Edge,
    Ids,
    Placed,
    chart_features,
    check_edge_run,
    toward_centre,
)
from warbench.scenario.table import FeatureSpec as TableFeatureSpec

MISSIONS: Final[dict[str, Mission]] = {"repair": "R", "demolition": "E", "strike": "S"}
"""1.3: the mission an engineer unit is tasked with, and its letter on the Engineering table."""
RESERVED: Final = frozenset(
    {
        "buy",
        "barrage",
        "deflect",
        "unit",
        "pass",
        "move",
        "face",
        "done",
        "end",
        "fire",
        "rake",
        "battery",
        "destruct",
        "engineer",
        "tow",
        "none",
        "auto",
        "all",
    }
)
"""Words of the action language that may not be used as ids."""


class _Strict(ScenarioModel):
    pass


class BaseSpec(_Strict):
    """One base of a unit: id, model, where it stands and faces."""

    id: str = Field(pattern=ID_PATTERN)
    model: Key
    at: PointSpec
    facing: FacingSpec | None = None


class UnitSpec(_Strict):
    """A maneuver unit (1.4): its bases move together."""

    id: str = Field(pattern=ID_PATTERN)
    formation: Label = ""
    mission: Literal["repair", "demolition", "strike"] | None = None
    bases: list[BaseSpec] = Field(min_length=1, max_length=24)


class SideSpec(_Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,23}$")
    title: Label | None = None
    nation: Key
    tech: int | None = Field(default=None, ge=1, le=20)
    network_dice: int = Field(ge=0, le=12)
    type2: int = Field(default=0, ge=0, le=20)
    """Type 2 markers held at the start (they may be kept across turns, 2.0)."""
    vector_superiority: bool = False


class FeatureSpec(TableFeatureSpec):
    """A terrain feature: a row of the 1.5 chart and a shape (a fungus tower: its log)."""

    hull: Literal[6, 9] | None = None
    """Fungus towers only: hit points (1.5 chart note 2)."""
    live: bool = True
    """Fungus towers only: a live tower infects, a dead one is an obstacle."""


class OptionsSpec(_Strict):
    initiative_dice: Literal[1, 2] = 2
    """1.6's outline rolls 1D6 a side, 4.6 rolls 2D6 (ruling 1: 2D6 by default)."""
    unit_mates_block: bool = False
    """5.0: fire may not pass through *other* units (the text: false), or through any base,
    the firer's own unit-mates too (true, ruling 26)."""
    barrage_rolls: Literal["per_base", "per_marker"] = "per_base"
    """3.0 phase 6: one roll for each base within 3" of any marker (the text), or one
    for every marker that reaches it (ruling 12)."""
    plough_mines: bool = True
    """4.4: a demolition engineer's ``plough`` clears a lane through every low obstacle,
    minefields, encrypted surface and MEK-Lok included (true, the text); or those three
    only by the 7.0 actions (false)."""
    mixed_units: Literal["unit", "base"] = "unit"
    """5.0: a unit using a C weapon may not fire in step a, so its K and P bases fire
    with it in step b ("unit", the text); or each base by its own weapon ("base")."""
    measuring: Measuring = "eye"
    """3.0: markers by hand: other sides' bases are seen by eye
    (warbench.rulesets.kit.eye); "free" shows them exactly."""


class VictorySpec(_Strict):
    kind: Literal["clear", "breach"] = "clear"
    side: str | None = None
    """breach: the side breaking through."""
    edge: Edge | None = None
    """breach: the table edge its bases leave by."""
    count: int = Field(default=1, ge=1, le=MAX_FIGURES)
    """breach: bases that must get off the table by ``edge``."""


class ScenarioSpec(_Strict):
    ruleset: str
    title: Title
    description: Description = ""
    turns: int = Field(default=6, ge=1, le=50)
    table: TableSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    units: dict[str, list[UnitSpec]]
    features: list[FeatureSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    victory: VictorySpec = Field(default_factory=VictorySpec)


@dataclass(frozen=True, slots=True)
class Placement:
    """A base as the scenario sets it up."""

    id: str
    side: str
    unit: str
    model_key: str
    model: VehicleModel
    figure: Figure


@dataclass(frozen=True, slots=True)
class UnitSetup:
    id: str
    side: str
    formation: str
    mission: Mission | None
    bases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SideSetup:
    name: str
    title: str
    nation: str
    tech: int
    interval: float
    network_dice: int
    type2: int
    vector_superiority: bool


@dataclass(frozen=True, slots=True)
class TowerSetup:
    id: str
    hull: int
    live: bool


@dataclass(frozen=True, slots=True, eq=False)
class Setup:
    """Everything an Invisible Enemy game needs from its scenario, validated."""

    table: Table
    sides: tuple[str, str]
    side_setups: Mapping[str, SideSetup]
    units: tuple[UnitSetup, ...]
    placements: tuple[Placement, ...]
    features: tuple[Feature, ...]
    kinds: Mapping[str, TerrainKind]
    """Each feature's row of the 1.5 chart, by feature id."""
    towers: tuple[TowerSetup, ...]
    options: OptionsSpec
    victory: VictorySpec
    turns: int
    terrain: Terrain
    caches: dict[Any, Any] = field(default_factory=dict)

    @property
    def titles(self) -> Mapping[str, str]:
        return {name: s.title for name, s in self.side_setups.items()}


def feature_of(file: str, path: str, ft: FeatureSpec, kind: TerrainKind) -> Feature:
    """The geometry feature of a 1.5 chart row: 100% block stops sight and fire,
    50% block covers a base within 1" behind it and stops fire beyond (1.5 key)."""
    los: Literal["yes", "no", "beyond"] = (
        "yes" if kind.block == 100 or kind.sight else "beyond" if kind.block == 50 else "no"
    )
    try:
        return Feature(
            ft.id,
            ft.shape,
            tuple(ft.points),
            radius=ft.radius,
            kind=ft.kind,
            label=ft.label or kind.title,
            move_cost=kind.move,
            impassable=kind.impassable and not kind.barrier,
            blocks_los=los,
            beyond_reach=1.0 if los == "beyond" else 0.0,
            cover=1.0 if kind.block == 50 else 0.0,
            barrier=kind.barrier,
            crossing_cost=None if kind.barrier and kind.impassable else kind.crossing,
        )
    except TableGeometryError as exc:
        raise ScenarioError(file, path, str(exc)) from None


def build_setup(raw: Mapping[str, Any], file: str) -> tuple[ScenarioSpec, Setup]:
    """Validate an Invisible Enemy scenario and build its set-up; ScenarioError on any problem."""
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(file, exc) from None
    count = sum(len(u.bases) for units in spec.units.values() for u in units)
    if count > MAX_FIGURES:
        raise ScenarioError(
            file, "units", f"{count:,} bases; a scenario has at most {MAX_FIGURES:,}"
        )
    table = spec.table.build()
    names = [s.name for s in spec.sides]
    check_sides(file, names, spec.units, key="units", piece="unit")
    chart = terrain_chart().kinds
    models = vehicles().models
    claim = Ids(file, RESERVED).claim

    side_setups: dict[str, SideSetup] = {}
    for i, s in enumerate(spec.sides):
        tech = s.tech
        if tech is None:
            try:
                tech = nation_tech(s.nation)
            except (KeyError, ValueError):
                raise ScenarioError(
                    file,
                    f"sides[{i}].nation",
                    f"unknown nation '{excerpt(s.nation)}' without a tech level; "
                    "give `tech` or one of australia, california, selangor",
                ) from None
        side_setups[s.name] = SideSetup(
            s.name,
            s.title or s.name,
            s.nation,
            tech,
            base_interval(tech),
            s.network_dice,
            s.type2,
            s.vector_superiority,
        )

    towers: list[TowerSetup] = []

    def feature(path: str, ft: FeatureSpec, kind: TerrainKind) -> Feature:
        if kind.barrier and ft.shape != "polyline":
            raise ScenarioError(file, f"{path}.shape", f"a {kind.title} is a polyline")
        if ft.kind == "fungus":
            if ft.hull is None:
                raise ScenarioError(
                    file, f"{path}.hull", "a fungus tower has 6 or 9 hit points (1.5 note 2)"
                )
            towers.append(TowerSetup(ft.id, ft.hull, ft.live))
        elif ft.hull is not None:
            raise ScenarioError(file, f"{path}.hull", "only a fungus tower has hit points")
        return feature_of(file, path, ft, kind)

    features, kinds = chart_features(file, spec.features, table, chart, claim, feature)
    terrain = Terrain(features)

    placements: list[Placement] = []
    units: list[UnitSetup] = []
    placed = Placed(file, table, terrain, piece="base")
    for side in names:
        for u, us in enumerate(spec.units[side]):
            upath = f"units.{side}[{u}]"
            claim(us.id, f"{upath}.id")
            ids: list[str] = []
            roles: set[str] = set()
            for i, bs in enumerate(us.bases):
                path = f"{upath}.bases[{i}]"
                claim(bs.id, f"{path}.id")
                model = models.get(bs.model)
                if model is None:
                    raise ScenarioError(
                        file,
                        f"{path}.model",
                        f"unknown model '{excerpt(bs.model)}'; known: {listing(models)}",
                    )
                roles.add(model.role)
                at = (float(bs.at[0]), float(bs.at[1]))
                facing = bs.facing if bs.facing is not None else toward_centre(table, at)
                if not math.isfinite(facing):
                    raise ScenarioError(file, f"{path}.facing", "must be a number")
                figure = Figure(
                    bs.id, at[0], at[1], facing, RoundBase(model.radius * 2.0), side, bs.model
                )
                placed.add(figure, path)
                placements.append(Placement(bs.id, side, us.id, bs.model, model, figure))
                ids.append(bs.id)
            if "engineer" in roles and us.mission is None:
                raise ScenarioError(
                    file,
                    f"{upath}.mission",
                    "an engineer unit is tasked repair, demolition or strike at set-up (1.3)",
                )
            if us.mission is not None and "engineer" not in roles:
                raise ScenarioError(
                    file, f"{upath}.mission", "only a unit with engineer bases has a mission"
                )
            mission = MISSIONS[us.mission] if us.mission is not None else None
            units.append(UnitSetup(us.id, side, us.formation, mission, tuple(ids)))
    victory = spec.victory
    if victory.kind == "breach":
        check_edge_run(
            file,
            "breach",
            victory.side,
            victory.edge,
            victory.count,
            names,
            [p.side for p in placements],
        )
    setup = Setup(
        table=table,
        sides=(names[0], names[1]),
        side_setups=side_setups,
        units=tuple(units),
        placements=tuple(placements),
        features=tuple(features),
        kinds=kinds,
        towers=tuple(towers),
        options=spec.options,
        victory=victory,
        turns=spec.turns,
        terrain=terrain,
    )
    return spec, setup


def build_scenario(raw: Mapping[str, Any], file: str, scenario_id: str) -> Scenario:
    spec, setup = build_setup(raw, file)
    return Scenario(
        id=scenario_id,
        title=spec.title,
        ruleset="invisible-enemy",
        source=file,
        raw=raw,
        sides=setup.sides,
        turn_limit=setup.turns,
        options=spec.options.model_dump(),
        spec=setup,
    )


__all__ = ["MISSIONS", "Placement", "Setup", "UnitSetup", "build_scenario", "build_setup"]
