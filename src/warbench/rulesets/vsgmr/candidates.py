"""Candidate moves for bots: a small, varied set of legal moves per figure (II.2).

On an open table a move may end anywhere, so ``legal_actions`` cannot list them
all (``RulesetInfo.exhaustive_actions`` is False); people may type any legal
move. Bots choose among these, per figure that may still move:

- toward each of the two nearest enemies: into distance attack range (for
  figures with a distance attack) and into base contact (a charge);
- to spots beside terrain that blocks sight (cover);
- to the scenario's objectives: items to pick up, tasks for skill rolls, and off
  the side's own table edge when carrying an item;
- onto an own riderless mount (a guy), off its mount (a rider);
- away from the nearest enemy, and a turn on the spot to face it.

Routes come from :mod:`.nav` and keep clear of impassable terrain; a route is
cut at the allowance (a Half Move Unit if it may touch rough terrain), its
points rounded to hundredths of an inch, and dropped if its end would overlap
another base. Every candidate is therefore legal; the rules check it again
when it is played.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

import numpy as np
import numpy.typing as npt
import shapely

from warbench.core.actions import Action
from warbench.core.sampling import Group
from warbench.geometry.table import Figure, Point, edge_distance, heading, overlapping
from warbench.rulesets.vsgmr import space
from warbench.rulesets.vsgmr.actions import END, Move
from warbench.rulesets.vsgmr.memo import Region, memo
from warbench.rulesets.vsgmr.nav import NavMesh, cut, length, nav_mesh
from warbench.rulesets.vsgmr.scenario import Task
from warbench.rulesets.vsgmr.state import Fig, State

if TYPE_CHECKING:
    from warbench.rulesets.vsgmr.rules import VSGMRRules as VSGMR

MAX_PER_FIGURE = 9
SLACK = 0.03
"""Inches of allowance left unused, so rounding never takes a route over it."""
SAME_SPOT = 0.4
"""Ends closer than this are the same candidate."""
COVER_STEP = 2.0
"""Spacing of cover spots along terrain that blocks sight (inches)."""
CACHE_LIMIT = 4_000
NEAREST_ENEMIES = 2
"""Enemies a figure heads for (the nearest; the nearest one also for cover and falling back)."""
OBJECTIVES = 3
"""Items, and tasks, a figure heads for: the nearest few of each."""
ITEM_OFFSET = 0.4
"""Inches from an item's spot to the spots around it a figure may end on to touch it
(within a guy's 1" base, and within the short side of a 1" x 2" one)."""
ITEM_SPOTS = 8
"""Spots around an item tried besides its own."""
ITEM_MOVES = 2
"""Moves to each item offered: the shortest routes that stay clear once rounded."""
ROUTE_BOUND_MARGIN = 1e-9
"""Inches a route must be shorter than a straight line to come first without a search."""
ROUGH_PAD = 1e-6
"""Inches added to the reach when boxes tell a route is far from all rough ground."""
FEW_FOES = 32
CUT_PATHS_KEPT = 20_000
"""Routes kept cut and checked per layout and base size (see :meth:`_Builder._cut`)."""
"""Up to this many enemies the nearest are found by a plain loop, not numpy."""
SURROUNDINGS_MEMORY = 40_000
"""Figures' worth of surroundings remembered per set-up (see :func:`_surroundings`).
Each remembered one holds the enemies' bases (their shapes too), some 4 kB a
surroundings in vsgmr/street: 200,000 let a long simulation grow by 60 MiB."""

T = TypeVar("T")
FloatArray = npt.NDArray[np.float64]

FACE: Final = "face"
"""A raw path's facing still to be worked out (see :func:`_faced`)."""
Path = tuple[tuple[Point, ...], float | Literal["face"] | None, str]
"""A raw candidate as :class:`_Builder` makes it: points, facing (or :data:`FACE`), why."""
Raw = tuple[tuple[Point, ...], float | None, str]
"""A raw candidate: the points after the start, the facing at the end, and why."""


def _r2(p: Point) -> Point:
    return (round(p[0], 2), round(p[1], 2))


def _face(a: Point, b: Point) -> float:
    return round(heading(a, b), 1) % 360.0


def _rough_union(state: State) -> shapely.Geometry | None:
    terrain = space.terrain(state)
    key = ("rough_union", id(terrain))
    cache = state.setup.caches
    if key not in cache:
        rough = [f.geometry for f in terrain.active if f.half_move]
        union = shapely.union_all(rough) if rough else None
        if union is not None:
            shapely.prepare(union)
        cache[key] = union
    found: shapely.Geometry | None = cache[key]
    return found


def _rough_boxes(state: State, union: shapely.Geometry) -> FloatArray:
    """The boxes (xmin, ymin, xmax, ymax per row) of the parts of the rough union."""
    key = ("rough_boxes", id(space.terrain(state)))
    cache = state.setup.caches
    found: FloatArray | None = cache.get(key)
    if found is None:
        found = np.asarray(shapely.bounds(shapely.get_parts(union)), dtype=np.float64)
        cache[key] = found
    return found


def _rough_box_list(state: State, boxes: FloatArray) -> list[tuple[float, float, float, float]]:
    """:func:`_rough_boxes` as a list of tuples (a plain loop over a few: no numpy calls)."""
    key = ("rough_box_list", id(space.terrain(state)))
    cache = state.setup.caches
    found: list[tuple[float, float, float, float]] | None = cache.get(key)
    if found is None:
        found = [(a, b, c, d) for a, b, c, d in boxes.tolist()]
        cache[key] = found
    return found


def cover_spots(state: State, radius: float) -> list[Point]:
    """Points just beside terrain that blocks sight, where a base of ``radius`` fits."""
    return _cover(state, radius)[0]


Smooth = tuple[Point, float, tuple[Point, ...]]
"""A path found far from rough ground: where it starts, the base's bounding radius, and
its points."""


def smooth(state: State, fig: Fig, path: Sequence[Point]) -> bool:
    """Whether the candidates found the path ``fig`` would move along from where it sets off
    far from all rough ground: no part of its base meets any, so it is no half move."""
    found: set[Smooth] | None = state.setup.caches.get(("smooth_paths", id(space.terrain(state))))
    if not found:
        return False
    start = space.move_start(state, fig)
    return (start.at, start.base.bounding_radius, tuple(path)) in found


def _cover(state: State, radius: float) -> tuple[list[Point], FloatArray]:
    """The cover spots for bases of ``radius``, as a list and as an array (kept per layout)."""
    terrain = space.terrain(state)
    key = ("cover_spots", id(terrain), round(radius, 4))
    cache = state.setup.caches
    found: tuple[list[Point], FloatArray] | None = cache.get(key)
    if found is None:
        mesh = nav_mesh(cache, state.setup.table, terrain, radius)
        table = state.setup.table
        spots: list[Point] = []
        for f in terrain.active:
            if f.blocks_los == "no":
                continue
            off = radius + 0.1
            if f.blocks_los == "beyond":
                off = min(off, radius + max(0.02, f.beyond_reach * 0.5))
            ring = shapely.get_exterior_ring(shapely.buffer(f.geometry, off, quad_segs=4))
            total = float(ring.length)
            steps = max(1, int(total // COVER_STEP))
            along = shapely.line_interpolate_point(ring, [k * total / steps for k in range(steps)])
            for x, y in shapely.get_coordinates(along).tolist():
                point = _r2((x, y))
                if (
                    radius + 0.05 <= point[0] <= table.width - radius - 0.05
                    and radius + 0.05 <= point[1] <= table.height - radius - 0.05
                ):
                    spots.append(point)
        clear = mesh.points_clear(spots)
        spots = [p for p, ok in zip(spots, clear.tolist(), strict=True) if ok]
        found = (spots, np.array(spots, dtype=np.float64).reshape(len(spots), 2))
        cache[key] = found
    return found


class _Builder:
    """Builds one figure's candidates."""

    def __init__(self, rules: VSGMR, state: State, fig: Fig) -> None:
        self.rules = rules
        self.state = state
        self.fig = fig
        setup = state.setup
        self.start_geo: Figure = space.body(state, fig)
        if fig.where == "mounted":
            self.start_geo = fig.geo.moved_to(self.start_geo.at, self.start_geo.facing)
        self.start = self.start_geo.at
        self.radius = self.start_geo.base.bounding_radius
        self.mesh: NavMesh = nav_mesh(setup.caches, setup.table, space.terrain(state), self.radius)
        self.full = setup.rules.allowance(fig.profile.kind, half=False)
        self.half = setup.rules.allowance(fig.profile.kind, half=True)
        rough = _rough_union(state)
        self.rough = rough
        self.rough_boxes = _rough_boxes(state, rough) if rough is not None else None
        self.starts_rough = space.starts_in_rough(state, fig, self.start_geo)
        self.foes = _foes(state, fig.side)
        self.enemies = self.foes.nearest(self.start, NEAREST_ENEMIES)
        """The nearest few enemies, nearest first (ties in the order of ``state.figs``)."""
        self.moves: list[Path] = []
        layout = id(space.terrain(state))
        self.cut_paths: dict[Any, tuple[tuple[Point, ...] | None, bool]] = setup.caches.setdefault(
            ("cut_paths", layout), {}
        )
        self.smooth: set[Smooth] = setup.caches.setdefault(("smooth_paths", layout), set())
        """The paths found far from rough ground (see :func:`smooth`)."""

    def build(self) -> list[Path]:
        """The figure's raw candidates, every kind in turn, facings still to be worked out."""
        for _ in self.made():
            pass
        return self.moves

    def made(self) -> Iterator[Path]:
        """:meth:`build`'s candidates one at a time, each kind made only when the one
        before it has been read through (a draw may need only the first few)."""
        if self.fig.where == "mounted":
            kinds: tuple[Callable[[], None], ...] = (self.dismount,)
        else:
            kinds = (
                *(partial(self.toward_enemy, e) for e in self.enemies[:NEAREST_ENEMIES]),
                self.to_objectives,
                self.mounts,
                self.to_cover,
                self.retreat,
                self.turn,
            )
        done = 0
        for kind in kinds:
            kind()  # a kind may still change its own last candidate: read them after it
            yield from self.moves[done:]
            done = len(self.moves)

    # -- helpers ------------------------------------------------------------------------
    def slowed(self, route: Sequence[Point]) -> bool:
        """Whether the route may meet rough ground (a Half Move Unit). When not, it stays
        farther from all of it than the base's bounding radius and a hundredth (more than
        rounding its points moves it), so no part of the base ever touches it."""
        if self.starts_rough:
            return True
        if self.state.setup.options.rough == "start" or self.rough is None:
            return False
        reach = self.radius + 0.01
        # Far from every part of the rough ground (by boxes), the route is not within reach.
        pad = reach + ROUGH_PAD
        xs = [p[0] for p in route]
        ys = [p[1] for p in route]
        x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
        boxes = self.rough_boxes
        assert boxes is not None
        if len(boxes) <= FEW_FOES:
            near = any(
                bx0 <= x1 and bx1 >= x0 and by0 <= y1 and by1 >= y0
                for bx0, by0, bx1, by1 in _rough_box_list(self.state, boxes)
            )
        else:
            near = bool(
                (
                    (boxes[:, 0] <= x1)
                    & (boxes[:, 2] >= x0)
                    & (boxes[:, 1] <= y1)
                    & (boxes[:, 3] >= y0)
                ).any()
            )
        if not near:
            return False
        line = shapely.LineString(route) if len(route) > 1 else shapely.Point(route[0])
        return bool(shapely.dwithin(line, self.rough, reach))

    def keep_smooth(self, points: tuple[Point, ...]) -> None:
        """Note the path to ``points`` (rounded) as one :meth:`slowed` found far from rough
        ground (before rounding)."""
        if len(self.smooth) >= CUT_PATHS_KEPT:
            self.smooth.clear()
        self.smooth.add((self.start, self.radius, points))

    def on_table(self, points: Sequence[Point]) -> bool:
        table = self.state.setup.table
        lo = self.radius + 0.005
        return all(lo <= x <= table.width - lo and lo <= y <= table.height - lo for x, y in points)

    def add(self, route: list[Point] | None, why: str, stop_short: float = 0.0) -> None:
        """Cut ``route`` at the allowance (less ``stop_short``), round it, keep it if clear."""
        if route is None or len(route) < 2:
            return
        points, smooth = self._cut(route, stop_short)
        if points is not None:
            if smooth:
                self.keep_smooth(points)
            self.moves.append((points, FACE, why))

    def _cut(self, route: list[Point], stop_short: float) -> tuple[tuple[Point, ...] | None, bool]:
        """:meth:`add`'s path (the points after the start), or None if it keeps none, and
        whether it was found far from rough ground (a full move).

        It depends on the route, the figure's start, allowances and radius, and the
        layout (obstacles and rough ground), not on other figures: kept per layout
        for every game of the set-up (a figure that has not moved rebuilds its
        candidates whenever an enemy moves, along mostly the same routes)."""
        key = (
            self.start,
            tuple(route),
            stop_short,
            self.radius,
            self.full,
            self.half,
            self.starts_rough,
        )
        kept = self.cut_paths
        if key in kept:
            return kept[key]
        found = self._cut_now(route, stop_short)
        if len(kept) >= CUT_PATHS_KEPT:
            kept.clear()
        kept[key] = found
        return found

    def _cut_now(
        self, route: list[Point], stop_short: float
    ) -> tuple[tuple[Point, ...] | None, bool]:
        total = length(route)
        limit = min(total - stop_short, self.full - SLACK)
        if limit <= 0.05:
            return None, False
        path = cut(route, limit)
        slowed = self.slowed(path)
        allowance = self.half if slowed else self.full
        if allowance < self.full:
            path = cut(route, min(limit, allowance - SLACK))
        points = [_r2(p) for p in path[1:]]
        if not points or math.dist(points[-1], self.start) < 0.05:
            return None, False
        full_path = [self.start, *points]
        if length(full_path) > allowance - 1e-6 or not self.on_table(points):
            return None, False
        if not self.mesh.path_clear(full_path):
            return None, False
        return tuple(points), not slowed

    # -- the kinds of candidate --------------------------------------------------------------
    def toward_enemy(self, enemy: Fig) -> None:
        setup = self.state.setup
        body = space.body(self.state, enemy)
        route = self.mesh.route(self.start, body.at)
        if route is None:
            return
        total = length(route)
        contact = self.radius + body.base.bounding_radius
        if self.fig.profile.distance:
            want = setup.rules.range - 1.0 + contact
            if total > want:
                self.add(route, f"into range of {enemy.id}", stop_short=want)
        # A charge: end just short of the enemy's base, on the line of approach.
        self.add(route, f"charge {enemy.id}", stop_short=contact + 0.01)
        self.charge_touch(body, enemy.id)

    def charge_touch(self, body: Figure, enemy_id: str) -> None:
        """Base contact: slide the end of a charge until the bases (nearly) touch."""
        if not self.moves or self.moves[-1][2] != f"charge {enemy_id}":
            return
        points, _, _ = self.moves[-1]
        end = points[-1]
        me = self.start_geo.moved_to(end)
        gap = edge_distance(me, body)
        if gap <= self.state.setup.rules.touch * 0.5:
            return
        # Step straight toward the enemy's centre by the gap (less a hair).
        step = gap - self.state.setup.rules.touch * 0.4
        d = math.dist(end, body.at)
        if d <= 0 or step <= 0:
            return
        new_end = _r2(
            (end[0] + (body.at[0] - end[0]) * step / d, end[1] + (body.at[1] - end[1]) * step / d)
        )
        path = [self.start, *points[:-1], new_end]
        slowed = self.slowed(path)
        allowance = self.half if slowed else self.full
        if length(path) > allowance - 1e-6 or not self.mesh.path_clear(path):
            return
        if not self.on_table([new_end]):
            return
        touch = tuple([*points[:-1], new_end])
        if not slowed:
            self.keep_smooth(touch)
        self.moves[-1] = (touch, _face(new_end, body.at), f"touch {enemy_id}")

    def to_cover(self) -> None:
        spots, arr = _cover(self.state, self.radius)
        if not spots:
            return
        near = np.hypot(*(arr - np.array(self.start)).T)
        reach = self.full
        idx = np.nonzero((near <= reach) & (near > 0.5))[0]
        if not len(idx):
            return
        if self.enemies:
            foe = space.body(self.state, self.enemies[0]).at
            want = self.state.setup.rules.range - 1.0
            foe_d = np.hypot(*(arr[idx] - np.array(foe)).T)
            order = idx[np.argsort(np.abs(foe_d - want))]
        else:
            order = idx[np.argsort(near[idx])]
        for i in order[:3]:
            spot = (float(arr[i][0]), float(arr[i][1]))
            self.add(self.mesh.route(self.start, spot), "to cover")

    def to_objectives(self) -> None:
        state = self.state
        fig = self.fig
        items = [
            item
            for item in state.items.values()
            if not (item.at is None or item.gone or item.locked or fig.where == "mounted")
        ]
        for item in _nearest_few(items, [i.at for i in items], self.start):
            assert item.at is not None
            self.to_item(item.at, f"to {item.id}")
        carrying = list(fig.items) + (list(state.figs[fig.rider].items) if fig.rider else [])
        if carrying and fig.where != "mounted":
            self.exit_moves()
        if fig.profile.is_guy and fig.where == "table":
            tasks = [
                task
                for task in state.setup.tasks
                if task.id not in state.tasks_done
                and f"{task.id}:{fig.side}" not in state.tasks_done
            ]
            for task in _nearest_few(tasks, [self.task_place(t) for t in tasks], self.start):
                goal = self.task_spot(task.feature, task.at, task.reach)
                if goal is not None:
                    self.add(self.mesh.route(self.start, goal), f"to {task.id}")

    def to_item(self, at: Point, why: str) -> None:
        """Moves that end with the base over the item (so it may be picked up next), or
        as far toward it as the move allows: the item's own spot and spots around it
        (the nearest few by route), as another base or nearby terrain may block one."""
        touch = self.state.setup.rules.touch
        if self.start_geo.covers(at, tolerance=touch):
            return  # touching it already: picking it up is offered as ``take``
        off = min(ITEM_OFFSET, 0.8 * self.radius)
        spots = [at] + [
            _r2((at[0] + off * math.cos(a), at[1] + off * math.sin(a)))
            for a in (math.radians(k * 360.0 / ITEM_SPOTS) for k in range(ITEM_SPOTS))
        ]
        clear = self.mesh.points_clear(spots).tolist()
        before = len(self.moves)
        for route in self.shortest_first([s for s, ok in zip(spots, clear, strict=True) if ok]):
            self.add(route, why)
            if len(self.moves) - before >= ITEM_MOVES:
                return

    def shortest_first(self, spots: Sequence[Point]) -> Iterator[list[Point]]:
        """The routes to ``spots`` (those there are, of a step or more), shortest first
        (equals in the order of ``spots``), each searched only when it may be next: a
        route is no shorter than the straight line, so one found shorter than every
        straight line to a spot not yet searched comes before all their routes."""
        bounds = sorted((math.dist(self.start, spot), i) for i, spot in enumerate(spots))
        found: list[tuple[float, int, list[Point]]] = []
        k = 0
        while True:
            if found:
                best = min(found, key=lambda r: (r[0], r[1]))
                if k == len(bounds) or best[0] < bounds[k][0] - ROUTE_BOUND_MARGIN:
                    found.remove(best)
                    yield best[2]
                    continue
            if k == len(bounds):
                return
            i = bounds[k][1]
            k += 1
            route = self.mesh.route(self.start, spots[i])
            if route is not None and len(route) > 1:
                found.append((length(route), i, route))

    def task_place(self, task: Task) -> Point | None:
        """Roughly where a task is (to pick the nearest few): its point or its feature's."""
        if task.at is not None:
            return task.at
        feature = space.feature(self.state, task.feature or "")
        if feature is None:
            return None
        xmin, ymin, xmax, ymax = feature.geometry.bounds
        x, y = self.start
        return (min(max(x, xmin), xmax), min(max(y, ymin), ymax))

    def task_spot(self, feature_id: str | None, at: Point | None, reach: float) -> Point | None:
        if at is None:
            feature = space.feature(self.state, feature_id or "")
            if feature is None or feature.id in self.state.destroyed:
                return None
            at = space.nearest_point(self.start_geo, feature)
        d = math.dist(self.start, at)
        want = self.radius + min(reach * 0.5, 0.2)
        if d <= want:
            return None
        f = (d - want) / d
        spot = _r2(
            (
                self.start[0] + f * (at[0] - self.start[0]),
                self.start[1] + f * (at[1] - self.start[1]),
            )
        )
        if not self.mesh.point_clear(spot):
            return None
        return spot

    def exit_moves(self) -> None:
        setup = self.state.setup
        edges = (
            ["north", "south", "east", "west"]
            if setup.victory.item_exit == "any_edge"
            else [e for e in (setup.edges.get(self.fig.side),) if e]
        )
        x, y = self.start
        w, h = setup.table.width, setup.table.height
        out = 0.5
        for edge in edges:
            goal = {
                "north": (x, h + out),
                "south": (x, -out),
                "east": (w + out, y),
                "west": (-out, y),
            }[edge]
            inner = {
                "north": (x, h - self.radius - 0.05),
                "south": (x, self.radius + 0.05),
                "east": (w - self.radius - 0.05, y),
                "west": (self.radius + 0.05, y),
            }[edge]
            route = self.mesh.route(self.start, inner)
            if route is None:
                continue
            full = [*route, goal]
            slowed = self.slowed(full)
            if length(full) <= (self.half if slowed else self.full) - SLACK:
                points = tuple(_r2(p) for p in full[1:])
                if self.mesh.path_clear([self.start, *points[:-1]]):
                    if not slowed:
                        self.keep_smooth(points)
                    self.moves.append((points, None, f"off the {edge} edge"))
                    continue
            self.add(route, f"toward the {edge} edge")

    def mounts(self) -> None:
        state = self.state
        fig = self.fig
        if not fig.profile.is_guy:
            return
        for mount in riderless(state, fig.side):
            if mount.id != fig.mount:
                if math.dist(mount.geo.at, self.start) > self.full + 1:
                    continue
                route = self.mesh.route(self.start, mount.geo.at)
                if route is None:
                    continue
                slowed = self.slowed(route)
                if length(route) <= (self.half if slowed else self.full) - SLACK:
                    points = tuple(_r2(p) for p in route[1:])
                    if self.mesh.path_clear([self.start, *points]):
                        if not slowed:
                            self.keep_smooth(points)
                        self.moves.append((points, None, f"mount {mount.id}"))

    def dismount(self) -> None:
        fig = self.fig
        if fig.where != "mounted":
            return
        mount = self.state.figs[fig.mount or ""].geo
        away = mount.base.bounding_radius + self.radius + 0.2
        for angle in (90.0, 270.0, 180.0):
            a = math.radians(mount.facing + angle)
            goal = _r2((mount.x + away * math.cos(a), mount.y + away * math.sin(a)))
            self.add([self.start, goal], "dismount")

    def retreat(self) -> None:
        if not self.enemies:
            return
        foe = space.body(self.state, self.enemies[0]).at
        dx, dy = self.start[0] - foe[0], self.start[1] - foe[1]
        d = math.hypot(dx, dy) or 1.0
        table = self.state.setup.table
        lo = self.radius + 0.05
        goal = (
            min(max(self.start[0] + dx / d * self.full, lo), table.width - lo),
            min(max(self.start[1] + dy / d * self.full, lo), table.height - lo),
        )
        self.add(self.mesh.route(self.start, goal), "fall back")

    def turn(self) -> None:
        """A turn on the spot to face the nearest enemy (see :func:`_faced`)."""
        if self.enemies and self.fig.where != "mounted":
            self.moves.append(((), FACE, "turn"))


def signature(state: State, fig: Fig) -> tuple[Any, ...]:
    """What a figure's candidates depend on (besides where its friends end up).

    Everything but the figure itself is the same for every figure of its side,
    so it is worked out once per state and side and stands in the key as one
    number (:func:`_surroundings`): a key costs the same with 20 figures or 2,000.
    A guy's key also holds where its side's riderless mounts stand (it is offered them).
    """
    return (
        fig.id,
        fig.geo,
        fig.where,
        fig.rider,
        tuple(fig.items),
        _surroundings(state, fig.side),
        _mount_places(state, fig),
    )


MountPlaces = tuple[tuple[str, Point], ...]
Surroundings = tuple[int, MountPlaces]
"""What a figure's kept moves depend on besides its place: :func:`_surroundings` and
:func:`_mount_places`."""


def _mount_places(state: State, fig: Fig) -> MountPlaces:
    """Where the side's riderless mounts stand, for a guy (it is offered them, and a move
    onto one scores the ride); nothing for another figure."""
    if not fig.profile.is_guy:
        return ()
    key = ("mount_places", fig.side)
    found: MountPlaces | None = state.caches.get(key)
    if found is None:
        found = tuple((m.id, m.geo.at) for m in riderless(state, fig.side))
        state.caches[key] = found
    return found


def _surroundings(state: State, side: str) -> int:
    """A number for the enemies' places, the items, the destroyed features and the tasks
    done (equal numbers: equal surroundings), the same for every game of the set-up.

    Kept across actions until an enemy, an item, a feature or a task changes
    (:mod:`.memo`), or the numbers are forgotten."""
    key = ("surroundings", side)
    found: int | None = state.caches.get(key)
    if found is None:
        cache = state.setup.caches
        others = frozenset(s for s in state.setup.sides if s != side)
        kept_key = ("surroundings", side, cache.get("surroundings_clears", 0))
        found = memo(state).per_side(kept_key, others, lambda: _surroundings_now(state, side))
        state.caches[key] = found
    return found


def _surroundings_now(state: State, side: str) -> int:
    others = tuple(
        (f.id, f.geo, f.where) for f in state.figs.values() if f.side != side and f.active
    )
    items = tuple((i.id, i.at, i.locked, i.gone, i.carrier) for i in state.items.values())
    whole = (side, others, items, frozenset(state.destroyed), frozenset(state.tasks_done))
    numbers: dict[Any, int] = state.setup.caches.setdefault("surroundings", {})
    found = numbers.get(whole)
    if found is None:
        if len(numbers) >= max(16, SURROUNDINGS_MEMORY // (len(state.figs) + 1)):
            numbers.clear()  # forgotten ones get new numbers: never a wrong match
            cache = state.setup.caches
            cache["surroundings_clears"] = cache.get("surroundings_clears", 0) + 1
        counter: itertools.count[int] = state.setup.caches.setdefault(
            "surroundings_counter", itertools.count()
        )
        found = next(counter)
        numbers[whole] = found
    return found


def riderless(state: State, side: str) -> list[Fig]:
    """The side's cavalry and vehicles on the table without a rider, in figure order."""
    key = ("riderless", side)
    found: list[Fig] | None = state.caches.get(key)
    if found is None:
        found = [
            f
            for f in state.figs.values()
            if f.side == side and f.where == "table" and f.profile.is_mount and f.rider is None
        ]
        state.caches[key] = found
    return found


class _Foes:
    """A side's enemies on the table (riders by their mounts), for nearest-enemy questions."""

    def __init__(self, state: State, side: str) -> None:
        self.figs = [f for f in state.figs.values() if f.side != side and f.active]
        self.at = [space.body(state, f).at for f in self.figs]
        self.xy = np.array(self.at, dtype=np.float64).reshape(len(self.at), 2)

    def _close(self, p: Point, k: int) -> list[int]:
        """Indices of enemies that may be among the ``k`` nearest to ``p`` (a superset)."""
        n = len(self.figs)
        if n <= k:
            return list(range(n))
        if n <= FEW_FOES:  # a plain loop: no numpy call overhead
            near = [math.dist(a, p) for a in self.at]
            cut = sorted(near)[k - 1] + 1e-6
            return [i for i, d in enumerate(near) if d <= cut]
        d = np.hypot(self.xy[:, 0] - p[0], self.xy[:, 1] - p[1])
        kth = float(np.partition(d, k - 1)[k - 1])
        found: list[int] = np.nonzero(d <= kth + 1e-6)[0].tolist()
        return found

    def nearest(self, p: Point, k: int) -> list[Fig]:
        """The ``k`` enemies nearest to ``p``, nearest first, ties in figure order."""
        close = self._close(p, k)
        close.sort(key=lambda i: (math.dist(self.at[i], p), i))
        return [self.figs[i] for i in close[:k]]

    def closest_to(self, p: Point, start: Point) -> Point:
        """Where the enemy nearest to ``p`` stands; ties go to the one nearer ``start``."""
        close = self._close(p, 1)
        best = min(close, key=lambda i: (math.dist(self.at[i], p), math.dist(self.at[i], start), i))
        return self.at[best]


def _foes(state: State, side: str) -> _Foes:
    key = ("foes", side)
    found: _Foes | None = state.caches.get(key)
    if found is None:
        found = _Foes(state, side)
        state.caches[key] = found
    return found


def _nearest_few(things: list[T], places: Sequence[Point | None], at: Point) -> list[T]:
    """The :data:`OBJECTIVES` things nearest to ``at`` by their places, in their own order."""
    if len(things) <= OBJECTIVES:
        return things
    far = math.inf
    order = sorted(
        range(len(things)),
        key=lambda i: (math.dist(p, at) if (p := places[i]) is not None else far, i),
    )
    keep = set(order[:OBJECTIVES])
    return [t for i, t in enumerate(things) if i in keep]


def figure_candidates(rules: VSGMR, state: State, fig: Fig) -> list[Raw]:
    """Raw candidates of one figure (not yet checked against where friends stand)."""
    found = _kept_candidates(state, fig)
    if found is None:
        found = list(_faced(state, fig, _paths(rules, state, fig)))
        _keep_candidates(state, fig, found)
    return list(found)


def _kept_candidates(state: State, fig: Fig) -> list[Raw] | None:
    """:func:`figure_candidates` as kept for the figure's signature, if they are."""
    cache: dict[Any, Any] = state.setup.caches.get("candidates", {})
    found: list[Raw] | None = cache.get(signature(state, fig))
    return found


def _keep_candidates(state: State, fig: Fig, found: list[Raw]) -> None:
    cache: dict[Any, Any] = state.setup.caches.setdefault("candidates", {})
    if len(cache) >= max(CACHE_LIMIT, 4 * len(state.figs)):
        cache.clear()
        clears = state.setup.caches
        clears["candidates_clears"] = clears.get("candidates_clears", 0) + 1
    cache[signature(state, fig)] = found


def _paths(rules: VSGMR, state: State, fig: Fig) -> list[Path]:
    """The figure's raw candidates before their facings are worked out (:class:`_Builder`).

    Of the enemies they read only the nearest few (and that there are any): kept by
    those, so that an enemy moving elsewhere leaves them as they are (with Everyone
    Acts the enemy moves between any two of the side's moves)."""
    kept: dict[Any, list[Path]] = state.setup.caches.setdefault("candidate_paths", {})
    key = _paths_key(state, fig)
    found = kept.get(key)
    if found is None:
        found = _Builder(rules, state, fig).build()
        _keep_paths(state, key, found)
    return found


def _paths_key(state: State, fig: Fig) -> tuple[Any, ...]:
    """What :func:`_paths` depends on."""
    start = space.move_start(state, fig).at
    foes = _foes(state, fig.side).nearest(start, NEAREST_ENEMIES)
    return (
        fig.id,
        fig.geo,
        fig.where,
        fig.rider,
        fig.mount,
        tuple(fig.items),
        memo(state).world,
        tuple((e.id, space.body(state, e)) for e in foes),
        _mount_places(state, fig),
    )


def _keep_paths(state: State, key: tuple[Any, ...], found: list[Path]) -> None:
    kept: dict[Any, list[Path]] = state.setup.caches.setdefault("candidate_paths", {})
    if len(kept) >= max(CACHE_LIMIT, 4 * len(state.figs)):
        kept.clear()
    kept[key] = found


def _faced(state: State, fig: Fig, paths: Iterable[Path]) -> Iterator[Raw]:
    """The raw candidates of ``paths`` with each facing worked out for the enemies as they
    stand: toward the one nearest the end (ties: the one nearer the start); none if
    there is no enemy, or the end is where it stands. A turn on the spot is dropped
    then, and when it would turn the figure by less than a degree."""
    foes = _foes(state, fig.side)
    start_geo = space.move_start(state, fig)
    start = start_geo.at
    for points, facing, why in paths:
        if facing == FACE:
            at = points[-1] if points else start
            where = foes.closest_to(at, start) if foes.figs else at
            facing = None if where == at else _face(at, where)
            if not points and (
                facing is None or abs(((facing - start_geo.facing + 180.0) % 360.0) - 180.0) < 1.0
            ):
                continue
        yield (points, facing, why)


def movement_candidates(rules: VSGMR, state: State, side: str) -> list[Move]:
    """Up to :data:`MAX_PER_FIGURE` legal moves for each figure of ``side`` that may move.

    Each figure's moves are kept across actions (:mod:`.memo`): they depend on its
    raw candidates (kept per signature, see :func:`figure_candidates`) and on the
    bases near the ends of those, within the circle the entry records.
    """
    key = ("move_candidates", side)
    cached: list[Move] | None = state.caches.get(key)
    if cached is not None:
        return list(cached)
    out: list[Move] = []
    for fig in state.side_figs(side):
        out.extend(figure_moves(rules, state, fig))
    state.caches[key] = out
    return list(out)


def action_groups(rules: VSGMR, state: State, side: str) -> list[Group[Action]] | None:
    """The list of a movement or attack step in parts for a bot that draws one action
    (:mod:`warbench.core.sampling`), a figure at a time, each built only when drawn:
    :func:`movement_candidates` (at most :data:`MAX_PER_FIGURE` a figure), then the
    pick-ups and ``end``; or each figure's attacks (at most :meth:`VSGMR.attack_bound`),
    then ``end``. None in other steps."""
    if state.phase in ("distance", "hand"):
        hand = state.phase == "hand"
        cached: list[Action] | None = state.caches.get(("attacks", side, hand))
        if cached is not None:
            return [(len(cached), cached), (1, (END,))]
        return [
            *(
                (
                    rules.attack_bound(state, fig, hand),
                    rules.fig_attacks_lazily(state, fig, hand),
                )
                for fig in state.side_figs(side)
            ),
            (1, (END,)),
        ]
    if state.phase != "movement":
        return None
    takes = rules.take_options(state, side)
    return [*_movement_groups(rules, state, side), (len(takes), takes), (1, (END,))]


def _movement_groups(rules: VSGMR, state: State, side: str) -> list[Group[Action]]:
    cached: list[Move] | None = state.caches.get(("move_candidates", side))
    if cached is not None:
        return [(len(cached), cached)]
    return [
        (MAX_PER_FIGURE, figure_moves_lazily(rules, state, fig))
        for fig in state.side_figs(side)
        if rules.may_move(state, fig)
    ]


def figure_moves(rules: VSGMR, state: State, fig: Fig) -> list[Move]:
    """The legal moves :func:`movement_candidates` lists for ``fig`` (none if it may not
    move), kept across actions until something near it changes."""
    table = memo(state).tables.setdefault("moves", {})
    moves = _kept_moves(state, fig, table)
    if moves is None:
        found = table[fig.id] = _figure_moves(rules, state, fig)
        moves = found[1][2]
    return moves


def listed(state: State, fig: Fig, move: Move) -> bool:
    """Whether ``move`` is among the moves :func:`figure_moves` has listed for ``fig`` in
    this state (each built clear and within the allowance: a legal move), or among
    those :func:`figure_moves_lazily` has read so far, without listing them if they
    are not yet."""
    table = memo(state).tables.get("moves")
    moves = None if table is None else _kept_moves(state, fig, table)
    if moves is None:
        moves = state.caches.get(("moves read", fig.id))
    return moves is not None and move in moves


def _kept_moves(
    state: State, fig: Fig, table: dict[str, tuple[Any, MovesKept]]
) -> list[Move] | None:
    """``fig``'s moves kept in ``table`` if they still hold, else None."""
    found = table.get(fig.id)
    if found is None:
        return None
    surr, gen, moves = found[1]
    if surr is not None and (
        surr != (_surroundings(state, fig.side), _mount_places(state, fig))
        or gen != state.setup.caches.get("candidates_clears", 0)
    ):
        return None
    return moves


MovesKept = tuple[Surroundings | None, int, list[Move]]
"""A figure's kept moves: the surroundings and clear count they were built for (None: the
figure may not move), and the moves."""


def _figure_moves(rules: VSGMR, state: State, fig: Fig) -> tuple[Region, MovesKept]:
    """One figure's moves, with the circles they depend on and what keys its raw candidates
    (see :class:`_Listing`)."""
    listing = _Listing(rules, state, fig)
    for _ in listing.moves(figure_candidates(rules, state, fig) if listing.may_move else []):
        pass
    return listing.kept()


def figure_moves_lazily(rules: VSGMR, state: State, fig: Fig) -> Iterator[Move]:
    """:func:`figure_moves` one at a time, built only as far as they are read (a draw of
    one action lands on one of them): the raw candidates are made kind by kind as the
    moves need them. Read through, they are kept as :func:`figure_moves` keeps them."""
    table = memo(state).tables.setdefault("moves", {})
    moves = _kept_moves(state, fig, table)
    if moves is not None:
        yield from moves
        return
    listing = _Listing(rules, state, fig)
    state.caches[("moves read", fig.id)] = listing.out  # for :func:`listed`, as they come
    raw = _kept_candidates(state, fig) if listing.may_move else []
    if raw is None:
        key = _paths_key(state, fig)
        paths = state.setup.caches.get("candidate_paths", {}).get(key)
        if paths is None:
            builder = _Builder(rules, state, fig)
            yield from listing.moves(_faced(state, fig, builder.made()))
            if listing.read_all:  # the builder was read through: keep what it made
                _keep_paths(state, key, builder.moves)
                _keep_candidates(state, fig, list(_faced(state, fig, builder.moves)))
        else:
            yield from listing.moves(_faced(state, fig, paths))
    else:
        yield from listing.moves(raw)
    table[fig.id] = listing.kept()


class _Listing:
    """One figure's moves from its raw candidates, with the circles they depend on.

    Besides its own place and flags and what keys the raw candidates (see
    :func:`figure_moves`), the moves depend only on the bases near the ends tried
    (:func:`_end_free`): a circle around each, as wide as the mover's base and the
    hundredth it keeps clear (the memo adds the other base's)."""

    def __init__(self, rules: VSGMR, state: State, fig: Fig) -> None:
        self.state = state
        self.fig = fig
        self.may_move = rules.may_move(state, fig)
        self.out: list[Move] = []
        self.region: list[float] = []
        self.read_all = False
        """Whether the raw candidates were read to their end."""

    def moves(self, raw: Iterable[Raw]) -> Iterator[Move]:
        """The moves of ``raw`` (up to :data:`MAX_PER_FIGURE`), each as it is found."""
        state, fig, out, region = self.state, self.fig, self.out, self.region
        if not self.may_move:
            self.read_all = True
            return
        me = fig.geo if fig.where == "mounted" else space.body(state, fig)
        reach = me.base.bounding_radius + END_CLEAR + 0.01
        made: dict[Any, Move] = state.setup.caches.setdefault("candidate_moves", {})
        if len(made) >= MOVES_KEPT:
            made.clear()
        kept: list[Point] = []
        for path, facing, _why in raw:
            end = path[-1] if path else space.body(state, fig).at
            if any(math.dist(end, k) < SAME_SPOT for k in kept) and path:
                continue
            region.extend((end[0], end[1], reach))
            if not _end_free(state, fig, end, facing, path):
                continue
            if path:
                kept.append(end)
            move = _move(made, fig.id, path, facing)
            out.append(move)
            yield move
            if len(out) >= MAX_PER_FIGURE:
                return
        self.read_all = True

    def kept(self) -> tuple[Region, MovesKept]:
        """What :func:`figure_moves` keeps: the circles, the surroundings (None: the figure
        may not move), the clear count and the moves."""
        state, fig = self.state, self.fig
        surr: Surroundings | None = None
        if self.may_move:
            surr = (_surroundings(state, fig.side), _mount_places(state, fig))
        gen = state.setup.caches.get("candidates_clears", 0)
        return tuple(self.region), (surr, gen, self.out)


END_CLEAR = 0.01
"""Inches a move's end keeps between the mover's bounding circle and another's before
their shapes are compared (:func:`_end_free`)."""
MOVES_KEPT = 20_000
"""Candidate moves kept made per set-up (a move is a value: equal ones are the same)."""


def _move(
    made: dict[Any, Move], figure: str, path: tuple[Point, ...], facing: float | None
) -> Move:
    """``Move(figure, path, facing)``, made once (its checks and canonical form cost more
    than looking it up)."""
    key = (figure, path, facing)
    found = made.get(key)
    if found is None:
        found = made[key] = Move(figure, path, facing)
    return found


def _end_free(
    state: State, fig: Fig, end: Point, facing: float | None, path: Sequence[Point]
) -> bool:
    """No other base overlaps the mover's at ``end`` (the mount it rides onto excepted)."""
    me = fig.geo if fig.where == "mounted" else space.body(state, fig)
    radius = me.base.bounding_radius
    mount_target = None
    if fig.profile.is_guy:
        for other in riderless(state, fig.side):
            if other.id != fig.mount and other.geo.at == end:
                mount_target = other.id
    index = space.scene(state).index
    pad = radius + 0.01
    x, y = end
    ghost: Figure | None = None
    for i in index.in_box_list(x - pad, y - pad, x + pad, y + pad):
        base = index.figures[i]
        if base.id == fig.id or base.id == mount_target:
            continue
        limit = radius + base.base.bounding_radius + END_CLEAR
        if math.dist(base.at, end) >= limit:
            continue  # too far apart to overlap at any facing
        if ghost is None:  # the mover at its end, made only when a base is that close
            if facing is None:
                before = path[-2] if len(path) > 1 else me.at
                facing = heading(before, end) if before != end else me.facing
            ghost = me.moved_to(end, facing)
        if overlapping(ghost, base):
            return False
    return True
