"""Along a planned move: the stretches it runs inside features, and where it is at a distance.

Rules that act *during* a move need these (MGV's trap roll in the middle of a
crossing, 1.4; Invisible Enemy's trap rolls, 1.5): a *crossing* is one
stretch of the centre's track inside one feature, however many legs it takes
and whatever other features overlap it; distances run along the whole path,
turns included at no length. A base stopped partway (trapped, struck) comes
to rest with :func:`rest_at`; :func:`path_until` gives the track it covered.

>>> from warbench.geometry.table import Feature, Figure, Scene, Table
>>> wet = Feature.polygon("wet", [(4, 0), (6, 0), (6, 10), (4, 10)])
>>> scene = Scene(Table(20, 10), [wet], [Figure("a", 1.0, 5.0)])
>>> move = scene.plan_move("a", [(5.0, 5.0), (9.0, 5.0)], allowance=20.0)
>>> [(c.feature, c.start, c.end) for c in crossings(scene.terrain, move)]
[('wet', 3.0, 5.0)]
>>> point_along(move, 4.0)
((5.0, 5.0), 0.0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from warbench.geometry.table.core import Point
from warbench.geometry.table.figures import Figure, overlapping
from warbench.geometry.table.movement import MoveResult, TurnStep
from warbench.geometry.table.terrain import Terrain

JOIN: Final = 1e-6
"""Inches: track pieces this close are one stretch (a leg ends where the next begins)."""


@dataclass(frozen=True, slots=True)
class Crossing:
    """One stretch of a move inside one feature: from ``start`` to ``end`` inches along it."""

    feature: str
    start: float
    end: float

    @property
    def middle(self) -> float:
        return (self.start + self.end) / 2.0


def crossings(
    terrain: Terrain, result: MoveResult, counts: Callable[[str], bool] = lambda _: True
) -> list[Crossing]:
    """Every crossing of a feature ``counts`` accepts, in the order the base meets them."""
    spans: dict[str, list[list[float]]] = {}
    offset = 0.0
    for leg in result.legs:
        for piece in terrain.track(leg.start, leg.end):
            for feature in piece.features:
                if not counts(feature):
                    continue
                lo, hi = offset + piece.start, offset + piece.end
                runs = spans.setdefault(feature, [])
                if runs and lo - runs[-1][1] <= JOIN:
                    runs[-1][1] = hi
                else:
                    runs.append([lo, hi])
        offset += leg.length
    found = [Crossing(f, lo, hi) for f, runs in spans.items() for lo, hi in runs if hi > lo]
    return sorted(found, key=lambda c: (c.middle, c.feature))


def point_along(result: MoveResult, distance: float) -> tuple[Point, float]:
    """The centre's place ``distance`` inches along the move, and the facing there."""
    travelled = 0.0
    legs = result.legs
    for leg in legs:
        if distance <= travelled + leg.length + JOIN:
            return leg.point_at(max(0.0, distance - travelled)), leg.facing
        travelled += leg.length
    if not legs:  # a turn on the spot
        return result.start.at, result.end.facing
    last = legs[-1]
    return last.end, last.facing


def path_until(result: MoveResult, distance: float) -> list[Point]:
    """The centre's waypoints up to ``distance`` inches along the move (start included,
    the point at ``distance`` itself not: add ``point_along`` for it)."""
    points = [result.start.at]
    travelled = 0.0
    for leg in result.legs:
        if travelled + leg.length >= distance:
            break
        travelled += leg.length
        points.append(leg.end)
    return points


def spent_until(result: MoveResult, distance: float) -> float:
    """The allowance a move has spent when its centre is ``distance`` inches along it:
    every turn made before that point, each leg's pieces up to it at their rates and
    each barrier reached (a base stopped partway pays for the part it made).

    >>> from warbench.geometry.table import Feature, Scene, Table
    >>> bog = Feature.polygon("bog", [(4, 0), (6, 0), (6, 10), (4, 10)], move_cost=2.0)
    >>> move = Scene(Table(20, 10), [bog], [Figure("a", 1.0, 5.0)]).plan_move(
    ...     "a", [(9.0, 5.0)], allowance=20.0)
    >>> move.cost, spent_until(move, 4.0), spent_until(move, 8.0)
    (10.0, 5.0, 10.0)
    """
    spent = 0.0
    offset = 0.0
    for step in result.steps:
        if isinstance(step, TurnStep):
            if step.leg is not None and offset < distance - JOIN:
                spent += step.cost
            continue
        reach = distance - offset
        if reach <= 0.0:
            break
        if reach >= step.length - JOIN:
            spent += step.cost
        else:
            for piece in step.pieces:
                inside = min(piece.end, reach) - piece.start
                if inside > 0.0:
                    spent += inside * max(piece.cost, step.rate)
            spent += sum(c.cost for c in step.crossings if c.at <= reach)
        offset += step.length
    return spent


STEP_BACK: Final = 0.05
"""Inches a stopped base is set back at a time to clear a figure it was passing."""


def rest_at(result: MoveResult, distance: float, others: Iterable[Figure]) -> tuple[Figure, float]:
    """Where a base stopped ``distance`` inches along its move comes to rest, and how far
    it got: there, unless that is on top of one of ``others`` it was passing (friends
    may overlap only in passing); then just short of it, where it last stood clear.

    >>> from warbench.geometry.table import Scene, Table
    >>> friends = [Figure("a", 1.0, 5.0, side="x"), Figure("b", 5.0, 5.0, side="x")]
    >>> scene = Scene(Table(20, 10), [], friends)
    >>> move = scene.plan_move("a", [(9.0, 5.0)], allowance=20.0)
    >>> spot, got = rest_at(move, 4.0, [scene.figure("b")])
    >>> round(got, 2), round(spot.x, 2)
    (3.0, 4.0)
    """
    near = list(others)
    along = distance
    while along > 0.0:
        at, facing = point_along(result, along)
        here = result.start.moved_to(at, facing)
        if not any(overlapping(here, other) for other in near):
            return here, along
        along -= STEP_BACK
    return result.start, 0.0


__all__ = [
    "JOIN",
    "STEP_BACK",
    "Crossing",
    "crossings",
    "path_until",
    "point_along",
    "rest_at",
    "spent_until",
]
