"""Figures and bases: conventions, immutability, distances, contact and arcs of fire."""

from __future__ import annotations

import math

import pytest

from warbench.geometry.table import Figure as F
from warbench.geometry.table import (
    RectBase,
    RoundBase,
    Table,
    TableGeometryError,
    bearing,
    centre_distance,
    edge_distance,
    heading,
    in_arc,
    normalize_angle,
    overlapping,
    silhouette,
    touching,
    turn_angle,
    within,
)

# -- conventions ------------------------------------------------------------------------


def test_facing_zero_is_east_and_angles_grow_counter_clockwise():
    assert heading((0, 0), (1, 0)) == 0.0
    assert heading((0, 0), (0, 1)) == 90.0
    assert heading((0, 0), (-1, 0)) == 180.0
    assert heading((0, 0), (0, -1)) == 270.0


def test_facings_are_normalised_and_turns_signed_positive_left():
    assert normalize_angle(-45.0) == 315.0
    assert normalize_angle(720.0) == 0.0
    assert F("a", 0, 0, facing=-90).facing == 270.0
    assert turn_angle(0.0, 90.0) == 90.0  # a left turn
    assert turn_angle(0.0, 270.0) == -90.0  # a right turn
    assert turn_angle(10.0, 190.0) == 180.0


def test_the_table_holds_points_on_its_edges_and_refuses_a_bad_size():
    t = Table(72, 48)
    assert t.contains_point((0.0, 48.0))
    assert not t.contains_point((72.1, 1.0))
    with pytest.raises(TableGeometryError, match="width"):
        Table(0, 48)


# -- figures are values -------------------------------------------------------------------


def test_moving_a_figure_returns_a_new_one_and_leaves_the_old_unchanged():
    a = F("a", 1.0, 2.0, 90.0)
    b = a.moved_to((3.0, 4.0))
    assert (a.x, a.y, a.facing) == (1.0, 2.0, 90.0)
    assert (b.x, b.y, b.facing) == (3.0, 4.0, 90.0)
    assert b.turned_to(45.0).facing == 45.0
    with pytest.raises(AttributeError):
        a.x = 5.0  # type: ignore[misc]


def test_figures_are_hashable_and_equal_by_value():
    assert F("a", 1, 2) == F("a", 1.0, 2.0)
    assert len({F("a", 1, 2), F("a", 1, 2), F("b", 1, 2)}) == 2


def test_bad_bases_and_positions_are_refused():
    with pytest.raises(TableGeometryError, match="diameter"):
        RoundBase(0)
    with pytest.raises(TableGeometryError, match="width"):
        RectBase(-1, 2)
    with pytest.raises(TableGeometryError, match="x must be a number"):
        F("a", float("nan"), 0)


def test_a_rect_base_has_its_width_across_the_facing_and_depth_along_it():
    tank = F("t", 10.0, 10.0, facing=90.0, base=RectBase(width=2.0, depth=4.0))
    xmin, ymin, xmax, ymax = tank.bounds
    assert (xmax - xmin, ymax - ymin) == pytest.approx((2.0, 4.0))
    assert tank.covers((10.0, 11.9)) and not tank.covers((11.1, 10.0))


def test_a_round_outline_is_a_polygon_inside_its_circle():
    a = F("a", 5.0, 5.0, base=RoundBase(2.0))
    assert a.outline.area == pytest.approx(math.pi, rel=0.01)
    assert a.outline.area < math.pi


# -- distances and contact ----------------------------------------------------------------


def test_centre_and_edge_distance_of_round_bases():
    a = F("a", 0, 0, base=RoundBase(1.0))
    b = F("b", 3, 4, base=RoundBase(2.0))
    assert centre_distance(a, b) == 5.0
    assert edge_distance(a, b) == pytest.approx(5.0 - 0.5 - 1.0)


def test_edge_distance_of_rectangles_and_points_is_outline_to_outline():
    a = F("a", 0, 0, base=RectBase(2.0, 2.0))
    b = F("b", 5, 0, base=RectBase(2.0, 4.0))  # facing 0: depth 4 along x
    assert edge_distance(a, b) == pytest.approx(5.0 - 1.0 - 2.0)
    assert edge_distance(a, (3.0, 0.0)) == pytest.approx(2.0)
    assert edge_distance((0.0, 0.0), (3.0, 4.0)) == 5.0
    r = F("r", 0, 5, base=RoundBase(1.0))
    assert edge_distance(a, r) == pytest.approx(5.0 - 1.0 - 0.5)


