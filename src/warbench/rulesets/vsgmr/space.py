"""VSGMR on the table: the geometry questions the rules ask, answered and cached per state.

Everything spatial goes through :mod:`warbench.geometry.table`; this module only
says how VSGMR asks: which figures stand on the table (a rider sits on its
mount and is found through it), how range and contact are measured, what
"facing the foe" means, and how a move is checked (II.2). Results that depend
only on positions are cached under the state's ``version``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table import (
    EPS,
    FREE_TURNS,
    Feature,
    Figure,
    Leg,
    LegStep,
    MoveResult,
    MoveRules,
    Point,
    RoundBase,
    Scene,
    Sight,
    Terrain,
    TurnStep,
    bearing,
    centre_distance,
    edge_distance,
)
from warbench.geometry.table.terrain import LOS_YES
from warbench.rulesets.kit.rulings import cite, cite_ruling
from warbench.rulesets.vsgmr.data import Rules
from warbench.rulesets.vsgmr.state import Fig, State

MOVE_RULES = MoveRules(turning=FREE_TURNS, pass_through="all", may_leave_table=True)
"""II.2: turning is free, a figure may move through any other figure, and it may
move off the table (it is then gone for good)."""

FloatArray = npt.NDArray[np.float64]

SIGHT_CACHE_LIMIT = 20_000
"""Sight lines kept per set-up (terrain and the two bases decide them). About 35 new ones
a game in vsgmr/field: at 50,000 a 1,000-game run was still filling them (140 MiB and
growing); at 20,000 they are forgotten every few hundred games and memory stays flat."""


# -- the table now -------------------------------------------------------------------------


def terrain(state: State) -> Terrain:
    """The terrain with the features destroyed so far removed (III)."""
    key = "terrain"
    found: Terrain | None = state.caches.get(key)
    if found is None:
        found = state.setup.terrain(frozenset(state.destroyed))
        state.caches[key] = found
    return found


REPLACE_FROM = 48
"""With more bases than this, a new version's scene is the last one with the bases that
changed replaced (its figure index updated, not rebuilt), when the same figures stand
on the table in the same order."""


def scene(state: State) -> Scene:
    """Table, terrain and every base on the table (riders sit on their mounts)."""
    found: Scene | None = state.caches.get("scene")
    if found is None:
        bases = [f.geo for f in state.on_table()]
        layout = terrain(state)
        last: Scene | None = state.kept.get("scene")
        if (
            last is not None
            and len(bases) > REPLACE_FROM
            and last.terrain is layout
            and last.table is state.setup.table
            and len(last.figures) == len(bases)
            and all(a.id == b.id for a, b in zip(last.figures, bases, strict=True))
        ):
            changed = [b for a, b in zip(last.figures, bases, strict=True) if a is not b]
            found = last.replaced(*changed)
        else:
            found = Scene(state.setup.table, layout, bases)
        state.caches["scene"] = found
        state.kept["scene"] = found
    return found


def feature(state: State, feature_id: str) -> Feature | None:
    """The scenario's feature with this id (destroyed or not), or None; a dictionary lookup."""
    setup = state.setup
    found: dict[str, Feature] | None = setup.caches.get("features_by_id")
    if found is None:
        found = {}
        for f in setup.features:
            found.setdefault(f.id, f)
        setup.caches["features_by_id"] = found
    return found.get(feature_id)


def body(state: State, fig: Fig) -> Figure:
    """The base that stands for ``fig`` on the table: its own, or its mount's if riding."""
    if fig.where == "mounted" and fig.mount is not None:
        return state.figs[fig.mount].geo
    return fig.geo


# -- measuring -----------------------------------------------------------------------------


def gap(state: State, a: Figure, b: Figure) -> float:
    """Range between two bases: edge to edge, or centre to centre (option ``range_from``)."""
    if state.setup.options.range_from == "centre":
        return centre_distance(a, b)
    return edge_distance(a, b)


