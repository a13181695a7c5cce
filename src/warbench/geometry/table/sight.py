"""Line of sight past terrain and figures, with how much of the target is hidden.

The eye is a point: a figure looks from its centre (MGV's "center post"). The
target is a point or a figure's base.

Method (exact, no sampling). Seen from the eye, a target base spans an angle
(its *silhouette*: the two tangents of a circle, the outer corners of a
rectangle). The *sight region* is every sight line from the eye to the near
side of the base: the polygon bounded by the eye and the base's near outline.
An obstacle hides the directions in which it meets that region. ``hidden`` is
the share of the silhouette's angle covered by the union of those directions:
"half the target is blocked" means half its width as seen by the firer.

Two ways to find an obstacle's directions, with the same answer:

- A convex obstacle (a figure's base, a rectangular building, a circular wood,
  one segment of a wall) that keeps clear of the target and of the eye either
  meets the sight region or not; if it does, it is in front of the target along
  every sight line that meets both (two separate convex shapes never hide each
  other in turn), so it hides exactly the directions it spans. That needs one
  intersection test and some angle arithmetic.
- Anything else (a concave feature, one touching or overlapping the target, a
  wood both eye and target stand in) is clipped to the sight region and the
  directions its pieces span are measured.

This is exact for polygons. Round bases that block are exact circles; circular
features are regular polygons (see :mod:`~warbench.geometry.table.features`).

What counts as an obstacle:

- Other figures' bases always block (``figures_block=False`` turns that off);
  the eye's and target's own bases never do, nor those named in ``ignore``
  (a rider on its mount).
- Features with ``blocks_los == "no"``, and features no taller than both ends
  of the sight (``height <= max(eye_level, target_level)``), are ignored.
- A ``"beyond"`` feature the *target* is near (within its ``beyond_reach``)
  does not block but *screens* the target (cover); one only the *eye* is near
  is ignored (the firer fires out across it); any other one blocks.
- A ``"yes"`` feature blocks, except that a base standing in it treats it as
  ``"beyond"``: a figure in a building sees out and is seen in, with cover.
- A ``"beyond"`` area with a ``see_depth`` is judged by depth instead: a sight
  line crossing more than ``see_depth`` inches of it, counted between the two
  bases (not under the eye's base nor behind the target's near edge), is
  blocked; the directions where it is crossed less are screened (cover),
  unless only the eye is near it (firing out of a wood). The depth of a line
  is the same read from either end, so being near the area gives no one-way
  view through it. Depth varies along the silhouette, so it is sampled
  (:data:`_DEPTH_RAYS` rays) and each change from seen to blocked is found by
  bisection to about 1e-6 of the silhouette.

A sight line that only grazes an obstacle (touches its outline) is not blocked.

Sight between two points is symmetric. Between figures it need not be: the
eyes are centres and the silhouettes differ.

>>> from warbench.geometry.table.features import Feature
>>> from warbench.geometry.table.figures import Figure
>>> from warbench.geometry.table.scene import Scene
>>> from warbench.geometry.table.core import Table
>>> wall = Feature.polyline("wall", [(5.0, 0.0), (5.0, 10.5)], blocks_los="yes")
>>> scene = Scene(Table(20, 20), [wall], [Figure("a", 2.0, 10.5), Figure("b", 8.0, 10.5)])
>>> s = scene.sight("a", "b")
>>> round(s.hidden, 3), s.centre_clear, s.blocked_by
(0.5, True, ('wall',))
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table.core import (
    EPS,
    TOUCH,
    Point,
    part_bounds,
    relative_angles,
    segment_distance,
)
from warbench.geometry.table.depth import deeper_than
from warbench.geometry.table.figures import (
    Figure,
    Place,
    RoundBase,
    edge_distance,
    silhouette,
)
from warbench.geometry.table.index import FigureIndex, _segment_distances
from warbench.geometry.table.terrain import LOS_BEYOND, Terrain

__all__ = ["Sight", "compute_sight", "compute_sight_points"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

_ARC_POINTS: Final[int] = 24
"""Points on the near arc of a round target's sight region."""
_UNIT_SPREAD = np.linspace(-1.0, 1.0, _ARC_POINTS)
_ANGLE_EPS: Final[float] = 1e-9
"""Radians: spans narrower than this are grazes."""
_DEPTH_RAYS: Final[int] = 33
"""Sight lines sampled across a target's silhouette for areas judged by depth."""
_BISECT: Final[int] = 20
"""Halvings that place the edge between a seen and a blocked direction."""
_DEPTH_EPS: Final[float] = 1e-9
"""Inches: a line crossing ``see_depth`` plus this is blocked."""
_CIRCLE_SLACK: Final[float] = 1e-12
"""Inches added to a piece's radius when one segment is tested in plain floats
(:meth:`_Looking._clear_alone`): more than ``math.hypot`` and ``numpy.hypot`` ever differ
at table sizes, far less than the :data:`~warbench.geometry.table.terrain.GRAZE` the
features' cores are shaved by, so it keeps every piece the arrays keep and no core the
segment could pass through is left out."""
_CLEAR: Final[float] = 1e-6
"""Inches an obstacle must keep from the target to take the convex shortcut."""

