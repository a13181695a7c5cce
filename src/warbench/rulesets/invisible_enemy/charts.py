"""Invisible Enemy charts (2.0, 3.0, 4.0, 4.5, 5.0-5.3, 6.0, 7.0) as pure functions.

The numbers are ``data/charts.toml``: the text's own tables where it prints
them, stand-ins (each saying why) where the printed combat chart is missing.
Nothing here touches a game state: the engine passes ratings and a ``roll``
callable ``(purpose, n) -> n results of 1D6``; tests pass scripted dice. Each
resolve function has an exact distribution beside it (``Fraction``s summing to
1), read by the odds queries, the bots and the tests.

>>> network_combat((6, 6, 5, 4, 4, 3, 1, 1), (6, 5, 5, 5, 3, 2, 2)).points
(4, 2)
>>> area_needs(3, no_flank_support=True), area_needs("fungus tower")
(10, 11)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Literal, TypeAlias

from pydantic import Field, model_validator

from warbench.core.dice import sum_distribution
from warbench.rulesets.kit.datafiles import DataModel, data_file

Roll: TypeAlias = Callable[[str, int], tuple[int, ...]]
"""``roll(purpose, n)``: n results of 1D6, logged with their purpose."""
Weapon = Literal["K", "C", "P"]
WEAPONS: tuple[Weapon, ...] = ("K", "C", "P")
Damage = Literal["none", "1/3", "2/3"]
DAMAGES: tuple[Damage, ...] = ("none", "1/3", "2/3")
Mission = Literal["R", "E", "S"]
MISSIONS: tuple[Mission, ...] = ("R", "E", "S")
MISSION_WORDS: dict[str, str] = {
    "R": "repair",
    "E": "demolition, general engineering",
    "S": "strike",
}
"""1.3's three engineer missions, as the Engineering table's columns name them."""
STATUSES = (100, 75, 50, 25)
FUNGUS_TOWER: Literal["fungus tower"] = "fungus tower"
FACES = range(1, 7)


# -- the data ------------------------------------------------------------------------------
_Model = DataModel


class _Table(_Model):
    stand_in: bool
    reason: str = Field(min_length=20)


class Network(_Table):
    max_dice: int = Field(ge=1, le=20)


class Actions(_Table):
    automatic_move: int = Field(ge=1)
    type1_barrage: int = Field(ge=1)
    barrage_deflection: int = Field(ge=1)
    suppress_25: int = Field(ge=1)
    suppress_50: int = Field(ge=1)
    suppress_75: int = Field(ge=1)
    enemy_loses_die: int = Field(ge=1)


class Control(_Table):
    move_on: dict[int, int]
    network_mgv_bonus: int = Field(ge=0)
    natural_one_fails: bool
    floor: int

    @model_validator(mode="after")
    def _statuses(self) -> Control:
        if sorted(self.move_on) != sorted(STATUSES):
            raise ValueError(f"the Control table needs the statuses {STATUSES}")
        needs = [self.move_on[s] for s in STATUSES]
        if needs != sorted(needs) or not all(1 <= n <= 7 for n in needs):
            raise ValueError("a lower network status may never move more easily")
        if self.floor not in STATUSES:
            raise ValueError("the floor is one of the statuses")
        return self


class Area(_Table):
    dice: int = Field(ge=1, le=3)
    destroyed_on: dict[int, int]
    fungus_tower_defence: int = Field(ge=1)
    """1.5 chart note 2 (as ``rules.toml [fungus] defence``)."""
    no_flank_support: int
    deflected: int

    @model_validator(mode="after")
    def _rows(self) -> Area:
        keys = sorted(self.destroyed_on)
        if keys != list(range(1, len(keys) + 1)):
            raise ValueError("defence rows run 1, 2, ... without gaps")
        needs = [self.destroyed_on[k] for k in keys]
        if needs != sorted(needs):
            raise ValueError("a better defence may never be destroyed more easily")
        return self


class DirectModifiers(_Table):
    third_damaged: int = Field(le=0)
    two_thirds_damaged: int = Field(le=0)
    cover: int = Field(le=0)


class Direct(_Table):
    low: int
    k: tuple[int, ...]
    cp: tuple[int, ...]
    modifiers: DirectModifiers

    @model_validator(mode="after")
    def _rows(self) -> Direct:
        if len(self.k) != len(self.cp) or not self.k:
            raise ValueError("the K and C/P rows need one entry per column")
        for name, row in (("K", self.k), ("C/P", self.cp)):
            if list(row) != sorted(row):
                raise ValueError(f"the {name} row may only rise with attack - defence")
        if any(c > k for k, c in zip(self.k, self.cp, strict=True)):
            raise ValueError("the K row is never worse than the C/P row (5.3 massed battery)")
        return self

    @property
    def high(self) -> int:
        return self.low + len(self.k) - 1


class SelfDestruct(_Table):
    speed_up_to: tuple[int, ...]
    speed_bonus: tuple[int, ...]
    ranges: tuple[float, ...]
    row: Literal["K", "CP"]

    @model_validator(mode="after")
    def _bands(self) -> SelfDestruct:
        bands = len(self.speed_up_to) + 1
        if len(self.speed_bonus) != bands or len(self.ranges) != bands:
            raise ValueError("one bonus and one range per speed band")
        if list(self.speed_up_to) != sorted(set(self.speed_up_to)):
            raise ValueError("speed bands ascend")
        return self


class EngineeringAction(_Model):
    key: str
    description: str
    mission: Mission
    needs: int | Literal["auto"]

    @model_validator(mode="after")
    def _needs(self) -> EngineeringAction:
        if self.needs != "auto" and not 2 <= self.needs <= 6:
            raise ValueError(f"{self.key}: a roll needed is 2 to 6, or auto")
        return self


class Engineering(_Table):
    dice: int = Field(ge=1, le=1)
    action: tuple[EngineeringAction, ...]

    @model_validator(mode="after")
    def _keys(self) -> Engineering:
        keys = [a.key for a in self.action]
        if len(set(keys)) != len(keys):
            raise ValueError("engineering action keys are unique")
        if {a.mission for a in self.action} != set(MISSIONS):
            raise ValueError("every mission (R, E, S) has actions")
        return self


class Nations(_Table):
    levels: dict[str, int]


class NetworkRange(_Table):
    same_as_interval: bool


class Tech(_Table):
    up_to: tuple[int, ...]
    base_interval: tuple[float, ...]
    nations: Nations
    network_range: NetworkRange

    @model_validator(mode="after")
    def _bands(self) -> Tech:
        if len(self.base_interval) != len(self.up_to) + 1:
            raise ValueError("one base interval per tech band")
        return self


class Charts(_Model):
    """The whole of ``data/charts.toml``."""

    network: Network
    actions: Actions
    control: Control
    area: Area
    direct: Direct
    self_destruct: SelfDestruct
    engineering: Engineering
    tech: Tech

    def tables(self) -> dict[str, _Table]:
        """Every table by name (nested ones dotted), for the stand-in listing."""
        return {
            "network": self.network,
            "actions": self.actions,
            "control": self.control,
            "area": self.area,
            "direct": self.direct,
            "direct.modifiers": self.direct.modifiers,
            "self_destruct": self.self_destruct,
            "engineering": self.engineering,
            "tech": self.tech,
            "tech.nations": self.tech.nations,
            "tech.network_range": self.tech.network_range,
        }


charts = data_file("warbench.rulesets.invisible_enemy", "charts.toml", Charts)
"""The charts, validated once."""


# -- dice ----------------------------------------------------------------------------------
def _roll(roll: Roll, purpose: str, n: int) -> tuple[int, ...]:
    faces = roll(purpose, n) if n else ()
    if len(faces) != n or any(f not in FACES for f in faces):
        raise ValueError(f"{purpose}: wanted {n} results of 1D6, got {faces}")
    return faces


# -- 2.0 Network Combat --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pair:
    """One comparison of network combat: A's die, B's die (None: unopposed), the survivor."""

    a: int | None
    b: int | None

    @property
    def winner(self) -> Literal["A", "B", "none"]:
        if self.b is None or (self.a is not None and self.a > self.b):
            return "A"
        if self.a is None or self.b > self.a:
            return "B"
        return "none"


@dataclass(frozen=True, slots=True)
class NetworkResult:
    """Network combat (2.0): the comparisons, the action points and the disqualified dice."""

    pairs: tuple[Pair, ...]

    @property
    def points(self) -> tuple[int, int]:
        """A's and B's tactical action points: one per surviving die."""
        winners = [p.winner for p in self.pairs]
        return winners.count("A"), winners.count("B")

    @property
    def disqualified_a(self) -> tuple[int, ...]:
        return tuple(p.a for p in self.pairs if p.a is not None and p.winner != "A")

    @property
    def disqualified_b(self) -> tuple[int, ...]:
        return tuple(p.b for p in self.pairs if p.b is not None and p.winner != "B")


def network_combat(dice_a: Sequence[int], dice_b: Sequence[int]) -> NetworkResult:
    """Compare both sides' network dice, highest against highest (2.0 Network Combat).

    A tie disqualifies both dice, the loser of a pair is disqualified, a die with
    no opponent survives; each survivor is one action point. Disqualified dice
    stay in their owner's pool (the caller does not remove them).

    >>> network_combat((3, 5), (5,)).points
    (1, 0)
    """
    for dice in (dice_a, dice_b):
        if any(d not in FACES for d in dice):
            raise ValueError(f"network dice are 1D6 results, got {tuple(dice)}")
    a, b = sorted(dice_a, reverse=True), sorted(dice_b, reverse=True)
    pairs = [
        Pair(a[i] if i < len(a) else None, b[i] if i < len(b) else None)
        for i in range(max(len(a), len(b)))
    ]
    return NetworkResult(tuple(pairs))


def _check_pool(n: int, who: str) -> None:
    cap = charts().network.max_dice
    if not 0 <= n <= cap:
        raise ValueError(f"{who} has {n} network dice; 0 to {cap} are supported")


def roll_network(n_a: int, n_b: int, roll: Roll) -> NetworkResult:
    """Roll both pools (A first) and compare them."""
    _check_pool(n_a, "side A")
    _check_pool(n_b, "side B")
    return network_combat(_roll(roll, "network dice A", n_a), _roll(roll, "network dice B", n_b))


@cache
def network_distribution(n_a: int, n_b: int) -> dict[tuple[int, int], Fraction]:
    """Exact joint chances of (A's points, B's points) for ``n_a`` against ``n_b`` dice.

    A dynamic programme over the faces from 6 down to 1: the state is how many
    of each side's dice are higher than the face (their places in the sorted
    pools) and the wins so far; each step gives both sides some dice of this
    face (binomial ways), and scores the places where the second die of a
    compared pair is now known. Dice beyond the shorter pool are unopposed.

    >>> network_distribution(1, 1)[(0, 0)]
    Fraction(1, 6)
    """
    _check_pool(n_a, "side A")
    _check_pool(n_b, "side B")
    k = min(n_a, n_b)

    def overlap(lo: int, hi: int, lo2: int, hi2: int) -> int:
        return max(0, min(hi, hi2, k) - max(lo, lo2))

    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for face in range(6, 0, -1):
        step: dict[tuple[int, int, int, int], int] = {}
        for (i, j, wa, wb), ways in states.items():
            a_range = [n_a - i] if face == 1 else range(n_a - i + 1)
            b_range = [n_b - j] if face == 1 else range(n_b - j + 1)
            for ca in a_range:
                wa_ways = ways * comb(n_a - i, ca)
                for cb in b_range:
                    # A's new places [i, i+ca) against B's higher dice [0, j): B wins;
                    # B's new places [j, j+cb) against A's higher dice [0, i): A wins.
                    key = (
                        i + ca,
                        j + cb,
                        wa + overlap(j, j + cb, 0, i),
                        wb + overlap(i, i + ca, 0, j),
                    )
                    step[key] = step.get(key, 0) + wa_ways * comb(n_b - j, cb)
        states = step
    whole = 6 ** (n_a + n_b)
    out: dict[tuple[int, int], Fraction] = {}
    spare_a, spare_b = n_a - k, n_b - k
    for (_, _, wa, wb), ways in states.items():
        points = (wa + spare_a, wb + spare_b)
        out[points] = out.get(points, Fraction(0)) + Fraction(ways, whole)
    return dict(sorted(out.items()))


def action_costs() -> dict[str, int]:
    """The tactical actions (2.0) and their costs, in the order the text lists them."""
    return charts().actions.model_dump(exclude={"stand_in", "reason"})


# -- 4.0 Movement: the Control table ---------------------------------------------------------
def control_needs(status: int, has_network_mgv: bool = False) -> int:
    """The lowest 1D6 that moves a unit at this network status (7: it cannot move).

    >>> control_needs(100), control_needs(50), control_needs(50, True)
    (2, 4, 3)
    """
    table = charts().control
    if status not in STATUSES and status > 0:
        raise ValueError(f"network status is one of {STATUSES}, got {status}")
    status = max(status, table.floor)
    needs = table.move_on[status] - (table.network_mgv_bonus if has_network_mgv else 0)
    return max(needs, 2 if table.natural_one_fails else 1)


def control(status: int, has_network_mgv: bool, roll: Roll, automatic: bool = False) -> bool:
    """Whether a unit may move (4.0): an automatic move marker needs no roll."""
    needs = control_needs(status, has_network_mgv)
    if automatic:
        return True
    (face,) = _roll(roll, f"control at {status}%: moves on {needs}+", 1)
    return face >= needs


def control_chance(status: int, has_network_mgv: bool = False, automatic: bool = False) -> Fraction:
    """The exact chance that a unit moves."""
    if automatic:
        return Fraction(1)
    needs = control_needs(status, has_network_mgv)
    return Fraction(max(0, 7 - needs), 6)


# -- 3.0 Barrages: the Area Weapons table ----------------------------------------------------
Target: TypeAlias = int | Literal["fungus tower"]


def area_needs(target: Target, no_flank_support: bool = False, deflected: bool = False) -> int:
    """The lowest unmodified 2D6 that destroys the target (3.0 Phase 6).

    ``target`` is a defence rating, or ``"fungus tower"``; the modifiers are
    folded into the threshold (a tower is never flanked by a friendly base: it always
    takes the +1 for no flank support).
    """
    table = charts().area
    if target == FUNGUS_TOWER:
        base, flank = table.destroyed_on[table.fungus_tower_defence], table.no_flank_support
    elif isinstance(target, int) and not isinstance(target, bool) and target >= 1:
        base = table.destroyed_on[min(target, max(table.destroyed_on))]
        flank = table.no_flank_support if no_flank_support else 0
    else:
        raise ValueError(f"a barrage target is a defence of 1 or more or a fungus tower: {target}")
    return base - flank - (table.deflected if deflected else 0)


def area_weapon(
    target: Target, roll: Roll, no_flank_support: bool = False, deflected: bool = False
) -> bool:
    """Roll 2D6 for one target within 3" of a marker: True if it is destroyed."""
    needs = area_needs(target, no_flank_support, deflected)
    total = sum(_roll(roll, f"area weapon on {target}: destroyed on {needs}+", charts().area.dice))
    return total >= needs


