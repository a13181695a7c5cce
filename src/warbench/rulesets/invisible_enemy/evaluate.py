"""One-ply scores of Invisible Enemy actions for the greedy bot, in points of the stats page.

Every score is an expected change in points destroyed (the victory measure),
from the exact chart distributions: a shot is worth its expected hull hits
times the target's points per hull point, plus the chance it finishes the
target off times the rest of its points; a barrage marker the chance it
destroys each base in its reach times that base's points, own bases counting
against it; a move what the base can expect to shoot next fire phase from its
new place, less what the enemy can expect to shoot back, with the mission's
pull (breach edge, fungus towers avoided). Purchases are priced the same way,
roughly: an automatic move is worth the failed-Control chance of the unit's
best move, a Type 1 barrage its best aim, suppression the enemy's lost moves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.errors import IllegalAction
from warbench.geometry.table import (
    Figure,
    MoveResult,
    Point,
    along,
    centre_distance,
    heading,
    in_arc,
    turn_angle,
)
from warbench.rulesets.invisible_enemy import barrage, movement, space
from warbench.rulesets.invisible_enemy.actions import (
    SUPPRESSION,
    Barrage,
    Buy,
    Deflect,
    Destruct,
    Done,
    Engineer,
    Fire,
    Move,
    Pass,
    Unit,
)
from warbench.rulesets.invisible_enemy.charts import (
    Damage,
    area_chance,
    control_chance,
    direct_distribution,
    engineering_chance,
    self_destruct,
    self_destruct_distribution,
)
from warbench.rulesets.invisible_enemy.data import rules, terrain_chart
from warbench.rulesets.invisible_enemy.state import Base, State

if TYPE_CHECKING:
    from warbench.rulesets.invisible_enemy.rules import InvisibleEnemyRules

TRAPPED = 0.5
"""Share of a base's points lost when it is trapped (it still fires, but never moves)."""
TOWER_POINTS = 10.0
"""What a live fungus tower is worth to shoot down (it threatens everyone near it)."""
TYPE1_DODGE = 0.5
"""Share of a Type 1 barrage's threat that survives movement (targets step out of it)."""
APPROACH = 0.4
"""Points per inch closed on the nearest enemy when nothing is in reach yet."""
BREACH_PULL = 3.0
"""Points per inch gained toward the breach edge (the breaching side)."""
PASS_SCORE = -0.5
"""Passing on a unit's move attempt: a little worse than trying (moving is optional)."""
TYPE2_KEEP = 1.0
"""What a Type 2 marker held for a later turn is worth (2.0: Type 2 markers may be
saved): one set down now must strike more than that, except in the last turn."""
TYPE2_WASTE = 0.01
"""In the last turn a kept marker is worth nothing, but one that strikes no one is still
no plan: just below ``done``."""
FACING = 1.5
"""Points for ending a move with the nearest enemy seen (by eye) straight ahead, falling
to none with it straight behind: the arcs of fire are 45-60 degrees wide (5.0)."""


@cache
def _mean_hits(
    attack: int, defence: int, weapon: str, damage: Damage, cover: bool, massed: bool
) -> tuple[float, dict[int, float]]:
    dist = direct_distribution(attack, defence, weapon, damage, cover, massed)  # type: ignore[arg-type]
    probs = {int(k): float(v) for k, v in dist.items()}
    return sum(k * p for k, p in probs.items()), probs


@cache
def _area(defence: int, no_flank_support: bool = False, deflected: bool = False) -> float:
    """``float(area_chance(...))``: the same number, worked out once (the charts are fixed)."""
    return float(area_chance(defence, no_flank_support=no_flank_support, deflected=deflected))


def shot_value(
    state: State,
    shooter: Base,
    target_id: str,
    cover: bool,
    massed: bool = False,
    damage: Damage | None = None,
) -> float:
    """Expected points a shot destroys: hull hits at points per hull point, plus the kill."""
    base = state.bases.get(target_id)
    if base is not None:
        defence, hull, hits, points = (
            base.model.defence,
            base.model.hull,
            base.hits,
            float(base.model.points),
        )
        if base.side == shooter.side:
            points = points * 0.5  # a contaminated friend: worth stopping, not a gain
        pending = sum(s.hits for s in state.pending if s.target == target_id)
        hits += pending
    else:
        tower = state.towers[target_id]
        if not tower.live:
            return 0.0  # a dead tower infects no one: a mere obstacle (1.5 note 2)
        defence, hull, hits, points = (
            rules().data.fungus.defence,
            tower.hull,
            tower.hits,
            TOWER_POINTS,
        )
    left = max(hull - hits, 0)
    if left == 0:
        return 0.0
    mean, probs = _mean_hits(
        shooter.model.attack, defence, shooter.model.weapon, damage or shooter.damage, cover, massed
    )
    per = points / hull
    kill = sum(p for k, p in probs.items() if k >= left)
    return min(mean, left) * per + kill * points * 0.5