def feature_gap(state: State, a: Figure, feature: Feature) -> float:
    """Range from a base (or its centre) to the nearest part of a feature."""
    geometry = feature.geometry
    if state.setup.options.range_from == "centre":
        return float(shapely.distance(shapely.Point(a.x, a.y), geometry))
    return terrain(state).distance_to(a, feature.id)


def point_gap(state: State, a: Figure, point: Point) -> float:
    """Range from a base (or its centre, option ``range_from``) to a point."""
    if state.setup.options.range_from == "centre":
        return math.hypot(point[0] - a.x, point[1] - a.y)
    if isinstance(a.base, RoundBase):  # exact: the centre's distance less the radius
        return max(0.0, math.hypot(point[0] - a.x, point[1] - a.y) - a.base.radius)
    core, radius = a.solid
    return max(0.0, float(shapely.distance(core, shapely.Point(point))) - radius)


def box_gap(a: Figure, feature: Feature) -> float:
    """A lower bound of the range from a base to a feature, from bounding boxes (cheap)."""
    xmin, ymin, xmax, ymax = feature.geometry.bounds
    ax0, ay0, ax1, ay1 = a.bounds
    dx = max(xmin - ax1, ax0 - xmax, 0.0)
    dy = max(ymin - ay1, ay0 - ymax, 0.0)
    return math.hypot(dx, dy)


def facing_margin(state: State, eye: Figure, target: Figure | Point) -> float:
    """Degrees by which the target's centre is inside the attacker's front arc (<0: outside)."""
    return state.setup.rules.facing_half_angle - abs(bearing(eye, target))


def faces(state: State, eye: Figure, target: Figure | Point) -> bool:
    """II.3: the attacker must be facing the foe (the stand-in front arc)."""
    return facing_margin(state, eye, target) >= -1e-6


def laid_flat(a: Figure, reach: float) -> tuple[shapely.Geometry, float]:
    """Core and radius of the ground a base covers laid flat on its face (II.4).

    The figure falls forward: its base slid ``reach`` inches ahead along its
    facing, sweeping a strip as wide as the base. Nothing beside or behind it.
    """
    rad = math.radians(a.facing)
    ahead = a.moved_to((a.x + reach * math.cos(rad), a.y + reach * math.sin(rad)), a.facing)
    return _swept(a, ahead)


def _reaches(
    fig: Fig, a: Figure, rules: Rules, other: shapely.Geometry, other_radius: float
) -> bool:
    """Whether ``fig`` laid flat comes within touching distance of ``other``."""
    reach = rules.lay_flat[fig.profile.kind]
    if reach <= 0:
        return False
    core, radius = laid_flat(a, reach)
    return float(shapely.distance(core, other)) <= radius + other_radius + rules.touch


def touching(state: State, fig: Fig, a: Figure, target: Figure) -> bool:
    """II.4: bases touch, or the target is within the attacker's laid-flat reach in front."""
    rules = state.setup.rules
    if edge_distance(a, target) <= rules.touch:
        return not walled_off(state, a, target)
    core, radius = target.solid
    return _reaches(fig, a, rules, core, radius) and not walled_off(state, a, target)


def walled_off(state: State, a: Figure, b: Figure) -> bool:
    """Ruling 22: a high wall (a feature that blocks sight) runs between the two bases.

    Two bases pressed against either face of a wall of no thickness are within the
    touching slop, yet each touches the wall, not the other: the line between their
    centres passes through the wall (grazing its end does not count)."""
    t = terrain(state)
    segment = shapely.LineString([a.at, b.at])
    idx = t.tree.query(segment)
    if not len(idx):
        return False
    idx = idx[t.los_mode[idx] == LOS_YES]
    return bool(len(idx)) and bool(shapely.intersects(t.pieces.core[idx], segment).any())


def touching_feature(state: State, fig: Fig, a: Figure, feature: Feature) -> bool:
    """II.4 against a building or feature: the same test with the feature's outline."""
    rules = state.setup.rules
    if terrain(state).distance_to(a, feature.id) <= rules.touch:
        return True
    return _reaches(fig, a, rules, feature.geometry, 0.0)


