"""One-ply scores of MiniWars actions for the greedy bot, in points of unit cost.

Each score is an expected change in material, computed with the exact odds of
:mod:`.combat`: removing a unit is worth its cost, disrupting it a fraction of
that (a disrupted unit is one hit from removal and fights worse). A move is
scored by the best attack it makes possible, less the exposure it risks, plus
a small pull toward the enemy so that armies close to fight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.miniwars import combat
from warbench.rulesets.miniwars.actions import Advance, Attack, Fire, Move, MoveOptions, Rally
from warbench.rulesets.miniwars.state import State, Unit

if TYPE_CHECKING:
    from warbench.rulesets.miniwars.rules import MiniWarsRules as MiniWars

DISRUPT_SHARE = 0.4
"""A disruption's worth, as a share of the unit's cost."""
APPROACH = 0.02
"""Pull toward the nearest enemy, per hex and per point of the unit's cost."""
EXPOSURE = 0.5
"""How much of an adjacent enemy's attack value a move counts against itself."""
ADVANCE = 0.1
"""An advance after a won melee: a small plus, so the bot takes the hex it emptied."""


def harm_value(target: Unit) -> float:
    """Expected material gain of one hit on ``target``."""
    cost = float(target.type.cost)
    return cost if target.disrupted else DISRUPT_SHARE * cost


def _melee_value(rules: MiniWars, state: State, unit: Unit, target: Unit) -> float:
    needed, mods = rules.melee_situation(state, unit, target)
    chances = combat.melee_chances(needed, combat.total(mods))
    risk = 0.0 if unit.disrupted else float(chances.doubles) * DISRUPT_SHARE * unit.type.cost
    return float(chances.success) * harm_value(target) - risk


def _at(unit: Unit, where: Hex) -> Unit:
    """A copy of ``unit`` standing at ``where`` (for what-if odds)."""
    return Unit(unit.id, unit.side, unit.type, where, unit.disrupted, unit.fired, unit.acted)


def _enemies_touching(state: State, side: str) -> dict[Hex, list[Unit]]:
    """For every hex, the enemies of ``side`` it could melee or be meleed by (cached)."""
    melee_into = state.setup.board.melee_into

    def touching(enemy: Unit, at: Hex) -> Iterator[tuple[Hex, Unit]]:
        return ((h, enemy) for h in melee_into[at])

    return enemy_table(state, ("enemies_touching", side), touching)


def enemy_table(
    state: State, key: tuple[str, str], spread: Callable[[Unit, Hex], Iterable[tuple[Hex, Unit]]]
) -> dict[Hex, list[Unit]]:
    """Per hex, the enemies of ``key``'s side that ``spread`` (given an enemy and its hex)
    lists there, in the enemies' order (cached in the state under ``key``)."""
    table: dict[Hex, list[Unit]] | None = state.caches.get(key)
    if table is None:
        table = {}
        for enemy in state.side_units(state.enemy_of(key[1])):
            assert enemy.pos is not None
            for h, seen in spread(enemy, enemy.pos):
                table.setdefault(h, []).append(seen)
        state.caches[key] = table
    return table


def _best_melee_from(
    rules: MiniWars, state: State, unit: Unit, where: Hex, enemies: list[Unit]
) -> float:
    options = state.setup.options
    if not enemies or (unit.fired and options.fired_units != "free"):
        return 0.0
    if where == unit.pos and not options.hold_and_melee:
        return 0.0  # holding allows no attack under this option
    ghost = _at(unit, where)
    return max(0.0, *(_melee_value(rules, state, ghost, other) for other in enemies))


def _exposure(rules: MiniWars, state: State, unit: Unit, where: Hex, enemies: list[Unit]) -> float:
    """What adjacent enemies could expect from attacking ``unit`` at ``where``."""
    if not enemies:
        return 0.0
    ghost = _at(unit, where)
    total = 0.0
    for other in enemies:
        needed, mods = rules.melee_situation(state, other, ghost)
        p = combat.melee_chances(needed, combat.total(mods)).success
        total += float(p) * harm_value(unit)
    return total


