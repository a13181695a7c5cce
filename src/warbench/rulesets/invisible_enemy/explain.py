"""The odds of an Invisible Enemy action in words, for ``odds`` at the play prompt, and
as data (``Ruleset.odds_result``), both from one computation (:func:`assess_action`).

A shot gives its exact chances of hull hits with the chart row and the
modifiers that apply; a Control attempt its chance of moving; a self-destruct
its blast and the chance of each base in it. A barrage marker has no odds here:
the chance per defence is ``warbench odds invisible-enemy barrage``, but saying
which bases a point would reach would be measuring, which 3.0 forbids.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from warbench.core.actions import Action
from warbench.core.odds import OddsResult, combined
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
from warbench.rulesets.invisible_enemy.movement import network_support
from warbench.rulesets.invisible_enemy.state import State

Explained = tuple[str, OddsResult | None]
"""An action's odds in words and as data, from one computation."""


def _dist(dist: Mapping[int, Fraction]) -> str:
    mean = float(sum(k * p for k, p in dist.items()))
    parts = ", ".join(f"{k}: {float(p):.0%}" for k, p in sorted(dist.items()) if p)
    return f"mean {mean:.2f} hull hits ({parts})"


def _hits(dist: Mapping[int, Fraction], name: str = "") -> dict[str, Fraction]:
    """Outcome names of a distribution of hits: ``2 hits`` (or ``A2: 2 hits``)."""
    head = f"{name}: " if name else ""
    return {f"{head}{_count(k)}": p for k, p in sorted(dist.items()) if p}


def _count(k: int) -> str:
    return f"{k} hit{'' if k == 1 else 's'}"


def _sum(first: Mapping[int, Fraction], second: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of the sum of two independent rolls."""
    out: dict[int, Fraction] = {}
    for a, p in first.items():
        for b, q in second.items():
            out[a + b] = out.get(a + b, Fraction(0)) + p * q
    return out


def _defence(state: State, target: str) -> tuple[int, int, int]:
    """Defence, hits taken and hull of a base or a fungus tower."""
    base = state.bases.get(target)
    if base is not None:
        return base.model.defence, base.hits, base.model.hull
    tower = state.towers[target]
    return rules().data.fungus.defence, tower.hits, tower.hull


def _fire(state: State, action: Fire) -> Explained | None:
    """Each shooter's hull hits; as data the step's total on the target (the shooters
    roll apart, their hits land together, 5.0), each shooter's own under its id in
    ``extra`` when there are several, and the chance the target is destroyed."""
    massed = len(action.shooters) >= rules().data.fire.massed
    if action.target not in state.bases and action.target not in state.towers:
        return None
    defence, hits, hull = _defence(state, action.target)
    parts = []
    total: dict[int, Fraction] = {0: Fraction(1)}
    extra: dict[str, Fraction] = {}
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
        total = _sum(total, dist)
        if len(action.shooters) > 1:
            extra.update(_hits(dist, sid))
        parts.append(f"{sid} at {action.target} ({'; '.join(notes)}): {_dist(dist)}")
    if len(action.shooters) > 1:
        parts.append(f"together {_dist(total)}")
    # 5.0: this step's earlier hits on the target land with these.
    pending = sum(s.hits for s in state.pending if s.target == action.target)
    needed = max(0, hull - hits - pending)
    destroyed = sum((p for k, p in total.items() if k >= needed), Fraction(0))
    extra[f"{action.target} destroyed"] = destroyed
    left = hull - hits
    killed = ""
    tower = state.towers.get(action.target)
    if tower is not None and tower.live:  # 1.5 note 2: a third of its hull kills it
        to_kill = max(0, -(-hull // 3) - hits - pending)
        chance = sum((p for k, p in total.items() if k >= to_kill), Fraction(0))
        extra[f"{action.target} killed"] = chance
        killed = f"killed (no longer infects) {float(chance):.0%}, "
    text = (
        "; ".join(parts)
        + f"; {action.target} has {left} of {hull} hull points left"
        + (f" ({pending} more landing this step)" if pending else "")
        + f": {killed}destroyed {float(destroyed):.0%}"
    )
    return text, OddsResult(_hits(total), extra)


def _unit(state: State, side: str, unit_id: str) -> Explained | None:
    """The unit's Control roll (4.0): ``moves`` or ``may not move``."""
    unit = state.units.get(unit_id)
    if unit is None or unit.side != side:
        return None
    if unit.auto_turn == state.turn:
        text = f"{unit_id} has an automatic move marker: it moves without a roll (2.0)"
        return text, OddsResult({"moves": Fraction(1)})
    status = state.networks[side].status
    support = network_support(state, unit_id)
    chance = control_chance(status, support)
    result = OddsResult({k: p for k, p in (("moves", chance), ("may not move", 1 - chance)) if p})
    text = (
        f"{unit_id} moves with chance {float(chance):.0%} at {status}% network status "
        f"({'with' if support else 'no'} network base in range) (4.0)"
    )
    return text, result


def _destruct(state: State, action: Destruct) -> Explained | None:
    """The blast's hull hits on every base caught in it; as data every combination
    (``R1: 2 hits; R2: 0 hits``: each base rolls apart), each base's own in ``extra``."""
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
    rolls: list[tuple[str, dict[int, Fraction]]] = []
    extra: dict[str, Fraction] = {}
    for other in caught:
        lof = space.cover_against(state, base, other)
        dist = self_destruct_distribution(
            int(base.model.speed), base.model.defence, other.model.defence, lof
        )
        rolls.append((other.id, dist))
        extra.update(_hits(dist, other.id))
        lines.append(f"{other.id} ({other.side}): {_dist(dist)}")
    if not caught:
        lines.append("no base is caught in it")
        return "; ".join(lines), OddsResult({"no base caught": Fraction(1)}, extra)
    return "; ".join(lines), OddsResult(combined(rolls, _count), extra)


def assess_action(state: State, side: str, action: Action) -> Explained | None:
    """The odds of a shot, a Control roll or a self-destruct now, in words and as data;
    None for an action that rolls nothing here (a barrage marker: see the module)."""
    if isinstance(action, Fire) and state.step in ("fire_a", "fire_b"):
        return _fire(state, action)
    if isinstance(action, Unit) and state.step == "activate":
        return _unit(state, side, action.unit)
    if isinstance(action, Destruct):
        return _destruct(state, action)
    return None


def explain_action(state: State, side: str, action: Action) -> str | None:
    """The odds of ``action`` in words."""
    explained = assess_action(state, side, action)
    return None if explained is None else explained[0]


def action_result(state: State, side: str, action: Action) -> OddsResult | None:
    """The same odds as data: hull hits (``2 hits``) of a shot, with ``TARGET destroyed``
    beside; ``moves``/``may not move`` of a Control roll; a self-destruct's blast."""
    explained = assess_action(state, side, action)
    return None if explained is None else explained[1]


__all__ = ["action_result", "assess_action", "explain_action"]
