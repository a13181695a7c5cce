"""A fan of legs: the moves a bot lists for one base, all starting where it stands.

Listing a base's candidate moves plans a dozen or more straight legs from the same
place (:func:`~warbench.geometry.table.movement.plan_move`, one by one). Each plan
asks the same few questions of the table about its leg: how the centre's track
splits by areas, which barriers it crosses, which impassable features and which
figures the swept base meets. Asked one leg at a time, every question is a handful
of small numpy and shapely calls, and their overhead is most of a plan's cost.

:func:`prepare_fan` asks those questions for every leg of the fan at once: one box
test over the (leg, feature) and (leg, figure) pairs, one vectorised
``shapely.intersection`` or ``shapely.distance`` over the pairs that pass. It
remembers the answers (tracks and crossings with the terrain, as
:meth:`Terrain.track` does; the swept base's hits with the scene), and each plan
then finds them instead of working them out. The answers are the ones a single
plan finds: the same geometry operations on the same coordinates, the same
arithmetic, the same order; ``plan_move`` gives the same result with or without
the preparation, only sooner.

It also works out which figures a round base would overlap at each leg's end (the
plan's check of where the move ends).

Only round bases are prepared for the swept hits and the ends (what a rectangle
covers depends on its facing, which a plan may change before the leg); their tracks
and crossings are prepared all the same. A round base's leg that no fan prepared is
checked the same way on its own (:func:`leg_hits`), with plain floats where a single
leg would pay numpy's overhead, and remembered with the scene too (a bot scores the
moves it listed, and a ruleset may plan a leg again with another facing).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

import numpy as np
import shapely

from warbench.geometry.table.core import EPS, Point
from warbench.geometry.table.features import Feature
from warbench.geometry.table.figures import Figure, RoundBase, overlapping
from warbench.geometry.table.terrain import segments

if TYPE_CHECKING:
    from warbench.geometry.table.scene import Scene

__all__ = ["LegHits", "end_overlaps", "leg_hits", "prepare_fan"]

LegKey = tuple[float, float, float, float, float]
"""A round base's leg: the start's x and y, the base's radius, the end's x and y."""
LegHits = tuple[tuple[Feature, ...], tuple[int, ...]]
"""What a round base sweeping a leg overlaps: the movement obstacles (impassable
features and uncrossable barriers, in layout order) and the positions in the scene's
figure index of the figures (ascending; the mover itself among them)."""
_LIMIT: Final[int] = 4096
"""Legs remembered per scene (a scene lives for one state of the table)."""
FEW_FIGURES: Final[int] = 16
"""Up to this many figures a plain loop finds those near a leg faster than numpy."""
SURE_GAP: Final[float] = 1e-9
"""Inches by which the plain-float distance of a round figure's centre from a leg must
clear a sweep's reach to settle the exact test without it: on a table of a few hundred
inches either way of working that distance out errs by well under a millionth of this."""


def _key(figure: Figure, end: Point) -> LegKey | None:
    base = figure.base
    if not isinstance(base, RoundBase):
        return None
    return (figure.x, figure.y, base.radius, end[0], end[1])


def leg_hits(scene: Scene, figure: Figure, end: Point) -> LegHits | None:
    """What a round base ``figure`` overlaps sweeping straight to ``end`` (not where it
    stands): as :func:`prepare_fan` worked it out, or else worked out now for this leg
    alone and remembered with the others. None for a rectangle (the planner works it
    out itself)."""
    key = _key(figure, end)
    if key is None:
        return None
    found = scene.fan_hits.get(key)
    if found is None:
        found = _sweep_one(scene, figure, end)
        known = scene.fan_hits
        if len(known) >= _LIMIT:
            known.clear()
        known[key] = found
    return found


def _sweep_one(scene: Scene, figure: Figure, end: Point) -> LegHits:
    """:func:`_sweep` of one leg, with plain floats where numpy's overhead would dominate.

    The features are found as ``Terrain.movement_obstacles`` finds them (the leg's box
    grown by the radius, then the exact distance). Among a few figures, those near the
    leg are found by a plain loop where ``FigureIndex.near_segment`` uses numpy: it is
    only a first cut (every figure the exact test keeps is inside it by far more than a
    rounding, the test's margin being :data:`EPS`), so the two find the same figures.
    The distance that loop works out also settles a round figure's exact test, unless it
    lies within :data:`SURE_GAP` of the reach (then shapely's distance decides, as ever).
    """
    assert isinstance(figure.base, RoundBase)
    radius = figure.base.radius
    x, y = figure.at
    ex, ey = end
    core: shapely.Geometry | None = None
    terrain = scene.terrain
    obstacles: tuple[Feature, ...] = ()
    if len(terrain.active):
        near = terrain.blocking_in_box(
            min(x, ex) - radius, min(y, ey) - radius, max(x, ex) + radius, max(y, ey) + radius
        )
        if near:
            core = shapely.LineString([figure.at, end])
            hit = (shapely.distance(core, terrain.geoms[near]) < radius - EPS).tolist()
            obstacles = tuple(terrain.active[i] for i, h in zip(near, hit, strict=True) if h)
    found: list[int] = []
    pad = figure.base.bounding_radius
    index = scene.index
    if len(index) > FEW_FIGURES:
        close: list[tuple[int, float | None]] = [
            (i, None) for i in index.near_segment(figure.at, end, pad).tolist()
        ]
    else:
        close = _near_leg(index.plain, figure.at, end, pad)
    for i, gap in close:
        other = index.figures[i]
        other_core, other_radius = other.solid
        reach = radius + other_radius - EPS
        if gap is not None and type(other.base) is RoundBase:
            # A round figure's gap in plain floats settles the exact test unless it lies
            # within a rounding of the reach (see :data:`SURE_GAP`).
            if gap < reach - SURE_GAP:
                found.append(i)
                continue
            if gap > reach + SURE_GAP:
                continue
        if core is None:
            core = shapely.LineString([figure.at, end])
        if float(shapely.distance(core, other_core)) < reach:
            found.append(i)
    return obstacles, tuple(found)


def prepare_fan(scene: Scene, figure: Figure, ends: Iterable[Point]) -> None:
    """Work out, for legs from ``figure``'s place to each of ``ends``, what a plan asks of
    the table (see the module's docstring): for the plans of a base's candidate moves."""
    legs = list(dict.fromkeys((float(e[0]), float(e[1])) for e in ends))
    legs = [e for e in legs if e != figure.at]
    if not legs:
        return
    terrain = scene.terrain
    terrain.prepare_tracks(figure.at, legs)
    terrain.prepare_crossings(figure.at, legs)
    if not isinstance(figure.base, RoundBase):
        return
    known = scene.fan_hits
    x, y = figure.at
    # (A leg too short to square is left to the planner, as near_segment treats it apart.)
    todo = [
        e
        for e in legs
        if _key(figure, e) not in known and (e[0] - x) * (e[0] - x) + (e[1] - y) * (e[1] - y)
    ]
    if not todo:
        return
    if len(known) + len(todo) > _LIMIT:
        known.clear()
    for end, hits in zip(todo, _sweep(scene, figure, todo), strict=True):
        key = _key(figure, end)
        assert key is not None
        known[key] = hits
    _prepare_ends(scene, figure, legs)


def end_overlaps(scene: Scene, figure: Figure) -> tuple[int, ...] | None:
    """The positions (in the scene's figure index, ascending) of the figures whose bases
    overlap ``figure``'s where it stands, if :func:`prepare_fan` worked them out for the
    end of a leg (None: the planner works them out itself). The figure itself may be
    among them, where it overlaps its own place in the index."""
    base = figure.base
    if not isinstance(base, RoundBase):
        return None
    return scene.fan_ends.get((figure.x, figure.y, base.radius))


def _prepare_ends(scene: Scene, figure: Figure, ends: list[Point]) -> None:
    """:func:`end_overlaps` for a round base at each of ``ends``: the bounding box test
    of ``FigureIndex.in_box`` for all the ends at once, then the exact ``overlapping``
    of the few figures it finds."""
    assert isinstance(figure.base, RoundBase)
    radius = figure.base.radius
    known = scene.fan_ends
    todo = [e for e in ends if (e[0], e[1], radius) not in known]
    if not todo:
        return
    if len(known) + len(todo) > _LIMIT:
        known.clear()
    index = scene.index
    found: list[list[int]] = [[] for _ in todo]
    if len(index):
        e = np.array(todo, dtype=np.float64)
        x, y, r = index.centres[:, 0], index.centres[:, 1], index.bound_radius
        # Figure.bounds of a round base at each end, against each figure's bounding circle.
        x0 = (e[:, 0] - radius)[:, None]
        y0 = (e[:, 1] - radius)[:, None]
        x1 = (e[:, 0] + radius)[:, None]
        y1 = (e[:, 1] + radius)[:, None]
        meet = ((x + r)[None, :] >= x0) & ((x - r)[None, :] <= x1)
        meet &= ((y + r)[None, :] >= y0) & ((y - r)[None, :] <= y1)
        leg, i = np.nonzero(meet)
        figures = index.figures
        for n, j in zip(leg.tolist(), i.tolist(), strict=True):
            if overlapping(figure.moved_to(todo[n]), figures[j]):
                found[n].append(j)
    for end, hits in zip(todo, found, strict=True):
        known[(end[0], end[1], radius)] = tuple(hits)


def _near_leg(
    figures: Sequence[tuple[float, float, float]], start: Point, end: Point, pad: float
) -> list[tuple[int, float | None]]:
    """``FigureIndex.near_segment`` in plain floats (see :func:`_sweep_one`) over the
    figures' centres and bounding radii (``FigureIndex.plain``), each figure found with
    its centre's distance from the segment."""
    x, y = start
    dx, dy = end[0] - x, end[1] - y
    length2 = dx * dx + dy * dy
    out: list[tuple[int, float | None]] = []
    for i, (ox, oy, bound) in enumerate(figures):
        px, py = ox - x, oy - y
        t = min(max((px * dx + py * dy) / length2, 0.0), 1.0) if length2 else 0.0
        gap = math.hypot(px - t * dx, py - t * dy)
        if gap <= bound + pad:
            out.append((i, gap))
    return out


def _sweep(scene: Scene, figure: Figure, ends: list[Point]) -> list[LegHits]:
    """The hits of a round base sweeping from its place to each of ``ends``: what
    ``_Planner.check_leg`` finds with ``Terrain.movement_obstacles`` and the figure
    index's ``near_segment`` and an exact distance, for all the legs at once."""
    assert isinstance(figure.base, RoundBase)
    radius = figure.base.radius
    pad = figure.base.bounding_radius
    x, y = figure.at
    e = np.array(ends, dtype=np.float64)
    cores = segments((x, y), ends)
    obstacles: list[list[Feature]] = [[] for _ in ends]
    terrain = scene.terrain
    blocking = np.nonzero(terrain.blocks_movement)[0]
    if len(blocking):
        # Terrain._near: the leg's box, widened by the radius, meets the feature's box.
        x0 = (np.minimum(x, e[:, 0]) - radius)[:, None]
        y0 = (np.minimum(y, e[:, 1]) - radius)[:, None]
        x1 = (np.maximum(x, e[:, 0]) + radius)[:, None]
        y1 = (np.maximum(y, e[:, 1]) + radius)[:, None]
        fx0, fy0, fx1, fy1 = (b[blocking][None, :] for b in terrain._box)
        leg, k = np.nonzero((fx0 <= x1) & (fx1 >= x0) & (fy0 <= y1) & (fy1 >= y0))
        if len(leg):
            feature = blocking[k]
            hit = shapely.distance(cores[leg], terrain.geoms[feature]) < radius - EPS
            for n_leg, f in zip(leg[hit].tolist(), feature[hit].tolist(), strict=True):
                obstacles[n_leg].append(terrain.active[f])  # by leg, features ascending
    figures: list[list[int]] = [[] for _ in ends]
    index = scene.index
    if len(index):
        # FigureIndex.near_segment for each leg, then the exact test of check_leg.
        centres = index.centres
        px = (centres[:, 0] - x)[None, :]
        py = (centres[:, 1] - y)[None, :]
        dx = (e[:, 0] - x)[:, None]
        dy = (e[:, 1] - y)[:, None]
        length2 = dx * dx + dy * dy
        t = np.clip((px * dx + py * dy) / length2, 0.0, 1.0)
        gap = np.hypot(px - t * dx, py - t * dy)
        leg, i = np.nonzero(gap <= (index.bound_radius + pad)[None, :])
        if len(leg):
            others = [index.figures[j].solid for j in i.tolist()]
            other_cores = np.array([c for c, _ in others], dtype=object)
            reach = np.array([radius + r - EPS for _, r in others], dtype=np.float64)
            hit = shapely.distance(cores[leg], other_cores) < reach
            for n_leg, j in zip(leg[hit].tolist(), i[hit].tolist(), strict=True):
                figures[n_leg].append(j)
    return [(tuple(o), tuple(f)) for o, f in zip(obstacles, figures, strict=True)]
