"""The odds of an MGV action in words, for ``odds`` at the play prompt (and the bots' seats).

A fire declaration lists each attack's exact chances of hits with the
modifiers that apply. Nothing here ever names a distance: the photon line
gives the odds for a perfect guess and for the model's typical error, so the
prompt cannot be used as a tape measure (5.3); nor does a range guess have odds.
"""

from __future__ import annotations

from fractions import Fraction

from warbench.core.actions import Action
from warbench.errors import IllegalAction
from warbench.rulesets.mgv import combat, fire
from warbench.rulesets.mgv.actions import FireOrder
from warbench.rulesets.mgv.state import Attack, State


def _dist(dist: dict[int, Fraction]) -> str:
    mean = float(sum(k * p for k, p in dist.items()))
    parts = ", ".join(f"{k}: {float(p):.0%}" for k, p in sorted(dist.items()) if p)
    return f"mean {mean:.2f} ({parts})"


def _attack(state: State, attack: Attack) -> str:
    shooter = state.bases[attack.shooters[0]]
    target = state.bases[attack.target]
    value = shooter.mounts[attack.slot].attack
    head = f"{attack.label()} {attack.weapon} at {target.id}"
    if attack.weapon == "kinetic":
        from warbench.rulesets.mgv.space import range_to

        mods = fire.modifiers(state, attack)
        band = combat.range_shift(range_to(shooter, target))
        dist = combat.kinetic_distribution(value, target.defence, mods.total() + band)
        return f"{head}: hits {_dist(dist)}"
    if attack.weapon == "photon":
        mods = fire.modifiers(state, attack)
        dist = combat.photon_distribution(value, 0, mods.total(ranging=False))
        return f"{head}: with a guess within 1/2in, hits {_dist(dist)}; -1 per further 1/2in"
    own, theirs = fire.missile_dice(state, attack)
    return (
        f"{head}: {own} attack dice against {theirs} block dice, split sealed (5.2); "
        "see 'warbench odds mgv missile'"
    )


def explain_action(state: State, side: str, action: Action) -> str | None:
    if not isinstance(action, FireOrder) or state.step != "declare":
        return None
    try:
        attacks = fire.check_declare(state, side, action)
    except IllegalAction:
        return None
    if not attacks:
        return None
    return "; ".join(_attack(state, a) for a in attacks)
