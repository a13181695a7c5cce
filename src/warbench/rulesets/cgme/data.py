"""CGME data: the core's tables and a game world's terrain, units and extensions.

The stand-in core (``cgme/data/core.toml``: turn sequence, dice, margin,
result table, wound) is shared by every game world. A world (the cgme
ruleset's own small one, or V.E.G.) lives in its package's ``data/rules.toml``
and ``data/units.toml``; its ``[core]`` table overrides core keys (V.E.G.:
the margin of 1), and its other tables switch the extensions it uses on:
stacking, spillover, a range-0 attack bonus, roads with a movement bonus,
transport, buildings. Numbers live in these files, never in code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

from warbench.rulesets.kit.data import TurnSequence

ResultName = Literal["destroy", "wound", "none"]
RESULTS: tuple[ResultName, ...] = ("destroy", "wound", "none")
Unstated = Literal["borrow", "no_effect", "no_entry"]
Crossing = Literal["beyond_step", "additive"]
"""How a hexside's "N MP to cross" is paid: ``beyond_step``, the step over it costs
the hex entered plus what N exceeds a plain step (V.E.G. ruling 10); ``additive``,
the hex entered plus N (a class the row gives no cost pays nothing more)."""
SpilloverHits = Literal["all", "not_attackers", "enemies"]
"""Who a spillover attack strikes: every other unit in the hex; all but the units
making the attack; enemies of the attacker only."""
HazardDefence = Literal["def", "dice"]
HAZARD_DEFENCES: tuple[HazardDefence, ...] = ("def", "dice")
PHASE_KINDS = ("hazard", "move", "attack")
"""The kinds of phase the engine knows how to walk (see rules.py)."""


@dataclass(frozen=True, slots=True, eq=False)
class Core(TurnSequence):
    """The core rules' numbers: turn sequence, the attack roll, results, the wound."""

    attack_dice: int
    defence_dice: int
    margin: int
    combined: bool
    results: tuple[tuple[int, ResultName], ...]
    """(at_least, result) rows; ``at_least`` is compared with difference - margin."""
    wound_att: int
    wound_def: int
    wound_mov: int
    second_wound: ResultName
    stand_in: bool
    hazard_defence: HazardDefence = "def"
    """What a hazard's attack is rolled against: ``def``, the unit's DEF with its
    modifiers plus the defence dice, as any attack; ``dice``, the dice alone."""

    def result(self, difference: int) -> ResultName:
        """The result of an attack whose roll beat the defence roll by ``difference``.

        >>> core = load_world("warbench.rulesets.cgme").core
        >>> core.result(2), core.result(1), core.result(0)
        ('destroy', 'wound', 'none')
        """
        excess = difference - self.margin
        for at_least, result in self.results:
            if excess >= at_least:
                return result
        return "none"


@dataclass(frozen=True, slots=True)
class ClassTerrain:
    """What one terrain means to one movement class: MP to enter (None: may not), modifiers."""

    cost: int | None
    dfn: int = 0
    att: int = 0


@dataclass(frozen=True, slots=True)
class Hazard:
    """A hazard ``H<n>``: the hex attacks units entering or staying in it with ATT n."""

    base: int
    minus_def: bool = False

    def strength(self, dfn: int) -> int:
        """The hazard's ATT against a unit of this DEF (craters: 8 - DEF)."""
        return self.base - dfn if self.minus_def else self.base

    @property
    def label(self) -> str:
        return f"H({self.base} - DEF)" if self.minus_def else f"H{self.base}"


@dataclass(frozen=True, slots=True)
class TerrainRule:
    """One row of a world's terrain table."""

    name: str
    note: str
    per_class: Mapping[str, ClassTerrain]
    hazard: Hazard | None

    def entry(self, move_class: str) -> ClassTerrain:
        return self.per_class[move_class]


