"""Movement: legs and turns, terrain and turning costs, the allowance, and legality."""

from __future__ import annotations

import copy
import math
import pickle
import random

import pytest
import shapely

from warbench.geometry.table import (
    FREE_TURNS,
    Feature,
    Figure,
    Leg,
    MoveProblem,
    MoveRules,
    RectBase,
    RoundBase,
    Scene,
    Table,
    TableGeometryError,
    TurningTable,
)
from warbench.geometry.table.core import EPS, boundary_edges
from warbench.geometry.table.movement import _Contact
from warbench.geometry.table.sweep import _first_within, first_contact, swept


def square(fid: str, x0: float, y0: float, x1: float, y1: float, **props: object) -> Feature:
    return Feature.polygon(fid, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], **props)


def at_angle(start: tuple[float, float], heading: float, length: float) -> tuple[float, float]:
    a = math.radians(heading)
    return (start[0] + length * math.cos(a), start[1] + length * math.sin(a))


# -- turning tables -----------------------------------------------------------------------


def test_mgv_turns_cost_half_an_inch_per_45_degrees_or_part(mgv_turning):
    """MGV 4.0: each 45 degrees of facing change (and each increment thereafter) costs 1/2";
    90 degrees costs 1", a full 180 degree reversal 2"."""
    assert mgv_turning.cost(0.0) == 0.0
    assert mgv_turning.cost(10.0) == 0.5
    assert mgv_turning.cost(45.0) == 0.5
    assert mgv_turning.cost(45.3) == 0.5  # within half a degree: a typed point's rounding
    assert mgv_turning.cost(45.5) == 1.0
    assert mgv_turning.cost(-90.0) == 1.0
    assert mgv_turning.cost(180.0) == 2.0


def test_invisible_enemy_turns_under_45_degrees_are_free(ie_turning):
    """Invisible Enemy 4.2 and its Facing Changes table: <45 free, 45-90 1", 91-180 2"."""
    assert ie_turning.cost(44.9) == 0.0
    assert ie_turning.cost(45.0) == 1.0
    assert ie_turning.cost(90.0) == 1.0
    assert ie_turning.cost(91.0) == 2.0
    assert ie_turning.cost(180.0) == 2.0


def test_a_turn_beyond_the_last_band_is_refused():
    table = TurningTable.from_pairs([(90, 1.0)])
    assert table.cost(120) is None
    scene = Scene(Table(20, 20))
    out = scene.plan_move(
        Figure("a", 5, 5), [(4.0, 5.0)], allowance=10, rules=MoveRules(turning=table)
    )
    assert not out.legal and out.problem is not None and out.problem.kind == "turn"
    assert "more than the turning table allows" in out.problem.reason


def test_turning_bands_must_be_in_order_and_round_trip_as_lists(ie_turning):
    with pytest.raises(TableGeometryError):
        TurningTable.from_pairs([(90, 1.0), (45, 0.5)])
    assert TurningTable.from_list(ie_turning.to_list()) == ie_turning
    assert ie_turning.to_list()[0] == [45.0, 0.0, False]


def test_a_function_can_stand_for_the_turning_table():
    scene = Scene(Table(20, 20))
    rules = MoveRules(turning=lambda angle: angle / 90.0)
    out = scene.plan_move(Figure("a", 5, 5), [(5.0, 8.0)], allowance=10, rules=rules)
    assert out.turns[0].cost == pytest.approx(1.0)


# -- MGV Figure 1 -------------------------------------------------------------------------


