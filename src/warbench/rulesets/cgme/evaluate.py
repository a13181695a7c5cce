"""One-ply scores of CGME actions for the greedy bot, in points of unit value.

Each score is an expected change in material from the exact odds of
:mod:`.combat`: destroying a unit is worth its value (riders included), a
wound a share of it (a wounded unit is one wound from destruction and fights
worse), structural points of a building their share of its value. Spillover
(V.E.G.) counts for the enemy units in the hex and against one's own, the
attacker's own hex included when it attacks at range 0 (whom it strikes is
the scenario's ``spillover_hits``), in an attack's score and in the attack a
position offers alike.

A leg of movement is scored by how the unit's position improves: closer to
its side's goal (the objective zone or targets, else the nearest enemy), in
better cover, with a better attack to make, less exposed to the enemies that
could reach it, and minus what the hazards on the way and in the hex may cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.rulesets.cgme import combat
from warbench.rulesets.cgme.actions import Attack, Join, Load, MoveOptions, Unload
from warbench.rulesets.cgme.board import FAR, Board
from warbench.rulesets.cgme.data import ResultName
from warbench.rulesets.cgme.state import State, Unit

if TYPE_CHECKING:
    from warbench.rulesets.cgme.rules import CGMERules as CGME

WOUND_SHARE = 0.4
"""A wound's worth, as a share of the unit's value."""
APPROACH = 0.04
"""Pull toward the side's goal, per hex and per point of the unit's value."""
OPPORTUNITY = 0.5
"""Share of the best attack a position offers that counts toward it."""
EXPOSURE = 0.3
"""Share of what the enemies in reach could expect against the unit there."""
COVER = 0.02
"""Worth of each point of terrain DEF, per point of the unit's value."""
URGENCY = 3.0
"""A side with an objective pulls harder toward it as its turns run out: by this
much more on the last turn than on the first."""
BOLDNESS = 0.5
"""A side with an objective counts its exposure at this share (it must take risks)."""
ZONE = 0.5
"""Worth of standing in a reach objective's zone, per point of the unit's value."""
HOLD_BACK = 0.5
"""Share of a unit's best attack elsewhere given up when it joins another attack."""
DELIVER = 3
"""A carrier delivers its riders once within this many hexes of the goal."""


def unit_value(state: State, unit: Unit) -> float:
    """A unit's value with its riders' (they die with it)."""
    if not unit.riders:
        return float(unit.type.value)
    units = state.units
    return float(unit.type.value + sum(units[r].type.value for r in unit.riders))


def harm(state: State, unit: Unit, destroy: float, wound: float) -> float:
    """Expected loss to ``unit`` from an attack with these chances."""
    twice = state.setup.world.core.second_wound == "destroy"
    return _loss(unit_value(state, unit), unit.wounded and twice, destroy, wound)


def _loss(value: float, fatal_wound: bool, destroy: float, wound: float) -> float:
    """Expected loss of a unit worth ``value`` (``fatal_wound``: a wound destroys it)."""
    if fatal_wound:
        return (destroy + wound) * value
    return destroy * value + wound * WOUND_SHARE * value


def _defence(rules: CGME, state: State, unit: Unit, i: int) -> int:
    """DEF of ``unit`` if it stood in hex index ``i``."""
    board = state.setup.board
    return rules.dfn(state, unit) + board.dfn_mod[unit.type.move_class][i]


def attack_value(
    rules: CGME, state: State, side: str, attackers: Sequence[Unit], ref: str
) -> float:
    """Expected gain of this (combined) attack on ``ref``, spillover included."""
    world = state.setup.world
    core = world.core
    board = state.setup.board
    where = rules.target_pos(state, ref)
    if where is None:
        return 0.0
    building = state.buildings.get(ref)
    base, mods = rules.attack_strength(state, attackers, where, building is None)
    att = base + combat.total(mods)
    if building is not None:
        destroy, wound = combat.float_chances(core, att - building.dfn)
        expected = 0.0
        chances: tuple[tuple[ResultName, float], ...] = (("destroy", destroy), ("wound", wound))
        for result, p in chances:
            if p:
                # The margin option's damage depends on the roll; att is close enough.
                damage = rules.building_damage(state, result, att, att - building.dfn)
                expected += p * min(damage, building.sp)
        gain = expected * building.value / building.max_sp
        finish = rules.building_damage(state, "destroy", att, att - building.dfn) >= building.sp
        objective = any(ref in o.targets for o in state.setup.objectives if o.side == side)
        if finish:
            gain += destroy * building.value * (1.0 if objective else 0.3)
        return gain * (2.0 if objective else 1.0)
    target = state.units[ref]
    index = board.index[where]
    destroy, wound = combat.float_chances(core, att - _defence(rules, state, target, index))
    gain = harm(state, target, destroy, wound)
    if any(ref in o.targets for o in state.setup.objectives if o.side == side):
        gain *= 2.0
    if world.spillover_att is not None:
        spill = att + world.spillover_att
        firing = {u.id for u in attackers}
        for other in state.stacks.get(where, ()):
            if other is target or rules.spared_by_spillover(state, other, side, firing):
                continue
            d, w = combat.float_chances(core, spill - _defence(rules, state, other, index))
            loss = harm(state, other, d, w)
            gain += -loss if other.side == side else loss
    return gain