def nearest_point(a: Figure, feature: Feature) -> Point:
    """The point of ``feature`` nearest to the centre of ``a`` (where it is aimed at)."""
    line = shapely.shortest_line(shapely.Point(a.x, a.y), feature.geometry)
    coords = shapely.get_coordinates(line)
    return (float(coords[-1][0]), float(coords[-1][1]))


AIM_STEP = 0.25
"""Inches between the points of a feature's outline tried as aiming points."""
AIM_POINTS = 160
"""At most this many aiming points per feature (a long outline is sampled more coarsely)."""


def _any(point: Point) -> bool:
    return True


def aim_points(state: State, a: Figure, feature: Feature) -> list[Point]:
    """Points of ``feature`` the figure ``a`` might aim at, nearest first (ruling 16).

    The nearest point, then points along the outline that face ``a``: the line to
    them does not pass through the feature itself (the far side of a building is
    not aimed at through it). Range and sight are the caller's.
    """
    return list(aim_candidates(state, a, feature, within=math.inf))


def aim_candidates(
    state: State, a: Figure, feature: Feature, within: float, keep: Callable[[Point], bool] = _any
) -> Iterator[Point]:
    """:func:`aim_points` one at a time, those ``keep`` accepts, within range ``within``.

    Lazy, so an attack that can aim at the nearest point tests no other: the
    outline samples are worked out once per feature, and whether the line to one
    passes through the feature is asked only of a sample in range (measured as
    :func:`point_gap` does) that ``keep`` accepts. The order and the points are
    those of :func:`aim_points`.
    """
    first = nearest_point(a, feature)
    if point_gap(state, a, first) <= within and keep(first):
        yield first
    coords = _outline_samples(state, feature)
    dist = np.hypot(coords[:, 0] - a.x, coords[:, 1] - a.y)
    order = np.argsort(dist, kind="stable").tolist()
    # The range from a base never falls below its centre's distance less its
    # bounding radius, and the samples come nearest first: past that, stop.
    slack = 0.0 if state.setup.options.range_from == "centre" else a.base.bounding_radius
    dist_list = dist.tolist()
    core: shapely.Geometry | None = None
    core_known = False
    xy = coords.tolist()
    chunk: list[Point] = []
    size = 1
    for k in order:
        if dist_list[k] - slack > within:
            break
        point = (xy[k][0], xy[k][1])
        if point_gap(state, a, point) > within or not keep(point):
            continue
        chunk.append(point)
        if len(chunk) >= size:
            if not core_known:
                core = terrain(state).sight_core_of(feature.id)
                core_known = True
            yield from _not_through(a.at, chunk, core)
            chunk = []
            size = min(2 * size, AIM_CHUNK)
    if chunk:
        if not core_known:
            core = terrain(state).sight_core_of(feature.id)
        yield from _not_through(a.at, chunk, core)


AIM_CHUNK = 32
"""Aiming points whose lines are tested against the feature itself at once (at most)."""


def _not_through(eye: Point, points: list[Point], core: shapely.Geometry | None) -> list[Point]:
    """Those of ``points`` the line from ``eye`` reaches without passing through ``core``."""
    if core is None:
        return points
    lines = shapely.linestrings([[eye, p] for p in points])
    through = shapely.intersects(lines, core).tolist()
    return [p for p, blocked in zip(points, through, strict=True) if not blocked]


def _outline_samples(state: State, feature: Feature) -> FloatArray:
    """Points every :data:`AIM_STEP` inches along a feature's outline (kept per set-up)."""
    cache: dict[str, tuple[Feature, FloatArray]] = state.setup.caches.setdefault("aim_outline", {})
    found = cache.get(feature.id)
    if found is None or found[0] is not feature:
        geometry = feature.geometry
        outline: Any = geometry if not feature.is_area else shapely.boundary(geometry)
        total = float(shapely.length(outline))
        steps = max(1, min(AIM_POINTS, math.ceil(total / AIM_STEP)))
        along = shapely.line_interpolate_point(
            outline, np.linspace(0.0, total, steps, endpoint=False)
        )
        found = (feature, shapely.get_coordinates(along))
        cache[feature.id] = found
    return found[1]