class _Memo:
    """Pure results one :func:`evaluate` call asks again and again, kept for that call
    only (the state does not change while it scores its actions): each base's flank
    support (3.0), and what a base standing where it is is worth (the start of each of
    its moves)."""

    __slots__ = ("flanks", "foes", "here")

    def __init__(self) -> None:
        self.flanks: dict[str, bool] = {}
        self.here: dict[str, tuple[float, float, float]] = {}
        self.foes: dict[str, list[Base]] = {}


def _flank(state: State, base: Base, memo: _Memo | None) -> bool:
    """:func:`barrage.flank_supported`, remembered in ``memo`` if given."""
    if memo is None:
        return barrage.flank_supported(state, base)
    found = memo.flanks.get(base.id)
    if found is None:
        found = memo.flanks[base.id] = barrage.flank_supported(state, base)
    return found


def evaluate(
    ruleset: InvisibleEnemyRules, state: State, side: str, actions: Sequence[Action]
) -> list[float]:
    memo = _Memo()
    return [_score(state, side, a, memo) for a in actions]


def _score(state: State, side: str, action: Action, memo: _Memo | None = None) -> float:
    if isinstance(action, Fire):
        return _fire(state, side, action)
    if isinstance(action, Move):
        return _move(state, side, action, memo)
    if isinstance(action, Barrage):
        return _barrage(state, side, action, memo)
    if isinstance(action, Deflect):
        marker = next(m for m in state.markers if m.id == action.marker)
        return -0.1 * marker_value(state, marker.side, marker.at, dodge=False, memo=memo) + 0.01
    if isinstance(action, Buy):
        return _buy(state, side, action)
    if isinstance(action, Unit):
        return _unit(state, side, action.unit)
    if isinstance(action, Pass):
        return PASS_SCORE
    if isinstance(action, Destruct):
        return _destruct(state, side, action.base)
    if isinstance(action, Engineer):
        return _engineer(state, side, action)
    if isinstance(action, Done):
        return 0.0
    return 0.0


def _fire(state: State, side: str, action: Fire) -> float:
    massed = len(action.shooters) >= rules().data.fire.massed
    total = 0.0
    for sid in action.shooters:
        shooter = state.bases[sid]
        lof = space.line_of_fire(state, shooter, action.target)
        total += shot_value(state, shooter, action.target, lof.cover, massed=massed)
    if action.rake:
        total *= 1.05
    return total + 0.01


def _barrage(state: State, side: str, action: Barrage, memo: _Memo | None = None) -> float:
    """A marker set down now. Type 1 markers go down in phase 2 or are lost; a Type 2 is
    best set down in phase 4, after movement, when no one can step out of its way, and
    may be kept for later turns (3.0): in phase 2 it is worth what it strikes of an
    enemy that can still dodge, less the same marker kept; in phase 4 what it strikes,
    less what keeping it is worth while turns remain."""
    value = marker_value(state, side, action.at, dodge=state.step == "mark1", memo=memo)
    try:
        kind = barrage.check_place(state, side, action)
    except IllegalAction:
        return -1e9
    if kind != "type2":
        return value
    keep = TYPE2_KEEP if state.turn < state.setup.turns else TYPE2_WASTE
    if state.step == "mark1":
        return value - marker_value(state, side, action.at, dodge=False, memo=memo) - keep
    return value - keep


def marker_value(
    state: State, side: str, at: Point, dodge: bool, memo: _Memo | None = None
) -> float:
    """Expected points a marker at ``at`` destroys: enemies gained, own bases lost
    (``memo``: one :func:`evaluate` call's)."""
    radius = rules().data.barrage.radius
    total = 0.0
    for base in state.active():
        if math.hypot(base.geo.x - at[0], base.geo.y - at[1]) > radius:
            continue
        flank = _flank(state, base, memo)
        p = _area(base.model.defence, no_flank_support=not flank)
        worth = p * base.model.points
        if base.contaminated:
            total += worth * 0.5
        elif base.side == side:
            total -= worth * 1.5
        else:
            total += worth * (TYPE1_DODGE if dodge else 1.0)
    return total