def best_attack(rules: CGME, state: State, side: str, unit: Unit) -> float:
    """The best expected gain ``unit`` could get attacking alone from where it is."""
    if rules.attack_blocked(state, unit):
        return 0.0
    best = 0.0
    for ref in rules._targets(state, unit):
        best = max(best, attack_value(rules, state, side, [unit], ref))
    return best


Beside = tuple[tuple[str, int, float, bool, bool], ...]
"""The other units in an enemy's hex that a spillover attack there would strike:
(id, DEF there, value, whether a wound destroys it, whether it is a friend)."""


class _Context:
    """Per-decision tables: goal distances, threat, enemy positions (cached per situation)."""

    __slots__ = (
        "_near",
        "beside",
        "distance",
        "enemies",
        "exposure",
        "pull",
        "targets",
        "threat",
        "zone",
    )

    def __init__(self, rules: CGME, state: State, side: str) -> None:
        board = state.setup.board
        enemy = state.enemy_of(side)
        objectives = [o for o in state.setup.objectives if o.side == side]
        late = (state.turn - 1) / max(state.setup.turn_limit - 1, 1)
        self.pull = APPROACH * (1.0 + URGENCY * late) if objectives else APPROACH
        self.exposure = EXPOSURE * BOLDNESS if objectives else EXPOSURE
        self.zone = [False] * len(board.hexes)
        for objective in objectives:
            for h in objective.zone:
                self.zone[board.index[h]] = True
        self.enemies = [u for u in state.side_units(enemy) if u.carrier is None]
        self.targets = [
            (e, i, _defence(rules, state, e, i), unit_value(state, e), e.wounded)
            for e in self.enemies
            if e.pos is not None
            for i in (board.index[e.pos],)
        ]
        self.beside = _beside(rules, state, side, self.enemies)
        self._near: dict[int, list[list[tuple[int, int, float, bool, Beside]]]] = {}
        self.distance = board.distances_to(_goal_hexes(state, side, self.enemies))
        threat = [0] * len(board.hexes)
        for e in state.side_units(enemy):
            if e.type.att is None or e.pos is None:
                continue
            reach = e.type.rng + rules.mov(state, e)
            att = rules.att(state, e)
            for i in board.within(board.index[e.pos], reach):
                threat[i] += att
        self.threat = threat

    def near(self, board: Board, rng: int) -> list[list[tuple[int, int, float, bool, Beside]]]:
        """Per hex, the enemies within ``rng``: (their hex, DEF there, value, wounded,
        the units beside them)."""
        table = self._near.get(rng)
        if table is None:
            table = [[] for _ in board.hexes]
            for (_, i, dfn, value, wounded), beside in zip(self.targets, self.beside, strict=True):
                entry = (i, dfn, value, wounded, beside)
                for j in board.within(i, rng):
                    table[j].append(entry)
            self._near[rng] = table
        return table


def _hit_friends(state: State) -> bool:
    """Whether a spillover attack strikes units of the attacking side (``spillover_hits``)."""
    return state.setup.world.spillover_att is not None and (
        state.setup.options.spillover_hits != "enemies"
    )


def _beside(rules: CGME, state: State, side: str, enemies: list[Unit]) -> list[Beside]:
    """Per enemy target (in ``enemies`` order), the other units of its hex that a
    spillover attack on it would strike, in unit order."""
    if state.setup.world.spillover_att is None:
        return [() for _ in enemies]
    board = state.setup.board
    friends = _hit_friends(state)
    twice = state.setup.world.core.second_wound == "destroy"
    out: list[Beside] = []
    for enemy in enemies:
        assert enemy.pos is not None
        i = board.index[enemy.pos]
        out.append(
            tuple(
                (
                    other.id,
                    _defence(rules, state, other, i),
                    unit_value(state, other),
                    other.wounded and twice,
                    other.side == side,
                )
                for other in state.units.values()
                if other is not enemy
                and other.pos == enemy.pos
                and other.carrier is None
                and (friends or other.side != side)
            )
        )
    return out


