"""VSGMR questions a player asks of the table: ``measure`` and the reason of a candidate.

Measuring: section I lists a ruler among the things needed to play and the rules
measure moves (II.2) and the Distance Attack Unit (II.3) with it; nothing in the
text forbids measuring at any moment, and VSGMR has no hidden information, so a
player may measure between any two things on the table at any time. Ranges are
measured as the rules measure them: base edge to base edge (ruling 10), or centre
to centre under option ``range_from = "centre"``.

Reasons (``list`` prints them beside each candidate) are computed from the table:
a move that ends touching an enemy is a ``charge``; one that ends on an item or at
a task goes ``to`` it; one that leaves every enemy's sight goes ``out of sight``,
or ``to cover`` when what still sees it sees half or more of it behind terrain
(II.3); else one that closes on the nearest enemy goes ``toward`` it.
"""

from __future__ import annotations

import shapely

from warbench.core.actions import Action
from warbench.geometry.table import Figure, Point, edge_distance
from warbench.rulesets.kit.table.ask import (
    face_reason,
    measure_pair,
    nearest,
    nearest_point,
    shelter_reason,
    toward_reason,
)
from warbench.rulesets.kit.table.phrases import Spot, inches
from warbench.rulesets.vsgmr import space
from warbench.rulesets.vsgmr.actions import Fight, Move, Shoot, Skill, Take
from warbench.rulesets.vsgmr.parse import WHAT, spots
from warbench.rulesets.vsgmr.state import Fig, State

# -- measure --------------------------------------------------------------------------------


def _distance(state: State, a: Spot, b: Spot) -> float:
    if a.figure is None and b.figure is not None:
        a, b = b, a
    if a.figure is not None:
        if b.figure is not None:
            return space.gap(state, a.figure, b.figure)
        if b.kind == "feature":
            feature = space.feature(state, b.id)
            assert feature is not None
            return space.feature_gap(state, a.figure, feature)
        return space.point_gap(state, a.figure, b.centre)
    return float(shapely.distance(a.shape, b.shape))


def _sight(state: State, a: Spot, b: Spot) -> str | None:
    if a.figure is None and b.figure is not None:
        a, b = b, a
    if a.figure is None:
        return None
    target: Figure | Point = b.figure if b.figure is not None else nearest_point(a.figure.at, b)
    seen = space.sight(state, a.figure, target)
    name = f"line of sight {a.id} to {b.id}"
    if not seen.clear:
        return f"{name}: blocked by {', '.join(seen.blocked_by) or 'terrain'}"
    if b.figure is None:
        return f"{name}: clear"
    share = state.setup.rules.cover_share
    parts = [f"{name}: {round(100 * (1 - seen.hidden))}% of it in view"]
    if seen.obscured >= share - 1e-9:
        parts.append(f"in cover (at least {share:.0%} behind terrain, II.3)")
    return ", ".join(parts)


def measure(state: State, side: str, first: str, second: str) -> str:
    """Distance (as II.3 measures range) and line of sight between two things or points."""
    a, b = measure_pair(state.setup.table, first, second, lambda: spots(state), WHAT)
    how = "centre to centre" if state.setup.options.range_from == "centre" else "edge to edge"
    if a.figure is None and b.figure is None:
        how = "nearest parts"
    lines = [f"{a.title} to {b.title}: {inches(_distance(state, a, b))} {how}"]
    sight = _sight(state, a, b)
    if sight:
        lines.append(sight)
    for eye, other in ((a, b), (b, a)):
        fig = state.figs.get(eye.id)
        if fig is None or eye.figure is None or other.figure is None:
            continue
        reach = state.setup.rules.range
        if fig.profile.distance:
            inside = space.gap(state, eye.figure, other.figure) <= reach + 1e-9
            where = "within" if inside else "beyond"
            lines.append(f"{other.id} is {where} {eye.id}'s Distance Attack Unit ({reach:g}\")")
        faces = space.faces(state, eye.figure, other.figure)
        lines.append(f"{eye.id} {'faces' if faces else 'does not face'} {other.id}")
    return "\n".join(lines)


# -- reasons --------------------------------------------------------------------------------


def _enemies(state: State, side: str) -> list[Fig]:
    return [f for f in state.figs.values() if f.active and f.side != side]


