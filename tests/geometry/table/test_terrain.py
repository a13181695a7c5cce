"""Terrain features and the terrain index: validation, areas a base is in, tracks and barriers."""

from __future__ import annotations

import math

import pytest
import shapely

from warbench.geometry.table import (
    Feature,
    Figure,
    RectBase,
    RoundBase,
    TableGeometryError,
    Terrain,
    remains,
)


def square(fid: str, x0: float, y0: float, x1: float, y1: float, **props: object) -> Feature:
    return Feature.polygon(fid, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], **props)


# -- features -----------------------------------------------------------------------------


def test_features_are_polygons_polylines_or_circles():
    wood = Feature.circle("w", (5, 5), 2.0)
    wall = Feature.polyline("wall", [(0, 0), (4, 0), (4, 3)])
    house = square("h", 0, 0, 2, 2)
    assert wood.is_area and house.is_area and not wall.is_area
    assert wood.geometry.area == pytest.approx(3.1416 * 4, rel=0.002)
    assert wall.geometry.length == pytest.approx(7.0)


def test_a_closed_ring_written_out_in_full_is_accepted():
    ring = Feature.polygon("p", [(0, 0), (1, 0), (1, 1), (0, 0)])
    assert len(ring.points) == 3


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Feature.polygon("p", [(0, 0), (1, 0)]), "at least 3 points"),
        (lambda: Feature.polyline("l", [(0, 0)]), "at least 2 points"),
        (lambda: Feature("c", "circle", ((0, 0),)), "positive radius"),
        (
            lambda: Feature.polygon("bow", [(0, 0), (2, 2), (2, 0), (0, 2)]),
            "not valid",
        ),
        (lambda: Feature.polygon("flat", [(0, 0), (1, 0), (2, 0)]), "not valid|no area"),
        (lambda: Feature.polyline("w", [(0, 0), (1, 0)], crossing_cost=1.0), "only for barriers"),
        (lambda: square("s", 0, 0, 1, 1, move_cost=-1.0), "negative"),
        (lambda: square("s", 0, 0, 1, 1, blocks_los="maybe"), "blocks_los"),
        (lambda: Feature("x", "blob", ((0, 0),)), "unknown shape"),  # type: ignore[arg-type]
    ],
)
def test_bad_features_are_refused_with_a_reason(build, message):
    with pytest.raises(TableGeometryError, match=message):
        build()


def test_an_uncrossable_barrier_or_impassable_area_blocks_movement():
    assert Feature.polyline("wall", [(0, 0), (1, 0)], barrier=True).blocks_movement
    fence = Feature.polyline("fence", [(0, 0), (1, 0)], barrier=True, crossing_cost=1.0)
    assert not fence.blocks_movement
    assert square("rock", 0, 0, 1, 1, impassable=True).blocks_movement


# -- the index ----------------------------------------------------------------------------


def test_features_need_unique_ids_and_unknown_ids_are_named():
    with pytest.raises(TableGeometryError, match="two features"):
        Terrain([square("a", 0, 0, 1, 1), square("a", 2, 2, 3, 3)])
    with pytest.raises(TableGeometryError, match="no feature 'b'; known: a"):
        Terrain([square("a", 0, 0, 1, 1)]).feature("b")


def test_a_base_is_under_a_feature_while_any_part_overlaps_it():
    """VSGMR II.2 Rough Terrain: a figure is in rough terrain until completely outside it."""
    terrain = Terrain([square("rough", 0, 0, 10, 10, half_move=True)])
    half_in = Figure("a", 10.2, 5.0, base=RoundBase(1.0))
    out = Figure("b", 10.5, 5.0, base=RoundBase(1.0))  # touching the edge only
    assert [f.id for f in terrain.features_under(half_in)] == ["rough"]
    assert terrain.features_under(out) == ()
    assert [f.id for f in terrain.features_touching(out)] == ["rough"]
    assert terrain.features_touching(out.moved_to((11.0, 5.0))) == ()
    assert [f.id for f in terrain.features_touching(out.moved_to((11.0, 5.0)), 0.6)] == ["rough"]


def test_rectangular_bases_and_points_are_placed_by_their_true_shape():
    terrain = Terrain([Feature.circle("pond", (0, 0), 2.0)])
    jeep = Figure("j", 3.2, 0, facing=0, base=RectBase(width=1.0, depth=2.5))
    assert [f.id for f in terrain.features_under(jeep)] == ["pond"]
    assert terrain.features_under(jeep.turned_to(90)) == ()
    assert [f.id for f in terrain.features_under((1.0, 1.0))] == ["pond"]
    assert terrain.distance_to((5.0, 0.0), "pond") == pytest.approx(3.0, abs=1e-3)


def test_destroyed_features_have_no_effect_but_are_kept():
    """VSGMR III: a destroyed part of a building is removed from the game."""
    terrain = Terrain([square("house", 0, 0, 4, 4, impassable=True, destroyed=True)])
    assert terrain.features_under(Figure("a", 2, 2)) == ()
    assert terrain.feature("house").destroyed
    rebuilt = terrain.replaced(square("house", 0, 0, 4, 4, impassable=True))
    assert [f.id for f in rebuilt.features_under(Figure("a", 2, 2))] == ["house"]


def test_a_track_is_split_into_pieces_costed_by_the_area_it_is_in():
    terrain = Terrain([square("bog", 2, -1, 4, 1, move_cost=2.0)])
    pieces = terrain.track((0.0, 0.0), (6.0, 0.0))
    assert [(p.start, p.end, p.cost, p.features) for p in pieces] == [
        (0.0, 2.0, 1.0, ()),
        (2.0, 4.0, 2.0, ("bog",)),
        (4.0, 6.0, 1.0, ()),
    ]


