"""MiniWars data: the terrain chart, missile chart, melee table and unit catalogue.

Loaded once from ``data/*.toml`` into typed, frozen tables. Numbers live in the
data files, never in code, so a corrected chart needs no code change.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from warbench.rulesets.kit.data import TurnSequence

Morale = Literal["+", "=", "-", "!"]
MORALE_SYMBOLS: tuple[Morale, ...] = ("+", "=", "-", "!")
MoveClass = Literal["infantry", "cavalry"]
MISSILE_CODES = ("A", "B", "C", "D", "E")


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit's factors: Move (``*`` = cavalry), Combat Strength, missile code, Morale, Cost."""

    key: str
    name: str
    move: int
    cavalry: bool
    cs: int
    missile: str
    morale: Morale
    cost: int

    @property
    def move_class(self) -> MoveClass:
        return "cavalry" if self.cavalry else "infantry"

    @property
    def is_leader(self) -> bool:
        return self.morale == "!"

    def describe(self) -> str:
        star = "*" if self.cavalry else ""
        code = f" [{self.missile}]" if self.missile else ""
        return f"Move {self.move}{star}, CS {self.cs}{code}, Mor {self.morale}, cost {self.cost}"


@dataclass(frozen=True, slots=True)
class TerrainRule:
    """One row of the terrain chart (costs in half-MP; None = n/a)."""

    name: str
    infantry: int | None
    cavalry: int | None
    attacker: int
    defender: int
    blocks_los: bool

    def cost(self, move_class: MoveClass) -> int | None:
        return self.infantry if move_class == "infantry" else self.cavalry


@dataclass(frozen=True, slots=True)
class HexsideRule:
    """A hexside feature: crossing cost (half-MP; None = n/a), melee, ZOC, sight."""

    name: str
    infantry: int | None
    cavalry: int | None
    melee: bool
    melee_modifier: int
    zoc: bool
    blocks_los: bool

    def cost(self, move_class: MoveClass) -> int | None:
        return self.infantry if move_class == "infantry" else self.cavalry


@dataclass(frozen=True, slots=True, eq=False)
class Charts(TurnSequence):
    """Everything numeric in MiniWars but the units."""

    half_mp_per_mp: int
    road_cost: int
    uphill_extra: int
    terrain: dict[str, TerrainRule]
    hexsides: dict[str, HexsideRule]
    hill_attacker_higher: int
    hill_defender_higher: int
    missile: dict[str, tuple[int, ...]]
    missile_automatic_miss: int
    missile_attacker_disrupted: int
    missile_attacker_higher: int
    missile_defender_higher: int
    melee_needed: tuple[tuple[int, ...], ...]
    melee_attacker_disrupted: int
    morale_modifier: dict[str, int]
    rally_automatic_failure: int
    rally_self_min: int
    rally_leader_to_leader: int
    rally_modifier: dict[str, int]

    def melee_target(self, attacker_cs: int, defender_cs: int) -> int:
        """Two-dice total needed on the melee table (CS outside 1-5 is clamped)."""
        row = self.melee_needed[min(max(attacker_cs, 1), len(self.melee_needed)) - 1]
        return row[min(max(defender_cs, 1), len(row)) - 1]

    def missile_target(self, code: str, distance: int) -> int | None:
        """Lowest roll that hits at this range, or None if the attack cannot occur."""
        chart = self.missile.get(code, ())
        if distance < 1 or distance > len(chart):
            return None
        return chart[distance - 1]

    def max_range(self, code: str) -> int:
        return len(self.missile.get(code, ()))


def _read(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text("utf-8")
    return tomllib.loads(text)


def _cost(row: dict[str, Any], key: str) -> int | None:
    value = row.get(key)
    return int(value) if value is not None else None


@cache
def charts(hedgerow: str = "as_printed") -> Charts:
    """The charts, with the hedgerow row read as printed or swapped (an option)."""
    raw = _read("rules.toml")
    terrain = {
        name: TerrainRule(
            name,
            _cost(row, "infantry"),
            _cost(row, "cavalry"),
            int(row.get("attacker", 0)),
            int(row.get("defender", 0)),
            bool(row["blocks_los"]),
        )
        for name, row in raw["terrain"].items()
    }
    hexsides = {
        name: HexsideRule(
            name,
            _cost(row, "infantry"),
            _cost(row, "cavalry"),
            bool(row["melee"]),
            int(row.get("melee_modifier", 0)),
            bool(row["zoc"]),
            bool(row["blocks_los"]),
        )
        for name, row in raw["hexside"].items()
    }
    if hedgerow == "swapped":
        h = hexsides["hedgerow"]
        hexsides["hedgerow"] = HexsideRule(
            h.name, h.cavalry, h.infantry, h.melee, h.melee_modifier, h.zoc, h.blocks_los
        )
    missile = raw["missile"]
    rally = raw["rally"]
    return Charts(
        phases=tuple(raw["sequence"]["phases"]),
        phase_titles=dict(raw["sequence"]["titles"]),
        half_mp_per_mp=int(raw["movement"]["half_mp_per_mp"]),
        road_cost=int(raw["movement"]["road_cost"]),
        uphill_extra=int(raw["movement"]["uphill_extra"]),
        terrain=terrain,
        hexsides=hexsides,
        hill_attacker_higher=int(raw["hill"]["attacker_higher"]),
        hill_defender_higher=int(raw["hill"]["defender_higher"]),
        missile={code: tuple(missile[code]) for code in MISSILE_CODES},
        missile_automatic_miss=int(missile["automatic_miss"]),
        missile_attacker_disrupted=int(missile["attacker_disrupted"]),
        missile_attacker_higher=int(missile["attacker_higher"]),
        missile_defender_higher=int(missile["defender_higher"]),
        melee_needed=tuple(tuple(row) for row in raw["melee"]["needed"]),
        melee_attacker_disrupted=int(raw["melee"]["attacker_disrupted"]),
        morale_modifier={k: int(v) for k, v in raw["morale_modifiers"].items()},
        rally_automatic_failure=int(rally["automatic_failure"]),
        rally_self_min=int(rally["self_rally_min"]),
        rally_leader_to_leader=int(rally["leader_to_leader"]),
        rally_modifier={m: int(rally[m]) for m in MORALE_SYMBOLS},
    )


@cache
def catalogue() -> dict[str, UnitType]:
    """The built-in unit types, by key."""
    return {key: unit_type(key, row) for key, row in _read("units.toml").items()}


def unit_type(key: str, row: dict[str, Any]) -> UnitType:
    """Build a unit type from a table (catalogue or scenario), values already checked."""
    return UnitType(
        key=key,
        name=str(row.get("name", key)),
        move=int(row["move"]),
        cavalry=bool(row.get("cavalry", False)),
        cs=int(row["cs"]),
        missile=str(row.get("missile", "")),
        morale=row["morale"],
        cost=int(row["cost"]),
    )