def _exposure(state: State, side: str, body: Figure) -> tuple[int, int]:
    """Enemies that see the base, and of them those that see it in the open (not in cover)."""
    share = state.setup.rules.cover_share
    seen = open_ = 0
    for enemy in _enemies(state, side):
        if not enemy.profile.distance:
            continue
        sight = space.sight(state, space.body(state, enemy), body)
        if sight.clear:
            seen += 1
            if sight.obscured < share - 1e-9:
                open_ += 1
    return seen, open_


def _nearest_enemy(state: State, side: str, body: Figure) -> tuple[float, str] | None:
    return nearest(
        (space.gap(state, body, space.body(state, e)), e.id) for e in _enemies(state, side)
    )


def _move_reason(state: State, side: str, fig: Fig, move: Move) -> str | None:
    check = space.check_move(state, fig, move.path, move.facing, move.facings)
    if check.problem is not None:
        return None
    start, end = space.body(state, fig), check.end
    touch = state.setup.rules.touch
    if check.leaves:
        carried = [state.items[i].label for i in fig.items]
        return "off the table" + (f" with {', '.join(carried)}" if carried else "")
    if check.mounts:
        return f"mounts {check.mounts}"
    for enemy in _enemies(state, side):
        body = space.body(state, enemy)
        if edge_distance(end, body) <= touch < edge_distance(start, body):
            return f"charge {enemy.id}"
    for item in state.items.values():
        if (
            item.at is not None
            and not item.gone
            and end.covers(item.at, tolerance=touch)
            and not start.covers(item.at, tolerance=touch)
        ):
            return f"to {item.label.lower() or item.id}"
    for task in state.setup.tasks:
        if _at_task(state, end, task.at, task.feature, task.reach) and not _at_task(
            state, start, task.at, task.feature, task.reach
        ):
            return f"to {task.id}"
    if not move.path:
        return face_reason(end, ((e.id, space.body(state, e)) for e in _enemies(state, side)))
    _, open_before = _exposure(state, side, start)
    sheltered = shelter_reason(open_before, lambda: _exposure(state, side, end))
    if sheltered:
        return sheltered
    return toward_reason(_nearest_enemy(state, side, start), _nearest_enemy(state, side, end))


def _at_task(
    state: State, body: Figure, at: Point | None, feature_id: str | None, reach: float
) -> bool:
    if at is not None:
        return space.point_gap(state, body, at) <= reach
    feature = space.feature(state, feature_id or "")
    if feature is None or feature.id in state.destroyed:
        return False
    return space.feature_gap(state, body, feature) <= reach


def action_reason(state: State, side: str, action: Action) -> str | None:
    """Why the candidate ``action`` is worth a look, in a few words; None if nothing stands out."""
    if isinstance(action, Move):
        fig = state.figs.get(action.figure)
        if fig is None or not fig.active:
            return None
        return _move_reason(state, side, fig, action)
    if isinstance(action, Shoot):
        return f"fire at {action.target}"
    if isinstance(action, Fight):
        return f"fight {action.target}"
    if isinstance(action, Take):
        item = state.items.get(action.item)
        return f"pick up {item.label.lower() if item else action.item}"
    if isinstance(action, Skill):
        return f"skill roll at {action.task}"
    return None


__all__ = ["action_cost", "action_reason", "measure", "move_reach"]


def action_cost(state: State, side: str, action: Action) -> str | None:
    """A move's inches of the figure's allowance (a Half Move Unit in rough terrain),
    from the rules' own check (None if refused)."""
    from warbench.rulesets.kit.table.moves import move_cost

    if not isinstance(action, Move):
        return None
    fig = state.figs.get(action.figure)
    if fig is None or fig.side != side or fig.where != "table":
        return None
    check = space.check_move(state, fig, action.path, action.facing, action.facings)
    return None if check.problem else move_cost(check.result, check.allowance)


def move_reach(state: State, side: str, piece: str) -> tuple[tuple[float, float], float] | None:
    """Where ``side``'s figure ``piece`` stands and the inches it may move (its Move Unit,
    half of it where it stands in rough terrain); None once it has moved this round."""
    fig = state.figs.get(piece)
    if fig is None or fig.side != side or fig.where != "table" or fig.moved:
        return None
    at = (fig.geo.at[0], fig.geo.at[1])
    check = space.check_move(state, fig, [at], None)
    return at, round(check.allowance, 2)