# -- sight --------------------------------------------------------------------------------


def sight(state: State, eye: Figure, target: Figure | Point) -> Sight:
    """Line of sight from ``eye`` to a base or a point, past terrain (and figures, by option).

    Without figures blocking, sight depends only on the terrain and the two
    bases, so it is cached for every game of the set-up.
    """
    blocking = state.setup.options.figures_block_sight
    if blocking:
        key: Any = ("sight", eye, target)
        cache = state.caches
    else:
        key = (frozenset(state.destroyed), eye, target)
        cache = state.setup.caches.setdefault("sight", {})
    found: Sight | None = cache.get(key)
    if found is None:
        found = scene(state).sight(eye, target, figures_block=blocking)
        if len(cache) >= SIGHT_CACHE_LIMIT:
            cache.clear()
        cache[key] = found
    return found


def sights(state: State, eye: Figure, points: Sequence[Point]) -> list[Sight]:
    """:func:`sight` from ``eye`` to each of ``points``; those not yet known are worked
    out in one pass (:meth:`Scene.sight_points`) and kept like the others."""
    blocking = state.setup.options.figures_block_sight
    cache: dict[Any, Sight]
    base: tuple[Any, Figure]
    if blocking:
        cache, base = state.caches, ("sight", eye)
    else:
        cache, base = state.setup.caches.setdefault("sight", {}), (frozenset(state.destroyed), eye)
    found: dict[Point, Sight] = {}
    missing: list[Point] = []
    for p in points:
        known = cache.get((*base, p))
        if known is not None:
            found[p] = known
        elif p not in found and p not in missing:
            missing.append(p)
    if missing:
        worked = scene(state).sight_points(eye, missing, figures_block=blocking)
        if len(cache) + len(missing) > SIGHT_CACHE_LIMIT:
            cache.clear()
        for p, seen in zip(missing, worked, strict=True):
            found[p] = seen
            cache[(*base, p)] = seen
    return [found[p] for p in points]


# -- movement (II.2) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """A move as the rules see it: the geometry's plan plus VSGMR's own tests."""

    result: MoveResult
    allowance: float
    half: bool
    """Limited to a Half Move Unit by rough terrain."""
    leaves: bool
    """The move ends with the figure's centre off the table: it is gone for good."""
    mounts: str | None
    """The mount this guy ends on (and so rides)."""
    problem: str | None

    @property
    def end(self) -> Figure:
        return self.result.end

    @property
    def path(self) -> list[Point]:
        return self.result.path


class _Rough:
    """The rough terrain that slows a figure, indexed (II.2: water does not slow boats)."""

    def __init__(self, features: list[Feature]) -> None:
        self.features = features
        self.tree = shapely.STRtree([f.geometry for f in features]) if features else None
        self.geoms = np.array([f.geometry for f in features], dtype=object)
        box = shapely.bounds(self.geoms) if features else np.empty((0, 4))
        self.box: FloatArray = np.asarray(box, dtype=np.float64).reshape(len(features), 4)
        self.boxes: list[list[float]] = self.box.tolist()

    def __bool__(self) -> bool:
        return bool(self.features)


def _rough(state: State, fig: Fig) -> _Rough:
    """The rough terrain that slows ``fig`` (II.2: water does not slow boats and fish men)."""
    aquatic = fig.profile.aquatic
    key = ("rough", aquatic)
    found: _Rough | None = state.caches.get(key)
    if found is None:
        # Kept per layout (and forgotten with it, see Setup.terrain), not per state.
        t = terrain(state)
        kept = ("rough", id(t), aquatic)
        found = state.setup.caches.get(kept)
        if found is None:
            skip = state.setup.water if aquatic else frozenset()
            found = _Rough([f for f in t.active if f.half_move and f.id not in skip])
            state.setup.caches[kept] = found
        state.caches[key] = found
    return found


