"""Exact odds of a CGME attack: pure functions shared by the rules, ``odds`` and bots.

An attack rolls ATT + dice against DEF + dice; the difference, less the
margin, picks a row of the result table (``data/core.toml``). Only the
difference of the two ratings (with their modifiers) matters, so the chances
are cached by it.

>>> from warbench.rulesets.cgme.data import load_world
>>> core = load_world("warbench.rulesets.cgme").core
>>> chances(core, 0)["destroy"]  # equal ratings: one die must beat the other by 2+
Fraction(5, 18)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache

from warbench.core.dice import sum_distribution
from warbench.rulesets.cgme.data import RESULTS, Core, ResultName

Modifiers = list[tuple[int, str]]
"""(value, reason) pairs, shown to people and summed by the rules."""


def total(mods: Modifiers) -> int:
    return sum(value for value, _ in mods)


def rating(base: int, mods: Modifiers) -> str:
    """A rating as people check it: the base, each modifier, then the total.

    >>> rating(1, [(1, "I: infantry at range 0")])
    '1 +1 (I: infantry at range 0) = 2'
    >>> rating(3, [])
    '3'
    """
    if not mods:
        return str(base)
    shown = "".join(f" {v:+d} ({why})" for v, why in mods)
    return f"{base}{shown} = {base + total(mods)}"


@cache
def roll_difference(attack_dice: int, defence_dice: int) -> tuple[tuple[int, Fraction], ...]:
    """Distribution of (attack dice - defence dice), as sorted (difference, chance) pairs."""
    out: dict[int, Fraction] = {}
    for a, pa in sum_distribution(attack_dice).items():
        for d, pd in sum_distribution(defence_dice).items():
            out[a - d] = out.get(a - d, Fraction(0)) + pa * pd
    return tuple(sorted(out.items()))


@cache
def chances(core: Core, delta: int) -> Mapping[ResultName, Fraction]:
    """Exact chance of each result when ATT - DEF (modifiers included) is ``delta``."""
    out = dict.fromkeys(RESULTS, Fraction(0))
    for diff, p in roll_difference(core.attack_dice, core.defence_dice):
        out[core.result(delta + diff)] += p
    return out


@cache
def float_chances(core: Core, delta: int) -> tuple[float, float]:
    """(destroy, wound) chances as floats, for the greedy bot's arithmetic."""
    exact = chances(core, delta)
    return float(exact["destroy"]), float(exact["wound"])
