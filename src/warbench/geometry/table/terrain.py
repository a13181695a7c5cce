"""The terrain of one table layout, indexed once: which features are where.

Features rarely change during a game (a building part destroyed now and then),
so :class:`Terrain` builds a shapely ``STRtree`` over them once, prepares their
geometries for repeated predicates, and keeps their properties in numpy arrays
for vectorised filtering. When a feature changes, build a new ``Terrain``
(:meth:`Terrain.replaced`); the old one stays valid for the old states.

Queries answer in terms of features, never rules: which areas a base is in,
which it touches, how a straight track of a base's centre splits into pieces
inside areas (with the worst movement cost of each piece), which barriers it
crosses, and which impassable things a (moving) base would overlap.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table.core import EPS, TOUCH, Point, TableGeometryError, part_bounds
from warbench.geometry.table.depth import Planes, half_planes
from warbench.geometry.table.features import Feature
from warbench.geometry.table.figures import Figure, Place, _exact

if TYPE_CHECKING:
    from warbench.geometry.table.sight import Sight

__all__ = ["Contact", "Crossing", "Terrain", "TrackPiece"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
ObjectArray = npt.NDArray[np.object_]

LOS_NO: Final[int] = 0
LOS_YES: Final[int] = 1
LOS_BEYOND: Final[int] = 2
_LOS_CODES: Final[dict[str, int]] = {"no": LOS_NO, "yes": LOS_YES, "beyond": LOS_BEYOND}
_CACHE_LIMIT: Final[int] = 8192
GRAZE: Final[float] = 1e-9
"""Inches: a sight line passing this close to a feature's edge only grazes it."""


@dataclass(frozen=True)
class Contact:
    """How a base (or point) sits relative to the features, as feature indices.

    ``under``: features the base overlaps (a point: is inside or on).
    ``near``: features within their own ``beyond_reach`` of the base (touching
    when the reach is 0); ``under`` is a subset.
    """

    under: frozenset[int]
    near: frozenset[int]
    under_mask: npt.NDArray[np.bool_] = field(repr=False, compare=False)
    """``under`` as a mask over the active features, for vectorised lookups."""
    near_mask: npt.NDArray[np.bool_] = field(repr=False, compare=False)


