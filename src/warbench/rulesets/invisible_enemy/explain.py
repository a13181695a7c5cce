"""The odds of an Invisible Enemy action in words, for ``odds`` at the play prompt.

A shot gives its exact chances of hull hits with the chart row and the
modifiers that apply; a Control attempt its chance of moving; a self-destruct
its blast and the chance of each base in it. A barrage marker has no odds here:
the chance per defence is ``warbench odds invisible-enemy barrage``, but saying
which bases a point would reach would be measuring, which 3.0 forbids.
"""

from __future__ import annotations

from fractions import Fraction

from warbench.core.actions import Action
from warbench.geometry.table import centre_distance
from warbench.rulesets.invisible_enemy import space
from warbench.rulesets.invisible_enemy.actions import Destruct, Fire, Unit
from warbench.rulesets.invisible_enemy.charts import (
    control_chance,
    direct_distribution,
    self_destruct,
    self_destruct_distribution,
)
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.state import State


def _dist(dist: dict[int, Fraction]) -> str:
    mean = float(sum(k * p for k, p in dist.items()))
    parts = ", ".join(f"{k}: {float(p):.0%}" for k, p in sorted(dist.items()) if p)
    return f"mean {mean:.2f} hull hits ({parts})"


def _defence(state: State, target: str) -> tuple[int, int, int]:
    """Defence, hits taken and hull of a base or a fungus tower."""
    base = state.bases.get(target)
    if base is not None:
        return base.model.defence, base.hits, base.model.hull
    tower = state.towers[target]
    return rules().data.fungus.defence, tower.hits, tower.hull


def _fire(state: State, action: Fire) -> str | None:
    massed = len(action.shooters) >= rules().data.fire.massed
    if action.target not in state.bases and action.target not in state.towers:
        return None
    defence, hits, hull = _defence(state, action.target)
    parts = []
    for sid in action.shooters:
        shooter = state.bases.get(sid)
        if shooter is None or not shooter.active:
            return None
        lof = space.line_of_fire(state, shooter, action.target)
        if not lof.allowed:
            return None
        weapon = shooter.model.weapon
        row = "K" if weapon == "K" or massed else "C/P"
        notes = [f"{row} row, attack {shooter.model.attack} against defence {defence}"]
        if shooter.damage != "none":
            notes.append(f"firer {shooter.damage} damaged")
        if lof.cover:
            notes.append("target covered -3")
        if massed:
            notes.append("massed battery")
        dist = direct_distribution(
            shooter.model.attack, defence, weapon, shooter.damage, lof.cover, massed
        )
        parts.append(f"{sid} at {action.target} ({'; '.join(notes)}): {_dist(dist)}")
    left = hull - hits
    return "; ".join(parts) + f"; {action.target} has {left} of {hull} hull points left"


def _unit(state: State, side: str, unit_id: str) -> str | None:
    unit = state.units.get(unit_id)
    if unit is None or unit.side != side:
        return None
    if unit.auto_turn == state.turn:
        return f"{unit_id} has an automatic move marker: it moves without a roll (2.0)"
    status = state.networks[side].status
    plain = control_chance(status)
    helped = control_chance(status, True)
    return (
        f"{unit_id} moves with chance {float(plain):.0%} at {status}% network status "
        f"({float(helped):.0%} with a network base in range) (4.0)"
    )


def _destruct(state: State, action: Destruct) -> str | None:
    base = state.bases.get(action.base)
    if base is None or not base.active:
        return None
    blast = self_destruct(int(base.model.speed), base.model.defence)
    caught = [
        o
        for o in state.active()
        if o.id != base.id and centre_distance(base.geo, o.geo) <= blast.range + 1e-9
    ]
    lines = [f"{base.id} blasts everything within {blast.range:g}in at attack {blast.attack}"]
    for other in caught:
        lof = space.cover_against(state, base, other)
        dist = self_destruct_distribution(
            int(base.model.speed), base.model.defence, other.model.defence, lof
        )
        lines.append(f"{other.id} ({other.side}): {_dist(dist)}")
    if not caught:
        lines.append("no base is caught in it")
    return "; ".join(lines)


def explain_action(state: State, side: str, action: Action) -> str | None:
    if isinstance(action, Fire) and state.step in ("fire_a", "fire_b"):
        return _fire(state, action)
    if isinstance(action, Unit) and state.step == "activate":
        return _unit(state, side, action.unit)
    if isinstance(action, Destruct):
        return _destruct(state, action)
    return None


__all__ = ["explain_action"]
