"""MGV questions a player asks of the table: ``measure`` and the reason of a candidate.

Measuring: MGV is played with tape measures (1.0), ranges are unlimited and
measured centre post to centre post (5.0), and moves are measured as they are
made (4.0). One thing may not be measured: photon fire stands on the player's
own estimate of the range, which may not be pre-measured or checked against a
tape (5.3). So ``measure`` refuses

- anything at all while photon range guesses are being written (the ``range``
  step; the views then show whole inches only), and
- at any moment, the distance between a base of the asking side that carries a
  photon weapon (or has a weapon still to choose, which may become one) and an
  enemy base: that is the range the photon guess is about.

Everything else is answered: distance centre post to centre post (to the nearest
part of a feature), line of sight from the centre post (terrain only; bases do
not block sight, ruling), and whether each base has the other in its 60-degree
front arc (5.0 Arcs of fire).
"""

from __future__ import annotations

import dataclasses

import shapely

from warbench.core.actions import Action
from warbench.errors import QuestionRefused
from warbench.geometry.table import Figure, MoveResult, Point, centre_distance, in_arc
from warbench.rulesets.kit.eye import spots_by_eye, told_distance
from warbench.rulesets.kit.table.ask import (
    face_reason,
    measure_pair,
    move_reason,
    nearest,
    nearest_point,
    toward_reason,
)
from warbench.rulesets.kit.table.moves import base_reach, planned_cost
from warbench.rulesets.kit.table.phrases import Spot
from warbench.rulesets.mgv import space
from warbench.rulesets.mgv.actions import FireOrder, Move
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.parse import WHAT, spots
from warbench.rulesets.mgv.state import Base, State

GUESSING = (
    "no measuring while photon range guesses are written: 5.3 has the player estimate "
    "the range on the spot, with no tape"
)


# -- measure --------------------------------------------------------------------------------


def photon_ready(base: Base) -> bool:
    """The base carries a photon weapon, or a weapon still to choose (1.5)."""
    return any(m.weapon in (None, "photon") for m in base.mounts.values())


def _photon_pair(state: State, side: str, a: Spot, b: Spot) -> str | None:
    for mine, other in ((a, b), (b, a)):
        base = state.bases.get(mine.id)
        theirs = state.bases.get(other.id)
        if mine.figure is None or other.figure is None or base is None or theirs is None:
            continue
        if base.side == side and theirs.side != side and photon_ready(base):
            carries = (
                "carries a photon weapon"
                if any(m.weapon == "photon" for m in base.mounts.values())
                else "may yet be armed with a photon weapon"
            )
            return (
                f"{base.id} {carries} and {theirs.id} is an enemy base: 5.3 forbids "
                "pre-measuring the range a photon shot must estimate"
            )
    return None


def measure(state: State, side: str, first: str, second: str) -> str:
    """Distance centre post to centre post and line of sight, where 5.3 allows measuring."""
    if state.step == "range":
        raise QuestionRefused(GUESSING)
    a, b = measure_pair(state.setup.table, first, second, lambda: spots(state), WHAT)
    why = _photon_pair(state, side, a, b)
    if why:
        raise QuestionRefused(why)
    if a.figure is None and b.figure is not None:
        a, b = b, a
    if a.figure is not None:
        far = float(shapely.distance(shapely.Point(a.figure.at), b.shape))
        if b.figure is not None:
            far = centre_distance(a.figure, b.figure)
        how = "centre post to centre post" if b.figure else "centre post to nearest part"
    else:
        far, how = float(shapely.distance(a.shape, b.shape)), "nearest parts"
    by_eye = spots_by_eye((a, b), state.setup.options.measuring, side)
    lines = [f"{a.title} to {b.title}: {told_distance(far, by_eye)} {how} (5.0)"]
    if a.figure is not None:
        lines.append(_sight_line(state, a, b))
    half = rules().data.arc_half_angle
    for eye, other in ((a, b), (b, a)):
        if eye.figure is None:
            continue
        target: Figure | Point = other.figure or nearest_point(eye.figure.at, other)
        inside = in_arc(eye.figure, target, half)
        word = "inside" if inside else "outside"
        lines.append(f"{other.id} is {word} {eye.id}'s {2 * half:g}-degree front arc (5.0)")
    return "\n".join(lines)