def _mixed(state: State, side: str) -> tuple[tuple[str, int, bool, float], ...]:
    """The side's units that share a hex with an enemy unit and would take the
    spillover of an attack there: (id, hex index, wounded, value), in unit order.
    The attacks a position offers depend on them (part of the context's key)."""
    if not _hit_friends(state):
        return ()
    enemy = state.enemy_of(side)
    held = {u.pos for u in state.units.values() if u.side == enemy and u.carrier is None}
    held.discard(None)
    if not held:
        return ()
    index = state.setup.board.index
    return tuple(
        (u.id, index[u.pos], u.wounded, unit_value(state, u))
        for u in state.units.values()
        if u.side == side and u.carrier is None and u.pos is not None and u.pos in held
    )


def _goal_hexes(state: State, side: str, enemies: list[Unit]) -> list[int]:
    board = state.setup.board
    index = board.index
    goals: list[int] = []
    for objective in state.setup.objectives:
        if objective.side != side:
            continue
        if objective.kind == "reach":
            goals.extend(index[h] for h in objective.zone)
        else:
            for ref in objective.targets:
                where = state.buildings[ref].pos if ref in state.buildings else state.units[ref].pos
                if where is not None and (
                    ref not in state.buildings or state.buildings[ref].standing
                ):
                    goals.append(index[where])
    if not goals:
        goals = [index[e.pos] for e in enemies if e.pos is not None]
    return goals


def _context(rules: CGME, state: State, side: str) -> _Context:
    key = ("context", side)
    sig = (state.side_version.get(state.enemy_of(side), 0), state.turn, _mixed(state, side))
    found = state.caches.get(key)
    if found is None or found[0] != sig:
        found = (sig, _Context(rules, state, side))
        state.caches[key] = found
    ctx: _Context = found[1]
    return ctx


def _position(rules: CGME, state: State, side: str, unit: Unit, i: int, ctx: _Context) -> float:
    """How good hex index ``i`` is for ``unit`` (up to a constant)."""
    board = state.setup.board
    core = state.setup.world.core
    value = unit_value(state, unit)
    distance = ctx.distance[i]
    pulls = unit.type.att is not None or bool(unit.riders)
    score = -ctx.pull * value * min(distance, 30) if pulls and distance < FAR else 0.0
    if ctx.zone[i]:
        score += ZONE * value
    dfn = _defence(rules, state, unit, i)
    score += COVER * value * board.dfn_mod[unit.type.move_class][i]
    if ctx.threat[i]:
        d, w = combat.float_chances(core, ctx.threat[i] - dfn)
        score -= ctx.exposure * harm(state, unit, d, w)
    hazard = board.hazard[i]
    if hazard is not None:
        hdfn = rules.hazard_dfn(state, unit, dfn)
        d, w = combat.float_chances(core, rules.hazard_strength(state, unit, hazard) - hdfn)
        score -= harm(state, unit, d, w)
    if unit.type.att is not None and not unit.attacked:
        world = state.setup.world
        att = rules.att(state, unit)
        bonus = world.range0_att if unit.type.move_class == world.range0_class else 0
        twice = world.core.second_wound == "destroy"
        spill = world.spillover_att
        hits_self = spill is not None and state.setup.options.spillover_hits == "all"
        best = 0.0
        for j, edfn, evalue, wounded, beside in ctx.near(board, unit.type.rng)[i]:
            strength = att + (bonus if j == i else 0)
            d, w = combat.float_chances(core, strength - edfn)
            gain = (d + w) * evalue if wounded and twice else (d + w * WOUND_SHARE) * evalue
            if spill is not None:
                # The spillover on the others in the target's hex: a gain on
                # enemies, a loss on friends; and on the unit itself at range 0.
                strength += spill
                for uid, odfn, ovalue, fatal, friend in beside:
                    if uid == unit.id:
                        continue  # it stands there now, not when it attacks from i
                    d, w = combat.float_chances(core, strength - odfn)
                    loss = _loss(ovalue, fatal, d, w)
                    gain = gain - loss if friend else gain + loss
                if j == i and hits_self:
                    d, w = combat.float_chances(core, strength - dfn)
                    gain -= harm(state, unit, d, w)
            if gain > best:
                best = gain
        score += OPPORTUNITY * best
    return score


