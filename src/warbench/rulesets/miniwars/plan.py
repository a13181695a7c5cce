"""The MiniWars planner's scores (``Ruleset.plan``): evaluate's material, played for the scenario.

What it adds to :mod:`.evaluate` (which the greedy bot and the kernel keep):

* the scenario's ``[victory] at_turn_limit`` read as a role
  (:func:`warbench.rulesets.kit.planning.stakes`): the side named there holds (its
  losses weigh three times, it keeps out of the enemy's reach for the coming
  movement, it does not close in), the other must wipe it out in time (closes in
  harder as the turns run out, pays less for its own losses); ``units`` and
  ``points`` are judged by the lead at the limit;
* moves scored relative to standing still, so ``end`` and holding are worth
  their 0 against moves that lose more than they gain;
* a melee valued as the first of a combination on its target (Wesnoth's attack
  analysis): friends that have not moved and can reach another hex next to it
  follow, and the sequence of exact melee odds (:func:`.combat.melee_chances`)
  gives the chance the target falls (a disrupted unit falls to one hit, one in
  good order to two), with the break point and the last army counted;
* the enemy's reach next movement: what it could expect against a unit where
  it stands (exact odds too), for the side that must keep its units.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from warbench.core.actions import Action, End, Pass
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.kit.planning import Role, Stakes, best_combination, hit_chain, stakes
from warbench.rulesets.miniwars import combat
from warbench.rulesets.miniwars.actions import Advance, Attack, Fire, Move, MoveOptions, Rally
from warbench.rulesets.miniwars.evaluate import (
    ADVANCE,
    APPROACH,
    DISRUPT_SHARE,
    EXPOSURE,
    _at,
    _enemies_touching,
    _enemy_distance,
    _exposure,
    enemy_table,
    evaluate,
    harm_value,
)
from warbench.rulesets.miniwars.state import State, Unit

if TYPE_CHECKING:
    from warbench.rulesets.miniwars.rules import MiniWarsRules as MiniWars

FOLLOW = 0.8
"""Share of the followers' part of a combination counted for its opener (they
may yet do better elsewhere, or the dice change the plan)."""
WIN = 1000.0
"""Worth of wiping out the enemy's last army (the game)."""
COMBINATION = 3
"""Units in a combination at most (the opener and two friends)."""


def _role(state: State, side: str) -> Role:
    rule = state.setup.at_turn_limit
    if rule == side:
        return "hold"
    if rule in state.setup.sides:
        return "take"
    if rule in ("units", "points"):
        return "points"
    return "even"


def side_stakes(state: State, side: str) -> Stakes:
    """The side's weights now (cached per phase: the lead changes only with a removal)."""
    key = ("plan_stakes", side)
    found: Stakes | None = state.caches.get(key)
    if found is None:
        enemy = state.enemy_of(side)
        own, other = state.side_units(side), state.side_units(enemy)
        everyone = [*own, *other]
        scale = sum(float(u.type.cost) for u in everyone) / max(len(everyone), 1)
        if state.setup.at_turn_limit == "points":
            lead = float(state.lost_cost[enemy] - state.lost_cost[side])
        else:
            lead = (len(own) - len(other)) * scale
        found = stakes(_role(state, side), state.turn, state.setup.turn_limit, lead, scale)
        state.caches[key] = found
    return found


def _melee_odds(rules: MiniWars, state: State, unit: Unit, where: Hex, target: Unit) -> float:
    needed, mods = rules.melee_situation(state, _at(unit, where), target)
    return float(combat.melee_chances(needed, combat.total(mods)).success)


def _fall_value(state: State, target: Unit) -> float:
    """What removing ``target`` is worth: its cost, the break it may cause, the game."""
    enemy = target.side
    left = [u for u in state.side_units(enemy) if u is not target]
    if not left:
        return WIN
    value = float(target.type.cost)
    if enemy not in state.broken and len(left) * 2 <= state.start_count[enemy]:
        value += sum(DISRUPT_SHARE * u.type.cost for u in left if not u.disrupted)
    return value


def _threats(rules: MiniWars, state: State, side: str) -> dict[Hex, list[Unit]]:
    """Per hex, the enemies that could melee a unit there after their next move (each
    standing where it would attack from)."""
    melee_into = state.setup.board.melee_into

    def threatening(enemy: Unit, at: Hex) -> Iterator[tuple[Hex, Unit]]:
        seen: set[Hex] = set()
        for h in (at, *rules.reach(state, enemy)):
            for x in melee_into[h]:
                if x not in seen:
                    seen.add(x)
                    yield x, _at(enemy, h)

    return enemy_table(state, ("plan_threats", side), threatening)


def _threat(rules: MiniWars, state: State, unit: Unit, where: Hex) -> float:
    """What the enemies in reach could expect against ``unit`` at ``where`` (their best
    two attacks: a unit in good order falls to two hits)."""
    enemies = _threats(rules, state, unit.side).get(where)
    if not enemies:
        return 0.0
    ghost = _at(unit, where)
    chances = []
    for enemy in enemies:
        assert enemy.pos is not None
        needed, mods = rules.melee_situation(state, enemy, ghost)
        chances.append(float(combat.melee_chances(needed, combat.total(mods)).success))
    chances.sort(reverse=True)
    dist, _ = hit_chain(chances[:2], 1 if unit.disrupted else 2)
    cost = float(unit.type.cost)
    if unit.disrupted:
        return dist[1] * cost
    return dist[2] * cost + dist[1] * DISRUPT_SHARE * cost