FEW_ROUGH = 16
"""Up to this many rough features a base's box is tested against theirs by a plain loop."""


def _in_rough(rough: _Rough, core: shapely.Geometry, radius: float) -> bool:
    """Whether the shape ``core`` + ``radius`` overlaps (more than touches) rough terrain."""
    if rough.tree is None:
        return False
    near = _near_rough(rough, shapely.bounds(core).tolist(), radius)
    if not len(near):
        return False
    return bool((shapely.distance(core, rough.geoms[near]) < radius - EPS).any())


def _round_in_rough(rough: _Rough, a: Point, b: Point, radius: float) -> bool:
    """:func:`_in_rough` of a round base of ``radius`` moving straight from ``a`` to ``b``
    (its core the point, or the line between them: see :func:`_swept`), made only if
    some rough terrain's box comes near the line's box (the same box: its ends' least
    and greatest coordinates)."""
    if rough.tree is None:
        return False
    box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
    near = _near_rough(rough, box, radius)
    if not len(near):
        return False
    core = shapely.Point(a) if a == b else shapely.LineString([a, b])
    return bool((shapely.distance(core, rough.geoms[near]) < radius - EPS).any())


def _near_rough(rough: _Rough, within: Sequence[float], radius: float) -> Any:
    """The rough features whose boxes come within ``radius`` of the box ``within`` (a
    superset of those within ``radius`` of a shape in that box), ascending."""
    # The exact distances to these are then measured, all at once.
    x0, y0, x1, y1 = within
    if len(rough.boxes) <= FEW_ROUGH:  # a plain loop over a few: no numpy call overhead
        near: Any = [
            k
            for k, (bx0, by0, bx1, by1) in enumerate(rough.boxes)
            if bx0 <= x1 + radius
            and bx1 >= x0 - radius
            and by0 <= y1 + radius
            and by1 >= y0 - radius
        ]
    else:
        box = rough.box
        near = np.nonzero(
            (box[:, 0] <= x1 + radius)
            & (box[:, 2] >= x0 - radius)
            & (box[:, 1] <= y1 + radius)
            & (box[:, 3] >= y0 - radius)
        )[0]
    return near


def _swept(start: Figure, end: Figure) -> tuple[shapely.Geometry, float]:
    """Core and radius of the ground a base covers moving straight from ``start`` to ``end``."""
    if isinstance(start.base, RoundBase):
        if start.at == end.at:
            return shapely.Point(start.at), start.base.radius
        return shapely.LineString([start.at, end.at]), start.base.radius
    a, ra = start.solid
    b, _ = end.solid
    hull = shapely.convex_hull(shapely.union(a, b))
    return hull, ra


def rough_moment(state: State, fig: Fig, start: Figure, result: MoveResult) -> bool:
    """Whether the base is in rough terrain at any moment of the move (or at its start)."""
    rough = _rough(state, fig)
    if not rough:
        return False
    at_start = state.setup.options.rough == "start"
    if isinstance(start.base, RoundBase):
        return _round_rough_moment(rough, start, result, at_start)
    return _swept_rough_moment(rough, start, result, at_start)


def _swept_rough_moment(rough: _Rough, start: Figure, result: MoveResult, at_start: bool) -> bool:
    """:func:`rough_moment` of any base: the ground it stands on and each turn and leg sweeps."""
    core, radius = start.solid
    if _in_rough(rough, core, radius):
        return True
    if at_start:
        return False
    current = start
    for step in result.steps:
        if isinstance(step, TurnStep):
            current = current.turned_to(step.after)
            core, radius = current.solid
        else:
            end = current.moved_to(step.end, step.facing)
            current = current.turned_to(step.facing)
            core, radius = _swept(current, end)
            current = end
        if _in_rough(rough, core, radius):
            return True
    return False


