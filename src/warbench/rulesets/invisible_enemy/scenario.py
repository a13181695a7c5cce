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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import Field

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import (
    Feature,
    RoundBase,
    Terrain,
)
from warbench.geometry.table.serial import (
    MAX_FEATURES,
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
from warbench.rulesets.kit.table.scenario import (
    EdgeRunVictory,
    VehiclePlacement,
    VehicleScenarioSpec,
    VehicleSetup,
    known_model,
    opened,
    table_scenario,
)
from warbench.rulesets.kit.table.scenario import SideSpec as TableSideSpec
from warbench.scenario.model import Scenario
from warbench.scenario.schema import Key, Label, ScenarioModel
from warbench.scenario.table import (
    ID_PATTERN,
    Ids,
    Placed,
    chart_feature,
    chart_features,
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


class SideSpec(TableSideSpec):
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


class VictorySpec(EdgeRunVictory):
    kind: Literal["clear", "breach"] = "clear"


class ScenarioSpec(VehicleScenarioSpec):
    sides: list[SideSpec] = Field(min_length=2, max_length=2)  # type: ignore[assignment]
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    units: dict[str, list[UnitSpec]]
    features: list[FeatureSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    victory: VictorySpec = Field(default_factory=VictorySpec)


@dataclass(frozen=True, slots=True)
class Placement(VehiclePlacement[VehicleModel]):
    """A base as the scenario sets it up, with the unit it belongs to."""

    unit: str


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


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class Setup(VehicleSetup[Placement, TerrainKind]):
    """Everything an Invisible Enemy game needs from its scenario, validated."""

    side_setups: Mapping[str, SideSetup]
    units: tuple[UnitSetup, ...]
    towers: tuple[TowerSetup, ...]
    options: OptionsSpec
    victory: VictorySpec

    @property
    def titles(self) -> Mapping[str, str]:
        return {name: s.title for name, s in self.side_setups.items()}


def feature_of(file: str, path: str, ft: FeatureSpec, kind: TerrainKind) -> Feature:
    """The geometry feature of a 1.5 chart row: 100% block stops sight and fire,
    50% block covers a base within 1" behind it and stops fire beyond (1.5 key)."""
    los: Literal["yes", "no", "beyond"] = (
        "yes" if kind.block == 100 or kind.sight else "beyond" if kind.block == 50 else "no"
    )
    return chart_feature(
        file,
        path,
        ft,
        kind,
        impassable=kind.impassable and not kind.barrier,
        blocks_los=los,
        beyond_reach=1.0 if los == "beyond" else 0.0,
        cover=1.0 if kind.block == 50 else 0.0,
        barrier=kind.barrier,
        crossing_cost=None if kind.barrier and kind.impassable else kind.crossing,
    )


def _bases(spec: ScenarioSpec) -> int:
    return sum(len(u.bases) for units in spec.units.values() for u in units)


def build_setup(raw: Mapping[str, Any], file: str) -> tuple[ScenarioSpec, Setup]:
    """Validate an Invisible Enemy scenario and build its set-up; ScenarioError on any problem."""
    spec = opened(ScenarioSpec, raw, file, "units", "unit", count=_bases)
    table = spec.table.build()
    names = [s.name for s in spec.sides]
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
                model = known_model(models, bs.model, file, path)
                roles.add(model.role)
                base = RoundBase(model.radius * 2.0)
                figure = placed.place(path, bs.id, bs.at, bs.facing, base, side, bs.model)
                placements.append(Placement(bs.id, side, bs.model, model, figure, us.id))
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
    spec.victory.check_run(file, "breach", names, [p.side for p in placements])
    setup = Setup.framed(
        spec,
        table,
        terrain,
        kinds,
        placements,
        side_setups=side_setups,
        units=tuple(units),
        towers=tuple(towers),
    )
    return spec, setup


def build_scenario(raw: Mapping[str, Any], file: str, scenario_id: str) -> Scenario:
    spec, setup = build_setup(raw, file)
    return table_scenario("invisible-enemy", raw, file, scenario_id, spec, setup, setup.turns)


__all__ = ["MISSIONS", "Placement", "Setup", "UnitSetup", "build_scenario", "build_setup"]