Interval = tuple[float, float]

BLOCK: Final[int] = 0
SCREEN: Final[int] = 1
IGNORE: Final[int] = 2


@dataclass(frozen=True)
class Sight:
    """What an eye sees of a target.

    ``hidden``: share of the target's silhouette behind blocking features or
    figures (0 fully visible, 1 fully hidden); a point target is 0 or 1.
    ``hidden_by_features``: the same, counting blocking features only.
    ``obscured``: share behind blocking features or screened by cover features
    (``"beyond"`` terrain the target is near, or stands in): the figure a rule
    like VSGMR's "at least half blocked by terrain" compares with 1/2.
    ``centre_clear``: the line to the target's centre is not blocked.
    ``blocked_by`` / ``cover_from``: ids of the blocking things (features and
    figures) and of the screening features, sorted. When blocking terrain
    alone hides the whole target, figures are not examined (nor listed).
    """

    hidden: float
    hidden_by_features: float
    obscured: float
    centre_clear: bool
    blocked_by: tuple[str, ...] = ()
    cover_from: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        """True if any part of the target can be seen."""
        return self.hidden < 1.0 - 1e-9


_SEEN: Final[Sight] = Sight(0.0, 0.0, 0.0, True)


def compute_sight(
    terrain: Terrain,
    figures: FigureIndex,
    eye: Place,
    target: Place,
    *,
    figures_block: bool = True,
    ignore: Collection[str] = (),
    eye_level: float = 0.0,
    target_level: float = 0.0,
) -> Sight:
    """Line of sight from ``eye`` to ``target``; see the module docstring for the method."""
    level = max(eye_level, target_level)
    skip = set(ignore)
    for place in (eye, target):
        if isinstance(place, Figure):
            skip.add(place.id)
    p: Point = eye.at if isinstance(eye, Figure) else (float(eye[0]), float(eye[1]))
    if isinstance(target, Figure):
        span = silhouette(p, target)
        if span is None:  # the eye is on the target's base
            return _SEEN
        sight = _Looking(terrain, figures, eye, target, p, level, skip)
        return sight.figure(target, span, figures_block)
    q: Point = (float(target[0]), float(target[1]))
    if p == q:
        return _SEEN
    return _Looking(terrain, figures, eye, target, p, level, skip).point(q, figures_block)


def compute_sight_points(
    terrain: Terrain,
    figures: FigureIndex,
    eye: Place,
    targets: Sequence[Point],
    *,
    figures_block: bool = True,
    ignore: Collection[str] = (),
    eye_level: float = 0.0,
    target_level: float = 0.0,
) -> list[Sight]:
    """:func:`compute_sight` from ``eye`` to each point of ``targets``, in one vectorised
    pass (the same answers, for many aiming points at once)."""
    level = max(eye_level, target_level)
    skip = set(ignore)
    if isinstance(eye, Figure):
        skip.add(eye.id)
    p: Point = eye.at if isinstance(eye, Figure) else (float(eye[0]), float(eye[1]))
    qs: list[Point] = [(float(x), float(y)) for x, y in targets]
    out: list[Sight] = [_SEEN] * len(qs)
    todo = [k for k, q in enumerate(qs) if q != p]
    if todo:
        looking = _Looking(terrain, figures, eye, qs[todo[0]], p, level, skip)
        found = looking.points([qs[k] for k in todo], figures_block)
        for k, sight in zip(todo, found, strict=True):
            out[k] = sight
    return out


