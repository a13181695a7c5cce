"""The CGME planner's scores (``Ruleset.plan``): evaluate's material, played for the scenario.

Serves every world of the engine (V.E.G. too). What it adds to :mod:`.evaluate`
(which the greedy bot and the kernel keep):

* the scenario's victory conditions read as a role
  (:func:`warbench.rulesets.kit.planning.stakes`): a side named by ``at_turn_limit``
  holds (its losses weigh three times, it keeps out of the enemy's reach), a side
  with an objective (destroy, reach) must take it in time, and on ``points`` a
  side guards its lead as the end nears and gambles behind one; on the last turn
  a wound, which scores nothing, counts for nothing, nor does closing in, and the
  side that moves last fears no attack;
* caution: on ``points`` (and ``draw``) twice evaluate's weight on what the
  enemies in reach could do to a unit where it stands (:data:`CAUTION`);
* attacks as combinations (Wesnoth's attack analysis, in small): an ``attack``
  is worth the best combined attack it can open on its target with the units
  that may still join (summed ATT, one roll, the exact odds and spillover of
  :func:`.evaluate.attack_value`), less the share of what the joiners give up
  elsewhere; ``join`` is worth what the best combination it belongs to adds,
  and ``roll`` 0, so the planner joins while a friend adds more than it loses;
* movement by evaluate's position worth with the pull and the exposure the
  stakes ask, relative to standing still, so ``end`` keeps its 0 against moves
  that lose more than they gain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.cgme import combat
from warbench.rulesets.cgme.actions import Attack, Join, Load, Move, MoveOptions, Unload
from warbench.rulesets.cgme.evaluate import (
    HOLD_BACK,
    _Context,
    _defence,
    _path_hazard,
    _position,
    _score,
    attack_value,
    unit_value,
)
from warbench.rulesets.cgme.state import State, Unit
from warbench.rulesets.kit.planning import Role, Stakes, best_combination, stakes

if TYPE_CHECKING:
    from warbench.rulesets.cgme.rules import CGMERules as CGME

COMBINATION = 4
"""Units in a combined attack the planner looks at, at most."""
CAUTION = 2.0
"""How much more than evaluate a side on ``points`` (or ``even``) weighs what the enemies
in reach could do to a unit where it stands: in CGME an attack costs the attacker
nothing, so the side that steps into reach first is struck first. Tuned on paired
seeds from 5000 (skirmish and tank-battle, 1.5 to 4 tried: 2 was best on both)."""


def _role(state: State, side: str) -> Role:
    setup = state.setup
    if setup.at_turn_limit == side:
        return "hold"
    if any(o.side == side for o in setup.objectives) or setup.at_turn_limit in setup.sides:
        return "take"
    if setup.at_turn_limit == "points":
        return "points"
    return "even"


def side_stakes(state: State, side: str) -> Stakes:
    """The side's weights now (the lead: value destroyed, as the turn limit counts it)."""
    enemy = state.enemy_of(side)
    units = [u for u in state.units.values() if u.pos is not None]
    scale = sum(float(u.type.value) for u in units) / max(len(units), 1)
    lead = float(state.lost[enemy] - state.lost[side])
    return stakes(_role(state, side), state.turn, state.setup.turn_limit, lead, scale)


def _context(rules: CGME, state: State, side: str, st: Stakes) -> _Context:
    """evaluate's per-decision tables, with the pull and exposure the stakes ask."""
    key = ("plan_context", side)
    sig = (state.side_version.get(state.enemy_of(side), 0), state.turn, st)
    found = state.caches.get(key)
    if found is None or found[0] != sig:
        ctx = _Context(rules, state, side)
        ctx.pull *= st.pull
        ctx.exposure *= st.own * (1.0 + 2.0 * st.safety)
        if st.role in ("points", "even"):
            ctx.exposure *= CAUTION
        if st.last_turn and st.role == "points":
            # Nothing after this turn counts: no closing in, and the side that moves
            # last in the turn (its enemy has moved) fears no attack.
            ctx.pull = 0.0
            if side == state.setup.sides[-1]:
                ctx.exposure = 0.0
        found = (sig, ctx)
        state.caches[key] = found
    made: _Context = found[1]
    return made


def _lone_best(rules: CGME, state: State, side: str, unit: Unit, skip: str) -> float:
    """The best ``unit`` could get attacking alone some other target than ``skip``."""
    if rules.attack_blocked(state, unit):
        return 0.0
    best = 0.0
    for ref in rules._targets(state, unit):
        if ref != skip:
            best = max(best, attack_value(rules, state, side, [unit], ref))
    return best


def _candidates(
    rules: CGME, state: State, opener: Unit, target: str, during_move: bool
) -> list[Unit]:
    """Units of the opener's side that could still join an attack on ``target``."""
    if not state.setup.options.combined_attacks:
        return []
    out = []
    for unit in state.units.values():
        if (
            unit.side != opener.side
            or unit is opener
            or unit.pos is None
            or rules.attack_blocked(state, unit)
        ):
            continue
        if during_move and unit.pos != opener.pos:
            continue
        if target in rules._targets(state, unit):
            out.append(unit)
    return out


