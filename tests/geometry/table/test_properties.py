"""Property tests (hypothesis): symmetry, triangle inequality, monotonicity, invariance."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from warbench.geometry.table import (
    Feature,
    Figure,
    Leg,
    MoveRules,
    RectBase,
    RoundBase,
    Scene,
    Table,
    TurningTable,
    centre_distance,
    edge_distance,
    overlapping,
    touching,
)
from warbench.geometry.table.figures import Base

TABLE = Table(40, 40)
MGV = MoveRules(turning=TurningTable.from_pairs([(45, 0.5), (90, 1.0), (135, 1.5), (180, 2.0)]))

coord = st.floats(min_value=2.0, max_value=38.0, allow_nan=False)
angle = st.floats(min_value=0.0, max_value=359.9, allow_nan=False)
size = st.floats(min_value=0.5, max_value=3.0, allow_nan=False)
bases: st.SearchStrategy[Base] = st.one_of(
    st.builds(RoundBase, size), st.builds(RectBase, size, size)
)
points = st.tuples(coord, coord)


@st.composite
def figures(draw: st.DrawFn, fid: str = "f") -> Figure:
    return Figure(fid, draw(coord), draw(coord), draw(angle), draw(bases))


@st.composite
def features(draw: st.DrawFn, fid: str, circles: bool = True) -> Feature:
    """A rectangle (any rotation), a two-segment polyline, or (optionally) a circle."""
    kind = draw(st.sampled_from(["rect", "line", "circle"] if circles else ["rect", "line"]))
    los = draw(st.sampled_from(["yes", "beyond", "no"]))
    cost = draw(st.sampled_from([1.0, 2.0, 3.0]))
    x, y = draw(coord), draw(coord)
    if kind == "circle":
        return Feature.circle(fid, (x, y), draw(size), blocks_los=los, move_cost=cost)
    if kind == "line":
        pts = [(x, y), (draw(coord), draw(coord)), (draw(coord), draw(coord))]
        assume(pts[0] != pts[1] and pts[1] != pts[2])
        return Feature.polyline(fid, pts, blocks_los=los)
    w, h, a = draw(size), draw(size), math.radians(draw(angle))
    c, s = math.cos(a), math.sin(a)
    corners = [(-w, -h), (w, -h), (w, h), (-w, h)]
    return Feature.polygon(
        fid,
        [(x + u * c - v * s, y + u * s + v * c) for u, v in corners],
        blocks_los=los,
        move_cost=cost,
    )


@st.composite
def layouts(draw: st.DrawFn, circles: bool = True) -> list[Feature]:
    n = draw(st.integers(min_value=0, max_value=6))
    return [draw(features(f"x{i}", circles)) for i in range(n)]


def rigid(
    point: tuple[float, float], turn: float, shift: tuple[float, float]
) -> tuple[float, float]:
    """Rotate ``point`` by ``turn`` degrees about the table centre, then shift it."""
    a = math.radians(turn)
    x, y = point[0] - 20.0, point[1] - 20.0
    return (
        x * math.cos(a) - y * math.sin(a) + 20.0 + shift[0],
        x * math.sin(a) + y * math.cos(a) + 20.0 + shift[1],
    )


def moved_figure(f: Figure, turn: float, shift: tuple[float, float]) -> Figure:
    return f.moved_to(rigid(f.at, turn, shift), f.facing + turn)


def moved_feature(f: Feature, turn: float, shift: tuple[float, float]) -> Feature:
    return Feature(f.id, f.shape, tuple(rigid(p, turn, shift) for p in f.points), radius=f.radius,
                   blocks_los=f.blocks_los, move_cost=f.move_cost)  # fmt: skip


# -- distances ----------------------------------------------------------------------------


@given(figures("a"), figures("b"))
def test_distances_are_symmetric_and_edge_is_at_most_centre(a, b):
    assert centre_distance(a, b) == centre_distance(b, a)
    assert math.isclose(edge_distance(a, b), edge_distance(b, a), abs_tol=1e-9)
    assert 0.0 <= edge_distance(a, b) <= centre_distance(a, b)
    assert touching(a, b) == touching(b, a)
    assert overlapping(a, b) == overlapping(b, a)
    assert edge_distance(a, a) == 0.0


@given(figures("a"), figures("b"), figures("c"))
def test_distances_obey_the_triangle_inequality(a, b, c):
    assert centre_distance(a, c) <= centre_distance(a, b) + centre_distance(b, c) + 1e-9
    # edge to edge, going round b may cost up to b's own width
    detour = edge_distance(a, b) + 2 * b.base.bounding_radius + edge_distance(b, c)
    assert edge_distance(a, c) <= detour + 1e-9


@given(figures("a"), figures("b"), angle, points)
def test_distances_are_invariant_under_rotation_and_translation(a, b, turn, shift):
    a2, b2 = moved_figure(a, turn, shift), moved_figure(b, turn, shift)
    assert math.isclose(centre_distance(a, b), centre_distance(a2, b2), abs_tol=1e-9)
    assert math.isclose(edge_distance(a, b), edge_distance(a2, b2), abs_tol=1e-7)


# -- line of sight ------------------------------------------------------------------------


@settings(deadline=None)
@given(layouts(), points, points)
def test_sight_between_points_is_symmetric(layout, p, q):
    scene = Scene(TABLE, layout)
    there, back = scene.sight(p, q), scene.sight(q, p)
    assert there.clear == back.clear
    assert there.blocked_by == back.blocked_by


@settings(deadline=None, max_examples=60)
@given(layouts(), figures("eye"), figures("target"), features("new"))
def test_adding_a_blocking_feature_never_makes_sight_clearer(layout, eye, target, extra):
    extra = Feature(extra.id, extra.shape, extra.points, radius=extra.radius, blocks_los="yes")
    before = Scene(TABLE, layout, [eye, target]).sight("eye", "target")
    after = Scene(TABLE, [*layout, extra], [eye, target]).sight("eye", "target")
    assert after.hidden >= before.hidden - 1e-9
    assert after.obscured >= before.obscured - 1e-9
    assert after.clear <= before.clear or after.hidden <= before.hidden + 1e-9


@settings(deadline=None, max_examples=60)
@given(layouts(), points, points, features("new"))
def test_adding_a_blocking_feature_never_opens_a_line_between_points(layout, p, q, extra):
    extra = Feature(extra.id, extra.shape, extra.points, radius=extra.radius, blocks_los="yes")
    before = Scene(TABLE, layout).sight(p, q)
    after = Scene(TABLE, [*layout, extra]).sight(p, q)
    assert before.clear or not after.clear


@settings(deadline=None, max_examples=60)
@given(layouts(), figures("eye"), figures("target"), figures("other"))
def test_hidden_fractions_are_consistent(layout, eye, target, other):
    s = Scene(TABLE, layout, [eye, target, other]).sight("eye", "target")
    assert 0.0 <= s.hidden_by_features <= s.hidden <= 1.0
    assert s.hidden_by_features <= s.obscured + 1e-9 and s.obscured <= 1.0
    assert s.clear == (s.hidden < 1.0 - 1e-9)
    if s.centre_clear:
        assert s.clear


@settings(deadline=None, max_examples=60)
@given(layouts(circles=False), figures("eye"), figures("target"), angle, points)
def test_sight_is_invariant_under_rotation_and_translation(layout, eye, target, turn, shift):
    before = Scene(TABLE, layout, [eye, target]).sight("eye", "target")
    moved = [moved_feature(f, turn, shift) for f in layout]
    after = Scene(TABLE, moved, [moved_figure(eye, turn, shift), moved_figure(target, turn, shift)])
    again = after.sight("eye", "target")
    assert math.isclose(before.hidden, again.hidden, abs_tol=1e-6)
    assert math.isclose(before.obscured, again.obscured, abs_tol=1e-6)
    assert before.blocked_by == again.blocked_by


# -- movement -----------------------------------------------------------------------------


@st.composite
def paths(draw: st.DrawFn) -> list[tuple[float, float]]:
    return draw(st.lists(points, min_size=1, max_size=4))


@settings(deadline=None, max_examples=80)
@given(layouts(), figures("m"), paths(), points)
def test_a_longer_path_never_costs_less(layout, mover, path, extra):
    scene = Scene(TABLE, layout)
    short = scene.plan_move(mover, path, allowance=100.0, rules=MGV)
    longer = scene.plan_move(mover, [*path, extra], allowance=100.0, rules=MGV)
    assert longer.cost >= short.cost - 1e-9


@settings(deadline=None, max_examples=80)
@given(layouts(), figures("m"), points, st.floats(min_value=0.1, max_value=0.9))
def test_stopping_short_along_a_leg_never_costs_more(layout, mover, to, share):
    assume(to != mover.at)
    part = (mover.x + share * (to[0] - mover.x), mover.y + share * (to[1] - mover.y))
    scene = Scene(TABLE, layout)
    assert (
        scene.plan_move(mover, [part], allowance=100.0, rules=MGV).cost
        <= scene.plan_move(mover, [to], allowance=100.0, rules=MGV).cost + 1e-9
    )


@settings(deadline=None, max_examples=80)
@given(
    layouts(),
    st.lists(figures("other"), max_size=3),
    figures("m"),
    paths(),
    st.floats(min_value=0.0, max_value=30.0),
    st.floats(min_value=0.0, max_value=30.0),
)
def test_a_larger_allowance_never_makes_a_legal_path_illegal(layout, others, mover, path, a, b):
    crowd = [Figure(f"o{i}", f.x, f.y, f.facing, f.base) for i, f in enumerate(others)]
    scene = Scene(TABLE, layout, crowd)
    small, large = min(a, b), max(a, b)
    if scene.plan_move(mover, path, allowance=small, rules=MGV).legal:
        assert scene.plan_move(mover, path, allowance=large, rules=MGV).legal


@settings(deadline=None, max_examples=60)
@given(layouts(circles=False), figures("m"), paths(), angle, points)
def test_move_costs_are_invariant_under_rotation_and_translation(layout, mover, path, turn, shift):
    """Away from the table's edges (the table itself does not turn)."""

    def placed(turn: float, shift: tuple[float, float]) -> tuple[Scene, Figure, list[Leg]]:
        far = (shift[0] + 80.0, shift[1] + 80.0)
        scene = Scene(Table(200, 200), [moved_feature(f, turn, far) for f in layout])
        return scene, moved_figure(mover, turn, far), [Leg(rigid(p, turn, far)) for p in path]

    scene, start, legs = placed(0.0, (0.0, 0.0))
    before = scene.plan_move(start, legs, allowance=100.0, rules=MGV)
    scene, start, legs = placed(turn, shift)
    after = scene.plan_move(start, legs, allowance=100.0, rules=MGV)
    assert math.isclose(before.cost, after.cost, abs_tol=1e-6)
    assert (before.problem is None) == (after.problem is None)


@settings(deadline=None, max_examples=60)
@given(layouts(), figures("m"), points, st.floats(min_value=0.0, max_value=20.0))
def test_reach_along_never_overspends_and_its_end_is_a_legal_stop(layout, mover, to, allowance):
    scene = Scene(TABLE, layout)
    reach = scene.reach_along(mover, to, allowance, rules=MGV)
    assert reach.cost <= allowance + 1e-6 or reach.distance == 0.0
    if reach.distance > 0.0:
        check = scene.plan_move(mover, [reach.figure.at], allowance=allowance + 1e-6, rules=MGV)
        assert check.legal, check.problem