@pytest.mark.parametrize("second_turn", [90.0, 60.0])
def test_mgv_figure_1_leaves_half_an_inch_of_an_eight_inch_allowance(mgv_turning, second_turn):
    """MGV 1.6 Figure 1 / 4.0: 2" forward, a right turn of up to 45 degrees for 1/2", 4"
    forward, a right turn of more than 45 but up to 90 degrees for 1": 1/2" of 8" is left."""
    whiptail = Figure("L63", 10.0, 10.0, facing=90.0, base=RectBase(1.0, 1.5))
    first = at_angle(whiptail.at, 90.0, 2.0)
    second = at_angle(first, 45.0, 4.0)
    scene = Scene(Table(48, 48))
    out = scene.plan_move(
        whiptail,
        [first, second],
        allowance=8.0,
        rules=MoveRules(turning=mgv_turning),
        final_facing=45.0 - second_turn,
    )
    assert out.legal, out.problem
    assert [type(s).__name__ for s in out.steps] == ["LegStep", "TurnStep", "LegStep", "TurnStep"]
    assert [s.cost for s in out.steps] == pytest.approx([2.0, 0.5, 4.0, 1.0])
    assert [t.angle for t in out.turns] == pytest.approx([-45.0, -second_turn])
    assert out.remaining == pytest.approx(0.5)
    assert out.end.facing == pytest.approx((45.0 - second_turn) % 360)


def test_the_first_leg_turns_from_the_starting_facing(mgv_turning):
    scene = Scene(Table(48, 48))
    out = scene.plan_move(
        Figure("a", 10, 10, facing=0.0),
        [(10.0, 14.0)],
        allowance=8.0,
        rules=MoveRules(turning=mgv_turning),
    )
    assert [s.cost for s in out.steps] == pytest.approx([1.0, 4.0])
    assert out.turns[0].angle == pytest.approx(90.0)


def test_vsgmr_figures_turn_freely_and_face_any_way_at_the_end():
    """VSGMR II.2: a figure may turn whenever it likes and end facing in any direction."""
    scene = Scene(Table(48, 48))
    out = scene.plan_move(
        Figure("g", 10, 10),
        [(12.0, 10.0), (12.0, 13.0), (10.0, 13.0)],
        allowance=7.0,
        rules=MoveRules(turning=FREE_TURNS),
        final_facing=200.0,
    )
    assert out.legal
    assert [t.cost for t in out.turns] == [0.0, 0.0, 0.0]
    assert out.cost == pytest.approx(7.0) and out.end.facing == 200.0


def test_a_move_within_the_allowance_is_legal_and_one_beyond_says_where_it_runs_out():
    scene = Scene(Table(48, 48))
    ok = scene.plan_move(Figure("g", 10, 10), [(16.0, 10.0)], allowance=6.0)
    assert ok.legal and ok.remaining == pytest.approx(0.0)
    too_far = scene.plan_move(Figure("g", 10, 10), [(13.0, 10.0), (13.0, 14.0)], allowance=6.0)
    assert too_far.problem is not None and too_far.problem.kind == "allowance"
    assert too_far.problem.at == pytest.approx((13.0, 13.0))
    assert '3.00" into leg' in too_far.problem.reason
    assert too_far.remaining == pytest.approx(-1.0)


# -- terrain costs ------------------------------------------------------------------------


def test_a_leg_costs_its_length_inside_each_area_times_the_areas_cost():
    """Invisible Enemy 4.4: more difficult terrain may cost 2" for each inch moved, and an
    obstacle less than an inch deep costs proportionately less."""
    mold = square("mold", 12, 0, 12.5, 20, move_cost=2.0)
    slime = square("slime", 14, 0, 16, 20, move_cost=3.0)
    scene = Scene(Table(48, 48), [mold, slime])
    out = scene.plan_move(Figure("m", 10, 10), [(18.0, 10.0)], allowance=20.0)
    leg = out.legs[0]
    assert leg.cost == pytest.approx(2 + 0.5 * 2 + 1.5 + 2 * 3 + 2)
    assert [p.features for p in leg.pieces] == [(), ("mold",), (), ("slime",), ()]


