"""Invisible Enemy data: the stand-in stats page, the 1.5 terrain chart, the rules' numbers.

Loaded once from ``data/*.toml`` and validated with pydantic. The combat charts
are :mod:`warbench.rulesets.invisible_enemy.charts`. Models that are the same
Eylau miniatures as MGV's (``figure``) take their title and base size from
MGV's vehicle sheet rather than a copy of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import Field, model_validator

from warbench.geometry.table import TurnBand, TurningTable
from warbench.rulesets.invisible_enemy.charts import Weapon
from warbench.rulesets.kit.datafiles import DataModel, StandIn, data_file, load_model
from warbench.rulesets.kit.eye import EyeSpec

PACKAGE = "warbench.rulesets.invisible_enemy"
Role = Literal["combat", "network", "engineer"]
ROLES: tuple[Role, ...] = ("combat", "network", "engineer")
Sensitivity = Literal["low", "medium", "high", "impervious", "roll"]


class VehicleModel(DataModel):
    """One model of the (stand-in) stats page."""

    figure: str | None = None
    """The same miniature on MGV's vehicle sheet (its title and base size)."""
    title: str = ""
    radius: float = Field(default=0.0, ge=0.0, le=3.0)
    nation: str
    role: Role
    weapon: Weapon
    range: float = Field(gt=0.0, le=48.0)
    attack: int = Field(ge=1, le=12)
    defence: int = Field(ge=1, le=12)
    hull: int = Field(ge=1, le=30)
    speed: float = Field(gt=0.0, le=24.0)
    points: int = Field(ge=0, le=1000)

    @model_validator(mode="after")
    def _from_mgv(self) -> VehicleModel:
        if self.figure is None:
            if not self.title or self.radius <= 0.1:
                raise ValueError("a model without an MGV figure gives its title and radius")
            return self
        from warbench.rulesets.mgv.data import vehicles as mgv_vehicles

        mgv = mgv_vehicles().models.get(self.figure)
        if mgv is None:
            raise ValueError(f"no MGV figure {self.figure!r}")
        object.__setattr__(self, "title", self.title or mgv.title)
        object.__setattr__(self, "radius", mgv.radius)
        return self


class Vehicles(DataModel):
    meta: StandIn
    models: dict[str, VehicleModel]


class TerrainKind(DataModel):
    """One row of the 1.5 General Terrain Effects chart (or a 4.4 surface)."""

    title: str
    move: float = Field(default=1.0, ge=1.0, le=3.0)
    impassable: bool = False
    trap: int | None = Field(default=None, ge=1, le=6)
    trap_only: bool = False
    """Trapped on exactly ``trap``, not on it or more: ice's "1" (ruling 17)."""
    sensitivity: Sensitivity | None = None
    sight: bool = False
    block: Literal[0, 50, 100] = 0
    barrier: bool = False
    crossing: float | None = Field(default=None, ge=0.0, le=3.0)


class TerrainChart(DataModel):
    kinds: dict[str, TerrainKind]


class Arcs(DataModel):
    K: float = Field(gt=0.0, le=180.0)
    C: float = Field(gt=0.0, le=180.0)
    P: float = Field(gt=0.0, le=180.0)


class Turning(DataModel):
    free_below: float
    bands: list[tuple[float, float]]


class Movement(DataModel):
    forward_up_to: float
    diagonal_up_to: float
    diagonal: float
    sideways_up_to: float
    sideways: float
    backward_diagonal_up_to: float
    reverse: float
    damaged: float
    cap: float
    bump: float


class Barrage(DataModel):
    radius: float
    flank_reach: float
    clears: dict[Literal["low", "medium", "high"], float]
    type2_dice: int
    type2_hit: int
    type2_hit_vector: int


class Fungus(DataModel):
    infect_reach: float
    infect_on: int
    zombie_reach: float
    defence: int
    hunt_to: float = Field(gt=0.0)


class Clearing(DataModel):
    high: float
    medium: float
    low: float
    lane: float = Field(gt=0.0)
    depth: float = Field(gt=0.0)
    crumbs: float = Field(ge=0.0)
    tow: float


class EngineeringPlay(DataModel):
    reach: float = Field(gt=0.0)
    mek_lok_radius: float = Field(gt=0.0)
    tow_gap: float = Field(ge=0.0)


class Minefield(StandIn):
    dice: int = Field(ge=1, le=3)


class FireNumbers(DataModel):
    massed: int = Field(ge=2)
    behind: float = Field(ge=0.0)
    rake_near: float = Field(ge=0.0)
    rake_sweep: float = Field(gt=0.0, le=180.0)
    loose_gap: float = Field(ge=0.0)


class Initiative(DataModel):
    dice: Literal[1, 2]


class RulesData(DataModel):
    arcs: Arcs
    turning: Turning
    movement: Movement
    barrage: Barrage
    fungus: Fungus
    clearing: Clearing
    initiative: Initiative
    fire: FireNumbers
    engineering: EngineeringPlay
    minefield: Minefield
    eye: EyeSpec


@dataclass(frozen=True)
class Rules:
    data: RulesData
    turning: TurningTable

    def arc(self, weapon: str) -> float:
        return float(getattr(self.data.arcs, weapon))

    def direction_cost(self, drift: float, damaged: bool = False) -> float | None:
        """4.4: cost per inch travelling ``drift`` degrees off the facing; None: not allowed."""
        m = self.data.movement
        angle = abs(drift)
        if angle <= m.forward_up_to:
            rate = 1.0
        elif angle <= m.diagonal_up_to:
            rate = m.diagonal
        elif angle <= m.sideways_up_to:
            rate = m.sideways
        elif angle < m.backward_diagonal_up_to:
            return None
        else:
            rate = m.reverse
        if damaged:
            rate = max(rate, m.damaged)
        return min(rate, m.cap)


vehicles = data_file(PACKAGE, "vehicles.toml", Vehicles)
terrain_chart = data_file(PACKAGE, "terrain.toml", TerrainChart)


@cache
def rules() -> Rules:
    data = load_model(PACKAGE, "rules.toml", RulesData)
    t = data.turning
    bands = (
        TurnBand(t.free_below, 0.0, inclusive=False),
        *(TurnBand(a, c) for a, c in t.bands),
    )
    return Rules(data, TurningTable(bands))


__all__ = [
    "ROLES",
    "Role",
    "Rules",
    "TerrainKind",
    "VehicleModel",
    "rules",
    "terrain_chart",
    "vehicles",
]