def area_chance(
    target: Target, no_flank_support: bool = False, deflected: bool = False
) -> Fraction:
    """The exact chance that the target is destroyed."""
    needs = area_needs(target, no_flank_support, deflected)
    dist = sum_distribution(charts().area.dice)
    return sum((p for total, p in dist.items() if total >= needs), Fraction(0))


# -- 5.0 Direct Fire: the combat chart -------------------------------------------------------
def chart_modifier(attack: int, defence: int, weapon: Weapon, massed: bool = False) -> int:
    """The row modifier for attack against defence (5.0): K row, or C/P (K for a massed C
    battery, 5.3).

    >>> chart_modifier(4, 4, "K"), chart_modifier(4, 4, "P"), chart_modifier(4, 4, "C", True)
    (-1, -2, -1)
    """
    table = charts().direct
    if weapon not in WEAPONS:
        raise ValueError(f"a weapon class is one of {WEAPONS}, got {weapon}")
    if massed and weapon != "C":
        raise ValueError("only Type C bases fire as a massed battery (5.3)")
    column = max(table.low, min(table.high, attack - defence)) - table.low
    row = table.k if weapon == "K" or massed else table.cp
    return row[column]


def fire_modifier(damage: Damage, cover: bool) -> int:
    """The 5.1 modifiers: firer damage (the larger step only) and target cover."""
    mods = charts().direct.modifiers
    if damage not in DAMAGES:
        raise ValueError(f"firer damage is one of {DAMAGES}, got {damage}")
    by_damage = {"none": 0, "1/3": mods.third_damaged, "2/3": mods.two_thirds_damaged}
    return by_damage[damage] + (mods.cover if cover else 0)