def test_direction_costs_and_terrain_costs_do_not_multiply():
    """Invisible Enemy 4.4: reverse costs 2"/inch, sideways 3"; the worst rate applies."""

    def direction(drift: float) -> float | None:
        if drift <= 1e-6:
            return 1.0
        if drift >= 179.999:
            return 2.0
        if abs(drift - 90.0) < 1e-6:
            return 3.0
        return None

    rules = MoveRules(direction_cost=direction)
    bog = square("bog", 8, 0, 10, 20, move_cost=2.5)
    scene = Scene(Table(48, 48), [bog])
    start = Figure("m", 12, 10, facing=0.0)
    back = scene.plan_move(start, [Leg((6.0, 10.0), facing=0.0)], allowance=20.0, rules=rules)
    assert back.legs[0].drift == pytest.approx(180.0)
    assert back.cost == pytest.approx(2 * 2 + 2 * 2.5 + 2 * 2)
    side = scene.plan_move(start, [Leg((12.0, 13.0), facing=0.0)], allowance=20.0, rules=rules)
    assert side.cost == pytest.approx(9.0)
    slant = scene.plan_move(start, [Leg((15.0, 13.0), facing=0.0)], allowance=20.0, rules=rules)
    assert slant.problem is not None and slant.problem.kind == "direction"


def test_a_leg_to_where_the_base_is_just_turns_it_in_place(mgv_turning):
    scene = Scene(Table(48, 48))
    out = scene.plan_move(
        Figure("m", 10, 10, facing=0.0),
        [Leg((10.0, 10.0), facing=180.0)],
        allowance=8.0,
        rules=MoveRules(turning=mgv_turning),
    )
    assert out.legs == () and [t.cost for t in out.turns] == [2.0]
    assert out.end.facing == 180.0


def test_crossing_a_crossable_barrier_costs_extra():
    hedge = Feature.polyline("hedge", [(12, 0), (12, 20)], barrier=True, crossing_cost=1.5)
    scene = Scene(Table(48, 48), [hedge])
    out = scene.plan_move(Figure("c", 10, 10), [(14.0, 10.0)], allowance=6.0)
    assert out.legal and out.cost == pytest.approx(5.5)
    assert [c.feature for c in out.legs[0].crossings] == ["hedge"]


# -- legality -----------------------------------------------------------------------------


def test_a_figure_cannot_move_through_a_barrier():
    """VSGMR II.2: walls, fences and similar barriers stop a figure from passing."""
    stone = Feature.polyline("stone", [(12, 0), (12, 20)], kind="wall", barrier=True)
    scene = Scene(Table(48, 48), [stone])
    out = scene.plan_move(Figure("g", 10, 10), [(14.0, 10.0)], allowance=6.0)
    assert out.problem is not None and out.problem.kind == "barrier"
    assert out.problem.blocker == "stone"
    assert out.problem.at == pytest.approx((11.5, 10.0), abs=1e-6)
    assert "wall 'stone'" in out.problem.reason
    assert scene.plan_move(Figure("g", 10, 10), [(11.5, 10.0)], allowance=6.0).legal


def test_no_part_of_a_base_may_enter_impassable_terrain():
    """MGV 1.4 / Invisible Enemy 1.5: rock, shrapnel and fungus towers are impassable."""
    rock = square("rock", 12, 10.4, 14, 14, impassable=True)
    scene = Scene(Table(48, 48), [rock])
    clip = scene.plan_move(Figure("m", 10, 10), [(16.0, 10.0)], allowance=8.0)
    assert clip.problem is not None and clip.problem.kind == "impassable"
    assert clip.problem.at[0] == pytest.approx(12.0 - math.sqrt(0.5**2 - 0.4**2))
    clear = scene.plan_move(Figure("m", 10, 9.9), [(16.0, 9.9)], allowance=8.0)
    assert clear.legal  # the base's edge runs along the rock's face


def test_the_base_must_stay_on_the_table_unless_the_rules_let_it_leave():
    """VSGMR II.2: once off the table edge, a figure is out for good."""
    scene = Scene(Table(20, 20))
    out = scene.plan_move(Figure("g", 17, 10), [(21.0, 10.0)], allowance=6.0)
    assert out.problem is not None and out.problem.kind == "table_edge"
    assert out.problem.at == pytest.approx((19.5, 10.0))
    gone = scene.plan_move(
        Figure("g", 17, 10), [(21.0, 10.0)], allowance=6.0, rules=MoveRules(may_leave_table=True)
    )
    assert gone.legal and gone.off_table