def _round_rough_moment(rough: _Rough, start: Figure, result: MoveResult, at_start: bool) -> bool:
    """:func:`_swept_rough_moment` of a round base, its shapes made only where rough terrain
    comes near: its centre and radius (``Figure.solid``), and a turn covers the ground it
    stands on (the start, or the end of the leg before, within the line that leg swept),
    so only the start and the legs are tested."""
    radius = start.base.bounding_radius
    if _round_in_rough(rough, start.at, start.at, radius):
        return True
    if at_start:
        return False
    return any(
        _round_in_rough(rough, step.start, step.end, radius)
        for step in result.steps
        if isinstance(step, LegStep)
    )


def starts_in_rough(state: State, fig: Fig, start: Figure) -> bool:
    rough = _rough(state, fig)
    core, radius = start.solid
    return bool(rough) and _in_rough(rough, core, radius)


def _on_table(state: State, figure: Figure) -> bool:
    return state.setup.table.contains_bounds(figure.bounds)


def _edge_problem(state: State, start: Figure, result: MoveResult, leaves: bool) -> str | None:
    """II.2 table edge: the base stays on the table until it leaves it, for good.

    Ruling 9: the base is checked where it comes to rest between legs and at the end,
    not while it swings round: a long base flush with an edge may turn away from it
    or drive off over it (a real figure pivots as it goes), as II.2 lets a figure
    change direction at any time."""
    legs = [s for s in result.steps if isinstance(s, LegStep) and s.length > 0.0]
    current = start
    for step in result.steps:
        if isinstance(step, TurnStep):
            current = current.turned_to(step.after)
            continue
        end = current.moved_to(step.end, step.facing)
        final = bool(legs) and step is legs[-1]
        if not final and not _on_table(state, end):
            return (
                f"leg {step.leg + 1} takes the base off the table; a move off the table ends "
                f"there ({cite_ruling('warbench.rulesets.vsgmr', 9)})"
            )
        current = end
    if not leaves and not _on_table(state, result.end):
        return (
            f"the move ends with the base over the table edge at {_pt(result.end.at)}; "
            "end wholly on the table, or with the centre off it to leave the table "
            f"({cite_ruling('warbench.rulesets.vsgmr', 9)})"
        )
    return None


def _pt(p: Point) -> str:
    return f"{p[0]:.2f},{p[1]:.2f}"


def move_start(state: State, fig: Fig) -> Figure:
    """Where ``fig`` sets off: its own base, a rider from its mount's place."""
    start = fig.geo if fig.where == "table" else body(state, fig)
    if fig.where == "mounted":
        start = fig.geo.moved_to(start.at, start.facing)
    return start