class _Looking:
    """One sight query: the eye, the target, and which features play which role."""

    def __init__(
        self,
        terrain: Terrain,
        figures: FigureIndex,
        eye: Place,
        target: Place,
        p: Point,
        level: float,
        skip: set[str],
    ) -> None:
        self.terrain = terrain
        self.figures = figures
        self.eye = eye
        self.target = target
        self.p = p
        self.level = level
        self.skip = skip

    # -- roles of features ----------------------------------------------------------

    def _touch(self, place: Place, owners: IntArray) -> BoolArray:
        """Does ``place`` count as touching each feature (for the beyond rule)?"""
        t = self.terrain
        beyond = t.los_mode[owners] == LOS_BEYOND
        if isinstance(place, Figure):
            contact = t.contact(place)
            out: BoolArray = contact.under_mask[owners] | (beyond & contact.near_mask[owners])
            return out
        gap = shapely.distance(shapely.Point(place), t.geoms[owners])
        out = (gap <= TOUCH) | (beyond & (gap <= t.reach[owners] + TOUCH))
        return out

    def roles(self, owners: IntArray) -> tuple[IntArray, BoolArray]:
        """Role of each feature (BLOCK, SCREEN, IGNORE), and whether the eye touches it."""
        if isinstance(self.eye, Figure) or isinstance(self.target, Figure):
            at_target = self._touch(self.target, owners)
            at_eye = self._touch(self.eye, owners)
        else:  # two points: one vectorised distance call for both
            t = self.terrain
            ends = np.array([shapely.Point(self.eye), shapely.Point(self.target)], dtype=object)
            gap = shapely.distance(ends[:, None], t.geoms[owners][None, :])
            beyond = t.los_mode[owners] == LOS_BEYOND
            touch = (gap <= TOUCH) | (beyond & (gap <= t.reach[owners] + TOUCH))
            at_eye, at_target = touch[0], touch[1]
        role = np.where(at_target, SCREEN, np.where(at_eye, IGNORE, BLOCK)).astype(np.intp)
        return role, at_eye

    def pieces_near(self, end: Point, pad: float) -> IntArray:
        """Sight pieces of tall-enough features that may come within ``pad`` of eye->end."""
        t = self.terrain
        if not len(t.pieces.geoms):
            return np.empty(0, dtype=np.intp)
        gap = _segment_distances(t.pieces.centre, self.p, end)
        keep = (gap <= t.pieces.radius + pad) & (t.pieces.height > self.level)
        out: IntArray = np.nonzero(keep)[0]
        return out

    # -- areas judged by depth --------------------------------------------------------

    def _from_eye(self, ends: FloatArray) -> tuple[FloatArray, BoolArray]:
        """Where the lines from the eye to ``ends`` leave the eye's own base (a figure
        standing in a wood looks out from its edge: the stretch under it is not
        counted), and whether any of each line is left."""
        vx, vy = ends[:, 0] - self.p[0], ends[:, 1] - self.p[1]
        length = np.hypot(vx, vy)
        safe = np.where(length > 0.0, length, 1.0)
        ux, uy = vx / safe, vy / safe
        start = np.zeros(len(ends))
        if isinstance(self.eye, Figure):
            if isinstance(self.eye.base, RoundBase):
                start = np.full(len(ends), self.eye.base.radius)
            else:
                reach = length + self.eye.base.bounding_radius
                rays = shapely.linestrings(
                    np.stack(
                        [
                            np.repeat(np.array([self.p]), len(ends), axis=0),
                            np.stack([self.p[0] + ux * reach, self.p[1] + uy * reach], axis=1),
                        ],
                        axis=1,
                    )
                )
                start = np.asarray(
                    shapely.length(shapely.intersection(rays, self.eye.outline)), dtype=np.float64
                )
        start = np.minimum(start, length)
        a = np.stack([self.p[0] + ux * start, self.p[1] + uy * start], axis=1)
        left: BoolArray = (length - start) > 0.0
        return a, left

    def _too_deep(self, owner: int, ends: FloatArray) -> BoolArray:
        """Whether the lines from the eye to ``ends`` cross more of area ``owner`` than its
        depth (plus :data:`_DEPTH_EPS`), the stretch under the eye's base not counted, as
        shapely's ``length(intersection(line, area))`` decides it. A convex area is
        measured by half-planes, and shapely measures only the lines that leaves unsure
        (see :func:`~warbench.geometry.table.depth.deeper_than`)."""
        t = self.terrain
        limit = float(t.depth[owner]) + _DEPTH_EPS
        a, left = self._from_eye(ends)
        over = np.zeros(len(ends), dtype=np.bool_)
        unsure = left.copy()
        planes = t.depth_planes(owner)
        if planes is not None and left.any():
            deep, sure = deeper_than(planes, a, ends, limit)
            sure &= left
            over[sure] = deep[sure]
            unsure &= ~sure
        rest = np.nonzero(unsure)[0]
        if len(rest):
            segments = shapely.linestrings(np.stack([a[rest], ends[rest]], axis=1))
            crossed = shapely.length(shapely.intersection(segments, t.geoms[owner]))
            over[rest] = np.asarray(crossed, dtype=np.float64) > limit
        return over

    def _entries(self, target: Figure, angles: FloatArray) -> FloatArray:
        """Where the lines from the eye at ``angles`` (absolute) first meet ``target``'s base."""
        ux, uy = np.cos(angles), np.sin(angles)
        wx, wy = target.x - self.p[0], target.y - self.p[1]
        if isinstance(target.base, RoundBase):
            along = ux * wx + uy * wy
            off = np.maximum(0.0, target.base.radius**2 - (wx * wx + wy * wy - along * along))
            t = along - np.sqrt(off)
        else:
            far = math.hypot(wx, wy) + target.base.bounding_radius
            rays = shapely.linestrings(
                np.stack(
                    [
                        np.repeat(np.array([self.p]), len(angles), axis=0),
                        np.stack([self.p[0] + ux * far, self.p[1] + uy * far], axis=1),
                    ],
                    axis=1,
                )
            )
            coords, which = shapely.get_coordinates(
                shapely.intersection(rays, target.outline), return_index=True
            )
            t = np.full(len(angles), math.hypot(wx, wy))
            if len(coords):
                gap = np.hypot(coords[:, 0] - self.p[0], coords[:, 1] - self.p[1])
                first = np.full(len(angles), np.inf)
                np.minimum.at(first, which, gap)
                t = np.where(np.isfinite(first), first, t)
        return np.stack([self.p[0] + ux * t, self.p[1] + uy * t], axis=1)

    def _deep_spans(
        self, target: Figure, owner: int, direction: float, lo: float, hi: float
    ) -> list[Interval]:
        """Directions (relative to ``direction``) in which area ``owner`` is crossed too deep."""

        def blocked(rel: FloatArray) -> npt.NDArray[np.bool_]:
            return self._too_deep(owner, self._entries(target, direction + rel))

        inset = (hi - lo) * 1e-6
        rel = np.linspace(lo + inset, hi - inset, _DEPTH_RAYS)
        deep = blocked(rel)
        if not deep.any():
            return []
        if deep.all():
            return [(lo, hi)]
        # Each change between neighbouring samples, placed by bisection (all at once).
        change = np.nonzero(deep[:-1] != deep[1:])[0]
        a, b = rel[change].copy(), rel[change + 1].copy()
        left = deep[change]  # blocked on the low side of the change
        for _ in range(_BISECT):
            mid = (a + b) / 2.0
            same = blocked(mid) == left
            a = np.where(same, mid, a)
            b = np.where(same, b, mid)
        edges = ((a + b) / 2.0).tolist()
        spans: list[Interval] = []
        start = lo if deep[0] else None
        for edge, was in zip(edges, left.tolist(), strict=True):
            if was:
                spans.append((lo if start is None else start, edge))
                start = None
            else:
                start = edge
        if start is not None:
            spans.append((start, hi))
        return spans

    # -- a point target: one segment ------------------------------------------------

    def point(self, q: Point, figures_block: bool) -> Sight:
        return self.points([q], figures_block)[0]

    def points(self, qs: Sequence[Point], figures_block: bool) -> list[Sight]:
        """Sight to each point of ``qs`` (none of them the eye), all at once: one
        vectorised pass over every (target, feature) pair instead of a pass per target.
        Each answer is the one segment eye->target judged alone."""
        t = self.terrain
        m_count = len(qs)
        if m_count == 1 and not figures_block and self._clear_alone(qs[0]):
            return [_SEEN]
        ends = np.array(qs, dtype=np.float64).reshape(m_count, 2)
        ax, ay = self.p
        segments: npt.NDArray[np.object_] = np.asarray(
            shapely.linestrings(
                np.stack([np.broadcast_to(np.array(self.p), (m_count, 2)), ends], axis=1)
            ),
            dtype=object,
        ).reshape(m_count)
        blocked_by: list[list[str]] = [[] for _ in range(m_count)]
        cover: list[list[str]] = [[] for _ in range(m_count)]
        by_features = [False] * m_count
        n = len(t.active)
        if len(t.pieces.geoms) and m_count:
            # Pieces of tall-enough features that come near each segment (its own test
            # per target, as _segment_distances does for one).
            dx, dy = ends[:, 0] - ax, ends[:, 1] - ay
            length2 = dx * dx + dy * dy
            px = t.pieces.centre[:, 0:1] - ax
            py = t.pieces.centre[:, 1:2] - ay
            along = np.clip((px * dx + py * dy) / length2, 0.0, 1.0)
            gap = np.hypot(px - along * dx, py - along * dy)
            keep = (gap <= t.pieces.radius[:, None]) & (t.pieces.height[:, None] > self.level)
            pi, mi = np.nonzero(keep)
            # Whole features (shaved of their edges, so grazes do not count), not
            # pieces: a line through the joint of two wall segments crosses the wall.
            code = np.unique(mi * n + t.pieces.owner[pi])
            m, o = code // n, code % n
            if len(m):
                hit = shapely.intersects(t.pieces.core[o], segments[m])
                m, o = m[hit], o[hit]
            if len(m):
                role = self._point_roles(o, ends[m])
                deep = t.by_depth[o]
                for u in np.unique(o[deep]).tolist():
                    sel = np.nonzero(deep & (o == u))[0]
                    role[sel] = np.where(
                        self._too_deep(u, ends[m[sel]]),
                        BLOCK,
                        np.where(role[sel] == IGNORE, IGNORE, SCREEN),
                    )
                for k, i, r in zip(m.tolist(), o.tolist(), role.tolist(), strict=True):
                    if r == BLOCK:
                        blocked_by[k].append(t.active[i].id)
                        by_features[k] = True
                    elif r == SCREEN:
                        cover[k].append(t.active[i].id)
        out: list[Sight] = []
        for k in range(m_count):
            blocked = blocked_by[k]
            if figures_block:
                segment = segments[k]
                near = self.figures.near_segment(self.p, qs[k], 0.0, exclude=self.skip)
                for i in near:
                    core, radius = self.figures.figures[int(i)].solid
                    if float(shapely.distance(segment, core)) < radius - EPS:
                        blocked.append(self.figures.figures[int(i)].id)
            out.append(
                Sight(
                    hidden=1.0 if blocked else 0.0,
                    hidden_by_features=1.0 if by_features[k] else 0.0,
                    obscured=1.0 if by_features[k] or cover[k] else 0.0,
                    centre_clear=not blocked,
                    blocked_by=tuple(sorted(blocked)),
                    cover_from=tuple(sorted(cover[k])),
                )
            )
        return out

    def _clear_alone(self, q: Point) -> bool:
        """Whether the segment eye->``q`` surely passes through no feature, found without
        arrays (one point: the nearest aiming point of an attack on terrain, say). The
        pieces :meth:`points` keeps are kept here too (its test in plain floats, with
        :data:`_CIRCLE_SLACK` more for the last bit of a ``hypot``), and a segment that
        passes through none of their features' cores is :data:`_SEEN`, as :meth:`points`
        finds it. False: not sure (it goes the long way)."""
        t, eye, level = self.terrain, self.p, self.level
        if q == eye:
            return False
        owners = {
            owner
            for cx, cy, radius, height, owner in t.pieces.circles
            if height > level and segment_distance((cx, cy), eye, q) <= radius + _CIRCLE_SLACK
        }
        if not owners:
            return True
        segment = shapely.LineString([self.p, q])
        return not bool(shapely.intersects(t.pieces.core[sorted(owners)], segment).any())

    def _point_roles(self, owners: IntArray, ends: FloatArray) -> IntArray:
        """:meth:`roles` of each feature ``owners[k]`` for the point target ``ends[k]``."""
        t = self.terrain
        beyond = t.los_mode[owners] == LOS_BEYOND
        gap = shapely.distance(shapely.points(ends), t.geoms[owners])
        at_target = (gap <= TOUCH) | (beyond & (gap <= t.reach[owners] + TOUCH))
        if isinstance(self.eye, Figure):
            contact = t.contact(self.eye)
            at_eye = contact.under_mask[owners] | (beyond & contact.near_mask[owners])
        else:
            gap_eye = shapely.distance(shapely.Point(self.p), t.geoms[owners])
            at_eye = (gap_eye <= TOUCH) | (beyond & (gap_eye <= t.reach[owners] + TOUCH))
        role: IntArray = np.where(at_target, SCREEN, np.where(at_eye, IGNORE, BLOCK)).astype(
            np.intp
        )
        return role

    # -- a figure target: the sight region ------------------------------------------

    def figure(
        self, target: Figure, span: tuple[float, float, float], figures_block: bool
    ) -> Sight:
        direction, lo, hi = span
        region = _sight_region(self.p, target, direction)
        feature_spans, screen_spans = self._feature_spans(target, region, direction, lo, hi)
        by_features = _share(_union([s for _, s in feature_spans], lo, hi), lo, hi)
        figure_spans: list[tuple[str, Interval]] = []
        if figures_block and by_features < 1.0:  # else terrain hides it all already
            figure_spans = self._figure_spans(target, region, direction)
        blocking = [s for _, s in feature_spans] + [s for _, s in figure_spans]
        merged = _union(blocking, lo, hi)
        return Sight(
            hidden=_share(merged, lo, hi),
            hidden_by_features=by_features,
            obscured=_share(_union([s for _, s in feature_spans + screen_spans], lo, hi), lo, hi),
            centre_clear=not any(a < -_ANGLE_EPS and b > _ANGLE_EPS for a, b in merged),
            blocked_by=_named(feature_spans + figure_spans, lo, hi),
            cover_from=_named(screen_spans, lo, hi),
        )

    def _feature_spans(
        self, target: Figure, region: shapely.Polygon, direction: float, lo: float, hi: float
    ) -> tuple[list[tuple[str, Interval]], list[tuple[str, Interval]]]:
        t = self.terrain
        shapes = t.pieces  # (``pieces`` below: the indices of those near)
        pieces = self.pieces_near(target.at, target.base.bounding_radius)
        block: list[tuple[str, Interval]] = []
        screen: list[tuple[str, Interval]] = []
        if not len(pieces):
            return block, screen
        owners = shapes.owner[pieces]
        unique = np.unique(owners)
        unique_role, unique_eye = self.roles(unique)
        where = np.searchsorted(unique, owners)
        role = unique_role[where]
        at_eye = unique_eye[where]
        deep = t.by_depth[owners]
        if deep.any():
            # Judged by depth: blocked where crossed too deep, else screened like
            # the rest below (a BLOCK role there only means "neither end is near").
            for i in np.unique(owners[deep]).tolist():
                if shapely.intersects(shapes.core[i], region):
                    spans = self._deep_spans(target, i, direction, lo, hi)
                    block.extend((t.active[i].id, span) for span in spans)
            role = np.where(deep & (role == BLOCK), SCREEN, role)
        live = role != IGNORE
        pieces, owners, role, at_eye = pieces[live], owners[live], role[live], at_eye[live]
        if not len(pieces):
            return block, screen
        # Convex pieces clear of the target (and not around the eye) take the shortcut.
        reach = target.base.bounding_radius + _CLEAR
        apart = np.hypot(*(shapes.centre[pieces] - np.array(target.at)).T) - shapes.radius[pieces]
        clear = apart > reach
        unsure = np.nonzero(~clear)[0]
        if len(unsure):
            geometry, radius = _target_shape(target)
            gap = shapely.distance(shapes.geoms[pieces[unsure]], geometry) - radius
            clear[unsure] = gap > _CLEAR
        quick = shapes.convex[pieces] & clear & ~at_eye
        out = {BLOCK: block, SCREEN: screen}
        fast = np.nonzero(quick)[0]
        if len(fast):
            fast = fast[shapely.intersects(shapes.geoms[pieces[fast]], region)]
        if len(fast):
            lows, highs = _convex_spans(t, pieces[fast], self.p, direction)
            # Name each owner once: many pieces (wall segments, triangles) share one.
            ids = [t.active[i].id for i in owners[fast].tolist()]
            for k, fid, a, b in zip(
                role[fast].tolist(), ids, lows.tolist(), highs.tolist(), strict=True
            ):
                out[k].append((fid, (a, b)))
        slow = np.nonzero(~quick)[0]
        if len(slow) and at_eye[slow].any():
            # An area holding the eye inside it hides (or screens) every direction.
            holds = shapely.contains(shapes.geoms[pieces[slow]], shapely.Point(self.p))
            holds &= t.is_area[owners[slow]]
            for k in slow[holds].tolist():
                out[int(role[k])].append((t.active[int(owners[k])].id, (-math.pi, math.pi)))
            slow = slow[~holds]
        if len(slow):
            clipped = shapely.intersection(shapes.geoms[pieces[slow]], region)
            for k, found in _intervals(clipped, self.p, direction):
                out[int(role[slow[k]])].append((t.active[int(owners[slow[k]])].id, found))
        return block, screen

    def _figure_spans(
        self, target: Figure, region: shapely.Polygon, direction: float
    ) -> list[tuple[str, Interval]]:
        index = self.figures
        near = index.near_segment(self.p, target.at, target.base.bounding_radius, self.skip)
        spans: list[tuple[str, Interval]] = []
        if not len(near):
            return spans
        others = [index.figures[int(i)] for i in near]
        # Bases clear of the target by their bounding circles take the convex shortcut.
        apart = np.hypot(*(index.centres[near] - np.array(target.at)).T) - index.bound_radius[near]
        clear = apart > target.base.bounding_radius + _CLEAR
        round_at: list[int] = []
        rect_at: list[int] = []
        slow: list[Figure] = []
        for k, other in enumerate(others):
            if other.covers(self.p, tolerance=0.0):
                spans.append((other.id, (-math.pi, math.pi)))  # a base over the eye
            elif not clear[k] and edge_distance(other, target) <= _CLEAR:
                slow.append(other)
            elif isinstance(other.base, RoundBase):
                round_at.append(k)
            else:
                rect_at.append(k)
        if round_at:
            centres = index.centres[near[round_at]]
            radii = np.array([others[k].base.bounding_radius for k in round_at])
            meets = shapely.distance(shapely.points(centres), region) < radii
            if meets.any():
                centres, radii = centres[meets], radii[meets]
                dx, dy = centres[:, 0] - self.p[0], centres[:, 1] - self.p[1]
                middle = np.arctan2(dy, dx) - direction
                middle = np.arctan2(np.sin(middle), np.cos(middle))
                half = np.arcsin(np.minimum(1.0, radii / np.hypot(dx, dy)))
                hits = [others[k].id for k, m in zip(round_at, meets, strict=True) if m]
                for fid, c, h in zip(hits, middle.tolist(), half.tolist(), strict=True):
                    spans.append((fid, (c - h, c + h)))
        if rect_at:
            outlines = np.array([others[k].outline for k in rect_at], dtype=object)
            for k, meets_k in zip(rect_at, shapely.intersects(outlines, region), strict=True):
                if meets_k:
                    other = others[k]
                    found = _convex_span(
                        other.outline_coords, np.array(other.at), self.p, direction
                    )
                    spans.append((other.id, found))
        if slow:
            outlines = np.array([f.outline for f in slow], dtype=object)
            clipped = shapely.intersection(outlines, region)
            spans.extend((slow[k].id, s) for k, s in _intervals(clipped, self.p, direction))
        return spans