def test_bases_block_unless_the_rules_let_a_figure_pass_through():
    """VSGMR II.2: figures may pass through one another; MGV 4.0: friendly bases may
    overlap temporarily during movement."""
    friend = Figure("friend", 12, 10, side="red")
    enemy = Figure("enemy", 16, 10, side="blue")
    mover = Figure("m", 10, 10, side="red")
    scene = Scene(Table(48, 48), [], [mover, friend, enemy])
    blocked = scene.plan_move("m", [(18.0, 10.0)], allowance=9.0)
    assert blocked.problem is not None and blocked.problem.blocker == "friend"
    assert blocked.problem.at == pytest.approx((11.0, 10.0))
    friends = scene.plan_move(
        "m", [(18.0, 10.0)], allowance=9.0, rules=MoveRules(pass_through="friends")
    )
    assert friends.problem is not None and friends.problem.blocker == "enemy"
    everyone = scene.plan_move(
        "m", [(18.0, 10.0)], allowance=9.0, rules=MoveRules(pass_through="all")
    )
    assert everyone.legal


def test_a_move_may_not_end_on_another_base_unless_allowed():
    """VSGMR II.2: a guy mounts a horse or vehicle by moving onto it."""
    horse = Figure("horse", 14, 10, base=RectBase(1.0, 2.0))
    scene = Scene(Table(48, 48), [], [Figure("g", 10, 10), horse])
    rules = MoveRules(pass_through="all")
    ends_on = scene.plan_move("g", [(14.0, 10.0)], allowance=6.0, rules=rules)
    assert ends_on.problem is not None and ends_on.problem.kind == "end_overlap"
    mounts = scene.plan_move("g", [(14.0, 10.0)], allowance=6.0, rules=rules, may_end_on=["horse"])
    assert mounts.legal


def test_a_base_may_leave_a_figure_it_started_on():
    scene = Scene(Table(48, 48), [], [Figure("rider", 14, 10), Figure("horse", 14, 10.2)])
    assert scene.plan_move("rider", [(14.0, 14.0)], allowance=6.0).legal


def test_a_rectangle_turning_into_a_wall_is_stopped():
    wall = Feature.polyline("wall", [(9, 11.2), (11, 11.2)], barrier=True)
    tank = Figure("t", 10, 10, facing=0, base=RectBase(width=1.0, depth=3.0))
    scene = Scene(Table(48, 48), [wall])
    out = scene.plan_move(tank, [Leg((10.0, 10.0), facing=90.0)], allowance=8.0)
    assert out.problem is not None and out.problem.kind == "barrier"


def test_the_first_problem_along_the_path_is_reported():
    rock = square("rock", 20, 5, 22, 15, impassable=True)
    scene = Scene(Table(30, 30), [rock], [Figure("m", 10, 10), Figure("x", 14, 10)])
    out = scene.plan_move("m", [(25.0, 10.0)], allowance=8.0)
    assert out.problem is not None and out.problem.blocker == "x"


def test_legs_accept_points_and_report_the_path():
    scene = Scene(Table(30, 30))
    out = scene.plan_move(Figure("m", 1, 1), [(4, 1), Leg((4.0, 5.0))], allowance=10)
    assert out.path == [(1.0, 1.0), (4.0, 1.0), (4.0, 5.0)]
    with pytest.raises(TableGeometryError):
        scene.plan_move(Figure("m", 1, 1), [(1, 2, 3)], allowance=10)  # type: ignore[list-item]


