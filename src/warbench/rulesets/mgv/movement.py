"""4.0 Movement: straight legs, turning costs, terrain (1.4), traps and marker beacons."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import shapely

from warbench.core.game import Resolution
from warbench.errors import IllegalAction, MoveRefused
from warbench.geometry.table import Figure, MoveResult, MoveRules, along
from warbench.geometry.table.along import Crossing
from warbench.geometry.table.movement import TURN_TOLERANCE
from warbench.rulesets.kit.eye import emit_move, refuse_problem
from warbench.rulesets.kit.table.moves import driven_path, leave_by, own_base
from warbench.rulesets.mgv.actions import Move
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.state import Base, State


def straight_only(drift: float) -> float | None:
    """4.0: straight lines, no drifting to the right or left. A leg held at a facing
    (``X,Y@F``) goes along it or straight back along it (ruling 20), an inch an inch;
    any other angle is a drift, refused."""
    if drift <= TURN_TOLERANCE or drift >= 180.0 - TURN_TOLERANCE:
        return 1.0
    return None


@cache
def move_rules(may_leave_table: bool) -> MoveRules:
    """4.0: 1/2" per 45 degrees of turn or part of it; friendly bases may overlap in passing;
    no drifting (:func:`straight_only`)."""
    return MoveRules(
        turning=rules().turning,
        direction_cost=straight_only,
        pass_through="friends",
        may_leave_table=may_leave_table,
    )


def movable(state: State, side: str) -> list[Base]:
    """Bases of ``side`` that may still move this phase."""
    return [b for b in state.active(side) if not b.immobile and b.id not in state.moved]


def runner_edge(state: State, side: str) -> str | None:
    victory = state.setup.victory
    return victory.edge if victory.kind == "gauntlet" and victory.side == side else None


def _off_by(state: State, figure: Figure, edge: str) -> bool:
    """The base's centre has crossed ``edge`` (it leaves the table there)."""
    return state.setup.table.past_edge(figure.at, edge)


def plan(state: State, side: str, action: Move) -> tuple[Base, MoveResult]:
    """Check a move without changing anything; IllegalAction says why it is refused.

    Remembered until the table changes (``State.touched``), for the bots that
    list a move and then score it.
    """
    if action.base not in state.bases:
        return _plan(state, side, action)  # refused: no such base (nothing to remember)
    if action.beacon is not None:  # the same move, planned once, then the beacon's check
        base, planned = plan(state, side, replace(action, beacon=None))
        _check_beacon(state, base, action, planned)
        return base, planned
    key = (side, action, state.phase_no)
    mine = state.plans.setdefault(action.base, {})
    found = mine.get(key)
    if found is None:
        try:
            found = _plan(state, side, action)
        except IllegalAction as exc:
            found = exc
        mine[key] = found
    if isinstance(found, IllegalAction):
        raise MoveRefused(action, found.reason_given, getattr(found, "kind", ""))
    result: tuple[Base, MoveResult] = found
    return result


def _plan(state: State, side: str, action: Move) -> tuple[Base, MoveResult]:
    base: Base = own_base(state.bases, action.base, side, action)
    if base.id in state.moved:
        raise IllegalAction(action, f"{base.id} has already moved this phase (4.0)")
    if base.immobile:
        why = "trapped" if base.trapped else "out of speed (P hits)"
        raise IllegalAction(action, f"{base.id} is immobile: {why} (black marker, 4.0)")
    edge = runner_edge(state, side)
    result = state.scene().plan_move(
        base.id,
        action.legs(),
        allowance=base.speed,
        rules=move_rules(edge is not None),
        final_facing=action.facing,
    )
    refuse_problem(action, result, state.bases, state.setup.options.measuring, side)
    if result.off_table and (edge is None or not _off_by(state, result.end, edge)):
        where = f" except by the {edge} edge" if edge else ""
        raise IllegalAction(action, f"{base.id} may not leave the table{where}")
    return base, result