def _target_shape(target: Figure) -> tuple[shapely.Geometry, float]:
    if isinstance(target.base, RoundBase):
        return shapely.Point(target.at), target.base.radius
    return target.outline, 0.0


def _wrap(angle: float) -> float:
    """An angle in radians brought into (-pi, pi]."""
    return math.atan2(math.sin(angle), math.cos(angle))


def _sight_region(eye: Point, target: Figure, direction: float) -> shapely.Polygon:
    """The polygon of all sight lines from ``eye`` to the near side of ``target``'s base."""
    if isinstance(target.base, RoundBase):
        r = target.base.radius
        d = math.hypot(target.x - eye[0], target.y - eye[1])
        back = direction + math.pi  # from the target's centre towards the eye
        half = math.acos(min(1.0, r / d))
        a = back + half * _UNIT_SPREAD
        ring = np.empty((_ARC_POINTS + 1, 2), dtype=np.float64)
        ring[0] = eye
        ring[1:, 0] = target.x + r * np.cos(a)
        ring[1:, 1] = target.y + r * np.sin(a)
        return shapely.Polygon(ring)
    corners = target.outline_coords
    rel = relative_angles(corners, eye, direction)
    lo, hi = int(np.argmin(rel)), int(np.argmax(rel))
    n = len(corners)
    forward = [lo]
    while forward[-1] != hi:
        forward.append((forward[-1] + 1) % n)
    backward = [lo]
    while backward[-1] != hi:
        backward.append((backward[-1] - 1) % n)
    # The near chain closes the smaller polygon with the eye (the far one wraps the base).
    best = min(
        (np.vstack([np.array([eye]), corners[chain]]) for chain in (forward, backward)),
        key=_area,
    )
    return shapely.Polygon(best)


