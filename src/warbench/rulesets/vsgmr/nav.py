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

All shortest routes at once cost memory and time in the square and the cube of
the number of nodes, which is fine for a table of a dozen features (a hundred
nodes or so) and hopeless for a thousand (several thousand nodes). A mesh of
more than :data:`DENSE_NODES` nodes is therefore *sparse*: its edges join only
nodes within :data:`REACH` inches of each other along lines tangent to the
corners they join (a shortest route bends only around a corner), worked out for
a node the first time a search reaches it, and a route is an A* search
(straight-line distance to the goal as the estimate) from the start's visible
nodes to the goal, which any node may go straight to; the route found is then
pulled straight wherever a line is clear. Its routes are always clear of
obstacles and nearly as short as the dense mesh's (on the large benchmark
tables 1% of candidate routes came out longer, by at most 2%). A search gives
up (no route) after :data:`MAX_EXPANDED` nodes, which bounds a query for an
unreachable goal.

Where obstacles crowd, trying every node within REACH costs thousands of
clearance tests per node, each along a line long enough to pass dozens of
obstacles, nearly all blocked (2,000 figures among 1,000 small features on a 3"
grid took half a minute to list one side's moves). So a sparse mesh also gives
small round-ish obstacles 8 nodes, an octagon around their smallest enclosing
circle (:data:`ROUND_RADIUS`, :data:`ROUND_GAP`), and a node with more than
:data:`OPEN_NODES` others around it tries the nearest ones first, stopping once
it has :data:`MIN_EDGES` edges (see :meth:`NavMesh._nearby`); on open tables
nothing changes. Routes stay clear (every edge is tested); on the dense benchmark,
of 250 routes up to 40" long, 2 came out longer than those found by trying every
node within REACH, by at most 2.2%.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table import Feature, Point, Table, Terrain

CLEARANCE = 0.03
"""Inches a route keeps between a base and any obstacle (beyond its radius)."""
NODE_SLACK = 0.1
"""Nodes sit this much farther out than the clearance, so the lines between them clear it."""
SIMPLIFY = 0.05
"""Obstacle outlines are simplified by this much before their corners become nodes
(a round feature drawn with 64 corners needs no 64 nodes); within NODE_SLACK."""
VISIBLE_CACHE = 4096
ROUTES_KEPT = 1024
"""Routes a mesh remembers (the least recently asked forgotten first)."""
DENSE_NODES = 400
"""Meshes of at most this many nodes keep every shortest route (Floyd-Warshall)."""
FEW_OBSTACLES = 16
"""Up to this many obstacles one box is tested against theirs by a plain loop."""
BOX_PAIRS = 4_000
"""Lines times obstacles up to which a batch of lines is tested box by box, not by the tree."""
SIDE_MARGIN = 1e-9
"""Inches by which a grown obstacle box must lie beside a line for the line to be
left out of the exact test (far beyond the rounding of the cross products)."""
INNER_TOLERANCE = 0.01
"""Inches: how near GEOS places an obstacle's inner disc to the largest (any disc inside
will do; its radius is measured again)."""
SURE_MARGIN = 1e-9
"""Inches by which a line must pass inside or outside the clearance of an obstacle's
inner or outer circle to be judged by the circle alone (far beyond rounding)."""
REACH = 48.0
"""Sparse meshes: inches between nodes joined by an edge (at most)."""
FIRST_REACH = 8.0
"""Sparse meshes: inches around a node looked up first for the nodes to join it to
(doubled until enough are found; see :meth:`NavMesh._nearby`)."""
OPEN_NODES = 600
"""Sparse meshes: a node with at most this many others within REACH (in a square around
it) tries them all for its edges; one with more, the nearest NEAR_NODES first."""
NEAR_NODES = 200
"""Sparse meshes: the nearest nodes first tried for a node's edges."""
MIN_EDGES = 4
"""Sparse meshes: edges that content a node (once NEAR_NODES are tried)."""
ROUND_RADIUS = 0.5
ROUND_GAP = 0.1
"""Sparse meshes: an obstacle within a circle of ROUND_RADIUS inches that hugs it (no
point of the circle farther than ROUND_GAP from it) is grown from that circle (8 nodes)."""
MAX_EXPANDED = 3000
"""Sparse meshes: nodes a route search may settle before it gives up."""

FloatArray = npt.NDArray[np.float64]


class NavMesh:
    """Shortest routes for a base of bounding ``radius`` among ``terrain``'s obstacles."""

    def __init__(
        self, table: Table, terrain: Terrain, radius: float, atlas: _Atlas | None = None
    ) -> None:
        """``atlas``: the clearance tests of a layout with these obstacles and maybe more,
        for this table and radius, read instead of tested again (the same mesh)."""
        self.table = table
        self.radius = radius
        features = [f for f in terrain.active if f.blocks_movement]
        obstacles = [f.geometry for f in features]
        self.clear_by = radius + CLEARANCE
        self.tree: shapely.STRtree | None = shapely.STRtree(obstacles) if obstacles else None
        self._obstacles = np.array(obstacles, dtype=object)
        box = shapely.bounds(self._obstacles) if obstacles else np.empty((0, 4))
        pad = self.clear_by
        # Obstacle boxes grown by the clearance: one geometry is tested against the
        # obstacles whose grown box meets its box, found without the tree's call overhead.
        self._box_lo_x = np.asarray(box[:, 0] - pad, dtype=np.float64)
        self._box_lo_y = np.asarray(box[:, 1] - pad, dtype=np.float64)
        self._box_hi_x = np.asarray(box[:, 2] + pad, dtype=np.float64)
        self._box_hi_y = np.asarray(box[:, 3] + pad, dtype=np.float64)
        self._boxes: list[tuple[float, float, float, float]] = list(
            zip(
                self._box_lo_x.tolist(),
                self._box_lo_y.tolist(),
                self._box_hi_x.tolist(),
                self._box_hi_y.tolist(),
                strict=True,
            )
        )
        self._inner, self._inner_r, self._outer, self._outer_r = _circles(obstacles)
        self._inner_list: list[tuple[float, float, float]] = list(
            zip(*self._inner.T.tolist(), self._inner_r.tolist(), strict=True)
        )
        self._outer_list: list[tuple[float, float, float]] = list(
            zip(*self._outer.T.tolist(), self._outer_r.tolist(), strict=True)
        )
        known = atlas.layout(features) if atlas is not None else None
        if known is not None:
            points, beside, chosen, pairs_ok = known
        else:
            points, beside = self._corners(obstacles, rounded=False)
            chosen = self._clear_corners(points)
            pairs_ok = None
        if len(chosen) > DENSE_NODES and known is None:
            # Too many for every shortest route: small round-ish obstacles get fewer nodes.
            points, beside = self._corners(obstacles, rounded=True)
            chosen = self._clear_corners(points)
        kept = [points[k] for k in chosen]
        self.nodes: FloatArray = np.array(kept, dtype=np.float64).reshape(len(kept), 2)
        n = len(kept)
        self.dense = n <= DENSE_NODES
        self._seen: dict[Point, npt.NDArray[np.intp]] = {}
        self._routes: dict[tuple[Point, Point], list[Point] | None] = {}
        # Sparse meshes: edges found lazily, per node, tangent to the corners they join.
        self._points: list[Point] = kept
        self._edges: dict[int, tuple[list[int], list[float]]] = {}
        self._node_tree: shapely.STRtree | None = None
        self._before: FloatArray = np.array([beside[k][0] for k in chosen]).reshape(n, 2)
        self._after: FloatArray = np.array([beside[k][1] for k in chosen]).reshape(n, 2)
        if not self.dense:
            self._node_tree = shapely.STRtree(np.asarray(shapely.points(self.nodes), dtype=object))
            return
        dist = np.full((n, n), np.inf)
        if n:
            np.fill_diagonal(dist, 0.0)
            i_idx, j_idx = np.triu_indices(n, 1)
            if len(i_idx):
                ok = (
                    self._lines_clear(self.nodes[i_idx], self.nodes[j_idx])
                    if pairs_ok is None
                    else pairs_ok
                )
                lengths = np.hypot(*(self.nodes[j_idx] - self.nodes[i_idx]).T)
                dist[i_idx[ok], j_idx[ok]] = lengths[ok]
                dist[j_idx[ok], i_idx[ok]] = lengths[ok]
        nxt = np.tile(np.arange(n), (n, 1))
        through = np.empty_like(dist)
        better = np.empty(dist.shape, dtype=np.bool_)
        for k in range(n):
            # In place: row and column k do not change in step k (dist[k, k] is 0), and
            # where ``through`` is not less, the minimum is ``dist`` as it was.
            np.add(dist[:, k : k + 1], dist[k : k + 1, :], out=through)
            np.less(through, dist, out=better)
            np.minimum(dist, through, out=dist)
            np.copyto(nxt, nxt[:, k : k + 1].copy(), where=better)
        self.dist = dist
        self.next = nxt

    # -- nodes ----------------------------------------------------------------------------
    def _corners(
        self, obstacles: Sequence[shapely.Geometry], rounded: bool
    ) -> tuple[list[Point], list[tuple[Point, Point]]]:
        """Corners of the grown obstacles and each one's neighbours along its ring (before
        and after): see :func:`_corners`."""
        points, beside, _ = _corners(obstacles, self.clear_by, rounded)
        return points, beside

    def _clear_corners(self, points: list[Point]) -> list[int]:
        """The corners on the table (with room for the base) and clear of every obstacle."""
        table = self.table
        lo = self.radius + CLEARANCE
        inside = [
            k
            for k, p in enumerate(points)
            if lo <= p[0] <= table.width - lo and lo <= p[1] <= table.height - lo
        ]
        clear = self.points_clear([points[k] for k in inside])
        return [k for k, ok in zip(inside, clear, strict=True) if ok]

    # -- clearance tests ----------------------------------------------------------------
    def _near(self, x0: float, y0: float, x1: float, y1: float) -> npt.NDArray[np.intp] | list[int]:
        """Obstacles whose box, grown by the clearance, meets this box (ascending; a
        plain loop over a few: no numpy call overhead)."""
        if len(self._boxes) <= FEW_OBSTACLES:
            return [
                k
                for k, (lx, ly, hx, hy) in enumerate(self._boxes)
                if lx <= x1 and hx >= x0 and ly <= y1 and hy >= y0
            ]
        found: npt.NDArray[np.intp] = np.nonzero(
            (self._box_lo_x <= x1)
            & (self._box_hi_x >= x0)
            & (self._box_lo_y <= y1)
            & (self._box_hi_y >= y0)
        )[0]
        return found

    def _clear_near(self, geom: shapely.Geometry, near: npt.NDArray[np.intp] | list[int]) -> bool:
        """No obstacle among ``near`` within the clearance of ``geom`` (the tree's test)."""
        if not len(near):
            return True
        return not bool(shapely.dwithin(geom, self._obstacles[near], self.clear_by).any())

    def _clear_points(self, points: Sequence[Point]) -> bool:
        """:meth:`_clear` of the point or line through ``points``, made only if needed."""
        if self.tree is None:
            return True
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        near = self._near(min(xs), min(ys), max(xs), max(ys))
        if not len(near):
            return True
        # Obstacles judged by their circles (see :meth:`_sure`) need no exact test.
        undecided: list[int] = []
        inner, outer = self._inner_list, self._outer_list
        near_by, far_by = self.clear_by - SURE_MARGIN, self.clear_by + SURE_MARGIN
        for k in near.tolist() if isinstance(near, np.ndarray) else near:
            cx, cy, r = inner[k]
            if _polyline_gap(cx, cy, points) < r + near_by:
                return False
            cx, cy, r = outer[k]
            if not _polyline_gap(cx, cy, points) > r + far_by:
                undecided.append(k)
        if not undecided:
            return True
        geom = shapely.LineString(points) if len(points) > 1 else shapely.Point(points[0])
        return self._clear_near(geom, undecided)

    def point_clear(self, p: Point) -> bool:
        return self._clear_points([p])

    def points_clear(self, points: Sequence[Point]) -> npt.NDArray[np.bool_]:
        """:meth:`point_clear` of many points at once."""
        ok = np.ones(len(points), dtype=np.bool_)
        if self.tree is None or not len(points):
            return ok
        pts = shapely.points(np.array(points, dtype=np.float64).reshape(len(points), 2))
        pairs = self.tree.query(pts, predicate="dwithin", distance=self.clear_by)
        ok[pairs[0]] = False
        return ok

    def line_clear(self, a: Point, b: Point) -> bool:
        """Whether a base moving straight from ``a`` to ``b`` keeps clear of every obstacle."""
        return self._clear_points([a, b] if a != b else [a])

    def path_clear(self, points: Sequence[Point]) -> bool:
        return self._clear_points(points)

    def _lines_clear(self, a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
        ok = np.ones(len(a), dtype=np.bool_)
        if self.tree is None or not len(a):
            return ok
        if len(a) * len(self._obstacles) > BOX_PAIRS:
            # A line that crosses an obstacle is within any clearance of it: those (most
            # lines between the corners of a crowded layout) are found by the cheaper
            # test, and only the others are measured.
            lines = np.asarray(shapely.linestrings(np.stack([a, b], axis=1)), dtype=object)
            crossing = np.unique(self.tree.query(lines, predicate="intersects")[0])
            ok[crossing] = False
            rest = np.nonzero(ok)[0]
            if len(rest):
                found = self.tree.query(lines[rest], predicate="dwithin", distance=self.clear_by)
                ok[rest[found[0]]] = False
            return ok
        line, obstacle = self._may_meet(a, b)
        if not len(line):
            return ok
        near, far = self._sure(a, b, line, obstacle)
        # Lines surely near an obstacle are not clear; of the others, only the pairs not
        # surely far get the exact test.
        ok[line[near]] = False
        undecided = ok[line] & ~far
        line, obstacle = line[undecided], obstacle[undecided]
        if not len(line):
            return ok
        # The exact test on those pairs alone: what the tree's query does, at less cost
        # for a few. Only the lines some obstacle may come near are made (``line`` is sorted).
        wanted, which = _runs(line)
        made = np.asarray(
            shapely.linestrings(np.stack([a[wanted], b[wanted]], axis=1)), dtype=object
        )
        near = shapely.dwithin(made[which], self._obstacles[obstacle], self.clear_by)
        ok[line[near]] = False
        return ok

    def _may_meet(
        self, a: FloatArray, b: FloatArray
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The pairs (line, obstacle) that may be within the clearance: the segment
        ``a[i]``-``b[i]`` meets the obstacle's box grown by the clearance. A pair is left
        out only when its boxes do not meet, or when all four corners of the grown box lie
        on one side of the segment's line by more than :data:`SIDE_MARGIN` (far beyond
        rounding), so every pair the exact test would find near is kept."""
        lo = np.minimum(a, b)
        hi = np.maximum(a, b)
        meet = (
            (self._box_lo_x <= hi[:, 0:1])
            & (self._box_hi_x >= lo[:, 0:1])
            & (self._box_lo_y <= hi[:, 1:2])
            & (self._box_hi_y >= lo[:, 1:2])
        )
        line, obstacle = np.nonzero(meet)
        if not len(line):
            return line, obstacle
        ax, ay = a[line, 0], a[line, 1]
        dx = b[line, 0] - ax
        dy = b[line, 1] - ay
        # Cross product of the direction with (corner - a), at the extreme corners:
        # linear in the corner, so its least and greatest lie at the box's corners.
        x0 = self._box_lo_x[obstacle] - ax
        x1 = self._box_hi_x[obstacle] - ax
        y0 = self._box_lo_y[obstacle] - ay
        y1 = self._box_hi_y[obstacle] - ay
        ys = np.minimum(dx * y0, dx * y1), np.maximum(dx * y0, dx * y1)
        xs = np.minimum(-dy * x0, -dy * x1), np.maximum(-dy * x0, -dy * x1)
        least = ys[0] + xs[0]
        most = ys[1] + xs[1]
        margin = SIDE_MARGIN * (np.abs(dx) + np.abs(dy))
        keep = ~((least > margin) | (most < -margin))
        return line[keep], obstacle[keep]

    def _sure(
        self,
        a: FloatArray,
        b: FloatArray,
        line: npt.NDArray[np.intp],
        obstacle: npt.NDArray[np.intp],
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """For each pair (line, obstacle), whether the segment ``a[i]``-``b[i]`` is surely
        within the clearance of the obstacle, or surely not, as the exact test
        (``shapely.dwithin``) finds it: within the clearance of a disc inside the obstacle
        (see :func:`_circles`), or beyond the clearance of a circle around it, each by
        more than :data:`SURE_MARGIN`. Neither: not sure."""
        ax, ay = a[line, 0], a[line, 1]
        dx, dy = b[line, 0] - ax, b[line, 1] - ay
        length2 = dx * dx + dy * dy
        safe = np.where(length2 > 0.0, length2, 1.0)
        near = _gaps(ax, ay, dx, dy, safe, self._inner[obstacle]) < (
            self._inner_r[obstacle] + (self.clear_by - SURE_MARGIN)
        )
        far = _gaps(ax, ay, dx, dy, safe, self._outer[obstacle]) > (
            self._outer_r[obstacle] + (self.clear_by + SURE_MARGIN)
        )
        return near, far

    def _visible(self, p: Point) -> npt.NDArray[np.intp]:
        """The nodes a base at ``p`` can go straight to (remembered per point)."""
        found = self._seen.get(p)
        if found is not None:
            return found
        n = len(self.nodes)
        if not n:
            return np.empty(0, dtype=np.intp)
        if self.dense:
            start = np.broadcast_to(np.array(p, dtype=np.float64), (n, 2))
            ok = self._lines_clear(start, self.nodes)
            out: npt.NDArray[np.intp] = np.nonzero(ok)[0]
        else:
            out = self._visible_near(p)
        if len(self._seen) >= VISIBLE_CACHE:
            self._seen.clear()
        self._seen[p] = out
        return out

    def _tangent(self, nodes: npt.NDArray[np.intp], towards: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether the line from each node towards a point leaves its corner's ring neighbours
        on one side: a shortest route bends only around a corner, along such lines."""
        at = self.nodes[nodes]
        dx = towards[:, 0] - at[:, 0]
        dy = towards[:, 1] - at[:, 1]
        before = self._before[nodes] - at
        after = self._after[nodes] - at
        a = dx * before[:, 1] - dy * before[:, 0]
        b = dx * after[:, 1] - dy * after[:, 0]
        found: npt.NDArray[np.bool_] = a * b >= -1e-12
        return found

    def _near_nodes(
        self, p: Point, near: npt.NDArray[np.intp], skip: int = -1
    ) -> npt.NDArray[np.intp]:
        """Those of the nodes ``near`` that a base can go straight to from ``p``, along
        lines tangent at the node (and at ``p`` too when it is node ``skip``)."""
        near = np.sort(near[near != skip]) if skip >= 0 else np.sort(near)
        if not len(near):
            return near
        here = np.broadcast_to(np.array(p, dtype=np.float64), (len(near), 2))
        ok = self._tangent(near, here)
        if skip >= 0:
            ok &= self._tangent(np.full(len(near), skip, dtype=np.intp), self.nodes[near])
        near = near[ok]
        if not len(near):
            return near
        start = np.broadcast_to(np.array(p, dtype=np.float64), (len(near), 2))
        found: npt.NDArray[np.intp] = near[self._lines_clear(start, self.nodes[near])]
        return found

    def _nearby(self, p: Point, skip: int, far: float) -> npt.NDArray[np.intp]:
        """Sparse meshes: the nodes joined to ``p`` (node ``skip``, if it is one).

        Where obstacles are few (at most :data:`OPEN_NODES` nodes around ``p``) that is
        every node within :data:`REACH` inches that ``p`` can go straight to along
        tangent lines (see :meth:`_near_nodes`); where they crowd, the nearest few
        (see :meth:`_nearest_first`), so a node costs a few hundred clearance tests,
        not thousands, and long lines, nearly all blocked there, are not tested. Only if
        none is within REACH, farther ones (up to ``far``), nearest first."""
        assert self._node_tree is not None
        limit = min(REACH, far)
        x, y = p
        around = shapely.box(x - limit, y - limit, x + limit, y + limit)
        if len(self._node_tree.query(around)) <= OPEN_NODES:
            near = self._node_tree.query(shapely.Point(p), "dwithin", distance=limit)
            found = self._near_nodes(p, near, skip)
            if len(found) or limit >= far:
                return found
        return self._nearest_first(p, skip, far)

    def _nearest_first(self, p: Point, skip: int, far: float) -> npt.NDArray[np.intp]:
        """The nodes :meth:`_near_nodes` joins to ``p``, trying the nodes within REACH
        nearest first: :data:`NEAR_NODES` of them, then twice as many as tried so far
        each time, until :data:`MIN_EDGES` are found or all are tried (then farther ones,
        up to ``far``, if none is found). The nodes to try are looked up in a circle
        growing from :data:`FIRST_REACH` inches until it holds them."""
        assert self._node_tree is not None
        centre = shapely.Point(p)
        limit = min(REACH, far)
        reach = min(FIRST_REACH, limit)
        near = np.empty(0, dtype=np.intp)
        """The nodes nearest to ``p``, nearest first: all within ``limit`` once ``whole``."""
        whole = False
        parts: list[npt.NDArray[np.intp]] = []
        count = 0
        done = 0
        size = NEAR_NODES
        while True:
            while len(near) < done + size and not whole:
                found = self._node_tree.query(centre, "dwithin", distance=reach)
                near, dist = self._by_distance(p, found)
                whole = reach >= limit
                if not whole:
                    # Only those surely inside: a node just outside may be nearer than one
                    # on the edge that the lookup let in.
                    near = near[dist < reach - 1e-9]
                    reach = min(reach * 2.0, limit)
            if done >= len(near):
                if count or limit >= far:
                    break
                limit = reach = far
                whole = False
                continue
            found = self._near_nodes(p, near[done : done + size], skip)
            done = min(done + size, len(near))
            size = 2 * done
            parts.append(found)
            count += len(found)
            if count >= MIN_EDGES:
                break
        if not parts:
            return np.empty(0, dtype=np.intp)
        out: npt.NDArray[np.intp] = np.unique(np.concatenate(parts))
        return out

    def _by_distance(
        self, p: Point, nodes: npt.NDArray[np.intp]
    ) -> tuple[npt.NDArray[np.intp], FloatArray]:
        """``nodes`` nearest to ``p`` first (ties by number), and their distances."""
        nodes = np.sort(nodes)
        d = np.hypot(self.nodes[nodes, 0] - p[0], self.nodes[nodes, 1] - p[1])
        order = np.argsort(d, kind="stable")
        return nodes[order], d[order]

    def _visible_near(self, p: Point) -> npt.NDArray[np.intp]:
        """Sparse meshes: the nodes a base at ``p`` can go straight to, near it (see
        :meth:`_nearby`), farther than REACH only if none is nearer."""
        return self._nearby(p, -1, math.hypot(self.table.width, self.table.height))

    def _neighbours(self, i: int) -> tuple[list[int], list[float]]:
        """Sparse meshes: the nodes joined to node ``i`` and the edges' lengths."""
        found = self._edges.get(i)
        if found is None:
            near = self._nearby(self._points[i], i, REACH)
            lengths = np.hypot(*(self.nodes[near] - self.nodes[i]).T)
            found = (near.tolist(), lengths.tolist())
            self._edges[i] = found
        return found

    # -- routes -------------------------------------------------------------------------
    def route(self, start: Point, goal: Point) -> list[Point] | None:
        """A shortest clear route ``start .. goal`` (both included), or None.

        The last :data:`ROUTES_KEPT` routes asked for are remembered (a figure that
        has not moved asks again for the same cover spots, items and enemies)."""
        key = (start, goal)
        routes = self._routes
        if key in routes:
            found = routes.pop(key)
            routes[key] = found  # the most recently used last
        else:
            found = self._route(start, goal)
            routes[key] = found
            if len(routes) > ROUTES_KEPT:
                del routes[next(iter(routes))]
        return None if found is None else list(found)

    def _route(self, start: Point, goal: Point) -> list[Point] | None:
        if self.line_clear(start, goal):
            return [start, goal]
        if not len(self.nodes) or not self.point_clear(goal):
            return None
        if not self.dense:
            return self._search(start, goal)
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

    def _search(self, start: Point, goal: Point) -> list[Point] | None:
        """Sparse meshes: A* from the nodes ``start`` sees to those ``goal`` sees."""
        vs = self._visible(start)
        vg = self._visible(goal)
        if not len(vs) or not len(vg):
            return None
        points = self._points
        gx, gy = goal
        to_goal = {int(j): math.hypot(points[j][0] - gx, points[j][1] - gy) for j in vg.tolist()}
        best: dict[int, float] = {}
        parent: dict[int, int] = {}
        heap: list[tuple[float, float, int]] = []
        goal_node = -1
        for i in vs.tolist():
            d = math.hypot(points[i][0] - start[0], points[i][1] - start[1])
            best[i] = d
            parent[i] = -1
            heapq.heappush(heap, (d + math.hypot(points[i][0] - gx, points[i][1] - gy), d, i))
        done = 0
        last = -1
        while heap:
            _, g, u = heapq.heappop(heap)
            if u == goal_node:
                break
            if g > best[u]:
                continue
            done += 1
            if done > MAX_EXPANDED:
                return None
            finish = to_goal.get(u)
            if finish is None and self.line_clear(points[u], goal):
                finish = math.hypot(points[u][0] - gx, points[u][1] - gy)
                to_goal[u] = finish
            if finish is not None and g + finish < best.get(goal_node, math.inf):
                best[goal_node] = g + finish
                last = u
                heapq.heappush(heap, (g + finish, g + finish, goal_node))
            for v, w in zip(*self._neighbours(u), strict=True):
                d = g + w
                if d < best.get(v, math.inf):
                    best[v] = d
                    parent[v] = u
                    px, py = points[v]
                    heapq.heappush(heap, (d + math.hypot(px - gx, py - gy), d, v))
        else:
            return None
        chain = [last]
        while parent[chain[-1]] >= 0:
            chain.append(parent[chain[-1]])
        return self._pulled([start, *(points[i] for i in reversed(chain)), goal])

    def _pulled(self, route: list[Point]) -> list[Point]:
        """The route with corners cut wherever a straight line is clear (shorter or equal)."""
        out = [route[0]]
        i = 0
        last = len(route) - 1
        while i < last:
            later = np.array(route[i + 2 :], dtype=np.float64).reshape(-1, 2)
            j = i + 1
            if len(later):
                here = np.broadcast_to(np.array(route[i], dtype=np.float64), later.shape)
                ok = np.nonzero(self._lines_clear(here, later))[0]
                if len(ok):
                    j = i + 2 + int(ok[-1])
            out.append(route[j])
            i = j
        return out


def _corners(
    obstacles: Sequence[shapely.Geometry], clear_by: float, rounded: bool
) -> tuple[list[Point], list[tuple[Point, Point]], list[int]]:
    """Corners of the obstacles grown by ``clear_by`` (and :data:`NODE_SLACK`), each one's
    neighbours along its ring (before and after), and how many corners each obstacle
    gave, in order. Each obstacle's corners depend on it alone. With 2 segments per
    quarter circle a chord sags by (1 - cos 22.5deg) of the radius, so the outlines grow
    a little more than the clearance.

    ``rounded``: a small obstacle whose smallest enclosing circle hugs it (see
    :data:`ROUND_GAP`) is grown from that circle instead, an octagon of 8 nodes, when
    that gives fewer nodes than its own outline (a 0.4" disc drawn with 24 points
    would give 16)."""
    out = clear_by + NODE_SLACK
    grow = out / math.cos(math.pi / 8)
    rings = shapely.buffer(shapely.simplify(obstacles, SIMPLIFY), grow, quad_segs=2)
    if rounded and len(obstacles):
        circles = shapely.minimum_bounding_circle(obstacles)
        radii = shapely.minimum_bounding_radius(obstacles)
        box = shapely.bounds(circles)
        centres = shapely.points((box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2)
        octagons = shapely.buffer(centres, (radii + out) / math.cos(math.pi / 8), quad_segs=2)
        fewer = shapely.get_num_coordinates(rings) > shapely.get_num_coordinates(octagons)
        gap = shapely.hausdorff_distance(shapely.get_exterior_ring(circles), obstacles)
        small = (radii <= ROUND_RADIUS) & (gap <= ROUND_GAP)
        rings = np.where(fewer & small, octagons, rings)
    points: list[Point] = []
    beside: list[tuple[Point, Point]] = []
    counts: list[int] = []
    for ring in rings:
        corners = [
            (float(x), float(y))
            for x, y in shapely.get_coordinates(shapely.get_exterior_ring(ring))[:-1]
        ]
        points.extend(corners)
        m = len(corners)
        beside.extend((corners[k - 1], corners[(k + 1) % m]) for k in range(m))
        counts.append(m)
    return points, beside, counts


ATLAS_OBSTACLES = 64
"""At most this many obstacles in an atlas (one bit each; see :class:`_Atlas`)."""


class _Atlas:
    """Every clearance test a dense mesh makes, for a layout's obstacles and any of them.

    A mesh's corners come from each obstacle alone, and whether a corner, or the line
    between two, keeps clear of an obstacle depends on that obstacle alone. So the
    tests are made once, for every corner on the table against every obstacle (one
    bit each), and the mesh of a layout that lost some obstacles (destroyed terrain)
    reads them: its corners are those of its obstacles that none of its obstacles
    comes near, in the same order, and a line between two is clear if none of its
    obstacles does. Only for layouts whose every mesh is dense and unrounded (at most
    :data:`DENSE_NODES` corners on the table in all)."""

    def __init__(self, table: Table, features: Sequence[Feature], radius: float) -> None:
        self.table = table
        self.radius = radius
        self.features = list(features)
        self.number = {id(f): k for k, f in enumerate(self.features)}
        obstacles = [f.geometry for f in self.features]
        clear_by = radius + CLEARANCE
        points, beside, counts = _corners(obstacles, clear_by, rounded=False)
        self.points = points
        self.beside = beside
        ends = np.cumsum([0, *counts])
        self.spans = [(int(ends[k]), int(ends[k + 1])) for k in range(len(counts))]
        lo = radius + CLEARANCE
        inside = [
            k
            for k, p in enumerate(points)
            if lo <= p[0] <= table.width - lo and lo <= p[1] <= table.height - lo
        ]
        self.inside = set(inside)
        self.usable = len(inside) <= DENSE_NODES
        bits = np.left_shift(np.uint64(1), np.arange(len(obstacles), dtype=np.uint64))
        tree = shapely.STRtree(obstacles)
        # Which obstacles come within the clearance of each corner (NavMesh.points_clear).
        near = np.zeros(len(points), dtype=np.uint64)
        if inside and self.usable:
            pts = shapely.points(np.array([points[k] for k in inside], dtype=np.float64))
            found = tree.query(pts, predicate="dwithin", distance=clear_by)
            np.bitwise_or.at(near, np.asarray(inside)[found[0]], bits[found[1]])
        self.near = near
        # Which come within the clearance of each line between two corners, made from
        # the earlier corner to the later one, as a mesh makes them.
        lines = np.zeros((len(points), len(points)), dtype=np.uint64)
        if len(inside) > 1 and self.usable:
            at = np.array([points[k] for k in inside], dtype=np.float64)
            i_idx, j_idx = np.triu_indices(len(inside), 1)
            made = shapely.linestrings(np.stack([at[i_idx], at[j_idx]], axis=1))
            found = tree.query(made, predicate="dwithin", distance=clear_by)
            order = np.asarray(inside)
            np.bitwise_or.at(
                lines, (order[i_idx[found[0]]], order[j_idx[found[0]]]), bits[found[1]]
            )
        self.lines = lines

    def layout(
        self, features: Sequence[Feature]
    ) -> tuple[list[Point], list[tuple[Point, Point]], list[int], npt.NDArray[np.bool_]] | None:
        """A dense mesh's corners, their neighbours, the chosen ones (clear, on the
        table) and whether each line between two chosen ones is clear (the pairs in
        ``np.triu_indices`` order), for these obstacles; None if they are not some of
        the atlas's own, in its order."""
        if not self.usable or not features:
            return None
        numbers = [self.number.get(id(f), -1) for f in features]
        if min(numbers) < 0 or any(b <= a for a, b in itertools.pairwise(numbers)):
            return None
        if any(self.features[k] is not f for k, f in zip(numbers, features, strict=True)):
            return None
        mask = np.uint64(0)
        for k in numbers:
            mask |= np.uint64(1) << np.uint64(k)
        corners = [c for k in numbers for c in range(*self.spans[k])]
        points = [self.points[c] for c in corners]
        beside = [self.beside[c] for c in corners]
        near = self.near
        chosen = [i for i, c in enumerate(corners) if c in self.inside and not int(near[c] & mask)]
        picked = np.array([corners[i] for i in chosen], dtype=np.intp)
        i_idx, j_idx = np.triu_indices(len(picked), 1)
        clear = (self.lines[picked[i_idx], picked[j_idx]] & mask) == 0
        return points, beside, chosen, clear


def _gaps(
    ax: FloatArray, ay: FloatArray, dx: FloatArray, dy: FloatArray, safe: FloatArray, at: FloatArray
) -> FloatArray:
    """Distances from the points ``at`` to the segments from ``(ax, ay)`` by ``(dx, dy)``
    (``safe``: their squared lengths, 1 where 0)."""
    wx, wy = at[:, 0] - ax, at[:, 1] - ay
    along = np.clip((wx * dx + wy * dy) / safe, 0.0, 1.0)
    found: FloatArray = np.hypot(wx - along * dx, wy - along * dy)
    return found


def _polyline_gap(x: float, y: float, points: Sequence[Point]) -> float:
    """Distance from ``(x, y)`` to the line through ``points`` (one point: to it)."""
    ax, ay = points[0]
    best = math.hypot(x - ax, y - ay)
    for bx, by in points[1:]:
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        if length2 > 0.0:
            along = min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / length2))
            best = min(best, math.hypot(x - ax - along * dx, y - ay - along * dy))
        ax, ay = bx, by
    return best


def _circles(
    obstacles: Sequence[shapely.Geometry],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Each obstacle's inner disc (centre, radius: the disc lies in the obstacle; radius
    -inf for none) and outer circle (centre, radius: the obstacle lies in it). The inner
    disc is GEOS's largest inscribed circle, its radius measured again from a centre
    checked to lie inside; the outer radius is the farthest corner from the centre
    (the obstacle lies in the hull of its corners)."""
    count = len(obstacles)
    inner = np.zeros((count, 2), dtype=np.float64)
    inner_r = np.full(count, -np.inf, dtype=np.float64)
    outer = np.zeros((count, 2), dtype=np.float64)
    outer_r = np.full(count, np.inf, dtype=np.float64)
    for k, geom in enumerate(obstacles):
        corners = shapely.get_coordinates(geom)
        if not len(corners):
            continue
        middle = (corners.min(axis=0) + corners.max(axis=0)) / 2.0
        outer[k] = middle
        outer_r[k] = float(np.hypot(*(corners - middle).T).max())
        if not isinstance(geom, shapely.Polygon | shapely.MultiPolygon):
            continue
        centre = shapely.get_point(shapely.maximum_inscribed_circle(geom, INNER_TOLERANCE), 0)
        if centre is None or not shapely.contains(geom, centre):
            continue
        inner[k] = shapely.get_coordinates(centre)[0]
        inner_r[k] = float(shapely.distance(centre, shapely.boundary(geom)))
    return inner, inner_r, outer, outer_r


def _runs(
    values: npt.NDArray[np.intp],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """``np.unique(values, return_inverse=True)`` of values already sorted (ascending), at
    less cost: the distinct values, and for each value the index of its own among them."""
    starts = np.empty(len(values), dtype=np.bool_)
    starts[:1] = True
    np.not_equal(values[1:], values[:-1], out=starts[1:])
    which: npt.NDArray[np.intp] = np.cumsum(starts) - 1
    return values[starts], which


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


MESHES_KEPT = 24
"""Meshes kept per set-up by the obstacles they avoid (see :func:`nav_mesh`)."""


def nav_mesh(cache: dict[object, object], table: Table, terrain: Terrain, radius: float) -> NavMesh:
    """The mesh for this terrain and base size, built once and kept in ``cache``.

    A mesh depends only on the features that block movement: a layout that lost
    only features a base may cross (a hedge shot down, a ruin) shares the mesh of
    the layout before, so destroying terrain rebuilds a mesh only when an obstacle
    goes. Kept under the terrain (forgotten with it) and, at most :data:`MESHES_KEPT`,
    by obstacles (the least recently used forgotten first)."""
    key = ("nav", id(terrain), round(radius, 4))
    found = cache.get(key)
    if not isinstance(found, NavMesh):
        shared = cache.get("nav_by_obstacles")
        if not isinstance(shared, dict):
            shared = cache["nav_by_obstacles"] = {}
        ids = tuple(f.id for f in terrain.active if f.blocks_movement)
        by = (ids, round(radius, 4))
        found = shared.pop(by, None)
        if not isinstance(found, NavMesh) or found.table != table:
            found = NavMesh(table, terrain, radius, _atlas(cache, table, terrain, radius))
        shared[by] = found  # last: the most recently used
        while len(shared) > MESHES_KEPT:
            del shared[next(iter(shared))]
        cache[key] = found
    return found


def _atlas(
    cache: dict[object, object], table: Table, terrain: Terrain, radius: float
) -> _Atlas | None:
    """The set-up's atlas for this base size (see :class:`_Atlas`), made at the second
    mesh built for it, from the obstacles of the first (usually the whole layout)."""
    features = [f for f in terrain.active if f.blocks_movement]
    key = ("nav_atlas", radius)
    found = cache.get(key)
    if isinstance(found, _Atlas) and found.table == table:
        return found
    if found is None:  # the first mesh of this size: keep its obstacles for the atlas
        cache[key] = (table, features)
        return None
    if isinstance(found, tuple) and found[0] == table and len(found[1]) <= ATLAS_OBSTACLES:
        atlas = _Atlas(table, found[1], radius)
        cache[key] = atlas
        return atlas
    return None