def _buy(state: State, side: str, action: Buy) -> float:
    enemy = state.other(side)
    net = state.networks[side]
    value = 0.0
    enemy_units = [u for u in state.units.values() if u.side == enemy and state.unit_bases(u.id)]
    own_pass = float(control_chance(net.status))
    for key, unit in action.items:
        if key == "auto" and unit is not None:
            size = sum(b.model.points for b in state.unit_bases(unit))
            value += (1.0 - own_pass) * size * 0.15
        elif key == "type1":
            aims = [marker_value(state, side, b.geo.at, dodge=True) for b in state.active(enemy)]
            value += max(aims, default=0.0) * 0.8
        elif key == "deflect":
            value += 0.5 if net.type2 == 0 else 0.2
        elif key in SUPPRESSION:
            status = state.networks[enemy].status
            after = max(25, status - SUPPRESSION[key])
            lost = float(control_chance(status) - control_chance(after))
            value += (
                lost
                * sum(sum(b.model.points for b in state.unit_bases(u.id)) for u in enemy_units)
                * 0.15
            )
        elif key == "die":
            value += 1.0
    return value


def _unit(state: State, side: str, unit: str) -> float:
    """Trying a unit is worth a little; units near the enemy first (they have most to do)."""
    bases = state.unit_bases(unit)
    enemies = state.active(state.other(side))
    if not bases or not enemies:
        return 0.0
    near = min(centre_distance(b.geo, e.geo) for b in bases for e in enemies)
    return 1.0 + 1.0 / (1.0 + near)


def _destruct(state: State, side: str, base_id: str) -> float:
    base = state.bases[base_id]
    blast = self_destruct(int(base.model.speed), base.model.defence)
    gain = 0.0
    for other in state.active():
        if other.id == base.id or centre_distance(base.geo, other.geo) > blast.range + 1e-9:
            continue
        dist = self_destruct_distribution(
            int(base.model.speed), base.model.defence, other.model.defence
        )
        mean = sum(k * float(p) for k, p in dist.items())
        worth = min(mean, other.model.hull - other.hits) * other.model.points / other.model.hull
        gain += worth if other.side != side or other.contaminated else -worth
    own = base.model.points * (1.0 - base.hits / base.model.hull)
    return gain - own - 1.0


def _engineer(state: State, side: str, action: Engineer) -> float:
    if action.key == "repair" and action.target in state.bases:
        target = state.bases[action.target]
        return 0.5 * target.model.points / target.model.hull
    if action.key in ("clear-encrypted", "clear-minefield", "remove-mek-lok"):
        if action.target is None:
            return 0.0
        chance = float(engineering_chance(action.key))
        return chance * lane_value(state, state.bases[action.base], action.target)
    if action.key == "free-trapped":
        return 2.0
    if action.key == "deliver-payload" and action.target in state.bases:
        return 0.5 * state.bases[action.target].model.points
    if action.key == "arm-payload":
        return 1.0
    return 0.1


def lane_value(state: State, engineer: Base, feature_id: str) -> float:
    """What clearing ``feature_id`` is worth to a breaching side: the hazard of one
    crossing spared to every friend not yet past the engineer (7.0, 3.0)."""
    victory = state.setup.victory
    if victory.kind != "breach" or victory.side != engineer.side:
        return 0.2
    edge = victory.edge or "east"
    mark = _toward_edge(state, engineer.geo, edge) + 1.0
    behind = [b for b in state.active(engineer.side) if _toward_edge(state, b.geo, edge) < mark]
    kind = terrain_chart().kinds[state.terrain.feature(feature_id).kind]
    per = float(area_chance(3)) if kind.trap is None else max(0.0, (7 - kind.trap) / 6.0) * TRAPPED
    return per * sum(b.model.points for b in behind)


def _work(state: State, base: Base, where: Figure) -> float:
    """A demolition engineer ending within reach of an obstacle it can clear next turn is
    worth half a clearing (one ply cannot see the action it makes possible)."""
    if base.role != "engineer" or state.units[base.unit].mission != "E":
        return 0.0
    best = 0.0
    for feature in state.terrain.features_touching(where, reach=1.0):
        if feature.kind in ("minefield", "encrypted", "mek_lok"):
            best = max(best, 0.5 * lane_value(state, base, feature.id))
    return best