def test_a_refusal_names_the_callers_leg_not_the_step_count():
    """VSGMR II.2: the path twists and turns; a refusal says which of the points given went
    wrong, and a turn on the way (a step of the plan) is not a leg of its own."""
    rock = square("rock", 14, 8, 16, 12, impassable=True)
    scene = Scene(Table(48, 48), [rock])
    facing_north = Figure("g", 10, 10, facing=90.0)  # it turns east before its first leg
    one = scene.plan_move(facing_north, [(20.0, 10.0)], allowance=20.0)
    assert one.problem is not None and one.problem.kind == "impassable"
    assert one.problem.step == 1 and one.problem.leg == 0
    assert one.problem.reason.startswith("leg 1 runs into feature 'rock'")
    three = scene.plan_move(
        facing_north, [(10.0, 10.0), (10.0, 4.0), (20.0, 10.0)], allowance=30.0
    )  # the first point is where it stands: still leg 1
    assert three.problem is not None and three.problem.leg == 2
    assert three.problem.reason.startswith("leg 3 runs into feature 'rock'")
    assert [s.leg for s in three.legs] == [1, 2]
    short = scene.plan_move(facing_north, [(10.0, 4.0), (4.0, 4.0), (4.0, 20.0)], allowance=14.0)
    assert short.problem is not None and short.problem.kind == "allowance"
    assert '2.00" into leg 3,' in short.problem.reason
    edge = scene.plan_move(facing_north, [(10.0, 4.0), (10.0, -3.0)], allowance=20.0)
    assert edge.problem is not None and edge.problem.reason.startswith("leg 2 takes the base off")


@pytest.mark.parametrize(
    ("legs", "final", "why"),
    [
        ([(12.0, 10.0), (math.nan, 3.0)], None, "leg 2 goes to (nan, 3): a point needs finite"),
        ([(math.inf, 3.0)], None, "leg 1 goes to (inf, 3): a point needs finite"),
        ([(1e300, 5.0)], None, 'leg 1 goes to (1e+300, 5), more than 10000" off the table'),
        ([(12.0, 10.0), (12.0, -2e4)], None, "leg 2 goes to (12, -20000), more than"),
        ([Leg((12.0, 10.0), facing=math.nan)], None, "leg 1 asks for a facing of nan"),
        ([(12.0, 10.0)], math.inf, "the final facing inf is not a number of degrees"),
    ],
)
def test_absurd_points_are_refused_before_anything_is_costed(legs, final, why):
    """A point or facing no move could mean is refused with its reason, not passed on."""
    start = Figure("g", 10, 10)
    scene = Scene(Table(48, 48), [square("rock", 20, 20, 22, 22, impassable=True)], [start])
    out = scene.plan_move("g", legs, allowance=6.0, final_facing=final)
    assert out.problem is not None and out.problem.kind == "coordinates"
    assert why in out.problem.reason
    assert out.steps == () and out.end == start and out.cost == 0.0


def test_a_point_a_little_off_the_table_is_a_move_off_it_not_an_absurd_one():
    """VSGMR II.2: a figure may move off the table; only absurd points are refused (and
    reach_along refuses them too)."""
    scene = Scene(Table(48, 48))
    rules = MoveRules(may_leave_table=True)
    near = scene.plan_move(Figure("g", 2, 10), [(-1.0, 10.0)], allowance=6.0, rules=rules)
    assert near.legal and near.off_table
    far = scene.plan_move(Figure("g", 2, 10), [(-9000.0, 10.0)], allowance=6.0, rules=rules)
    assert far.problem is not None and far.problem.kind == "allowance"
    for to, facing in [((-2e4, 10.0), None), ((math.nan, 10.0), None), ((4.0, 10.0), math.inf)]:
        reach = scene.reach_along(Figure("g", 2, 10), to, 6.0, rules=rules, facing=facing)
        assert reach.distance == 0.0 and reach.stopped_by == "coordinates"


# -- how far one gets ---------------------------------------------------------------------


def test_reach_along_spends_the_allowance_through_terrain():
    """VSGMR II.2: a half move in rough terrain; here rough ground costs double instead."""
    rough = square("rough", 12, 0, 20, 20, move_cost=2.0)
    scene = Scene(Table(48, 48), [rough])
    reach = scene.reach_along(Figure("g", 10, 10), (20.0, 10.0), 6.0)
    assert reach.distance == pytest.approx(4.0)
    assert reach.figure.at == pytest.approx((14.0, 10.0))
    assert reach.cost == pytest.approx(6.0) and reach.stopped_by == "allowance"