def _sight_line(state: State, a: Spot, b: Spot) -> str:
    assert a.figure is not None
    target: Figure | Point = b.figure or nearest_point(a.figure.at, b)
    sight = state.scene().sight(a.figure, target, figures_block=False)
    name = f"line of sight {a.id} to {b.id} (from the centre post)"
    if sight.centre_clear:
        return f"{name}: clear"
    return f"{name}: blocked by {', '.join(sight.blocked_by) or 'terrain'}"


# -- reasons --------------------------------------------------------------------------------


def _seen_by(state: State, side: str, geo: Figure) -> int:
    """Enemy bases with a clear line of sight to the centre post of a base at ``geo``."""
    scene = state.scene()
    return sum(
        1
        for enemy in state.active(state.other(side))
        if scene.sight(enemy.geo, geo, figures_block=False).centre_clear
    )


def _covered(state: State, side: str, base: Base, geo: Figure) -> bool:
    """Every enemy that sees the base at ``geo`` finds it in cover (1.4)."""
    moved = dataclasses.replace(base, geo=geo)
    scene = state.scene()
    seers = [
        e
        for e in state.active(state.other(side))
        if scene.sight(e.geo, geo, figures_block=False).centre_clear
    ]
    return bool(seers) and all(space.cover(state, e, moved)[0] > 0 for e in seers)


def _nearest(state: State, side: str, geo: Figure) -> tuple[float, str] | None:
    return nearest((centre_distance(geo, e.geo), e.id) for e in state.active(state.other(side)))


def _reason_on_table(
    state: State, side: str, action: Move, base: Base, result: MoveResult
) -> str | None:
    """A beacon set, a turn to face an enemy, out of sight, to cover or toward (4.0)."""
    start, end = base.geo, result.end
    if action.beacon is not None:
        return f"beacon {action.beacon}"
    if not action.path:
        return face_reason(end, ((e.id, e.geo) for e in state.active(state.other(side))))
    before = _seen_by(state, side, start)
    if before and _seen_by(state, side, end) == 0:
        return "out of sight"
    if before and not _covered(state, side, base, start) and _covered(state, side, base, end):
        return "to cover"
    return toward_reason(_nearest(state, side, start), _nearest(state, side, end))


def action_reason(state: State, side: str, action: Action) -> str | None:
    """Why the candidate ``action`` is worth a look, in a few words; None if nothing stands out.

    ``state`` is the side's own (whole inches while a guess is asked), so nothing
    said here is finer than what the side may know.
    """
    if isinstance(action, Move):
        from warbench.rulesets.mgv.movement import plan, runner_edge

        return move_reason(plan, runner_edge, state, side, action, _reason_on_table)
    if isinstance(action, FireOrder) and action.attacks:
        targets = list(dict.fromkeys(t for _, _, t in action.attacks))
        return "fire at " + ", ".join(targets)
    return None


__all__ = ["action_cost", "action_reason", "measure", "move_reach", "photon_ready"]


def action_cost(state: State, side: str, action: Action) -> str | None:
    """A move's inches of the base's allowance, from the rules' own plan (None if refused)."""
    from warbench.rulesets.mgv.movement import plan

    return planned_cost(plan, state, side, action)


def move_reach(state: State, side: str, piece: str) -> tuple[tuple[float, float], float] | None:
    """:func:`~warbench.rulesets.kit.table.moves.base_reach`; none while photon range
    guesses are written (5.3 forbids measuring)."""
    from warbench.rulesets.mgv.movement import plan

    return base_reach(plan, Move, state, side, piece, state.step == "range")