def _move(state: State, side: str, action: Move, memo: _Memo | None = None) -> float:
    try:
        base, result = movement.plan(state, side, action)
    except IllegalAction:
        return -1e9
    here = None if memo is None else memo.here.get(base.id)
    if here is None:
        here = (
            position_value(state, base, base.geo, memo),
            _work(state, base, base.geo),
            barrage_risk(state, base, base.geo, memo),
        )
        if memo is not None:
            memo.here[base.id] = here
    value_here, work_here, risk_here = here
    gain = position_value(state, base, result.end, memo) - value_here
    gain += _work(state, base, result.end) - work_here
    gain += risk_here - barrage_risk(state, base, result.end, memo)
    return gain - hazard(state, base, result)


def barrage_risk(state: State, base: Base, where: Figure, memo: _Memo | None = None) -> float:
    """Expected points ``base`` loses to the barrage markers already on the table if it
    stands at ``where`` in phase 6: each marker whose radius holds it rolls for it, and a
    base that moves out of a marker's radius is not struck by it (3.0). Markers are
    public once set down, and a move is measured, so this reads no secret (``memo``:
    one :func:`evaluate` call's)."""
    radius = rules().data.barrage.radius
    flank = _flank(state, base, memo)
    risk = 0.0
    for marker in state.markers:
        if math.hypot(where.x - marker.at[0], where.y - marker.at[1]) > radius + 1e-9:
            continue
        p = _area(base.model.defence, no_flank_support=not flank, deflected=marker.deflected > 0)
        risk += p * base.model.points
    return risk


def hazard(state: State, base: Base, result: MoveResult) -> float:
    """Expected points lost on the way: a trap roll costs the base's mobility (counted as
    half its points, and for a breaching base also the pull of the ground it would
    never cover: a trapped base cannot break out), a minefield crossing its chance of
    destruction (1.5, the stand-in)."""
    kinds = terrain_chart().kinds
    terrain = state.terrain
    ploughed = _ploughed(state, base)
    stuck = base.model.points * TRAPPED
    edge = movement.breach_edge(state, base.side)
    if edge is not None:
        table = state.setup.table
        span = table.width if edge in ("east", "west") else table.height
        stuck += BREACH_PULL * max(span - _toward_edge(state, base.geo, edge), 0.0)
    risk = 0.0
    for crossing in along.crossings(
        terrain, result, lambda f: f not in ploughed and _hazardous(terrain, kinds, f)
    ):
        kind = kinds[terrain.feature(crossing.feature).kind]
        if kind.trap is not None:
            need = kind.trap or 7
            p = 1.0 / 6.0 if kind.trap_only else max(0.0, (7 - need) / 6.0)
            risk += p * stuck
        if terrain.feature(crossing.feature).kind == "minefield":
            risk += _area(base.model.defence) * base.model.points
    return risk


def _ploughed(state: State, base: Base) -> frozenset[str]:
    """The features a demolition engineer ploughs on any move (4.4: high and medium
    sensitivity, not the 7.0 kinds): it rolls for no trap in them."""
    if not movement.ploughs(state, base):
        return frozenset()
    kinds = terrain_chart().kinds
    return frozenset(
        f.id
        for f in state.terrain.active
        if f.kind not in movement.PLOUGH_KEEP
        and (kind := kinds.get(f.kind)) is not None
        and not kind.barrier
        and kind.sensitivity in movement.PLOUGHED
    )


def _hazardous(terrain: Any, kinds: Any, feature_id: str) -> bool:
    kind = kinds.get(terrain.feature(feature_id).kind)
    return kind is not None and (
        kind.trap is not None or terrain.feature(feature_id).kind == "minefield"
    )


def threat(base: Base, where: Figure, foes: Sequence[Base]) -> float:
    """Half the points ``base`` can expect to lose at ``where`` to the ``foes`` that reach
    it (range, arc widened by 30 degrees), as the side sees them."""
    total = 0.0
    for e in foes:
        d = math.hypot(e.geo.x - where.x, e.geo.y - where.y)
        if d <= e.model.range and in_arc(e.geo, where, rules().arc(e.model.weapon) + 30.0):
            mean, _ = _mean_hits(
                e.model.attack, base.model.defence, e.model.weapon, e.damage, False, False
            )
            total += mean * base.model.points / base.model.hull * 0.5
    return total