def _enemy_distance(state: State, side: str) -> dict[Hex, int]:
    """Hex distance from every hex to the nearest enemy (breadth-first, cached)."""
    key = ("enemy_distance", side)
    cached = state.caches.get(key)
    if cached is None:
        grid = state.setup.board.map.grid
        frontier = [u.pos for u in state.side_units(state.enemy_of(side)) if u.pos is not None]
        cached = dict.fromkeys(frontier, 0)
        step = 0
        while frontier:
            step += 1
            nxt = []
            for h in frontier:
                for n in grid.neighbours_on_map(h):
                    if n not in cached:
                        cached[n] = step
                        nxt.append(n)
            frontier = nxt
        state.caches[key] = cached
    return cached


def move_score(rules: MiniWars, state: State, unit: Unit, to: Hex) -> float:
    """Best attack from ``to``, less exposure there, plus the pull toward the enemy."""
    assert unit.pos is not None
    distance = _enemy_distance(state, unit.side)
    closer = distance.get(unit.pos, 0) - distance.get(to, 0)
    pull = APPROACH * unit.type.cost * closer
    if unit.disrupted:
        pull = -pull  # a disrupted unit should fall back toward its leaders, not close
    enemies = [e for e in _enemies_touching(state, unit.side).get(to, ()) if e is not unit]
    if not enemies:
        return pull
    return (
        _best_melee_from(rules, state, unit, to, enemies)
        - EXPOSURE * _exposure(rules, state, unit, to, enemies)
        + pull
    )


def _scores_of(rules: MiniWars, state: State, unit: Unit) -> dict[Hex, float]:
    """Move scores of one unit, cached until a unit is removed or disrupted."""
    key = ("move_scores", unit.id)
    table = state.caches.get(key)
    if table is None:
        table = state.caches[key] = {}
    return table


def _evaluate_moves(rules: MiniWars, state: State, options: MoveOptions) -> list[float]:
    scores: list[float] = []
    units = state.units
    for uid, dests in options.movers:
        unit = units[uid]
        table = _scores_of(rules, state, unit)
        for h in dests:
            value = table.get(h)
            if value is None:
                value = table[h] = move_score(rules, state, unit, h)
            scores.append(value)
    scores.append(0.0)  # end
    return scores


def evaluate(rules: MiniWars, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    if isinstance(actions, MoveOptions):
        return _evaluate_moves(rules, state, actions)
    scores: list[float] = []
    charts = state.setup.board.charts
    units = state.units
    for action in actions:
        score = 0.0
        if isinstance(action, Fire):
            unit, target = units[action.unit], units[action.target]
            needed, mods = rules.missile_situation(state, unit, target)
            hit = combat.missile_hit_chance(needed, combat.total(mods), charts)
            score = float(hit) * harm_value(target)
        elif isinstance(action, Attack):
            score = _melee_value(rules, state, units[action.unit], units[action.target])
        elif isinstance(action, Move):
            score = move_score(rules, state, units[action.unit], action.to)
        elif isinstance(action, Rally):
            leader, unit = units[action.leader], units[action.unit]
            distance, mods = rules.rally_situation(state, leader, unit)
            chance = (
                combat.self_rally_chance(charts)
                if leader is unit
                else combat.rally_chance(distance, combat.total(mods), charts)
            )
            score = float(chance) * DISRUPT_SHARE * unit.type.cost
        elif isinstance(action, Advance):
            score = ADVANCE
        scores.append(score)
    return scores


def standing(state: State) -> dict[str, float]:
    """Each side's units on the board at their worth to an attacker (``harm_value``):
    a disrupted unit its cost, one in good order also the share a disrupting hit
    would take from it."""
    found = dict.fromkeys(state.setup.sides, 0.0)
    for unit in state.units.values():
        if unit.on_board:
            cost = float(unit.type.cost)
            found[unit.side] += cost if unit.disrupted else cost * (1.0 + DISRUPT_SHARE)
    return found
