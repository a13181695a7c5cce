"""Exact odds of MiniWars attacks and rallies: pure functions of a situation.

The rules, the ``odds`` command and the greedy bot all call these, so what a
player is shown is exactly what the rules roll.

>>> from warbench.rulesets.miniwars.data import charts
>>> missile_hit_chance(charts().missile_target("B", 2), 0, charts())  # B at range 2: 4-6
Fraction(1, 2)
>>> melee_chances(charts().melee_target(3, 2), 0).success  # CS 3 vs CS 2 needs 7+
Fraction(7, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Literal

from warbench.rulesets.miniwars.data import Charts

Modifiers = list[tuple[int, str]]

_TWO_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def morale_modifier(target_morale: str, charts: Charts) -> Modifiers:
    """The target's morale modifier (+ and ! harder to hit, - easier)."""
    value = charts.morale_modifier[target_morale]
    return [(value, f"target morale {target_morale}")] if value else []


def roll_modifiers(
    charts: Charts,
    roll: Literal["missile", "melee"],
    morale: str,
    attacker_disrupted: bool,
    more: Modifiers,
) -> Modifiers:
    """Every modifier to a missile or a melee roll (Missile Fire, Melee Combat): the
    target's morale, the attacker's disruption, then ``more`` (height; terrain)."""
    mods = morale_modifier(morale, charts)
    if attacker_disrupted:
        missile = roll == "missile"
        penalty = charts.missile_attacker_disrupted if missile else charts.melee_attacker_disrupted
        mods.append((penalty, "attacker disrupted"))
    return mods + more


def total(mods: Modifiers) -> int:
    return sum(value for value, _ in mods)


def missile_hits(roll: int, target: int, modifier: int, charts: Charts) -> bool:
    """One die: a natural 1 always misses, else roll + modifier must reach the target."""
    return roll != charts.missile_automatic_miss and roll + modifier >= target


@cache
def missile_hit_chance(target: int | None, modifier: int, charts: Charts) -> Fraction:
    if target is None:
        return Fraction(0)
    hits = sum(1 for roll in range(1, 7) if missile_hits(roll, target, modifier, charts))
    return Fraction(hits, 6)


@dataclass(frozen=True, slots=True)
class MeleeChances:
    success: Fraction
    doubles: Fraction
    """Chance of doubles, which disrupts an undisrupted attacker win or lose."""


def melee_succeeds(dice: tuple[int, ...], target: int, modifier: int) -> bool:
    return sum(dice) + modifier >= target


@cache
def melee_chances(target: int, modifier: int) -> MeleeChances:
    wins = sum(1 for a, b in _TWO_DICE if a + b + modifier >= target)
    return MeleeChances(Fraction(wins, 36), Fraction(6, 36))


def rally_succeeds(roll: int, distance: int, modifier: int, charts: Charts) -> bool:
    """Rally: a 1 always fails; otherwise roll + modifier must exceed the distance."""
    return roll != charts.rally_automatic_failure and roll + modifier > distance


@cache
def rally_chance(distance: int, modifier: int, charts: Charts) -> Fraction:
    wins = sum(1 for roll in range(1, 7) if rally_succeeds(roll, distance, modifier, charts))
    return Fraction(wins, 6)


def self_rally_chance(charts: Charts) -> Fraction:
    return Fraction(sum(1 for roll in range(1, 7) if roll >= charts.rally_self_min), 6)
