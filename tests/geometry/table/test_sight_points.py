"""Sight to many points at once (``Scene.sight_points``) gives each point's own answer.

``compute_sight`` to a point is the batch of one, so these tests check that a
batch never mixes its targets (every pair of target and feature judged alone)
and, on a hand-made table, that the answers are the right ones: a wall blocks,
a hedge that blocks only beyond reach screens a target touching it, a wood is
judged by how deep the line goes into it, a figure in the way blocks when
figures block sight.
"""

from __future__ import annotations

import math

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.geometry.table import Feature, Figure, RectBase, RoundBase, Scene, Table
from warbench.geometry.table.sight import _Looking

TABLE = Table(40, 40)
coord = st.floats(min_value=2.0, max_value=38.0, allow_nan=False)
size = st.floats(min_value=0.5, max_value=3.0, allow_nan=False)


@st.composite
def features(draw: st.DrawFn, fid: str) -> Feature:
    kind = draw(st.sampled_from(["rect", "line", "circle", "wood"]))
    los = draw(st.sampled_from(["yes", "beyond", "no"]))
    x, y = draw(coord), draw(coord)
    if kind == "circle":
        return Feature.circle(fid, (x, y), draw(size), blocks_los=los, beyond_reach=1.0)
    if kind == "line":
        # The second point is off the first, so the line is never a single point.
        pts = [(x, y), (x + draw(size), y - draw(size)), (draw(coord), draw(coord))]
        return Feature.polyline(fid, pts, blocks_los=los, beyond_reach=1.0)
    w, h = draw(size), draw(size)
    corners = [(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)]
    if kind == "wood":
        return Feature.polygon(fid, corners, blocks_los="beyond", see_depth=1.0)
    return Feature.polygon(fid, corners, blocks_los=los, beyond_reach=1.0)


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    n = draw(st.integers(min_value=0, max_value=6))
    feats = [draw(features(f"x{i}")) for i in range(n)]
    figs = [
        Figure(f"f{i}", draw(coord), draw(coord), 0.0, RoundBase(draw(size)))
        for i in range(draw(st.integers(min_value=0, max_value=3)))
    ]
    return Scene(TABLE, feats, figs)


eyes = st.one_of(
    st.tuples(coord, coord),
    st.builds(lambda x, y: Figure("eye", x, y, 30.0, RectBase(1.0, 2.0)), coord, coord),
)
"""An eye: a point, or a figure's base (which the sight lines leave from its centre)."""


@settings(deadline=None, max_examples=80)
@given(
    scenes(),
    eyes,
    st.lists(st.tuples(coord, coord), min_size=1, max_size=12),
    st.booleans(),
)
def test_a_batch_gives_each_point_its_own_answer(scene, eye, targets, figures_block):
    if isinstance(eye, Figure):
        scene = scene.with_figures([eye])
    batch = scene.sight_points(eye, targets, figures_block=figures_block)
    one_by_one = [scene.sight(eye, q, figures_block=figures_block) for q in targets]
    assert batch == one_by_one


def test_the_answers_on_a_known_table():
    wall = Feature.polyline("wall", [(10.0, 0.0), (10.0, 15.0)], blocks_los="yes")
    hedge = Feature.polyline(
        "hedge", [(20.0, 0.0), (20.0, 40.0)], blocks_los="beyond", beyond_reach=1.0
    )
    wood = Feature.polygon(
        "wood",
        [(4.0, 30.0), (8.0, 30.0), (8.0, 34.0), (4.0, 34.0)],
        blocks_los="beyond",
        see_depth=2.0,
    )
    trooper = Figure("t", 15.0, 38.0, 0.0, RoundBase(1.0))
    scene = Scene(TABLE, [wall, hedge, wood], [trooper])
    eye = (2.0, 10.0)
    targets = [
        (15.0, 10.0),  # behind the wall
        (15.0, 30.0),  # past the wall's end: clear
        (20.5, 25.0),  # touching the hedge from beyond: screened, not blocked
        (30.0, 30.0),  # far beyond the hedge: blocked by it
        (5.0, 31.0),  # inside the wood, not deep: screened
        (6.0, 38.0),  # through the wood, too deep: blocked
        (2.0, 10.0),  # the eye itself
        (30.0, 38.0),  # past the trooper and the hedge
    ]
    got = scene.sight_points(eye, targets, figures_block=False)
    assert [s.clear for s in got] == [False, True, True, False, True, False, True, False]
    assert got[0].blocked_by == ("wall",)
    assert got[2].cover_from == ("hedge",) and not got[2].blocked_by
    assert got[3].blocked_by == ("hedge",)
    assert got[7].blocked_by == ("hedge",)
    assert got[5].blocked_by == ("wood",)
    beside = scene.sight_points((15.0, 30.0), [(15.0, 39.5), (15.0, 32.0)], figures_block=True)
    assert beside[0].blocked_by == ("t",) and beside[1].clear
    assert math.isclose(got[1].hidden, 0.0)


@settings(deadline=None, max_examples=150)
@given(
    scenes(),
    eyes,
    st.lists(st.tuples(coord, coord), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=3),
)
def test_one_point_found_without_arrays_is_the_answer_the_arrays_give(scene, eye, targets, corner):
    """A single point with figures not blocking may be answered in plain floats
    (``_Looking._clear_alone``); the answer is the one the vectorised pass gives it
    (a batch of two goes that way), on points in the open and on the features' own
    corners and edges, where a line only grazes."""
    if isinstance(eye, Figure):
        scene = scene.with_figures([eye])
    edges: list[tuple[float, float]] = []
    for f in scene.terrain.active:
        xy = shapely.get_coordinates(f.geometry).tolist()
        edges += [tuple(p) for p in xy[corner % len(xy) :: 2]]
        (near,) = shapely.get_coordinates(
            shapely.shortest_line(f.geometry, shapely.Point(targets[0]))
        )[:1].tolist()
        edges.append(tuple(near))
    place = eye.at if isinstance(eye, Figure) else eye
    for q in [*targets, *edges]:
        if q == place:
            continue
        looking = _Looking(scene.terrain, scene.index, eye, q, place, 0.0, {"eye"})
        (alone,) = looking.points([q], figures_block=False)
        assert alone == looking.points([q, q], figures_block=False)[0]