def _area(ring: FloatArray) -> float:
    x, y = ring[:, 0], ring[:, 1]
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2.0


def _convex_span(coords: FloatArray, inside: FloatArray, eye: Point, direction: float) -> Interval:
    """Directions (relative to ``direction``) a convex shape not holding ``eye`` spans.

    Angles are first taken about the direction of a point ``inside`` the shape,
    so a shape straddling the backward direction does not wrap round.
    """
    towards = math.atan2(float(inside[1]) - eye[1], float(inside[0]) - eye[0])
    rel = relative_angles(coords, eye, towards)
    offset = _wrap(towards - direction)
    return offset + float(rel.min()), offset + float(rel.max())


def _convex_spans(
    terrain: Terrain, pieces: IntArray, eye: Point, direction: float
) -> tuple[FloatArray, FloatArray]:
    """:func:`_convex_span` of many terrain pieces at once (one pass of numpy)."""
    counts = terrain.pieces.count[pieces]
    ends = np.cumsum(counts)
    take = np.repeat(terrain.pieces.start[pieces] - ends + counts, counts) + np.arange(ends[-1])
    coords = terrain.pieces.flat[take]
    inside = terrain.pieces.centre[pieces]
    towards = np.arctan2(inside[:, 1] - eye[1], inside[:, 0] - eye[0])
    c = np.repeat(np.cos(towards), counts)
    s = np.repeat(np.sin(towards), counts)
    vx, vy = coords[:, 0] - eye[0], coords[:, 1] - eye[1]
    rel = np.arctan2(c * vy - s * vx, c * vx + s * vy)
    first = ends - counts
    offset = towards - direction
    offset = np.arctan2(np.sin(offset), np.cos(offset))
    lows: FloatArray = offset + np.minimum.reduceat(rel, first)
    highs: FloatArray = offset + np.maximum.reduceat(rel, first)
    return lows, highs


