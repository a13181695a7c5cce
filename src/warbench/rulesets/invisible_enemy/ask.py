"""Invisible Enemy questions a player asks of the table: ``measure`` and candidate reasons.

Measuring: the game is played with tape measures (1.0) and measures fire range
centre to centre (5.0), the barrage radius to a base's centre (3.0) and the
fungus towers' reach from the tower's centre (1.5). It forbids one thing: barrage
markers go down by hand, with no pre-measuring of the table (3.0). So ``measure``
refuses everything while markers are set down (the ``mark1``, ``mark2`` and
``tie`` steps; the views then show whole inches only) and answers at every other
moment: distance centre to centre (to the nearest part of a feature), the
weapon blocks on the line between the two (1.5), and, from a base, whether the
other is within its weapon's range and arc (5.0).
"""

from __future__ import annotations

import math

import shapely

from warbench.core.actions import Action
from warbench.errors import QuestionRefused
from warbench.geometry.table import Figure, MoveResult, Point, RoundBase, centre_distance, in_arc
from warbench.rulesets.invisible_enemy import space
from warbench.rulesets.invisible_enemy.actions import (
    Barrage,
    Destruct,
    Engineer,
    Fire,
    Move,
)
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.parse import WHAT, spots
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.invisible_enemy.view import by_hand
from warbench.rulesets.kit.eye import spots_by_eye, told_distance
from warbench.rulesets.kit.table.ask import (
    face_reason,
    measure_pair,
    move_reason,
    nearest,
    nearest_point,
    shelter_reason,
    toward_reason,
)
from warbench.rulesets.kit.table.moves import base_reach, planned_cost
from warbench.rulesets.kit.table.phrases import Spot

BY_HAND = (
    "no measuring while barrage markers go down: 3.0 has them placed by hand, "
    "with no pre-measuring of the table"
)


# -- measure --------------------------------------------------------------------------------


def _aim(state: State, spot: Spot, towards: Point) -> space.Aim:
    """The spot as the 1.5 weapon-block test takes it (a feature: its nearest point)."""
    base = state.bases.get(spot.id)
    if spot.figure is not None and base is not None:
        return space.base_aim(base)
    found = space.aim(state, spot.id)  # a fungus tower
    if found is not None:
        return found
    at = nearest_point(towards, spot)
    return space.Aim(spot.id, at, shapely.Point(at), 0.0, 0, 0, 0)


def measure(state: State, side: str, first: str, second: str) -> str:
    """Distance centre to centre and weapon blocks, where 3.0 allows measuring."""
    if by_hand(state):
        raise QuestionRefused(BY_HAND)
    a, b = measure_pair(state.setup.table, first, second, lambda: spots(state), WHAT)
    if a.figure is None and b.figure is not None:
        a, b = b, a
    tower = state.towers.get(b.id)
    if a.figure is not None and (b.kind != "feature" or tower is not None):
        target = b.centre if tower is None else space.tower_centre(state, b.id)
        far, how = centre_distance(a.figure.at, target), "centre to centre"
    elif a.figure is not None:
        far, how = float(shapely.distance(shapely.Point(a.figure.at), b.shape)), "centre to edge"
    else:
        far, how = float(shapely.distance(a.shape, b.shape)), "nearest parts"
    by_eye = spots_by_eye((a, b), state.setup.options.measuring, side)
    lines = [f"{a.title} to {b.title}: {told_distance(far, by_eye)} {how}"]
    eye = _aim(state, a, b.centre)
    target_aim = _aim(state, b, eye.centre)
    ground = space.terrain_line(state, eye, target_aim)
    if ground.blocked is not None:
        lines.append(f"line {a.id} to {b.id}: blocked by {ground.blocked} (1.5)")
    else:
        lines.append(f"line {a.id} to {b.id}: clear of terrain blocks (1.5)")
    if ground.cover:
        lines.append(f"{b.id} has cover from {', '.join(ground.cover)} (1.5)")
    for one, other in ((a, b), (b, a)):
        base = state.bases.get(one.id)
        if base is None or one.figure is None or base.side != side or not base.weapon:
            continue
        reach = base.model.range
        point = other.figure.at if other.figure is not None else nearest_point(one.figure.at, other)
        if tower is not None and other.id == tower.id:
            point = space.tower_centre(state, tower.id)
        span = centre_distance(one.figure.at, point)
        half = rules().arc(base.weapon)
        where = "within" if span <= reach + space.RANGE_SLACK else "beyond"
        arc = "inside" if in_arc(one.figure, point, half) else "outside"
        lines.append(
            f'{other.id} is {where} the {reach:g}" range of {one.id} and {arc} its '
            f"{2 * half:g}-degree arc (5.0)"
        )
    return "\n".join(lines)