@dataclass(frozen=True, slots=True)
class HexsideRule:
    """A hexside feature (a stream): MP to cross it per class (None: may not)."""

    name: str
    note: str
    cross: Mapping[str, int | None]
    stated: Mapping[str, int] = field(default_factory=dict)
    """Per class, the crossing cost the row gives (classes it leaves blank: absent)."""

    def extra(self, cls: str, default_cost: int, crossing: Crossing) -> int | None:
        """MP a step over this hexside costs beyond the hex entered (None: may not cross)."""
        cross = self.cross[cls]
        if cross is None:
            return None
        if crossing == "additive":
            return self.stated.get(cls, 0)
        return max(cross - default_cost, 0)


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit's ratings (ATT/RNG/DEF/MOV), movement class and the world's extras.

    ``parts`` is the unit's weight for stacking and transport, in the world's
    parts per unit (V.E.G.: thirds of a squad, so a Ranger weighs 1 of 3);
    ``capacity`` is what it carries, in the same parts.
    """

    key: str
    name: str
    att: int | None
    """None: ATT "x", the unit may not attack."""
    rng: int
    dfn: int
    mov: int
    move_class: str
    value: int
    parts: int
    capacity: int = 0
    riders_attack: bool = False
    road_only: bool = False
    road_bonus: bool = True
    move_or_shoot: bool = False
    note: str = ""

    @property
    def can_attack(self) -> bool:
        return self.att is not None

    def ratings(self) -> str:
        """The ratings as the text prints them: ``A3 R2 D4 M3`` (``Ax D1 M4``)."""
        if self.att is None:
            return f"Ax D{self.dfn} M{self.mov}"
        return f"A{self.att} R{self.rng} D{self.dfn} M{self.mov}"


@dataclass(frozen=True, slots=True, eq=False)
class World:
    """Everything numeric of one game world on the CGME core."""

    name: str
    core: Core
    classes: Mapping[str, str]
    default_cost: int
    road_bonus_every: int
    """Regular MP spent along a road that earn one bonus MP (0: roads give none)."""
    terrain: Mapping[str, TerrainRule]
    hexsides: Mapping[str, HexsideRule]
    units: Mapping[str, UnitType]
    stacking_limit: int | None
    """Most units per hex (None: no limit)."""
    parts_per_unit: int
    spillover_att: int | None
    """ATT modifier of the spillover attack on the other units of a hex (None: none)."""
    range0_class: str | None
    range0_att: int
    rider_class: str | None
    """The class that may ride in carriers (None: the world has no transport)."""
    load_cost: int
    unload_cost: int
    buildings: bool
    building_wound_divisor: int


def value_default(att: int | None, rng: int, dfn: int, mov: int) -> int:
    """Stand-in value of a unit type that gives none: the sum of its ratings (ATT x: 0)."""
    return (att or 0) + rng + dfn + mov


def _read(package: str, name: str) -> dict[str, Any]:
    text = resources.files(package).joinpath("data", name).read_text("utf-8")
    return tomllib.loads(text)


def _merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override``'s keys replacing its own, tables merged key by key."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _core(raw: Mapping[str, Any]) -> Core:
    combat, wound = raw["combat"], raw["wound"]
    rows = tuple((int(r["at_least"]), r["result"]) for r in combat["results"])
    for _, result in rows:
        if result not in RESULTS:
            raise ValueError(f"core result table: unknown result '{result}'")
    if [a for a, _ in rows] != sorted((a for a, _ in rows), reverse=True):
        raise ValueError("core result table: rows must go from the highest at_least down")
    hazard_defence = raw.get("hazard", {}).get("defence", "def")
    if hazard_defence not in HAZARD_DEFENCES:
        raise ValueError(
            f"core [hazard] defence: '{hazard_defence}' is not one of {HAZARD_DEFENCES}"
        )
    phases = tuple(raw["sequence"]["phases"])
    unknown = [p for p in phases if p not in PHASE_KINDS]
    if unknown:
        raise ValueError(
            f"core turn sequence: unknown phase kind(s) {unknown}; known: {PHASE_KINDS}"
        )
    return Core(
        phases=phases,
        phase_titles=dict(raw["sequence"]["titles"]),
        attack_dice=int(combat["attack_dice"]),
        defence_dice=int(combat["defence_dice"]),
        margin=int(combat["margin"]),
        combined=bool(combat["combined"]),
        results=rows,
        wound_att=int(wound["att"]),
        wound_def=int(wound["def"]),
        wound_mov=int(wound["mov"]),
        second_wound=wound["second"],
        stand_in=bool(raw.get("stand_in", False)),
        hazard_defence=hazard_defence,
    )


def _class_terrain(row: Mapping[str, Any] | None, default_cost: int) -> ClassTerrain:
    if row is None:
        return ClassTerrain(default_cost)
    if row.get("enter", True) is False:
        return ClassTerrain(None, int(row.get("def", 0)), int(row.get("att", 0)))
    return ClassTerrain(
        int(row.get("cost", default_cost)), int(row.get("def", 0)), int(row.get("att", 0))
    )


def _terrain(
    name: str, row: Mapping[str, Any], classes: Mapping[str, str], default: int, unstated: Unstated
) -> TerrainRule:
    per_class = {c: _class_terrain(row.get(c), default) for c in classes}
    # A row may leave a class's entry blank (V.E.G.: city for hovercraft); the
    # option unstated_terrain decides what that blank means.
    for cls, borrowed in dict(row.get("unstated", {})).items():
        if unstated == "borrow":
            per_class[cls] = per_class[borrowed]
        elif unstated == "no_entry":
            per_class[cls] = ClassTerrain(None)
        else:
            per_class[cls] = ClassTerrain(default)
    hazard = row.get("hazard")
    return TerrainRule(
        name,
        str(row.get("note", "")),
        per_class,
        Hazard(int(hazard["base"]), bool(hazard.get("minus_def", False))) if hazard else None,
    )


def _hexside(
    name: str, row: Mapping[str, Any], classes: Mapping[str, str], default: int
) -> HexsideRule:
    cross: dict[str, int | None] = {}
    stated: dict[str, int] = {}
    for cls in classes:
        entry = row.get(cls, {})
        cross[cls] = None if entry.get("enter", True) is False else int(entry.get("cross", default))
        if "cross" in entry:
            stated[cls] = int(entry["cross"])
    return HexsideRule(name, str(row.get("note", "")), cross, stated)


def unit_type(key: str, row: Mapping[str, Any], parts: int) -> UnitType:
    """A unit type from a table (the catalogue or a scenario); values already checked."""
    att_raw = row.get("att")
    att = None if att_raw in (None, "x", "X") else int(att_raw)
    rng, dfn, mov = int(row.get("rng", 0)), int(row["def"]), int(row["mov"])
    return UnitType(
        key=key,
        name=str(row.get("name", key)),
        att=att,
        rng=rng,
        dfn=dfn,
        mov=mov,
        move_class=str(row["class"]),
        value=int(row["value"]) if "value" in row else value_default(att, rng, dfn, mov),
        parts=int(row.get("stack_parts", parts)),
        capacity=int(row.get("capacity", 0)) * parts,
        riders_attack=bool(row.get("riders_attack", False)),
        road_only=bool(row.get("road_only", False)),
        road_bonus=bool(row.get("road_bonus", True)),
        move_or_shoot=bool(row.get("move_or_shoot", False)),
        note=str(row.get("note", "")),
    )


@cache
def load_world(package: str, unstated: Unstated = "borrow") -> World:
    """The world of ``package`` on the core, with blank terrain entries read per ``unstated``."""
    world_raw = _read(package, "rules.toml")
    core = _core(_merged(_read("warbench.rulesets.cgme", "core.toml"), world_raw.get("core", {})))
    classes = dict(world_raw["classes"])
    movement = world_raw.get("movement", {})
    default = int(movement.get("default_cost", 1))
    stacking = world_raw.get("stacking", {})
    combat = world_raw.get("combat", {})
    range0 = combat.get("range0")
    transport = world_raw.get("transport")
    buildings = world_raw.get("buildings")
    parts = int(stacking.get("parts_per_unit", 1))
    units = {key: unit_type(key, row, parts) for key, row in _read(package, "units.toml").items()}
    return World(
        name=package.rpartition(".")[2],
        core=core,
        classes=classes,
        default_cost=default,
        road_bonus_every=int(movement.get("road_bonus_every", 0)),
        terrain={
            n: _terrain(n, r, classes, default, unstated)
            for n, r in world_raw.get("terrain", {}).items()
        },
        hexsides={
            n: _hexside(n, r, classes, default) for n, r in world_raw.get("hexside", {}).items()
        },
        units=units,
        stacking_limit=int(stacking["limit"]) if "limit" in stacking else None,
        parts_per_unit=parts,
        spillover_att=int(combat["spillover_att"]) if "spillover_att" in combat else None,
        range0_class=str(range0["class"]) if range0 else None,
        range0_att=int(range0["att"]) if range0 else 0,
        rider_class=str(transport["riders"]) if transport else None,
        load_cost=int(transport["load_cost"]) if transport else 0,
        unload_cost=int(transport["unload_cost"]) if transport else 0,
        buildings=buildings is not None,
        building_wound_divisor=int(buildings.get("wound_divisor", 2)) if buildings else 2,
    )