def _check_beacon(state: State, base: Base, action: Move, result: MoveResult) -> None:
    data = rules().data
    enemy = state.bases.get(action.beacon or "")
    if "beacons" not in base.model.traits:
        raise IllegalAction(action, f"the {base.model.title} cannot fire marker beacons (4.0)")
    if enemy is None or not enemy.active or enemy.side == base.side:
        raise IllegalAction(action, f"{action.beacon} is not an enemy base on the table")
    whole = sum(leg.length for leg in result.legs)
    if _closest_until(result, enemy, whole) > data.beacon_range + 1e-9:
        raise IllegalAction(
            action, f'{enemy.id} is never within {data.beacon_range:g}" during this move (4.0)'
        )


def crossings(state: State, result: MoveResult) -> list[Crossing]:
    """Every crossing of a trap feature along the move, in the order the base meets them:
    one trap roll each, taken in its middle (1.4 chart key)."""
    kinds = state.setup.kinds
    return along.crossings(state.setup.terrain, result, lambda f: bool(kinds[f].trap))


point_along = along.point_along


def _stop(state: State, base: Base, result: MoveResult, distance: float) -> tuple[Figure, float]:
    """Where a base trapped ``distance`` inches along its move comes to rest: in the
    middle of the crossing (1.4), unless that is on top of a friendly base it was
    passing (4.0 allows overlapping friends only in passing): then just short of it."""
    friends = [b.geo for b in state.active(base.side) if b.id != base.id]
    return along.rest_at(result, distance, friends)


def apply_move(state: State, side: str, action: Move, res: Resolution) -> None:
    base, result = plan(state, side, action)
    start = base.geo
    end = result.end
    travelled = sum(leg.length for leg in result.legs)
    trapped = False
    for crossing in crossings(state, result):
        numbers = state.setup.kinds[crossing.feature].trap
        total = sum(res.roll(f"trap roll in {crossing.feature} (1.4)", 2, side))
        if total in numbers:
            end, travelled = _stop(state, base, result, crossing.middle)
            trapped = True
            res.emit(
                "trapped",
                f"{base.id} is trapped in {crossing.feature} (black marker)",
                base=base.id,
                feature=crossing.feature,
            )
            break
    base.geo = end
    base.moved_phase = state.phase_no
    base.moved_distance = travelled
    state.moved.append(base.id)
    base.trapped = base.trapped or trapped
    edge = runner_edge(state, side)
    leave_by(state, base, end.at, edge, trapped, "runs the gauntlet off", res)
    path = driven_path(result, travelled, trapped, end.at)
    spend = (travelled, base.speed, result.cost)
    data = rules().data
    emit_move(res, base.id, path, end.facing, spend, data.eye, state.setup.options.measuring)
    if action.beacon is not None:
        enemy = state.bases[action.beacon]
        reach = rules().data.beacon_range
        if _closest_until(result, enemy, travelled) <= reach + 1e-9:
            enemy.beacon_turn = state.turn
            res.emit(
                "beacon",
                f"{base.id} marks {enemy.id} with a beacon (+1 to missile fire on it this turn)",
                base=base.id,
                target=enemy.id,
            )
        else:
            res.emit("beacon_lost", f"{base.id} never came within {reach:g}in of {enemy.id}")
    state.touched(base, start)


def _path_until(result: MoveResult, distance: float) -> list[list[float]]:
    """The centre's waypoints up to ``distance`` inches along the move."""
    return [list(p) for p in along.path_until(result, distance)]


def _closest_until(result: MoveResult, enemy: Base, distance: float) -> float:
    """The nearest the base's centre came to ``enemy`` in the first ``distance`` inches."""
    points = [tuple(p) for p in _path_until(result, distance)]
    points.append(point_along(result, distance)[0])
    point = shapely.Point(enemy.geo.x, enemy.geo.y)
    if len(points) == 1 or all(p == points[0] for p in points):
        return float(shapely.distance(point, shapely.Point(points[0])))
    return float(shapely.distance(point, shapely.LineString(points)))