def _position(rules: MiniWars, state: State, unit: Unit, where: Hex, st: Stakes) -> float:
    """How good ``where`` is for ``unit`` to stand in (up to a constant)."""
    score = 0.0
    if st.pull:
        distance = _enemy_distance(state, unit.side).get(where, 0)
        pull = APPROACH * unit.type.cost * st.pull * distance
        score += pull if unit.disrupted else -pull
    enemies = [e for e in _enemies_touching(state, unit.side).get(where, ()) if e is not unit]
    if enemies:
        score -= st.own * EXPOSURE * _exposure(rules, state, unit, where, enemies)
    if st.safety:
        score -= st.safety * st.own * _threat(rules, state, unit, where)
    return score


def _followers(
    rules: MiniWars, state: State, opener: Unit, where: Hex, target: Unit
) -> list[tuple[Unit, Hex, float]]:
    """Friends that may still move next to ``target`` and melee it: (unit, hex, odds),
    likeliest first, each at its best hex."""
    assert target.pos is not None
    options = state.setup.options
    around = [h for h in state.setup.board.melee_into[target.pos] if h != where]
    found = []
    for friend in state.side_units(opener.side):
        if friend is opener or friend.acted:
            continue
        if friend.fired and options.fired_units != "free":
            continue
        reach = rules.reach(state, friend)
        best: tuple[float, Hex] | None = None
        for h in around:
            if h == friend.pos:
                if not options.hold_and_melee:
                    continue
            elif h in state.occupant or h not in reach:
                continue
            p = _melee_odds(rules, state, friend, h, target)
            if best is None or p > best[0]:
                best = (p, h)
        if best is not None:
            found.append((friend, best[1], best[0]))
    found.sort(key=lambda f: -f[2])
    return found[: COMBINATION + 1]


def combination(
    rules: MiniWars, state: State, unit: Unit, where: Hex, target: Unit, st: Stakes
) -> float:
    """The worth of ``unit``'s melee on ``target`` from ``where`` as the first of the
    best combination friends can follow it with this phase."""
    first = (unit, where, _melee_odds(rules, state, unit, where, target))
    others = _followers(rules, state, unit, where, target)
    needed = 1 if target.disrupted else 2
    fall = _fall_value(state, target)
    hit = DISRUPT_SHARE * float(target.type.cost)

    def value(combo: tuple[tuple[Unit, Hex, float], ...]) -> float | None:
        hexes = {h for _, h, _ in combo}
        if len(hexes) < len(combo):
            return None
        dist, made = hit_chain([p for _, _, p in combo], needed)
        gain = dist[needed] * fall + (dist[1] * hit if needed == 2 else 0.0)
        risk = sum(
            m * (1 / 6) * DISRUPT_SHARE * float(u.type.cost)
            for (u, _, _), m in zip(combo, made, strict=True)
            if not u.disrupted
        )
        total = st.enemy * gain - st.own * risk
        if len(combo) > 1:
            alone = st.enemy * (first[2] * (fall if needed == 1 else hit))
            alone -= st.own * (0.0 if unit.disrupted else (1 / 6) * DISRUPT_SHARE * unit.type.cost)
            total = alone + FOLLOW * (total - alone)
        return total

    best, _ = best_combination(first, others, value, COMBINATION)
    return best


def _attack_gain(rules: MiniWars, state: State, unit: Unit, where: Hex, st: Stakes) -> float:
    """The best combination ``unit`` could open from ``where`` (0: none, or better not)."""
    options = state.setup.options
    if unit.fired and options.fired_units != "free":
        return 0.0
    if where == unit.pos and not options.hold_and_melee:
        return 0.0
    enemies = [e for e in _enemies_touching(state, unit.side).get(where, ()) if e is not unit]
    best = 0.0
    for target in enemies:
        best = max(best, combination(rules, state, unit, where, target, st))
    return best


def _move_scores(rules: MiniWars, state: State, side: str, options: MoveOptions) -> list[float]:
    st = side_stakes(state, side)
    units = state.units
    scores: list[float] = []
    for uid, dests in options.movers:
        unit = units[uid]
        assert unit.pos is not None
        here = _position(rules, state, unit, unit.pos, st)
        for h in dests:
            scores.append(
                _position(rules, state, unit, h, st)
                - here
                + _attack_gain(rules, state, unit, h, st)
            )
    scores.append(0.0)  # end: every unit stays where it is
    return scores


def plan(rules: MiniWars, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    if isinstance(actions, MoveOptions):
        return _move_scores(rules, state, side, actions)
    st = side_stakes(state, side)
    base = evaluate(rules, state, side, actions)
    units = state.units
    scores: list[float] = []
    for action, material in zip(actions, base, strict=True):
        score = material
        if isinstance(action, Attack):
            unit = units[action.unit]
            assert unit.pos is not None
            score = combination(rules, state, unit, unit.pos, units[action.target], st)
        elif isinstance(action, Fire):
            target = units[action.target]
            if target.disrupted:
                hit = material / max(harm_value(target), 1e-9)
                score = st.enemy * hit * _fall_value(state, target)
            else:
                score = st.enemy * material
        elif isinstance(action, Rally):
            score = st.own * material
        elif isinstance(action, Move):
            unit = units[action.unit]
            assert unit.pos is not None
            score = (
                _position(rules, state, unit, action.to, st)
                - _position(rules, state, unit, unit.pos, st)
                + _attack_gain(rules, state, unit, action.to, st)
            )
        elif isinstance(action, Advance) and state.vacated is not None:
            unit = units[action.unit]
            assert unit.pos is not None
            score = ADVANCE + (
                _position(rules, state, unit, state.vacated, st)
                - _position(rules, state, unit, unit.pos, st)
            )
        elif isinstance(action, (End, Pass)):
            score = 0.0
        scores.append(score)
    return scores
