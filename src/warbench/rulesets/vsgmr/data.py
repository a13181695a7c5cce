"""VSGMR data: the numbers of sections I-III and the stand-in point values, typed.

Loaded once from ``data/*.toml``. Numbers live in the data files, never in code,
so a house rule (or the missing optional chapters) needs no code change.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from warbench.geometry.table import Base, RectBase, RoundBase

FigureType = Literal["troop", "hero", "cavalry", "vehicle"]
FIGURE_TYPES: tuple[FigureType, ...] = ("troop", "hero", "cavalry", "vehicle")
Armour = Literal["none", "light", "heavy"]
ARMOURS: tuple[Armour, ...] = ("none", "light", "heavy")
MoveClass = Literal["guy", "cavalry", "vehicle"]


def move_class(kind: FigureType) -> MoveClass:
    """Troops and heroes are both guys (I, Figures)."""
    return "guy" if kind in ("troop", "hero") else kind  # type: ignore[return-value]


def is_guy(kind: FigureType) -> bool:
    return kind in ("troop", "hero")


def is_mount(kind: FigureType) -> bool:
    """Cavalry and vehicles carry a rider or driver (II.2)."""
    return kind in ("cavalry", "vehicle")


@dataclass(frozen=True, slots=True)
class MoveUnits:
    """A figure type's Move Unit total and Half Move Unit (inches)."""

    move: float
    half: float


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """Every number of sections I-III (and the stand-ins the text needs)."""

    phases: tuple[str, ...]
    phase_titles: dict[str, str]
    rounds: int
    movement: dict[MoveClass, MoveUnits]
    range: float
    to_hit: int
    to_hit_cover: int
    cover_share: float
    auto_dice: int
    hand_to_hit: int
    attack_bonus: dict[FigureType, int]
    armour_save: dict[str, int]
    vehicle_armour_bonus: int
    terrain_save: int
    skill_target: int
    skill_hero_bonus: int
    skill_specific_bonus: int
    initiative_die: int
    sees_on: int
    covered_on: int
    facing_half_angle: float
    touch: float
    lay_flat: dict[FigureType, float]
    visible_share: float
    arc_margin: float
    cover_margin: float
    see_depth: float
    bases: dict[FigureType, Base]

    def allowance(self, kind: FigureType, half: bool) -> float:
        units = self.movement[move_class(kind)]
        return units.half if half else units.move


def _read(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text("utf-8")
    return tomllib.loads(text)


def base_from(data: dict[str, Any]) -> Base:
    """A base from its plain form (``{"shape": "round", "diameter": 1}`` or a rect)."""
    if data["shape"] == "round":
        return RoundBase(float(data["diameter"]))
    return RectBase(float(data["width"]), float(data["depth"]))


@cache
def rules() -> Rules:
    """The numbers of the text, from ``data/rules.toml``."""
    raw = _read("rules.toml")
    mv = raw["movement"]
    dist = raw["distance"]
    armour = raw["armour"]
    skill = raw["skill"]
    contact = raw["contact"]
    border = raw["borderline"]
    return Rules(
        phases=tuple(raw["sequence"]["phases"]),
        phase_titles=dict(raw["sequence"]["titles"]),
        rounds=int(raw["game"]["rounds"]),
        movement={
            k: MoveUnits(float(mv[k]["move"]), float(mv[k]["half"]))
            for k in ("guy", "cavalry", "vehicle")
        },
        range=float(dist["range"]),
        to_hit=int(dist["to_hit"]),
        to_hit_cover=int(dist["to_hit_cover"]),
        cover_share=float(dist["cover_share"]),
        auto_dice=int(dist["auto_dice"]),
        hand_to_hit=int(raw["hand"]["to_hit"]),
        attack_bonus={k: int(raw["attack_bonus"][k]) for k in FIGURE_TYPES},
        armour_save={"light": int(armour["light"]), "heavy": int(armour["heavy"])},
        vehicle_armour_bonus=int(armour["vehicle_bonus"]),
        terrain_save=int(raw["terrain_attack"]["save"]),
        skill_target=int(skill["target"]),
        skill_hero_bonus=int(skill["hero_bonus"]),
        skill_specific_bonus=int(skill["specific_bonus"]),
        initiative_die=int(raw["initiative"]["die"]),
        sees_on=int(raw["dispute"]["sees_on"]),
        covered_on=int(raw["dispute"]["covered_on"]),
        facing_half_angle=float(raw["facing"]["half_angle"]),
        touch=float(contact["touch"]),
        lay_flat={k: float(contact["lay_flat"][k]) for k in FIGURE_TYPES},
        visible_share=float(border["visible_share"]),
        arc_margin=float(border["arc_margin"]),
        cover_margin=float(border["cover_margin"]),
        see_depth=float(raw["sight"]["see_depth"]),
        bases={k: base_from(raw["bases"][k]) for k in FIGURE_TYPES},
    )


@dataclass(frozen=True, slots=True)
class PointScheme:
    """Stand-in point values: a base per type plus a value per ability."""

    base: dict[FigureType, int]
    ability: dict[str, int]

    def value(self, kind: FigureType, distance: bool, auto: bool, armour: Armour) -> int:
        total = self.base[kind]
        if distance:
            total += self.ability["distance"]
        if auto:
            total += self.ability["auto"]
        if armour != "none":
            total += self.ability[armour]
        return total


@cache
def points() -> PointScheme:
    raw = _read("points.toml")
    return PointScheme(
        base={k: int(raw["base"][k]) for k in FIGURE_TYPES},
        ability={k: int(v) for k, v in raw["ability"].items()},
    )


@dataclass(frozen=True, slots=True)
class Profile:
    """What a figure is and can do: type, abilities, armour, skills, points, base."""

    key: str
    kind: FigureType
    distance: bool
    auto: bool
    armour: Armour
    skills: tuple[str, ...]
    points: int
    base: Base
    name: str = ""
    aquatic: bool = False
    """A ship, boat or fish man: water is not rough terrain for it (II.2)."""

    @property
    def is_guy(self) -> bool:
        return is_guy(self.kind)

    @property
    def is_mount(self) -> bool:
        return is_mount(self.kind)

    def describe(self) -> str:
        bits: list[str] = [self.kind]
        if self.distance:
            bits.append("automatic fire" if self.auto else "distance attack")
        if self.armour != "none":
            bits.append(f"{self.armour} armour")
        if self.skills:
            bits.append("skills " + "/".join(self.skills))
        if self.aquatic:
            bits.append("aquatic")
        return ", ".join(bits) + f", {self.points} pts"