def test_overlapping_bases_are_at_edge_distance_zero():
    a = F("a", 0, 0)
    assert edge_distance(a, F("b", 0.5, 0)) == 0.0


def test_bases_placed_exactly_side_by_side_touch_but_do_not_overlap():
    """VSGMR II.4: hand-to-hand needs the target to be touching."""
    a = F("a", 0, 0)
    b = F("b", 1.0, 0)
    assert touching(a, b)
    assert not overlapping(a, b)
    assert overlapping(a, F("c", 0.99, 0))
    assert not touching(a, F("d", 1.01, 0))
    s1 = F("s1", 0, 0, base=RectBase(1, 1))
    s2 = F("s2", 1.0, 0, base=RectBase(1, 1))
    assert touching(s1, s2) and not overlapping(s1, s2)


def test_within_measures_edge_to_edge_or_centre_to_centre():
    """VSGMR II.3: a distance attack reaches 12"; MGV 5.0 and IE 5.0 measure centre to centre."""
    a = F("a", 0, 0)
    b = F("b", 12.8, 0)
    assert within(a, b, 12.0)  # edge gap 11.8
    assert not within(a, b, 12.0, measure="centre")


# -- arcs of fire -------------------------------------------------------------------------


def test_mgv_kinetic_arc_is_thirty_degrees_either_side_of_the_centreline():
    """MGV 5.0 Arcs of fire: Type K and P fire within 30 degrees of the centreline."""
    firer = F("f", 0, 0, facing=0)
    assert in_arc(firer, (10.0, 10.0 * math.tan(math.radians(29.9))), 30)
    assert in_arc(firer, (10.0, 10.0 * math.tan(math.radians(30.0))), 30)
    assert not in_arc(firer, (10.0, 10.0 * math.tan(math.radians(30.1))), 30)
    assert not in_arc(firer, (-10.0, 0.0), 30)


def test_invisible_enemy_arc_is_twenty_two_and_a_half_degrees():
    """Invisible Enemy 5.0 Arcs of fire: Type K and P within 22.5 degrees of the centreline."""
    firer = F("f", 0, 0, facing=90)
    assert in_arc(firer, (10.0 * math.tan(math.radians(22)), 10.0), 22.5)
    assert not in_arc(firer, (10.0 * math.tan(math.radians(23)), 10.0), 22.5)


def test_arcs_ask_about_the_centre_any_part_or_all_of_the_target_base():
    firer = F("f", 0, 0, facing=0)
    # centre at 33.7 degrees off the facing; the base spans about +-2.4 degrees
    target = F("t", 10, 6.67, base=RoundBase(1.0))
    assert not in_arc(firer, target, 32, part="centre")
    assert in_arc(firer, target, 32, part="any")
    assert not in_arc(firer, target, 32, part="all")
    assert in_arc(firer, target, 37, part="all")


def test_arcs_wrap_around_behind_the_figure():
    firer = F("f", 0, 0, facing=180)
    assert in_arc(firer, (-10.0, 0.5), 10)
    assert in_arc(firer, (-10.0, -0.5), 10)
    assert abs(bearing(firer, (-10.0, -0.5))) < 10


def test_a_target_over_the_apex_is_in_any_arc_but_not_wholly_in_a_narrow_one():
    firer = F("f", 0, 0)
    big = F("t", 0.3, 0, base=RoundBase(3.0))
    assert in_arc(firer, big, 10, part="any")
    assert not in_arc(firer, big, 10, part="all")
    assert silhouette(firer.at, big) is None


def test_silhouette_of_a_round_base_is_its_tangent_angle():
    direction, lo, hi = silhouette((0.0, 0.0), F("t", 10, 0, base=RoundBase(2.0)))  # type: ignore[misc]
    assert direction == 0.0
    assert hi == pytest.approx(math.asin(0.1)) and lo == pytest.approx(-math.asin(0.1))
