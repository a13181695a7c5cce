"""MGV data: vehicle models, the 1.4 terrain chart and the movement numbers, typed.

Loaded once from ``data/*.toml`` and validated with pydantic, so a mistake in a
data file names the file and the field. The combat chart's stand-ins are read
by :mod:`warbench.rulesets.mgv.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import Field

from warbench.geometry.table import TurningTable
from warbench.rulesets.kit.datafiles import DataModel, StandIn, data_file, load_model
from warbench.rulesets.kit.eye import EyeSpec

WeaponType = Literal["kinetic", "missile", "photon"]
WEAPON_TYPES: tuple[WeaponType, ...] = ("kinetic", "missile", "photon")
WEAPON_LETTER: dict[str, str] = {"kinetic": "K", "missile": "C", "photon": "P"}
"""The text's letters (5.0 Arcs of fire): Type K, Type C (missile), Type P."""
Slot = Literal["main", "secondary"]
SLOTS: tuple[Slot, ...] = ("main", "secondary")
Trait = Literal["p_resistant", "beacons"]


_Model = DataModel
PACKAGE = "warbench.rulesets.mgv"


class Hull(_Model):
    surface: int = Field(ge=1, le=24)
    core: int = Field(ge=1, le=12)
    heart: int = Field(ge=1, le=3)


class Mounts(_Model):
    main: int = Field(ge=1, le=12)
    secondary: int | None = Field(default=None, ge=1, le=12)


class VehicleModel(_Model):
    """One vehicle model of the (stand-in) stats sheet."""

    title: str
    class_: Literal["light", "medium", "heavy"] = Field(alias="class")
    defence: int = Field(ge=1, le=12)
    hull: Hull
    radius: float = Field(gt=0.1, le=3.0)
    mounts: Mounts
    traits: tuple[Trait, ...] = ()
    points: int = Field(ge=0, le=1000)
    stand_in: bool = True

    def attack(self, slot: str) -> int | None:
        """The attack rating of a mount, or None if the model has no such mount."""
        return self.mounts.main if slot == "main" else self.mounts.secondary

    @property
    def slots(self) -> tuple[Slot, ...]:
        return ("main", "secondary") if self.mounts.secondary is not None else ("main",)

    @property
    def p_cost(self) -> float:
        """Inches of speed track each P hit costs (4.0; half for p_resistant, a stand-in)."""
        return 0.5 if "p_resistant" in self.traits else 1.0


class Meta(_Model):
    stand_in: bool
    reason: str
    speed: float = Field(gt=0)
    surface_per_defence: int = Field(ge=1)


class Vehicles(_Model):
    meta: Meta
    models: dict[str, VehicleModel]


class TerrainKind(_Model):
    """One row of the 1.4 chart."""

    title: str
    move: float = Field(default=1.0, ge=1.0)
    impassable: bool = False
    trap: tuple[int, ...] = ()
    cover: int = Field(default=0, ge=0, le=3)
    cover_when: tuple[Literal["hugging", "between"], ...] = ()
    los: Literal["yes", "no", "beyond"] = "no"


class TerrainChart(_Model):
    kinds: dict[str, TerrainKind]


class RearArc(StandIn):
    half_angle: float = Field(gt=0, le=90)


class Ranging(StandIn):
    step: float = Field(gt=0)
    max: float = Field(gt=0)


class RulesData(_Model):
    turning: list[tuple[float, float]]
    beacon_range: float
    moved_threshold: float
    arc_half_angle: float
    missile_off_line: float
    initiative_die: int
    rear_arc: RearArc
    ranging: Ranging
    eye: EyeSpec


vehicles = data_file(PACKAGE, "vehicles.toml", Vehicles)
terrain_chart = data_file(PACKAGE, "terrain.toml", TerrainChart)


@dataclass(frozen=True, slots=True)
class Rules:
    """The movement and fire numbers of ``data/rules.toml``, ready to use."""

    data: RulesData
    turning: TurningTable


@cache
def rules() -> Rules:
    data = load_model(PACKAGE, "rules.toml", RulesData)
    return Rules(data, TurningTable.from_pairs(data.turning))
