"""Routes around impassable terrain for the candidate moves offered to bots.

The rules accept any legal path; bots need a few good ones. A :class:`NavMesh`
is a visibility graph for one size of base: its nodes sit just outside the
corners of every impassable feature and barrier grown by the base's bounding
radius, its edges are the straight lines between nodes that keep clear of them,
and all shortest routes between nodes are computed once (Floyd-Warshall). A
route from a start to a goal joins them to the nodes they can see.

A route keeps the base's centre at least ``radius + CLEARANCE`` from every
obstacle, so the base (which fits within its bounding radius at any facing)
never touches one: the moves built from routes are legal by construction, and
the rules check them again when they are played.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table import Point, Table, Terrain

CLEARANCE = 0.03
"""Inches a route keeps between a base and any obstacle (beyond its radius)."""
NODE_SLACK = 0.1
"""Nodes sit this much farther out than the clearance, so the lines between them clear it."""
SIMPLIFY = 0.05
"""Obstacle outlines are simplified by this much before their corners become nodes
(a round feature drawn with 64 corners needs no 64 nodes); within NODE_SLACK."""
VISIBLE_CACHE = 4096

FloatArray = npt.NDArray[np.float64]


class NavMesh:
    """Shortest routes for a base of bounding ``radius`` among ``terrain``'s obstacles."""

    def __init__(self, table: Table, terrain: Terrain, radius: float) -> None:
        self.table = table
        self.radius = radius
        obstacles = [f.geometry for f in terrain.active if f.blocks_movement]
        self.clear_by = radius + CLEARANCE
        self.tree: shapely.STRtree | None = shapely.STRtree(obstacles) if obstacles else None
        # Corners of the grown obstacles; with 2 segments per quarter circle a
        # chord sags by (1 - cos 22.5deg) of the radius, so grow a little more.
        grow = (self.clear_by + NODE_SLACK) / math.cos(math.pi / 8)
        points: list[Point] = []
        for g in obstacles:
            ring = shapely.buffer(shapely.simplify(g, SIMPLIFY), grow, quad_segs=2)
            for x, y in shapely.get_coordinates(shapely.get_exterior_ring(ring))[:-1]:
                points.append((float(x), float(y)))
        lo = radius + CLEARANCE
        kept = [
            p
            for p in points
            if lo <= p[0] <= table.width - lo
            and lo <= p[1] <= table.height - lo
            and self.point_clear(p)
        ]
        self.nodes: FloatArray = np.array(kept, dtype=np.float64).reshape(len(kept), 2)
        n = len(kept)
        dist = np.full((n, n), np.inf)
        if n:
            np.fill_diagonal(dist, 0.0)
            i_idx, j_idx = np.triu_indices(n, 1)
            if len(i_idx):
                ok = self._lines_clear(self.nodes[i_idx], self.nodes[j_idx])
                lengths = np.hypot(*(self.nodes[j_idx] - self.nodes[i_idx]).T)
                dist[i_idx[ok], j_idx[ok]] = lengths[ok]
                dist[j_idx[ok], i_idx[ok]] = lengths[ok]
        nxt = np.tile(np.arange(n), (n, 1))
        for k in range(n):
            through = dist[:, k : k + 1] + dist[k : k + 1, :]
            better = through < dist
            dist = np.where(better, through, dist)
            nxt = np.where(better, nxt[:, k : k + 1], nxt)
        self.dist = dist
        self.next = nxt
        self._seen: dict[Point, npt.NDArray[np.intp]] = {}

    # -- clearance tests ----------------------------------------------------------------
    def _clear(self, geom: shapely.Geometry) -> bool:
        if self.tree is None:
            return True
        return not len(self.tree.query(geom, predicate="dwithin", distance=self.clear_by))

    def point_clear(self, p: Point) -> bool:
        return self._clear(shapely.Point(p))

    def line_clear(self, a: Point, b: Point) -> bool:
        """Whether a base moving straight from ``a`` to ``b`` keeps clear of every obstacle."""
        return self._clear(shapely.LineString([a, b]) if a != b else shapely.Point(a))

    def path_clear(self, points: Sequence[Point]) -> bool:
        if len(points) > 1:
            return self._clear(shapely.LineString(points))
        return self._clear(shapely.Point(points[0]))

    def _lines_clear(self, a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
        ok = np.ones(len(a), dtype=np.bool_)
        if self.tree is None or not len(a):
            return ok
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        pairs = self.tree.query(lines, predicate="dwithin", distance=self.clear_by)
        ok[pairs[0]] = False
        return ok

    def _visible(self, p: Point) -> npt.NDArray[np.intp]:
        """The nodes a base at ``p`` can go straight to (remembered per point)."""
        found = self._seen.get(p)
        if found is not None:
            return found
        n = len(self.nodes)
        if not n:
            return np.empty(0, dtype=np.intp)
        start = np.broadcast_to(np.array(p, dtype=np.float64), (n, 2))
        ok = self._lines_clear(start, self.nodes)
        out: npt.NDArray[np.intp] = np.nonzero(ok)[0]
        if len(self._seen) >= VISIBLE_CACHE:
            self._seen.clear()
        self._seen[p] = out
        return out

    # -- routes -------------------------------------------------------------------------
    def route(self, start: Point, goal: Point) -> list[Point] | None:
        """A shortest clear route ``start .. goal`` (both included), or None."""
        if self.line_clear(start, goal):
            return [start, goal]
        if not len(self.nodes) or not self.point_clear(goal):
            return None
        vs = self._visible(start)
        vg = self._visible(goal)
        if not len(vs) or not len(vg):
            return None
        ds = np.hypot(*(self.nodes[vs] - np.array(start)).T)
        dg = np.hypot(*(self.nodes[vg] - np.array(goal)).T)
        total = ds[:, None] + self.dist[np.ix_(vs, vg)] + dg[None, :]
        k = int(np.argmin(total))
        if not math.isfinite(float(total.flat[k])):
            return None
        i, j = int(vs[k // len(vg)]), int(vg[k % len(vg)])
        chain = [i]
        while chain[-1] != j:
            chain.append(int(self.next[chain[-1], j]))
        return [start, *((float(x), float(y)) for x, y in self.nodes[chain]), goal]


def length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def cut(points: Sequence[Point], limit: float) -> list[Point]:
    """The route up to ``limit`` inches along it."""
    out = [points[0]]
    left = limit
    for a, b in itertools.pairwise(points):
        d = math.dist(a, b)
        if d <= left:
            out.append(b)
            left -= d
            continue
        if left > 0:
            f = left / d
            out.append((a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])))
        break
    return out


def nav_mesh(cache: dict[object, object], table: Table, terrain: Terrain, radius: float) -> NavMesh:
    """The mesh for this terrain and base size, built once and kept in ``cache``."""
    key = ("nav", id(terrain), round(radius, 4))
    found = cache.get(key)
    if not isinstance(found, NavMesh):
        found = NavMesh(table, terrain, radius)
        cache[key] = found
    return found