@dataclass(frozen=True)
class TrackPiece:
    """A stretch of a centre track, ``start`` to ``end`` inches along it.

    ``cost`` is inches of allowance per inch here: the worst ``move_cost`` of the
    areas it is inside (1 in the open). ``features`` are their ids.
    """

    start: float
    end: float
    cost: float
    features: tuple[str, ...]

    @property
    def length(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Crossing:
    """A crossable barrier reached ``at`` inches along a track, costing ``cost`` extra."""

    feature: str
    at: float
    cost: float


class Terrain:
    """The features of a table, with a spatial index built once.

    >>> t = Terrain([Feature.polygon("bog", [(2, -1), (4, -1), (4, 1), (2, 1)], move_cost=2.0)])
    >>> [(p.start, p.end, p.cost) for p in t.track((0.0, 0.0), (6.0, 0.0))]
    [(0.0, 2.0, 1.0), (2.0, 4.0, 2.0), (4.0, 6.0, 1.0)]
    """

    def __init__(self, features: Iterable[Feature] = ()) -> None:
        self.features: tuple[Feature, ...] = tuple(features)
        """Every feature, destroyed ones included, in the order given."""
        seen: set[str] = set()
        for f in self.features:
            if not isinstance(f, Feature):
                raise TableGeometryError(f"terrain takes Feature objects, not {f!r}")
            if f.id in seen:
                raise TableGeometryError(f"two features have the id {f.id!r}")
            seen.add(f.id)
        self._by_id = {f.id: f for f in self.features}
        active = [f for f in self.features if not f.destroyed]
        self.active: tuple[Feature, ...] = tuple(active)
        """The features that have effects (not destroyed); indices refer to this tuple."""
        self.geoms = np.array([f.geometry for f in active], dtype=object)
        shapely.prepare(self.geoms)
        self.tree = shapely.STRtree(self.geoms)
        box = shapely.bounds(self.geoms) if active else np.empty((0, 4))
        self._box: tuple[FloatArray, FloatArray, FloatArray, FloatArray] = (
            np.asarray(box[:, 0], dtype=np.float64),
            np.asarray(box[:, 1], dtype=np.float64),
            np.asarray(box[:, 2], dtype=np.float64),
            np.asarray(box[:, 3], dtype=np.float64),
        )
        """Bounding boxes of the active features (xmin, ymin, xmax, ymax columns): on a
        table of a few dozen features one vectorised comparison finds the boxes a query
        meets faster than the tree's per-call overhead."""
        self.los_mode = np.array([_LOS_CODES[f.blocks_los] for f in active], dtype=np.int8)
        self.height = np.array([f.height for f in active], dtype=np.float64)
        self.reach = np.array([f.beyond_reach for f in active], dtype=np.float64)
        self.is_area = np.array([f.is_area for f in active], dtype=np.bool_)
        self.depth = np.array(
            [np.nan if f.see_depth is None else f.see_depth for f in active], dtype=np.float64
        )
        self.by_depth = ~np.isnan(self.depth)
        """Areas judged by how much of them a sight line crosses (``see_depth``)."""
        self.move_cost = np.array([f.move_cost for f in active], dtype=np.float64)
        self.blocks_movement = np.array([f.blocks_movement for f in active], dtype=np.bool_)
        self.crossable = np.array(
            [f.barrier and f.crossing_cost is not None for f in active], dtype=np.bool_
        )
        self.max_reach = float(self.reach.max()) if active else 0.0
        bx0, by0, bx1, by1 = self._box
        self._blocking_boxes: list[tuple[int, float, float, float, float]] = [
            (int(i), float(bx0[i]), float(by0[i]), float(bx1[i]), float(by1[i]))
            for i in np.nonzero(self.blocks_movement)[0]
        ]
        """The boxes of :attr:`blocks_movement`'s features, as plain floats: a table has a
        handful, and a plain loop over them answers one box faster than numpy."""
        self._contact_cache: dict[object, Contact] = {}
        self._track_cache: dict[tuple[Point, Point], tuple[TrackPiece, ...]] = {}
        self._crossing_cache: dict[tuple[Point, Point], tuple[Crossing, ...]] = {}
        self._depth_planes: dict[int, Planes | None] = {}
        self.sight_memo: dict[object, Sight] = {}
        """Sight past the terrain alone (no figures blocking), by eye, target and levels:
        kept by :meth:`Scene.sight`, here because it holds for every scene of the layout."""

    @cached_property
    def pieces(self) -> SightPieces:
        """The pieces line of sight works with, built the first time they are asked for:
        a layout replaced before any sight line crosses it (a barrage cutting feature
        after feature, an engineer's ploughed ground) never needs them."""
        return _sight_pieces(self)

    # -- lookup ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.features)

    def __iter__(self) -> Iterator[Feature]:
        return iter(self.features)

    def feature(self, feature_id: str) -> Feature:
        """The feature with this id (destroyed ones too)."""
        try:
            return self._by_id[feature_id]
        except KeyError:
            known = ", ".join(sorted(self._by_id)) or "none"
            raise TableGeometryError(f"no feature {feature_id!r}; known: {known}") from None

    def sight_core_of(self, feature_id: str) -> shapely.Geometry | None:
        """The feature less a hair at its edges (a line meeting it passes through it, not
        grazes it); None if the feature is destroyed or unknown."""
        for i, f in enumerate(self.active):
            if f.id == feature_id:
                core: shapely.Geometry = self.pieces.core[i]
                return core
        return None

    def replaced(self, *features: Feature) -> Terrain:
        """A new layout with these features replacing those of the same ids (or added)."""
        new = {f.id: f for f in features}
        kept = [new.pop(f.id, f) for f in self.features]
        return Terrain([*kept, *new.values()])

    def _near(self, geometry: shapely.Geometry, distance: float) -> IntArray:
        """Indices of active features whose boxes come within ``distance`` of ``geometry``."""
        if not len(self.active):
            return np.empty(0, dtype=np.intp)
        xmin, ymin, xmax, ymax = shapely.bounds(geometry).tolist()
        return self._near_box(xmin - distance, ymin - distance, xmax + distance, ymax + distance)

    def _near_box(self, xmin: float, ymin: float, xmax: float, ymax: float) -> IntArray:
        """Indices (ascending) of active features whose boxes meet this box (edges included,
        as the tree's query)."""
        fx0, fy0, fx1, fy1 = self._box
        found: IntArray = np.nonzero((fx0 <= xmax) & (fx1 >= xmin) & (fy0 <= ymax) & (fy1 >= ymin))[
            0
        ]
        return found

    def blocking_in_box(self, xmin: float, ymin: float, xmax: float, ymax: float) -> list[int]:
        """:meth:`_near_box`'s features that block movement (ascending): the same tests on
        the same numbers, in plain floats."""
        return [
            i
            for i, fx0, fy0, fx1, fy1 in self._blocking_boxes
            if fx0 <= xmax and fx1 >= xmin and fy0 <= ymax and fy1 >= ymin
        ]

    def _near_track(self, start: Point, end: Point, wanted: BoolArray) -> IntArray:
        """The features of kind ``wanted`` whose boxes meet the box of ``start``-``end``."""
        if not len(self.active):
            return np.empty(0, dtype=np.intp)
        (x0, x1), (y0, y1) = sorted((start[0], end[0])), sorted((start[1], end[1]))
        idx = self._near_box(x0, y0, x1, y1)
        return idx[wanted[idx]] if len(idx) else idx

    # -- where a base is ------------------------------------------------------------

    def depth_planes(self, i: int) -> Planes | None:
        """Active feature ``i`` as half-planes, if it is a convex polygon (else None):
        see :mod:`warbench.geometry.table.depth` (made once per layout)."""
        if i not in self._depth_planes:
            self._depth_planes[i] = half_planes(self.active[i].geometry)
        return self._depth_planes[i]

    def contact(self, place: Place) -> Contact:
        """Which features ``place`` is in and which it is near (cached per position)."""
        key: object = place if isinstance(place, Figure) else (float(place[0]), float(place[1]))
        found = self._contact_cache.get(key)
        if found is None:
            found = self._compute_contact(place)
            if len(self._contact_cache) >= _CACHE_LIMIT:
                self._contact_cache.clear()
            self._contact_cache[key] = found
        return found

    def _compute_contact(self, place: Place) -> Contact:
        geometry, radius = _exact(place)
        idx = self._near(geometry, radius + self.max_reach + TOUCH)
        under_mask = np.zeros(len(self.active), dtype=np.bool_)
        near_mask = np.zeros(len(self.active), dtype=np.bool_)
        if len(idx):
            gap = shapely.distance(geometry, self.geoms[idx]) - radius
            near = gap <= self.reach[idx] + TOUCH
            if isinstance(place, Figure):
                core, core_radius = place.solid
                under = shapely.distance(core, self.geoms[idx]) < core_radius - EPS
            else:
                under = gap <= TOUCH
            under_mask[idx[under]] = True
            near_mask[idx[near | under]] = True
        return Contact(
            under=frozenset(np.nonzero(under_mask)[0].tolist()),
            near=frozenset(np.nonzero(near_mask)[0].tolist()),
            under_mask=under_mask,
            near_mask=near_mask,
        )

    def features_under(self, place: Place) -> tuple[Feature, ...]:
        """Features a base overlaps (a point: lies in or on), in layout order.

        VSGMR's "half move until completely outside the rough terrain" asks
        ``any(f.half_move for f in terrain.features_under(figure))``.
        """
        return tuple(self.active[i] for i in sorted(self.contact(place).under))

    def features_touching(self, place: Place, reach: float = 0.0) -> tuple[Feature, ...]:
        """Features within ``reach`` (default: touching) of a base or point, in layout order."""
        geometry, radius = _exact(place)
        idx = self._near(geometry, radius + reach + TOUCH)
        if not len(idx):
            return ()
        gap = shapely.distance(geometry, self.geoms[idx]) - radius
        return tuple(self.active[i] for i in sorted(int(i) for i in idx[gap <= reach + TOUCH]))

    def distance_to(self, place: Place, feature_id: str) -> float:
        """Edge distance from a base (or point) to a feature; 0 if touching or inside."""
        geometry, radius = _exact(place)
        gap = float(shapely.distance(geometry, self.feature(feature_id).geometry)) - radius
        return max(0.0, gap)

    # -- movement -------------------------------------------------------------------

    def track(self, start: Point, end: Point) -> tuple[TrackPiece, ...]:
        """The straight track of a centre from ``start`` to ``end``, split by areas.

        Each piece has the worst movement cost of the areas covering it (1 in the
        open); pieces are in order and together cover the whole track. Remembered per
        track (a bot plans the same leg again: listing a move, scoring it, making it).
        """
        key = ((float(start[0]), float(start[1])), (float(end[0]), float(end[1])))
        found = self._track_cache.get(key)
        if found is None:
            found = self._track(start, end)
            if len(self._track_cache) >= _CACHE_LIMIT:
                self._track_cache.clear()
            self._track_cache[key] = found
        return found

    def _track(self, start: Point, end: Point) -> tuple[TrackPiece, ...]:
        length = math.hypot(end[0] - start[0], end[1] - start[1])
        if length == 0.0:
            return ()
        idx = self._near_track(start, end, self.is_area)
        spans: list[tuple[float, float, int]] = []
        if len(idx):
            spans = self._spans(shapely.LineString([start, end]), start, end, length, idx)
        return self._pieces(length, spans)

    def _pieces(
        self, length: float, spans: list[tuple[float, float, int]]
    ) -> tuple[TrackPiece, ...]:
        """A track of ``length`` inches cut into pieces by its ``spans`` inside areas."""
        cuts = sorted({0.0, length, *(s for s, _, _ in spans), *(e for _, e, _ in spans)})
        pieces: list[TrackPiece] = []
        for a, b in itertools.pairwise(cuts):
            if b - a <= 1e-12:
                continue
            mid = (a + b) / 2.0
            inside = sorted({i for s, e, i in spans if s <= mid <= e})
            # Overlapping areas: the worst cost applies (not the product).
            cost = max(float(self.move_cost[i]) for i in inside) if inside else 1.0
            ids = tuple(self.active[i].id for i in inside)
            if pieces and pieces[-1].features == ids and pieces[-1].cost == cost:
                last = pieces.pop()
                pieces.append(TrackPiece(last.start, b, cost, ids))
            else:
                pieces.append(TrackPiece(a, b, cost, ids))
        return tuple(pieces)

    def prepare_tracks(self, start: Point, ends: Iterable[Point]) -> None:
        """Work out and remember :meth:`track` from ``start`` to each of ``ends`` at once.

        A bot listing one base's moves plans a fan of legs from the same place; cutting
        every new track by the areas in one vectorised pass (one box test, one
        ``shapely.intersection`` over all the leg-area pairs) costs little more than
        cutting one. The pieces are those :meth:`track` finds one by one: the same
        geometry operations on the same coordinates, and the same arithmetic.
        """
        s, todo = _new_legs(start, ends, self._track_cache, self._remember_track)
        if not todo:
            return
        legs = list(todo)
        spans = self._fan_spans(s, legs, [todo[e] for e in legs])
        for end, found in zip(legs, spans, strict=True):
            self._remember_track((s, end), self._pieces(todo[end], found))

    def _remember_track(self, key: tuple[Point, Point], pieces: tuple[TrackPiece, ...]) -> None:
        if len(self._track_cache) >= _CACHE_LIMIT:
            self._track_cache.clear()
        self._track_cache[key] = pieces

    def _fan_near(
        self, start: Point, ends: Sequence[Point], wanted: BoolArray
    ) -> tuple[IntArray, IntArray]:
        """:meth:`_near_track` for each leg of a fan: ``(leg, feature)`` index pairs, by leg
        and then feature, ascending."""
        pick = np.nonzero(wanted)[0]
        if not len(pick) or not ends:
            empty = np.empty(0, dtype=np.intp)
            return empty, empty
        e = np.array(ends, dtype=np.float64)
        x0 = np.minimum(start[0], e[:, 0])[:, None]
        x1 = np.maximum(start[0], e[:, 0])[:, None]
        y0 = np.minimum(start[1], e[:, 1])[:, None]
        y1 = np.maximum(start[1], e[:, 1])[:, None]
        fx0, fy0, fx1, fy1 = (b[pick][None, :] for b in self._box)
        meet = (fx0 <= x1) & (fx1 >= x0) & (fy0 <= y1) & (fy1 >= y0)
        leg, k = np.nonzero(meet)
        return leg, pick[k]

    def _fan_spans(
        self, start: Point, ends: list[Point], lengths: list[float]
    ) -> list[list[tuple[float, float, int]]]:
        """:meth:`_spans` of each leg from ``start`` to ``ends``, in one pass."""
        out: list[list[tuple[float, float, int]]] = [[] for _ in ends]
        leg, feature = self._fan_near(start, ends, self.is_area)
        if not len(leg):
            return out
        lines, areas = segments(start, ends)[leg], self.geoms[feature]
        # Only the pairs that meet have pieces: the prepared areas answer that quicker
        # than the intersection of every pair whose boxes meet (about half of them do).
        meet = shapely.intersects(lines, areas)
        leg, feature = leg[meet], feature[meet]
        cut = shapely.intersection(lines[meet], areas[meet])
        parts, owner = shapely.get_parts(cut, return_index=True)
        if not len(parts):
            return out
        lines = shapely.get_type_id(parts) == 1  # LineString pieces; points are grazes
        parts, owner = parts[lines], owner[lines]
        if not len(parts):
            return out
        points, which = shapely.get_coordinates(parts, return_index=True)
        part_leg = leg[owner]
        ux = np.array([(e[0] - start[0]) / n for e, n in zip(ends, lengths, strict=True)])
        uy = np.array([(e[1] - start[1]) / n for e, n in zip(ends, lengths, strict=True)])
        point_leg = part_leg[which]
        along = (points[:, 0] - start[0]) * ux[point_leg] + (points[:, 1] - start[1]) * uy[
            point_leg
        ]
        lo, hi = part_bounds(along, which, len(parts))
        for low, high, n, f in zip(
            lo.tolist(), hi.tolist(), part_leg.tolist(), feature[owner].tolist(), strict=True
        ):
            length = lengths[n]
            a = min(max(low, 0.0), length)
            b = min(max(high, 0.0), length)
            if b - a > 1e-12:
                out[n].append((a, b, f))
        return out

    def _spans(
        self, segment: shapely.LineString, start: Point, end: Point, length: float, idx: IntArray
    ) -> list[tuple[float, float, int]]:
        """``(from, to, feature index)`` stretches of ``segment`` inside the areas ``idx``."""
        cut = shapely.intersection(segment, self.geoms[idx])
        parts, owner = shapely.get_parts(cut, return_index=True)
        if not len(parts):
            return []
        lines = shapely.get_type_id(parts) == 1  # LineString pieces; points are grazes
        parts, owner = parts[lines], owner[lines]
        if not len(parts):
            return []
        coords, which = shapely.get_coordinates(parts, return_index=True)
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        along = (coords[:, 0] - start[0]) * ux + (coords[:, 1] - start[1]) * uy
        lo, hi = part_bounds(along, which, len(parts))
        out = []
        for k in range(len(parts)):
            a = min(max(float(lo[k]), 0.0), length)
            b = min(max(float(hi[k]), 0.0), length)
            if b - a > 1e-12:
                out.append((a, b, int(idx[owner[k]])))
        return out

    def crossings(self, start: Point, end: Point) -> tuple[Crossing, ...]:
        """Crossable barriers the centre track from ``start`` to ``end`` reaches, in order.

        A barrier is charged each time the track *reaches* it after leaving the
        start (a track that starts on a barrier is finishing a crossing already
        paid for); a thick barrier (an area) counts once per entry. Remembered per
        track, as :meth:`track` is.
        """
        key = ((float(start[0]), float(start[1])), (float(end[0]), float(end[1])))
        found = self._crossing_cache.get(key)
        if found is None:
            found = self._crossings(start, end)
            self._remember_crossings(key, found)
        return found

    def remember_sight(self, key: object, sight: Sight) -> None:
        """Keep ``sight`` in :attr:`sight_memo` (emptied when it grows too big)."""
        if len(self.sight_memo) >= _CACHE_LIMIT:
            self.sight_memo.clear()
        self.sight_memo[key] = sight

    def _remember_crossings(self, key: tuple[Point, Point], found: tuple[Crossing, ...]) -> None:
        if len(self._crossing_cache) >= _CACHE_LIMIT:
            self._crossing_cache.clear()
        self._crossing_cache[key] = found

    def _crossings(self, start: Point, end: Point) -> tuple[Crossing, ...]:
        length = math.hypot(end[0] - start[0], end[1] - start[1])
        if length == 0.0:
            return ()
        idx = self._near_track(start, end, self.crossable)
        if not len(idx):
            return ()
        segment = shapely.LineString([start, end])
        cut = shapely.intersection(segment, self.geoms[idx])
        parts, owner = shapely.get_parts(cut, return_index=True)
        solid = ~shapely.is_empty(parts)
        parts, owner = parts[solid], owner[solid]
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        found: list[Crossing] = []
        for part, k in zip(parts, owner, strict=True):
            coords = shapely.get_coordinates(part)
            along = (coords[:, 0] - start[0]) * ux + (coords[:, 1] - start[1]) * uy
            first = float(along.min())
            if first <= 1e-9:
                continue
            feature = self.active[int(idx[k])]
            assert feature.crossing_cost is not None
            found.append(Crossing(feature.id, first, feature.crossing_cost))
        found.sort(key=lambda c: c.at)
        return tuple(found)

    def prepare_crossings(self, start: Point, ends: Iterable[Point]) -> None:
        """Work out and remember :meth:`crossings` from ``start`` to each of ``ends`` at
        once (see :meth:`prepare_tracks`): the same crossings, in one vectorised pass."""
        s, todo = _new_legs(start, ends, self._crossing_cache, self._remember_crossings)
        if not todo:
            return
        legs = list(todo)
        found: list[list[Crossing]] = [[] for _ in legs]
        leg, feature = self._fan_near(s, legs, self.crossable)
        if len(leg):
            cut = shapely.intersection(segments(s, legs)[leg], self.geoms[feature])
            parts, owner = shapely.get_parts(cut, return_index=True)
            solid = ~shapely.is_empty(parts)
            parts, owner = parts[solid], owner[solid]
            for part, k in zip(parts, owner.tolist(), strict=True):
                n = int(leg[k])
                end, length = legs[n], todo[legs[n]]
                ux, uy = (end[0] - s[0]) / length, (end[1] - s[1]) / length
                xy = shapely.get_coordinates(part)
                first = float(((xy[:, 0] - s[0]) * ux + (xy[:, 1] - s[1]) * uy).min())
                if first <= 1e-9:
                    continue
                f = self.active[int(feature[k])]
                assert f.crossing_cost is not None
                found[n].append(Crossing(f.id, first, f.crossing_cost))
        for end, crossed in zip(legs, found, strict=True):
            crossed.sort(key=lambda c: c.at)
            self._remember_crossings((s, end), tuple(crossed))

    def movement_obstacles(self, core: shapely.Geometry, radius: float) -> tuple[Feature, ...]:
        """Impassable features and uncrossable barriers the shape ``core``+``radius`` overlaps."""
        idx = self._near(core, radius)
        idx = idx[self.blocks_movement[idx]] if len(idx) else idx
        if not len(idx):
            return ()
        hit = shapely.distance(core, self.geoms[idx]) < radius - EPS
        return tuple(self.active[i] for i in sorted(int(i) for i in idx[hit]))


def _new_legs(
    start: Point,
    ends: Iterable[Point],
    known: Mapping[tuple[Point, Point], object],
    remember_empty: Callable[[tuple[Point, Point], tuple[()]], None],
) -> tuple[Point, dict[Point, float]]:
    """The fan's start as floats and its legs still to work out (end -> length): the
    ends not in ``known`` yet, each once; a leg of no length is remembered at once as
    crossing nothing (``remember_empty``)."""
    s = (float(start[0]), float(start[1]))
    todo: dict[Point, float] = {}
    for e in ends:
        end = (float(e[0]), float(e[1]))
        if (s, end) in known or end in todo:
            continue
        length = math.hypot(end[0] - s[0], end[1] - s[1])
        if length == 0.0:
            remember_empty((s, end), ())
        else:
            todo[end] = length
    return s, todo


def segments(start: Point, ends: Sequence[Point]) -> ObjectArray:
    """Straight segments from ``start`` to each of ``ends``, as one array (one
    ``shapely.linestrings`` call: a fan of legs, see :mod:`warbench.geometry.table.fan`)."""
    coords = np.empty((len(ends), 2, 2), dtype=np.float64)
    coords[:, 0] = start
    coords[:, 1] = ends
    lines: ObjectArray = np.asarray(shapely.linestrings(coords), dtype=object)
    return lines


def _shaved(geometry: shapely.Geometry) -> shapely.Geometry:
    """``geometry`` without its outer :data:`GRAZE` (an area) or its end hairs (a line)."""
    if shapely.get_type_id(geometry) == 1:  # LineString: pull both ends in
        xy = shapely.get_coordinates(geometry).copy()
        for end, towards in ((0, 1), (-1, -2)):
            step = xy[towards] - xy[end]
            length = float(np.hypot(*step))
            if length > 2 * GRAZE:
                xy[end] = xy[end] + step * (GRAZE / length)
        return shapely.LineString(xy)
    shaved: shapely.Geometry = shapely.buffer(geometry, -GRAZE, join_style="mitre")
    return shaved


@dataclass(frozen=True, slots=True)
class SightPieces:
    """A layout's sight-blocking features split into convex pieces for line of sight.

    Polylines become their segments and concave areas their triangles, so every piece
    is convex: line of sight treats a convex piece that keeps clear of the target with
    plain angle arithmetic and clips only the rest (see
    :mod:`warbench.geometry.table.sight`). Indices of ``owner`` and ``core`` are the
    layout's active features."""

    geoms: ObjectArray
    """The pieces, prepared."""
    owner: IntArray
    """The active feature each piece is part of."""
    height: FloatArray
    convex: BoolArray
    """False: an area that could not be triangulated, kept whole and clipped every time."""
    coords: list[FloatArray]
    count: IntArray
    start: IntArray
    flat: FloatArray
    """Every piece's coordinates end to end (``count`` of them from ``start``), for
    vectorised work over many pieces."""
    centre: FloatArray
    radius: FloatArray
    """Each piece's centroid, and the farthest of its points from it."""
    circles: list[tuple[float, float, float, float, int]]
    """Each piece's centre, radius, height and feature, as plain numbers (one sight line is
    tested against a few pieces quicker in a loop than with arrays)."""
    core: ObjectArray
    """Each active feature less a hair (:data:`GRAZE`) at its edges (areas) or ends (lines),
    prepared: a sight line meeting one of these passes through the feature rather than
    grazing it."""


def _sight_pieces(terrain: Terrain) -> SightPieces:
    geoms: list[shapely.Geometry] = []
    owners: list[int] = []
    convex: list[bool] = []
    for i, f in enumerate(terrain.active):
        if f.blocks_los == "no":
            continue
        if f.shape == "polyline":
            for a, b in itertools.pairwise(f.points):
                if a != b:
                    geoms.append(shapely.LineString([a, b]))
                    owners.append(i)
                    convex.append(True)
        else:
            g = terrain.geoms[i]
            hull_area = float(shapely.area(shapely.convex_hull(g)))
            if float(shapely.area(g)) >= hull_area * (1.0 - 1e-9):
                parts = [g]
            else:
                triangles = shapely.constrained_delaunay_triangles(g)
                parts = [p for p in shapely.get_parts(triangles) if shapely.area(p) > 0.0]
            if parts:
                geoms.extend(parts)
                owners.extend([i] * len(parts))
                convex.extend([True] * len(parts))
            else:  # no triangulation: keep it whole and clip it every time
                geoms.append(g)
                owners.append(i)
                convex.append(False)
    piece_geoms = np.array(geoms, dtype=object)
    shapely.prepare(piece_geoms)
    owner = np.array(owners, dtype=np.intp)
    height = terrain.height[owner] if owners else np.empty(0)
    coords: list[FloatArray] = [shapely.get_coordinates(g).astype(np.float64) for g in geoms]
    counts = [len(c) for c in coords]
    flat: FloatArray = np.vstack(coords) if geoms else np.empty((0, 2), dtype=np.float64)
    n = len(geoms)
    centres = shapely.get_coordinates(shapely.centroid(piece_geoms)) if n else None
    centre: FloatArray = (
        np.asarray(centres, dtype=np.float64).reshape(n, 2)
        if centres is not None
        else np.empty((0, 2), dtype=np.float64)
    )
    radius: FloatArray = np.array(
        [float(np.hypot(*(c - centre[k]).T).max()) for k, c in enumerate(coords)],
        dtype=np.float64,
    )
    circles = list(
        zip(
            *centre.T.tolist(),
            radius.tolist(),
            np.asarray(height, dtype=np.float64).tolist(),
            owner.tolist(),
            strict=True,
        )
    )
    core = np.array([_shaved(g) for g in terrain.geoms], dtype=object)
    shapely.prepare(core)
    return SightPieces(
        geoms=piece_geoms,
        owner=owner,
        height=height,
        convex=np.array(convex, dtype=np.bool_),
        coords=coords,
        count=np.array(counts, dtype=np.intp),
        start=np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp),
        flat=flat,
        centre=centre,
        radius=radius,
        circles=circles,
        core=core,
    )