def _path_hazard(rules: CGME, state: State, unit: Unit, count: int, dest: int) -> float:
    """Expected loss from entering ``count`` hazard hexes on the way (dest included)."""
    if not count:
        return 0.0
    board = state.setup.board
    hazard = board.hazard[dest] or next(h for h in board.hazard if h is not None)
    dfn = rules.hazard_dfn(state, unit, _defence(rules, state, unit, dest))
    d, w = combat.float_chances(
        state.setup.world.core, rules.hazard_strength(state, unit, hazard) - dfn
    )
    survive = (1.0 - d) ** count
    return (1.0 - survive) * unit_value(state, unit) + w * WOUND_SHARE * unit_value(state, unit)


def _scores_of(rules: CGME, state: State, side: str, unit: Unit, ctx: _Context) -> dict[int, float]:
    """Move scores of one unit by destination index, cached per situation."""
    key = ("scores", unit.id)
    reach = rules.reach(state, unit)
    # The riders themselves, not their number: unloading one squad and loading
    # another changes the unit's value (a stale table would score the old one).
    sig = (reach, ctx, unit.wounded, unit.attacked, tuple(unit.riders))
    found = state.caches.get(key)
    if (
        found is not None
        and found[0][0] is reach
        and found[0][1] is ctx
        and found[0][2:] == sig[2:]
    ):
        table: dict[int, float] = found[1]
        return table
    board = state.setup.board
    assert unit.pos is not None
    # A hex's worth to the unit does not depend on where the unit is now, so it
    # is kept per unit while the situation (ctx, wound, riders...) holds.
    pkey = ("positions", unit.id)
    kept = state.caches.get(pkey)
    if kept is None or kept[0][0] is not ctx or kept[0][1:] != sig[2:]:
        kept = state.caches[pkey] = ((ctx, *sig[2:]), {})
    worth: dict[int, float] = kept[1]

    def position(i: int) -> float:
        value = worth.get(i)
        if value is None:
            value = worth[i] = _position(rules, state, side, unit, i, ctx)
        return value

    here = position(board.index[unit.pos])
    table = {}
    for dest, (hz, _) in reach.ends.items():
        table[dest] = position(dest) - here - _path_hazard(rules, state, unit, hz, dest)
    state.caches[key] = (sig, table)
    return table


def _evaluate_moves(rules: CGME, state: State, side: str, options: MoveOptions) -> list[float]:
    ctx = _context(rules, state, side)
    index = state.setup.board.index
    units = state.units
    scores: list[float] = []
    for ids, dests in options.movers:
        tables = [_scores_of(rules, state, side, units[uid], ctx) for uid in ids]
        if len(tables) == 1:
            table = tables[0]
            scores.extend(table[index[h]] for h in dests)
            continue
        for h in dests:
            i = index[h]
            scores.append(sum(t[i] for t in tables))
    scores.extend(_score(rules, state, side, a, ctx) for a in options.extras)
    scores.append(0.0)  # end
    return scores


def _score(rules: CGME, state: State, side: str, action: Action, ctx: _Context) -> float:
    units = state.units
    board = state.setup.board
    if isinstance(action, Attack):
        return attack_value(rules, state, side, [units[action.unit]], action.target)
    if isinstance(action, Join) and state.attack is not None:
        attackers = [units[u] for u in state.attack.attackers]
        unit = units[action.unit]
        gain = attack_value(rules, state, side, [*attackers, unit], state.attack.target)
        gain -= attack_value(rules, state, side, attackers, state.attack.target)
        return gain - HOLD_BACK * best_attack(rules, state, side, unit)
    if isinstance(action, Load):
        carrier = units[action.carrier]
        assert carrier.pos is not None
        far = ctx.distance[board.index[carrier.pos]] > DELIVER
        value = sum(units[r].type.value for r in action.riders)
        return ctx.pull * value * (carrier.type.mov if far else -1.0)
    if isinstance(action, Unload):
        unit = units[action.unit]
        assert unit.pos is not None
        carrier = units[unit.carrier or ""]
        near = ctx.distance[board.index[unit.pos]] <= DELIVER
        return ctx.pull * unit.type.value * (2.0 if near else -1.0)
    return 0.0


def evaluate(rules: CGME, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    if isinstance(actions, MoveOptions):
        return _evaluate_moves(rules, state, side, actions)
    ctx = _context(rules, state, side)
    return [_score(rules, state, side, action, ctx) for action in actions]


def standing(state: State) -> dict[str, float]:
    """Each side's units on the board (riders too) at their value, a wounded one
    less the share a wound takes (as ``harm`` counts it)."""
    found = dict.fromkeys(state.setup.sides, 0.0)
    for unit in state.units.values():
        if unit.pos is not None:
            value = float(unit.type.value)
            found[unit.side] += value * (1.0 - WOUND_SHARE) if unit.wounded else value
    return found