def check_move(
    state: State,
    fig: Fig,
    path: Sequence[Point],
    facing: float | None,
    facings: Sequence[float | None] = (),
    known_legal: bool = False,
    smooth: bool = False,
) -> MoveCheck:
    """Cost and check a move of ``fig`` (the who-may-move tests are the rules' job);
    ``facings``: per point, a facing held on that leg (empty: every leg faces its way).

    ``known_legal``: the move is one the candidates listed for this state (built and
    checked clear by :mod:`.candidates`): it is only costed, as the full check would
    cost it, and its geometry is not tested again. ``smooth``: the candidates also found
    its path far from all rough ground (more than the base's reach), so it is no half move
    (:func:`rough_moment` would find none)."""
    setup = state.setup
    start = move_start(state, fig)
    sc = scene(state)
    riderless = []
    if fig.profile.is_guy:
        riderless = [
            f.id
            for f in state.figs.values()
            if f.side == fig.side
            and f.where == "table"
            and f.profile.is_mount
            and f.rider is None
            and f.id != fig.mount
        ]
    held = list(facings) or [None] * len(path)
    legs = [Leg(p, f) for p, f in zip(path, held, strict=True)]
    # The full allowance first: the half move depends on where the path goes.
    full = setup.rules.allowance(fig.profile.kind, half=False)
    result = sc.plan_move(
        start,
        legs,
        allowance=full,
        rules=MOVE_RULES,
        final_facing=facing,
        may_end_on=riderless,
        checks=not known_legal,
    )
    half = not smooth and rough_moment(state, fig, start, result)
    allowance = setup.rules.allowance(fig.profile.kind, half=half)
    if half and known_legal:
        # The allowance decides nothing but the problems: the same steps, costs and end.
        result = replace(result, allowance=allowance)
    elif half:
        result = sc.plan_move(
            start,
            legs,
            allowance=allowance,
            rules=MOVE_RULES,
            final_facing=facing,
            may_end_on=riderless,
        )
    end = result.end
    leaves = bool(path) and not setup.table.contains_point(end.at, tolerance=0.0)
    problem: str | None = None
    if result.problem is not None:
        problem = result.problem.reason
        if result.problem.kind == "end_overlap":
            problem += _why_not_ridden(state, fig, result.problem.blocker)
        if half and result.problem.kind == "allowance":
            problem += (
                " (a Half Move Unit: the base is in rough terrain during the move: "
                f"{cite('warbench.rulesets.vsgmr', 'rough')})"
            )
    if problem is None and not known_legal:
        problem = _edge_problem(state, start, result, leaves)
    mounts: str | None = None
    if problem is None and not leaves and riderless:
        on = [m for m in riderless if _overlap(end, state.figs[m].geo)]
        if len(on) > 1:
            problem = f"the move ends on two mounts ({', '.join(on)})"
        elif on:
            mount = state.figs[on[0]].geo
            if not mount.covers(end.at, tolerance=1e-9):
                problem = (
                    f"to ride {on[0]}, end the move with the centre on its base "
                    f"(it ends on the edge of it at {_pt(end.at)})"
                )
            else:
                mounts = on[0]
    return MoveCheck(result, allowance, half, leaves, mounts, problem)


def _why_not_ridden(state: State, fig: Fig, blocker: str | None) -> str:
    """II.2: why a guy ending on a cavalry or vehicle figure does not ride it."""
    other = state.figs.get(blocker or "")
    if other is None or not fig.profile.is_guy or not other.profile.is_mount:
        return ""
    if other.id == fig.mount:
        return f"; to get off {other.id}, end the move clear of its base"
    if other.side != fig.side:
        return (
            f"; {other.id} is {other.side}'s: a guy rides only its own side's cavalry and "
            f"vehicles ({cite_ruling('warbench.rulesets.vsgmr', 7)})"
        )
    if other.rider is not None:
        return f"; {other.id} already carries {other.rider}"
    return ""


def _overlap(a: Figure, b: Figure) -> bool:
    ca, ra = a.solid
    cb, rb = b.solid
    return float(shapely.distance(ca, cb)) < ra + rb - EPS