def damage_band(hits: int, hull: int) -> Damage:
    """The firer's damage step (5.1) from its hull hits and hull points."""
    if hull < 1 or not 0 <= hits <= hull:
        raise ValueError(f"{hits} hits on a hull of {hull}")
    if 3 * hits >= 2 * hull:
        return "2/3"
    return "1/3" if 3 * hits >= hull else "none"


def _check_ratings(attack: int, defence: int) -> None:
    if attack < 0 or defence < 1:
        raise ValueError(f"attack is 0 or more and defence 1 or more: {attack}, {defence}")


def direct_fire(
    attack: int,
    defence: int,
    weapon: Weapon,
    firer_damage: Damage,
    cover: bool,
    roll: Roll,
    massed: bool = False,
) -> int:
    """1D6 + the chart modifier + the 5.1 modifiers: that many hull hits if positive."""
    _check_ratings(attack, defence)
    modifier = chart_modifier(attack, defence, weapon, massed) + fire_modifier(firer_damage, cover)
    (face,) = _roll(roll, f"direct fire {weapon} {attack} vs {defence}, {modifier:+d}", 1)
    return max(0, face + modifier)


def direct_distribution(
    attack: int,
    defence: int,
    weapon: Weapon,
    firer_damage: Damage = "none",
    cover: bool = False,
    massed: bool = False,
) -> dict[int, Fraction]:
    """Exact chances of each number of hull hits."""
    _check_ratings(attack, defence)
    modifier = chart_modifier(attack, defence, weapon, massed) + fire_modifier(firer_damage, cover)
    out: dict[int, Fraction] = {}
    for face in FACES:
        hits = max(0, face + modifier)
        out[hits] = out.get(hits, Fraction(0)) + Fraction(1, 6)
    return dict(sorted(out.items()))