def test_where_areas_overlap_the_worst_cost_applies():
    terrain = Terrain(
        [square("wood", 0, -1, 4, 1, move_cost=2.0), square("bog", 2, -1, 6, 1, move_cost=3.0)]
    )
    pieces = terrain.track((-1.0, 0.0), (7.0, 0.0))
    costs = [(p.start, p.end, p.cost) for p in pieces]
    assert costs == [
        (0.0, 1.0, 1.0),
        (1.0, 3.0, 2.0),
        (3.0, 5.0, 3.0),  # in both: the bog's 3, not 2 x 3
        (5.0, 7.0, 3.0),
        (7.0, 8.0, 1.0),
    ]
    assert pieces[2].features == ("wood", "bog")


def test_a_cheaper_area_makes_movement_cheaper_where_it_is_alone():
    terrain = Terrain([square("road", 0, -1, 10, 1, move_cost=0.5)])
    assert sum(p.length * p.cost for p in terrain.track((0.0, 0.0), (10.0, 0.0))) == 5.0


def test_lines_have_no_inside_and_cost_nothing_to_travel_along():
    terrain = Terrain([Feature.polyline("stream", [(0, 0), (10, 0)], move_cost=3.0)])
    assert [p.cost for p in terrain.track((0.0, 0.0), (10.0, 0.0))] == [1.0]


def test_crossing_a_barrier_is_charged_each_time_the_centre_reaches_it():
    hedge = Feature.polyline("hedge", [(5, -5), (5, 5)], barrier=True, crossing_cost=1.0)
    terrain = Terrain([hedge])
    assert [(c.feature, c.at, c.cost) for c in terrain.crossings((0.0, 0.0), (10.0, 0.0))] == [
        ("hedge", 5.0, 1.0)
    ]
    assert terrain.crossings((5.0, 0.0), (10.0, 0.0)) == ()  # starting on it: already paid
    assert terrain.crossings((0.0, 0.0), (4.0, 0.0)) == ()


def test_a_thick_barrier_is_charged_once_per_entry():
    wall = square("wall", 4, -5, 5, 5, barrier=True, crossing_cost=2.0)
    terrain = Terrain([wall])
    assert [c.at for c in terrain.crossings((0.0, 0.0), (10.0, 0.0))] == [4.0]


def test_movement_obstacles_are_what_a_base_would_overlap():
    rock = square("rock", 0, 0, 2, 2, impassable=True)
    wall = Feature.polyline("wall", [(5, 0), (5, 5)], barrier=True)
    fence = Feature.polyline("fence", [(8, 0), (8, 5)], barrier=True, crossing_cost=1.0)
    terrain = Terrain([rock, wall, fence])
    assert [f.id for f in terrain.movement_obstacles(*Figure("a", 2.4, 1).solid)] == ["rock"]
    assert terrain.movement_obstacles(*Figure("a", 2.5, 1).solid) == ()  # touching
    assert [f.id for f in terrain.movement_obstacles(*Figure("a", 5.2, 1).solid)] == ["wall"]
    assert terrain.movement_obstacles(*Figure("a", 8.0, 1).solid) == ()


# -- cutting an area out of a feature (remains) ---------------------------------------------
def test_a_lane_through_a_patch_leaves_the_two_sides_and_the_area_is_the_difference() -> None:
    patch = Feature.polygon("p", [(0, 0), (3, 0), (3, 3), (0, 3)], move_cost=2.0, kind="mold")
    lane = shapely.LineString([(-1, 1.5), (4, 1.5)]).buffer(0.5, cap_style="flat")
    pieces = remains(patch, lane)
    assert [p.geometry.area for p in pieces] == [3.0, 3.0]
    assert all(p.id == "p" and p.move_cost == 2.0 and p.kind == "mold" for p in pieces)
    left = shapely.union_all([p.geometry for p in pieces])
    assert left.symmetric_difference(patch.geometry.difference(lane)).area < 1e-12


def test_a_cut_inside_a_feature_leaves_a_hole_that_round_trips() -> None:
    wood = Feature.circle("w", (10, 10), 4.0, blocks_los="beyond")
    (left,) = remains(wood, shapely.Point(10, 10).buffer(1.0))
    assert left.shape == "polygon" and len(left.holes) == 1 and left.radius == 0.0
    assert left.geometry.area == pytest.approx(wood.geometry.area - math.pi, rel=0.01)
    assert Feature.from_dict(left.to_dict()) == left
    assert not Terrain([left]).features_under((10.0, 10.0))  # the hole is open ground
    assert Terrain([left]).features_under((12.5, 10.0))


def test_a_cut_that_misses_keeps_the_feature_and_one_that_covers_it_leaves_nothing() -> None:
    patch = Feature.polygon("p", [(0, 0), (1, 0), (1, 1), (0, 1)])
    assert remains(patch, shapely.box(5, 5, 6, 6)) == [patch]
    assert remains(patch, shapely.box(1, 0, 2, 1)) == [patch]  # touching only
    assert remains(patch, shapely.box(-1, -1, 2, 2)) == []
    assert remains(patch, shapely.box(-1, -1, 2, 0.99), least=0.05) == []  # a crumb


def test_a_cut_line_becomes_polyline_pieces() -> None:
    wall = Feature.polyline("wall", [(0, 0), (10, 0)], barrier=True)
    pieces = remains(wall, shapely.box(4, -1, 6, 1))
    assert [(p.shape, p.geometry.length) for p in pieces] == [("polyline", 4.0)] * 2