def position_value(state: State, base: Base, where: Figure, memo: _Memo | None = None) -> float:
    """What ``base`` can expect to shoot from ``where`` next fire phase, less what it can
    expect to be shot with, plus the pull of its mission. No sight lines (too dear for
    every candidate): arcs and ranges only (``memo``: one :func:`evaluate` call's)."""
    enemy = state.other(base.side)
    foes = None if memo is None else memo.foes.get(enemy)
    if foes is None:
        foes = [e for e in state.active(enemy) if not e.contaminated]
        if memo is not None:
            memo.foes[enemy] = foes
    arc = rules().arc(base.model.weapon)
    best = 0.0
    nearest = math.inf
    for e in foes:
        d = math.hypot(e.geo.x - where.x, e.geo.y - where.y)
        nearest = min(nearest, d)
        if d <= base.model.range and in_arc(where, e.geo, arc):
            best = max(best, shot_value(state, base, e.id, cover=False))
    score = best - threat(base, where, foes)
    if best == 0.0 and math.isfinite(nearest):
        score -= APPROACH * max(nearest - base.model.range * 0.8, 0.0)
    score += facing_value(where, foes)
    victory = state.setup.victory
    if victory.kind == "breach" and victory.side == base.side and victory.edge is not None:
        score += BREACH_PULL * _toward_edge(state, where, victory.edge)
    score -= _tower_risk(state, base, where)
    return score


def facing_value(where: Figure, foes: Sequence[Base]) -> float:
    """:data:`FACING` times how squarely ``where`` faces the nearest of ``foes`` (1 dead
    ahead, 0 dead astern): a base that ends its move facing the enemy has it in its arc
    of fire next (5.0). ``foes`` are where the side sees them (the bot's state is its
    side's, by eye)."""
    if not foes:
        return 0.0
    near = min(foes, key=lambda e: math.hypot(e.geo.x - where.x, e.geo.y - where.y))
    if math.hypot(near.geo.x - where.x, near.geo.y - where.y) < 1e-6:
        return 0.0
    off = abs(turn_angle(where.facing, heading(where.at, near.geo.at)))
    return FACING * (1.0 - off / 180.0)


def _toward_edge(state: State, where: Figure, edge: str) -> float:
    table = state.setup.table
    return {
        "east": where.x,
        "west": table.width - where.x,
        "north": where.y,
        "south": table.height - where.y,
    }[edge]


def _tower_risk(state: State, base: Base, where: Figure) -> float:
    reach = rules().data.fungus.infect_reach
    risk = 0.0
    for tower in state.towers.values():
        if not tower.live or tower.destroyed:
            continue
        cx, cy = space.tower_centre(state, tower.id)
        if (
            math.hypot(cx - where.x, cy - where.y) <= reach
            and math.hypot(cx - base.geo.x, cy - base.geo.y) > reach
        ):
            risk += 0.5 * base.model.points
    return risk


def sealed_strategy(state: State, side: str, rng: random.Random) -> Action | None:
    """The free barrage of a tied initiative (4.6): aimed at the best spot the side sees
    (by eye), set down somewhere within the eye's cell around it at random, so the
    opponent cannot work out where it will land from what the bot sees."""
    if state.step != "tie":
        return None
    from warbench.rulesets.invisible_enemy.candidates import aims

    spots = aims(state, side)
    if not spots:
        table = state.setup.table
        return Barrage((round(table.width / 2, 1), round(table.height / 2, 1)))
    best = max(spots, key=lambda p: marker_value(state, side, p, dodge=False))
    half = rules().data.eye.cell / 2
    table = state.setup.table
    x = min(max(best[0] + rng.uniform(-half, half), 0.0), table.width)
    y = min(max(best[1] + rng.uniform(-half, half), 0.0), table.height)
    return Barrage((round(x, 1), round(y, 1)))


__all__ = ["evaluate", "marker_value", "position_value", "sealed_strategy", "shot_value"]


def standing(state: State) -> dict[str, float]:
    """Each side's bases in play or off by the breach edge, at their points per hull
    point left plus half their points for being whole (as ``shot_value`` counts a
    shot's gain)."""
    found = dict.fromkeys(state.setup.sides, 0.0)
    for base in state.bases.values():
        if base.destroyed:
            continue
        points, hull = float(base.model.points), base.model.hull
        left = hull if base.exited else max(hull - base.hits, 0)
        found[base.side] += points * left / hull + 0.5 * points
    return found