# -- 6.0 MGV Self Destruct -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Blast:
    """A self-destruct (6.0): the attack value and the range (inches) it reaches."""

    attack: int
    range: float


def self_destruct(speed: int, defence: int) -> Blast:
    """Cross the base's speed rating with its defence value (6.0).

    >>> self_destruct(4, 3), self_destruct(7, 3)
    (Blast(attack=3, range=1.0), Blast(attack=5, range=2.0))
    """
    if speed < 0 or defence < 1:
        raise ValueError(f"speed is 0 or more and defence 1 or more: {speed}, {defence}")
    table = charts().self_destruct
    band = sum(1 for limit in table.speed_up_to if speed > limit)
    return Blast(defence + table.speed_bonus[band], table.ranges[band])


def _blast_weapon() -> Weapon:
    return "K" if charts().self_destruct.row == "K" else "P"


def self_destruct_attack(
    speed: int, defence: int, target_defence: int, cover: bool, roll: Roll
) -> int:
    """The hits the blast does to one base within its range (direct fire, no firer damage)."""
    blast = self_destruct(speed, defence)
    return direct_fire(blast.attack, target_defence, _blast_weapon(), "none", cover, roll)


def self_destruct_distribution(
    speed: int, defence: int, target_defence: int, cover: bool = False
) -> dict[int, Fraction]:
    blast = self_destruct(speed, defence)
    return direct_distribution(blast.attack, target_defence, _blast_weapon(), "none", cover)


