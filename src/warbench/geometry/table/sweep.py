"""Bases in motion: the area a base sweeps on a straight leg, and where it first meets something.

Every base is a *core* with a radius (see :attr:`Figure.solid`): the points
within the radius of the core. Moving straight, a round base's core (its
centre) sweeps a segment, a rectangle's core sweeps the convex hull of its two
end positions; the radius is unchanged. A base overlaps an obstacle (also a
core with a radius) when the cores come closer than the sum of the radii less
:data:`EPS`.

Where a moving base first meets an obstacle is solved exactly: corners of
each shape moving against circles about the other's corners and strips along
its edges.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table.core import EPS, Point, boundary_edges
from warbench.geometry.table.figures import Figure, RoundBase

__all__ = ["first_contact", "swept"]

FloatArray = npt.NDArray[np.float64]


def swept(figure: Figure, end: Point) -> tuple[shapely.Geometry, float]:
    """The core and radius of the area ``figure``'s base sweeps moving straight to ``end``."""
    if isinstance(figure.base, RoundBase):
        if end == figure.at:
            return shapely.Point(figure.at), figure.base.radius
        return shapely.LineString([figure.at, end]), figure.base.radius
    core, radius = figure.solid
    a = shapely.get_coordinates(core)
    shift = np.array([end[0] - figure.x, end[1] - figure.y])
    hull: shapely.Geometry = shapely.convex_hull(shapely.MultiPoint(np.vstack([a, a + shift])))
    return hull, radius


def _first_within(
    points: FloatArray, shift: Point, a: FloatArray, b: FloatArray, reach: float
) -> float | None:
    """Smallest t in [0, 1] at which some ``points + t * shift`` comes within ``reach`` of an edge.

    Each moving point meets the edge ``a``-``b`` either at a circle about an
    end (a quadratic in t) or at one of the two lines parallel to the edge at
    ``reach`` (linear in t, kept if the foot falls on the edge). Arrays are
    broadcast as (points, edges).
    """
    dx, dy = shift
    qa = dx * dx + dy * dy
    if qa == 0.0 or not len(points) or not len(a):
        return None
    px = points[:, 0:1]
    py = points[:, 1:2]
    best = math.inf
    for corners in (a, b):
        ox, oy = px - corners[:, 0], py - corners[:, 1]
        qb = 2.0 * (dx * ox + dy * oy)
        qc = ox * ox + oy * oy - reach * reach
        disc = qb * qb - 4.0 * qa * qc
        ok = disc >= 0.0
        if ok.any():
            t = (-qb[ok] - np.sqrt(disc[ok])) / (2.0 * qa)
            t = t[(t >= 0.0) & (t <= 1.0)]
            if len(t):
                best = min(best, float(t.min()))
    ex, ey = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    length = np.hypot(ex, ey)
    real = length > 0.0
    if real.any():
        ux, uy = ex[real] / length[real], ey[real] / length[real]
        nx, ny = -uy, ux
        ax, ay = a[real, 0], a[real, 1]
        h0 = (px - ax) * nx + (py - ay) * ny
        dh = dx * nx + dy * ny
        moving = np.abs(dh) > 1e-15
        step = np.where(moving, dh, 1.0)
        for side in (reach, -reach):
            t = np.where(moving, (side - h0) / step, 2.0)  # 2: never in [0, 1]
            s = (px + t * dx - ax) * ux + (py + t * dy - ay) * uy
            good = (t >= 0.0) & (t <= 1.0) & (s >= 0.0) & (s <= length[real])
            if good.any():
                best = min(best, float(t[good].min()))
    return None if best == math.inf else best


def first_contact(
    figure: Figure,
    end: Point,
    obstacle: shapely.Geometry,
    obstacle_radius: float,
    edges: tuple[FloatArray, FloatArray] | None = None,
    *,
    touch: bool = False,
) -> float:
    """Fraction of the way to ``end`` at which the moving base first overlaps the obstacle.

    0 if it overlaps at the start; 1 if it never does (the caller knows it does).
    Two shapes first meet where a corner of one reaches an edge of the other,
    so both ways round are solved (the obstacle's corners moving backwards).
    ``edges`` are the obstacle's :func:`boundary_edges`, if the caller has them.
    ``touch``: find where the bases first touch instead (a legal place to stop).
    """
    core, radius = figure.solid
    reach = radius + obstacle_radius - (0.0 if touch else EPS)
    if float(shapely.distance(core, obstacle)) < reach:
        return 0.0
    shift = (end[0] - figure.x, end[1] - figure.y)
    oa, ob = edges if edges is not None else boundary_edges(obstacle)
    ma, mb = figure.core_edges
    found = [_first_within(ma, shift, oa, ob, reach)]
    if len(ma) != 1 or not np.array_equal(ma, mb):
        # A round base's core is its centre, one null edge: the obstacle's corners moving
        # back to it solve the very equations its centre moving to them did (each term
        # negated exactly), so only a shape with real edges is solved the other way round.
        found.append(_first_within(oa, (-shift[0], -shift[1]), ma, mb, reach))
    hits = [t for t in found if t is not None]
    return min(hits) if hits else 1.0
