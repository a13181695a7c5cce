"""4.0 Movement: straight legs, turning costs, terrain (1.4), traps and marker beacons."""

from __future__ import annotations

from functools import cache

import shapely

from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.geometry.table import Figure, MoveResult, MoveRules
from warbench.rulesets.mgv.actions import Move
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.state import Base, State


@cache
def move_rules(may_leave_table: bool) -> MoveRules:
    """4.0: 1/2" per 45 degrees of turn or part of it; friendly bases may overlap in passing."""
    return MoveRules(
        turning=rules().turning, pass_through="friends", may_leave_table=may_leave_table
    )


def movable(state: State, side: str) -> list[Base]:
    """Bases of ``side`` that may still move this phase."""
    return [b for b in state.active(side) if not b.immobile and b.id not in state.moved]


def runner_edge(state: State, side: str) -> str | None:
    victory = state.setup.victory
    return victory.edge if victory.kind == "gauntlet" and victory.side == side else None


def _off_by(state: State, figure: Figure, edge: str) -> bool:
    """The base's centre has crossed ``edge`` (it leaves the table there)."""
    table = state.setup.table
    return {
        "north": figure.y > table.height,
        "south": figure.y < 0.0,
        "east": figure.x > table.width,
        "west": figure.x < 0.0,
    }[edge]


def plan(state: State, side: str, action: Move) -> tuple[Base, MoveResult]:
    """Check a move without changing anything; IllegalAction says why it is refused.

    Remembered until the table changes (``State.touched``), for the bots that
    list a move and then score it.
    """
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
        raise IllegalAction(action, found.reason)
    result: tuple[Base, MoveResult] = found
    return result


def _plan(state: State, side: str, action: Move) -> tuple[Base, MoveResult]:
    base = state.bases.get(action.base)
    if base is None or not base.active:
        raise IllegalAction(action, f"there is no base {action.base} on the table")
    if base.side != side:
        raise IllegalAction(action, f"{base.id} is not yours")
    if base.id in state.moved:
        raise IllegalAction(action, f"{base.id} has already moved this phase (4.0)")
    if base.immobile:
        why = "trapped" if base.trapped else "out of speed (P hits)"
        raise IllegalAction(action, f"{base.id} is immobile: {why} (black marker, 4.0)")
    edge = runner_edge(state, side)
    result = state.scene().plan_move(
        base.id,
        list(action.path),
        allowance=base.speed,
        rules=move_rules(edge is not None),
        final_facing=action.facing,
    )
    if result.problem is not None:
        raise IllegalAction(action, result.problem.reason)
    if result.off_table and (edge is None or not _off_by(state, result.end, edge)):
        where = f" except by the {edge} edge" if edge else ""
        raise IllegalAction(action, f"{base.id} may not leave the table{where}")
    if action.beacon is not None:
        _check_beacon(state, base, action, result)
    return base, result


def _check_beacon(state: State, base: Base, action: Move, result: MoveResult) -> None:
    data = rules().data
    enemy = state.bases.get(action.beacon or "")
    if "beacons" not in base.model.traits:
        raise IllegalAction(action, f"the {base.model.title} cannot fire marker beacons (4.0)")
    if enemy is None or not enemy.active or enemy.side == base.side:
        raise IllegalAction(action, f"{action.beacon} is not an enemy base on the table")
    if closest(result, enemy) > data.beacon_range + 1e-9:
        raise IllegalAction(
            action, f'{enemy.id} is never within {data.beacon_range:g}" during this move (4.0)'
        )


def closest(result: MoveResult, enemy: Base) -> float:
    """The nearest the moving base's centre comes to ``enemy``'s centre during the move."""
    path = result.path
    point = shapely.Point(enemy.geo.x, enemy.geo.y)
    if len(path) == 1:
        return float(shapely.distance(point, shapely.Point(path[0])))
    return float(shapely.distance(point, shapely.LineString(path)))


def apply_move(state: State, side: str, action: Move, res: Resolution) -> None:
    base, result = plan(state, side, action)
    start = base.geo
    end = result.end
    travelled = 0.0
    trapped_at = None
    for leg in result.legs:
        for piece in state.setup.terrain.track(leg.start, leg.end):
            traps = [f for f in piece.features if state.setup.kinds[f].trap]
            for feature in traps:
                numbers = state.setup.kinds[feature].trap
                total = sum(res.roll(f"trap roll in {feature} (1.4)", 2, side))
                if total in numbers:
                    middle = (piece.start + piece.end) / 2.0
                    trapped_at = leg.point_at(middle)
                    travelled += middle
                    end = base.geo.moved_to(trapped_at, leg.facing)
                    res.emit(
                        "trapped",
                        f"{base.id} is trapped in {feature} (black marker)",
                        base=base.id,
                        feature=feature,
                    )
                    break
            if trapped_at is not None:
                break
        if trapped_at is not None:
            break
        travelled += leg.length
    base.geo = end
    base.moved_phase = state.phase_no
    base.moved_distance = travelled
    state.moved.append(base.id)
    if trapped_at is not None:
        base.trapped = True
    edge = runner_edge(state, side)
    if trapped_at is None and edge is not None and _off_by(state, end, edge):
        state.exited.append(base.id)
        base.exited = True
        res.emit("exited", f"{base.id} runs the gauntlet off the {edge} edge", base=base.id)
    res.emit(
        "move",
        f'{base.id} moves {travelled:.1f}" (allowance {base.speed:g}", spent {result.cost:.1f}")',
        base=base.id,
        path=[list(p) for p in result.path],
        facing=end.facing,
    )
    if action.beacon is not None:
        enemy = state.bases[action.beacon]
        if trapped_at is None or closest(result, enemy) <= rules().data.beacon_range:
            enemy.beacon_turn = state.turn
            res.emit(
                "beacon",
                f"{base.id} marks {enemy.id} with a beacon (+1 to missile fire on it this turn)",
                base=base.id,
                target=enemy.id,
            )
    state.touched(base, start)