# -- 7.0 Engineering -----------------------------------------------------------------------
def engineering_actions(mission: Mission | None = None) -> tuple[EngineeringAction, ...]:
    """The Engineering table, or the actions of one mission."""
    actions = charts().engineering.action
    return tuple(a for a in actions if mission is None or a.mission == mission)


def engineering_action(key: str) -> EngineeringAction:
    for action in charts().engineering.action:
        if action.key == key:
            return action
    known = ", ".join(a.key for a in charts().engineering.action)
    raise ValueError(f"no engineering action '{key}'; actions: {known}")


def engineering(key: str, mission: Mission, roll: Roll) -> bool:
    """Attempt an engineering action as an engineer tasked with ``mission`` (7.0)."""
    action = engineering_action(key)
    if action.mission != mission:
        raise ValueError(
            f"'{key}' is a mission {action.mission} action; an engineer tasked {mission} "
            "may not take it (1.3, 7.0)"
        )
    if action.needs == "auto":
        return True
    (face,) = _roll(roll, f"engineering {key}: {action.needs}+", charts().engineering.dice)
    return face >= action.needs


def engineering_chance(key: str) -> Fraction:
    needs = engineering_action(key).needs
    return Fraction(1) if needs == "auto" else Fraction(7 - needs, 6)


# -- 4.5 Base intervals, tech levels, network support --------------------------------------
def base_interval(tech_level: int) -> float:
    """The maximum base interval in inches for a national tech level (4.5).

    >>> base_interval(4), base_interval(5), base_interval(9)
    (5.0, 7.0, 9.0)
    """
    if tech_level < 1:
        raise ValueError(f"a tech level is 1 or more, got {tech_level}")
    tech = charts().tech
    return tech.base_interval[sum(1 for limit in tech.up_to if tech_level > limit)]


def network_range(tech_level: int) -> float:
    """A network base's support range in inches (stand-in: its base interval)."""
    return base_interval(tech_level)


def nation_tech(nation: str) -> int:
    levels = charts().tech.nations.levels
    if nation not in levels:
        raise ValueError(f"no tech level for '{nation}'; nations: {', '.join(sorted(levels))}")
    return levels[nation]