def distance_points(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


# -- finding things near a place (prefilters: callers test exactly) -------------------------


class _Bodies:
    """Every figure's body (a rider: its mount's) in figure order, as arrays."""

    def __init__(self, state: State) -> None:
        figs = list(state.figs.values())
        self.ids = [f.id for f in figs]
        sides = {s: n for n, s in enumerate(state.setup.sides)}
        n = len(figs)
        self.side = np.array([sides.get(f.side, -1) for f in figs], dtype=np.int64)
        self.active = np.array([f.active for f in figs], dtype=bool)
        self.standing = np.array([f.where == "table" for f in figs], dtype=bool)
        at = [body(state, f) for f in figs]
        self.xy = np.array([(b.x, b.y) for b in at], dtype=np.float64).reshape(n, 2)
        self.radius = np.array([b.base.bounding_radius for b in at], dtype=np.float64)
        self.codes = sides


def _bodies(state: State) -> _Bodies:
    found: _Bodies | None = state.caches.get("bodies")
    if found is None:
        found = _Bodies(state)
        state.caches["bodies"] = found
    return found


def bodies_in_box(state: State, side: str, x: float, y: float, pad: float) -> list[str]:
    """Enemies of ``side`` still in the game whose body's centre is within ``pad`` of
    (x, y) along both axes, in figure order."""
    b = _bodies(state)
    code = b.codes.get(side, -1)
    keep = (
        b.active
        & (b.side != code)
        & (np.abs(b.xy[:, 0] - x) <= pad)
        & (np.abs(b.xy[:, 1] - y) <= pad)
    )
    return [b.ids[i] for i in np.nonzero(keep)[0].tolist()]


def standing_near(state: State, side: str, at: Point, reach: float) -> list[str]:
    """The side's figures standing on the table whose bases may come within ``reach`` of
    ``at`` (by bounding circle, a superset), in figure order."""
    b = _bodies(state)
    code = b.codes.get(side, -1)
    d = np.hypot(b.xy[:, 0] - at[0], b.xy[:, 1] - at[1])
    keep = b.standing & (b.side == code) & (d <= b.radius + reach + 0.01)
    return [b.ids[i] for i in np.nonzero(keep)[0].tolist()]


def features_within(state: State, a: Figure, reach: float) -> list[tuple[float, str]]:
    """Destructible features still standing whose bounding boxes are within ``reach`` of
    the base's (:func:`box_gap`), as (gap, id) sorted; found through an STRtree."""
    destroyed = frozenset(state.destroyed)
    key = ("attack_features", destroyed)
    cache = state.setup.caches
    found: tuple[list[Feature], Any] | None = cache.get(key)
    if found is None:
        setup = state.setup
        feats = [f for f in setup.features if f.id in setup.destructible and f.id not in destroyed]
        tree = shapely.STRtree([f.geometry for f in feats]) if feats else None
        found = (feats, tree)
        if len([k for k in cache if isinstance(k, tuple) and k[0] == "attack_features"]) > 64:
            for k in [k for k in cache if isinstance(k, tuple) and k[0] == "attack_features"]:
                del cache[k]
        cache[key] = found
    feats, tree = found
    if tree is None:
        return []
    xmin, ymin, xmax, ymax = a.bounds
    pad = reach + 1e-6
    near = tree.query(shapely.box(xmin - pad, ymin - pad, xmax + pad, ymax + pad))
    out = []
    for i in near.tolist():
        f = feats[i]
        g = box_gap(a, f)
        if g <= reach:
            out.append((g, f.id))
    out.sort()
    return out


def tasks_near(state: State, a: Figure) -> list[int]:
    """Indices of the tasks whose place may be within reach of the base (by bounding
    boxes, a superset), in task order."""
    setup = state.setup
    key = "task_boxes"
    found: tuple[FloatArray, FloatArray] | None = setup.caches.get(key)
    if found is None:
        boxes = []
        for task in setup.tasks:
            if task.at is not None:
                x, y = task.at
                boxes.append((x, y, x, y, task.reach))
            else:
                f = feature(state, task.feature or "")
                if f is None:  # never filtered out: the rules say why
                    boxes.append((-math.inf, -math.inf, math.inf, math.inf, math.inf))
                else:
                    boxes.append((*f.geometry.bounds, task.reach))
        arr = np.array(boxes, dtype=np.float64).reshape(len(boxes), 5)
        found = (arr[:, :4], arr[:, 4])
        setup.caches[key] = found
    box, reach = found
    xmin, ymin, xmax, ymax = a.bounds
    dx = np.maximum(np.maximum(box[:, 0] - xmax, xmin - box[:, 2]), 0.0)
    dy = np.maximum(np.maximum(box[:, 1] - ymax, ymin - box[:, 3]), 0.0)
    with np.errstate(invalid="ignore"):
        gap = np.hypot(dx, dy)
    keep = ~(gap > reach + 0.01)
    found_idx: list[int] = np.nonzero(keep)[0].tolist()
    return found_idx