def _gain(
    rules: CGME, state: State, side: str, attackers: Sequence[Unit], target: str, st: Stakes
) -> float:
    """What the attack is worth to the side: evaluate's expected gain, or on the last
    turn of a game on points only the value it destroys (a wound scores nothing)."""
    if st.last_turn and st.role == "points" and target in state.units:
        unit = state.units[target]
        where = rules.target_pos(state, target)
        if where is None:
            return 0.0
        base, mods = rules.attack_strength(state, attackers, where, True)
        att = base + combat.total(mods)
        dfn = _defence(rules, state, unit, state.setup.board.index[where])
        destroy, wound = combat.float_chances(state.setup.world.core, att - dfn)
        fatal = unit.wounded and state.setup.world.core.second_wound == "destroy"
        return st.enemy * (destroy + (wound if fatal else 0.0)) * unit_value(state, unit)
    return st.enemy * attack_value(rules, state, side, attackers, target)


def combination(
    rules: CGME,
    state: State,
    side: str,
    fixed: Sequence[Unit],
    target: str,
    during_move: bool,
    st: Stakes,
) -> float:
    """The best combined attack on ``target`` that keeps ``fixed`` (the opener first)
    and adds up to a few of the units that may still join, less HOLD_BACK of what
    the added units give up elsewhere."""
    opener = fixed[0]
    others = [u for u in _candidates(rules, state, opener, target, during_move) if u not in fixed]
    others.sort(key=lambda u: -(u.type.att or 0))
    others = others[:5]
    lost = {u.id: HOLD_BACK * _lone_best(rules, state, side, u, target) for u in others}

    def value(combo: tuple[Unit, ...]) -> float | None:
        added = combo[1:]
        return _gain(rules, state, side, [*fixed, *added], target, st) - sum(
            lost[u.id] for u in added
        )

    best, _ = best_combination(fixed[0], others, lambda c: value(c), COMBINATION - len(fixed) + 1)
    return best


class _Moves:
    """Move scores per unit and destination index, relative to standing still."""

    def __init__(self, rules: CGME, state: State, side: str, st: Stakes) -> None:
        self.rules, self.state, self.side, self.st = rules, state, side, st
        self.ctx = _context(rules, state, side, st)
        self.tables: dict[str, dict[int, float]] = {}

    def table(self, unit: Unit) -> dict[int, float]:
        found = self.tables.get(unit.id)
        if found is None:
            rules, state, side, ctx = self.rules, self.state, self.side, self.ctx
            assert unit.pos is not None
            index = state.setup.board.index
            reach = rules.reach(state, unit)
            here = _position(rules, state, side, unit, index[unit.pos], ctx)
            found = self.tables[unit.id] = {
                dest: _position(rules, state, side, unit, dest, ctx)
                - here
                - self.st.own * _path_hazard(rules, state, unit, hz, dest)
                for dest, (hz, _) in reach.ends.items()
            }
        return found

    def score(self, units: Sequence[str], to: Hex) -> float:
        i = self.state.setup.board.index[to]
        return sum(self.table(self.state.units[uid]).get(i, 0.0) for uid in units)


def _move_scores(
    rules: CGME, state: State, side: str, options: MoveOptions, st: Stakes
) -> list[float]:
    moves = _Moves(rules, state, side, st)
    scores: list[float] = []
    for ids, dests in options.movers:
        scores.extend(moves.score(ids, h) for h in dests)
    scores.extend(_other(rules, state, side, action, st, moves) for action in options.extras)
    scores.append(0.0)  # end
    return scores


def _other(
    rules: CGME, state: State, side: str, action: Action, st: Stakes, moves: _Moves
) -> float:
    units = state.units
    open_attack = state.attack
    if isinstance(action, Move):
        return moves.score(action.units, action.to)
    if isinstance(action, Attack):
        during_move = state.phase_name == "move"
        return combination(rules, state, side, [units[action.unit]], action.target, during_move, st)
    if isinstance(action, Join) and open_attack is not None:
        fixed = [units[u] for u in open_attack.attackers]
        now = _gain(rules, state, side, fixed, open_attack.target, st)
        unit = units[action.unit]
        lost = HOLD_BACK * _lone_best(rules, state, side, unit, open_attack.target)
        with_it = combination(
            rules, state, side, [*fixed, unit], open_attack.target, open_attack.during_move, st
        )
        return with_it - now - lost
    if isinstance(action, (Load, Unload)):
        return _score(rules, state, side, action, moves.ctx)
    return 0.0  # roll, end


def plan(rules: CGME, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    st = side_stakes(state, side)
    if isinstance(actions, MoveOptions):
        return _move_scores(rules, state, side, actions, st)
    moves = _Moves(rules, state, side, st)
    return [_other(rules, state, side, action, st, moves) for action in actions]