# -- reasons --------------------------------------------------------------------------------


def _enemies(state: State, side: str) -> list[Base]:
    return state.active(state.other(side))


def _seers(state: State, side: str, base: Base, geo: Figure) -> tuple[int, int]:
    """Enemy bases with a terrain-clear line to ``base`` standing at ``geo``, and of them
    those that find it without cover (1.5)."""
    footprint: shapely.Geometry
    if isinstance(geo.base, RoundBase):
        footprint, radius = shapely.Point(geo.at), geo.base.radius
    else:
        footprint, radius = geo.outline, 0.0
    here = space.Aim(base.id, geo.at, footprint, radius, 0, 0, 0, base=base)
    seen = open_ = 0
    for enemy in _enemies(state, side):
        if not enemy.weapon:
            continue
        ground = space.terrain_line(state, space.base_aim(enemy), here)
        if ground.blocked is None:
            seen += 1
            if not ground.cover:
                open_ += 1
    return seen, open_


def _nearest(state: State, side: str, at: Point) -> tuple[float, str] | None:
    return nearest((centre_distance(at, e.geo.at), e.id) for e in _enemies(state, side))


def _under_barrage(state: State, at: Point) -> bool:
    radius = rules().data.barrage.radius
    return any(math.dist(m.at, at) <= radius + 1e-9 for m in state.markers)


def _reason_on_table(
    state: State, side: str, action: Move, base: Base, result: MoveResult
) -> str | None:
    """A turn to face an enemy, out of a barrage, to shelter, or toward the nearest."""
    start, end = base.geo, result.end
    if not action.path:
        return face_reason(end, ((e.id, e.geo) for e in _enemies(state, side)))
    if _under_barrage(state, start.at) and not _under_barrage(state, end.at):
        return "out of the barrage"
    _, open_ = _seers(state, side, base, start)
    sheltered = shelter_reason(open_, lambda: _seers(state, side, base, end))
    if sheltered:
        return sheltered
    return toward_reason(_nearest(state, side, start.at), _nearest(state, side, end.at))


def action_reason(state: State, side: str, action: Action) -> str | None:
    """Why the candidate ``action`` is worth a look, in a few words; None if nothing stands out.

    ``state`` is the side's own (whole inches while markers go down), so a
    barrage's reason names the enemy base nearest its point as the side sees it.
    """
    if isinstance(action, Move):
        from warbench.rulesets.invisible_enemy.movement import breach_edge, plan

        return move_reason(plan, breach_edge, state, side, action, _reason_on_table)
    if isinstance(action, Fire):
        return f"{'rake' if action.rake else 'fire at'} {action.target}"
    if isinstance(action, Engineer):
        return f"{action.key} {action.target}" if action.target else action.key
    if isinstance(action, Destruct):
        base = state.bases.get(action.base)
        if base is None:
            return None
        near = _nearest(state, side, base.geo.at)
        return f"blast near {near[1]}" if near else None
    if isinstance(action, Barrage):
        near = _nearest(state, side, action.at)
        return f"at {near[1]}" if near else None
    return None


__all__ = ["action_cost", "action_reason", "measure", "move_reach"]


def action_cost(state: State, side: str, action: Action) -> str | None:
    """The inches a move spends of the base's allowance (4.4), as the rules plan it."""
    from warbench.rulesets.invisible_enemy.movement import plan

    return planned_cost(plan, state, side, action)


def move_reach(state: State, side: str, piece: str) -> tuple[tuple[float, float], float] | None:
    """:func:`~warbench.rulesets.kit.table.moves.base_reach`; none while barrage markers go
    down by hand (3.0 forbids measuring)."""
    from warbench.rulesets.invisible_enemy.movement import plan

    return base_reach(plan, Move, state, side, piece, by_hand(state))