def test_reach_along_stops_at_an_obstacle_and_arrives_when_it_can():
    rock = square("rock", 15, 0, 17, 20, impassable=True)
    scene = Scene(Table(48, 48), [rock])
    stop = scene.reach_along(Figure("g", 10, 10), (20.0, 10.0), 12.0)
    assert stop.distance == pytest.approx(4.5, abs=1e-5) and stop.stopped_by == "impassable"
    arrive = scene.reach_along(Figure("g", 10, 10), (13.0, 10.0), 12.0)
    assert arrive.stopped_by is None and arrive.distance == pytest.approx(3.0)


def test_reach_along_pays_for_the_turn_first(mgv_turning):
    scene = Scene(Table(48, 48))
    reach = scene.reach_along(
        Figure("m", 10, 10, facing=0.0), (10.0, 30.0), 8.0, rules=MoveRules(turning=mgv_turning)
    )
    assert reach.distance == pytest.approx(7.0) and reach.cost == pytest.approx(8.0)


# -- where a moving base first meets something --------------------------------------------


@pytest.mark.parametrize("base", [RoundBase(1.0), RectBase(1.0, 2.0)])
@pytest.mark.parametrize(
    "obstacle",
    [
        shapely.Polygon([(6, 1), (8, -1), (9, 2)]),
        shapely.LineString([(7, -3), (7.5, 3)]),
        shapely.Point(7, 0.4),
    ],
)
def test_first_contact_is_where_the_swept_base_first_overlaps(base, obstacle):
    mover = Figure("m", 0, 0, facing=20, base=base)
    end = (12.0, 1.0)
    t = first_contact(mover, end, obstacle, 0.3)

    def overlaps(f: float) -> bool:
        point = (f * end[0], f * end[1])
        swept_core, r = swept(mover, point)
        return bool(shapely.distance(swept_core, obstacle) < r + 0.3 - 1e-7)

    assert 0.0 < t < 1.0
    assert not overlaps(t - 1e-6) and overlaps(t + 1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_a_round_base_meets_an_obstacle_where_solving_both_ways_round_says(seed):
    """A round base's core is a point: first_contact solves only its centre moving to the
    obstacle, and finds what solving the obstacle's corners moving back too finds."""
    rng = random.Random(seed)
    for _ in range(60):
        mover = Figure("m", rng.uniform(0, 10), rng.uniform(0, 10), base=RoundBase(1.0))
        end = (rng.uniform(0, 10), rng.uniform(0, 10))
        x, y = rng.uniform(2, 8), rng.uniform(2, 8)
        obstacle = rng.choice(
            [
                shapely.Polygon([(x, y), (x + 2, y - 1), (x + 1, y + 2)]),
                shapely.LineString([(x, y), (x + 1, y + 2), (x + 3, y)]),
                shapely.Point(x, y),
            ]
        )
        radius = rng.choice([0.0, 0.5])
        for touch in (False, True):
            reach = 0.5 + radius - (0.0 if touch else EPS)
            if float(shapely.distance(mover.solid[0], obstacle)) < reach:
                continue
            shift = (end[0] - mover.x, end[1] - mover.y)
            oa, ob = boundary_edges(obstacle)
            ma, mb = mover.core_edges
            both = [
                _first_within(ma, shift, oa, ob, reach),
                _first_within(oa, (-shift[0], -shift[1]), ma, mb, reach),
            ]
            hits = [t for t in both if t is not None]
            want = min(hits) if hits else 1.0
            assert first_contact(mover, end, obstacle, radius, touch=touch) == want


def test_a_move_may_overspend_its_allowance_by_a_hundredth_of_an_inch():
    """A point typed to two decimals cannot hit an irrational length: 8.004" of an 8"
    allowance is taken, 8.02" is refused, and the refusal's two numbers differ."""
    scene = Scene(Table(20, 20))
    rules = MoveRules(turning=FREE_TURNS)
    near = scene.plan_move(Figure("a", 5, 5), [(13.004, 5.0)], allowance=8, rules=rules)
    assert near.legal and near.cost == pytest.approx(8.004)
    far = scene.plan_move(Figure("a", 5, 5), [(13.02, 5.0)], allowance=8, rules=rules)
    assert not far.legal and far.problem is not None
    assert 'costs 8.02" but only 8.00" is allowed' in far.problem.reason


def test_the_problem_met_first_wins_whichever_problems_are_solved_lazily():
    """Where a leg first meets an obstacle is solved only when asked (issue 28): the
    problem reported is the one met first all the same, the allowance running out
    included, and it reads, compares and copies like one made at once."""
    rock = square("rock", 20, 5, 22, 15, impassable=True)
    far = square("far", 26, 5, 28, 15, impassable=True)
    scene = Scene(Table(40, 30), [rock, far], [Figure("m", 10, 10)])
    short = scene.plan_move("m", [(30.0, 10.0)], allowance=5.0)  # runs out before the rock
    assert short.problem is not None and short.problem.kind == "allowance"
    long = scene.plan_move("m", [(30.0, 10.0)], allowance=30.0)  # meets the rock first
    problem = long.problem
    assert problem is not None and problem.kind == "impassable" and problem.blocker == "rock"
    assert problem.at == pytest.approx((19.5, 10.0))
    assert "contact at (19.50, 10.00)" in problem.reason
    same = MoveProblem(
        problem.kind, problem.step, problem.at, problem.reason, problem.blocker, problem.leg
    )
    assert problem == same and hash(problem) == hash(same) and repr(problem) == repr(same)
    assert pickle.loads(pickle.dumps(problem)) == same
    assert copy.deepcopy(problem) == same


def test_a_contacts_cheap_bound_is_never_beyond_the_contact():
    """The lower bound that lets a problem met earlier win without solving a contact."""
    wall = Feature.polyline("wall", [(20, 0), (22, 20)], barrier=True)
    tank = Figure("t", 10, 10, facing=20.0, base=RectBase(width=1.0, depth=3.0))
    for end in [(30.0, 10.0), (30.0, 14.0), (28.0, 4.0)]:
        contact = _Contact(tank, end, math.dist(tank.at, end), wall)
        assert contact.bound() <= contact() + 1e-12


@pytest.mark.parametrize("seed", range(8))
def test_the_problem_met_first_is_the_one_solving_every_contact_finds(seed, monkeypatch):
    """Whether a contact comes before the allowance runs out is told from the swept area
    where it is sure (issue 28): the problem reported is the one solving finds."""
    rng = random.Random(seed)
    features = []
    for n in range(6):
        x, y, w, h = (
            rng.uniform(4, 20),
            rng.uniform(4, 20),
            rng.uniform(0.3, 3),
            rng.uniform(0.3, 3),
        )
        features.append(square(f"rock{n}", x - w, y - h, x + w, y + h, impassable=True))
    figures = [
        Figure(f"f{n}", rng.uniform(2, 22), rng.uniform(2, 22), base=RoundBase(1.0))
        for n in range(8)
    ]
    figures.append(Figure("r", rng.uniform(2, 22), rng.uniform(2, 22), 30.0, RectBase(1.0, 2.0)))
    scene = Scene(Table(24, 24), features, figures)
    cases = []
    for figure in figures:
        for _ in range(25):
            end = (round(rng.uniform(0, 24), 2), round(rng.uniform(0, 24), 2))
            cases.append((figure, end, rng.uniform(1.0, 12.0)))

    def problems() -> list[MoveProblem | None]:
        return [
            Scene(scene.table, scene.terrain, figures).plan_move(f, [end], allowance=a).problem
            for f, end, a in cases
        ]

    told = problems()
    monkeypatch.setattr(_Contact, "side_of", lambda self, along: 0)  # always solve
    solved = problems()
    assert told == solved
    assert sum(p is not None and p.kind == "allowance" for p in told) > 10