def _intervals(
    pieces: npt.NDArray[np.object_], eye: Point, direction: float
) -> list[tuple[int, Interval]]:
    """``(owner, (lo, hi))`` angular spans of the parts of each clipped obstacle."""
    parts, owner = shapely.get_parts(pieces, return_index=True)
    if not len(parts):
        return []
    coords, which = shapely.get_coordinates(parts, return_index=True)
    away = np.hypot(coords[:, 0] - eye[0], coords[:, 1] - eye[1]) > 1e-9
    if not away.all():
        coords, which = coords[away], which[away]
    if not len(coords):
        return []
    rel = relative_angles(coords, eye, direction)
    lo, hi = part_bounds(rel, which, len(parts))
    out = []
    for k in range(len(parts)):
        if hi[k] - lo[k] > _ANGLE_EPS:
            out.append((int(owner[k]), (float(lo[k]), float(hi[k]))))
    return out


def _union(intervals: Sequence[Interval], lo: float, hi: float) -> list[Interval]:
    """The union of ``intervals`` clipped to ``[lo, hi]``, as sorted disjoint intervals."""
    clipped = sorted((max(a, lo), min(b, hi)) for a, b in intervals if b > lo and a < hi)
    merged: list[Interval] = []
    for a, b in clipped:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _share(merged: Sequence[Interval], lo: float, hi: float) -> float:
    width = hi - lo
    if width <= 0.0:
        return 0.0
    return min(1.0, sum(b - a for a, b in merged) / width)


def _named(spans: Sequence[tuple[str, Interval]], lo: float, hi: float) -> tuple[str, ...]:
    """Ids whose spans overlap the silhouette by more than a graze."""
    return tuple(sorted({i for i, (a, b) in spans if min(b, hi) - max(a, lo) > _ANGLE_EPS}))
