"""Concrete cases for warbench.geometry.hexgrid."""

from __future__ import annotations

import math

import pytest

from warbench.geometry.hexgrid import (
    DIRECTIONS,
    Hex,
    HexError,
    HexGrid,
    Hexside,
    Layout,
    path_to,
    reachable,
    reachable_with_paths,
)

ORIGIN = Hex(0, 0)


def labels(hexes: list[Hex] | tuple[Hex, ...]) -> list[str]:
    return [h.label for h in hexes]


def step_labels(steps: list[tuple[Hex, ...]]) -> list[tuple[str, ...]]:
    return [tuple(h.label for h in step) for step in steps]


# --- directions and neighbours ----------------------------------------------------


def test_directions_are_six_unit_steps_whose_opposites_cancel() -> None:
    assert len(DIRECTIONS) == 6
    for d, (dq, dr) in enumerate(DIRECTIONS):
        assert ORIGIN.distance(Hex(dq, dr)) == 1
        oq, o_r = DIRECTIONS[(d + 3) % 6]
        assert (dq + oq, dr + o_r) == (0, 0)


def test_directions_go_clockwise_from_north_on_screen() -> None:
    angles = []
    for dq, dr in DIRECTIONS:
        x, y = Layout.hex_to_pixel(Hex(dq, dr), 1.0)
        angles.append(math.degrees(math.atan2(x, -y)) % 360)  # bearing, 0 = up
    assert [round(a) for a in angles] == [0, 60, 120, 180, 240, 300]


def test_neighbours_are_in_direction_order() -> None:
    h = Hex(3, -2)
    assert h.neighbours() == tuple(h.neighbour(d) for d in range(6))
    assert h.neighbours() == (
        Hex(3, -3),
        Hex(4, -3),
        Hex(4, -2),
        Hex(3, -1),
        Hex(2, -1),
        Hex(2, -2),
    )


@pytest.mark.parametrize("direction", [-1, 6, 100])
def test_neighbour_rejects_direction_outside_0_to_5(direction: int) -> None:
    with pytest.raises(HexError, match=str(direction)):
        ORIGIN.neighbour(direction)


def test_direction_to_inverts_neighbour_and_rejects_non_adjacent() -> None:
    h = Hex(2, 5)
    for d in range(6):
        assert h.direction_to(h.neighbour(d)) == d
    with pytest.raises(HexError, match="not adjacent"):
        h.direction_to(h)
    with pytest.raises(HexError, match="not adjacent"):
        h.direction_to(Hex(4, 5))


def test_hex_arithmetic_and_cube_coordinate() -> None:
    assert Hex(1, 2) + Hex(3, -5) == Hex(4, -3)
    assert Hex(1, 2) - Hex(3, -5) == Hex(-2, 7)
    assert Hex(1, 2).s == -3


def test_hex_equality_hash_and_order_follow_q_then_r() -> None:
    assert Hex(1, 2) == Hex(1, 2)
    assert hash(Hex(1, 2)) == hash(Hex(1, 2))
    assert Hex(1, 2) != Hex(2, 1)
    assert Hex(1, 2) == (1, 2)  # a NamedTuple, for C-speed hashing
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]


# --- distance, rings, areas -------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("0101", "0101", 0),
        ("0101", "0102", 1),
        ("0101", "0201", 1),
        ("0201", "0101", 1),
        ("0201", "0102", 1),  # even column sits lower: 0201 touches 0102
        ("0101", "0301", 2),
        ("0101", "0401", 3),
        ("0101", "0404", 5),
        ("0505", "0505", 0),
        ("0101", "2012", 21),
    ],
)
def test_distance_between_labelled_hexes(a: str, b: str, expected: int) -> None:
    assert Hex.from_label(a).distance(Hex.from_label(b)) == expected


def test_ring_zero_is_the_hex_itself_and_ring_one_the_neighbours() -> None:
    h = Hex(4, 4)
    assert h.ring(0) == [h]
    assert h.ring(1) == list(h.neighbours())


def test_ring_starts_due_north_and_goes_clockwise() -> None:
    ring = ORIGIN.ring(2)
    assert ring[0] == Hex(0, -2)
    assert ring[:4] == [Hex(0, -2), Hex(1, -2), Hex(2, -2), Hex(2, -1)]


def test_negative_radius_is_rejected() -> None:
    with pytest.raises(HexError, match="-1"):
        ORIGIN.ring(-1)
    with pytest.raises(HexError, match="-1"):
        ORIGIN.within(-1)


def test_within_one_is_the_hex_and_its_neighbours_sorted() -> None:
    h = Hex(2, 3)
    assert h.within(0) == [h]
    assert h.within(1) == sorted([h, *h.neighbours()])


# --- offsets and labels -----------------------------------------------------------


def test_0101_is_the_axial_origin() -> None:
    assert Hex.from_label("0101") == ORIGIN
    assert ORIGIN.to_offset() == (1, 1)


def test_even_columns_sit_half_a_hex_lower() -> None:
    # 0201 is south-east of 0101 and 0301 is north-east of 0201.
    assert Hex.from_label("0101").direction_to(Hex.from_label("0201")) == 2
    assert Hex.from_label("0201").direction_to(Hex.from_label("0301")) == 1
    # 0202 is south-east of 0102 and 0302 is north-east of 0202.
    assert Hex.from_label("0102").direction_to(Hex.from_label("0202")) == 2
    assert Hex.from_label("0202").direction_to(Hex.from_label("0302")) == 1
    # Within a column, row + 1 is due south.
    assert Hex.from_label("0405").direction_to(Hex.from_label("0406")) == 3


@pytest.mark.parametrize(
    ("column", "row", "label"),
    [
        (1, 1, "0101"),
        (4, 5, "0405"),
        (20, 12, "2012"),
        (99, 99, "9999"),
        (101, 12, "101012"),
        (7, 100, "007100"),
        (1000, 3, "10000003"),
    ],
)
def test_labels_pad_both_parts_to_the_same_width(column: int, row: int, label: str) -> None:
    h = Hex.from_offset(column, row)
    assert h.label == label
    assert Hex.from_label(label) == h
    assert h.to_offset() == (column, row)


def test_from_label_accepts_wider_padding_than_needed() -> None:
    assert Hex.from_label("004005") == Hex.from_label("0405")


@pytest.mark.parametrize(
    "text",
    ["", "4", "405", "04055", "04a5", " 0405", "0405 ", "-405", "0000", "0005", "0400", "０４０５"],
)
def test_bad_labels_raise_hex_error_naming_the_text(text: str) -> None:
    with pytest.raises(HexError) as info:
        Hex.from_label(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_hex_left_of_column_one_has_no_label() -> None:
    with pytest.raises(HexError, match="column 0"):
        _ = Hex(-1, 0).label
    with pytest.raises(HexError, match="row 0"):
        _ = Hex(0, -1).label


# --- hexsides ---------------------------------------------------------------------


def test_hexside_is_the_same_from_either_side() -> None:
    a, b = Hex.from_label("0405"), Hex.from_label("0406")
    assert Hexside.of(a, b) == Hexside.of(b, a)
    assert hash(Hexside.of(a, b)) == hash(Hexside.of(b, a))
    assert Hexside.of(b, a).hexes == (a, b)
    assert len({Hexside.of(a, b), Hexside.of(b, a)}) == 1


def test_hexside_of_non_adjacent_hexes_names_both_labels() -> None:
    with pytest.raises(HexError, match="0405 and 0407"):
        Hexside.of(Hex.from_label("0405"), Hex.from_label("0407"))
    with pytest.raises(HexError, match="not adjacent"):
        Hexside.of(ORIGIN, ORIGIN)


def test_hexside_of_normalises_either_order() -> None:
    assert Hexside.of(Hex(1, 0), Hex(0, 0)) == Hexside(Hex(0, 0), Hex(1, 0))


def test_every_hex_has_six_distinct_hexsides() -> None:
    h = Hex(5, 5)
    sides = {Hexside.of(h, n) for n in h.neighbours()}
    assert len(sides) == 6
    assert all(h in side.hexes for side in sides)


# --- lines ------------------------------------------------------------------------


def test_line_to_itself_is_the_hex() -> None:
    assert ORIGIN.line_to(ORIGIN) == [(ORIGIN,)]
    assert ORIGIN.hexes_crossed_to(ORIGIN) == [(ORIGIN,)]


def test_line_to_a_neighbour_is_both_hexes() -> None:
    for n in ORIGIN.neighbours():
        assert ORIGIN.line_to(n) == [(ORIGIN,), (n,)]


def test_line_straight_down_a_column_is_every_hex_in_it() -> None:
    line = Hex.from_label("0302").line_to(Hex.from_label("0306"))
    assert step_labels(line) == [("0302",), ("0303",), ("0304",), ("0305",), ("0306",)]


def test_line_along_an_edge_reports_both_hexes_of_that_step() -> None:
    assert ORIGIN.line_to(Hex(2, -1)) == [(ORIGIN,), (Hex(1, -1), Hex(1, 0)), (Hex(2, -1),)]
    line = Hex.from_label("0102").line_to(Hex.from_label("0302"))
    assert step_labels(line) == [("0102",), ("0201", "0202"), ("0302",)]


def test_long_line_along_edges_alternates_centres_and_pairs() -> None:
    line = ORIGIN.line_to(Hex(4, -2))
    assert line == [
        (ORIGIN,),
        (Hex(1, -1), Hex(1, 0)),
        (Hex(2, -1),),
        (Hex(3, -2), Hex(3, -1)),
        (Hex(4, -2),),
    ]
    assert ORIGIN.hexes_crossed_to(Hex(4, -2)) == line


def test_line_crossing_an_edge_at_its_midpoint_reports_both_hexes() -> None:
    # Half way from (0, 0) to (4, -1) is the middle of the edge between (2, -1) and
    # (2, 0); the line crosses it (it does not run along it), entering both.
    line = ORIGIN.line_to(Hex(4, -1))
    assert line == [(ORIGIN,), (Hex(1, 0),), (Hex(2, -1), Hex(2, 0)), (Hex(3, -1),), (Hex(4, -1),)]
    crossed = ORIGIN.hexes_crossed_to(Hex(4, -1))
    assert crossed == [
        (ORIGIN,),
        (Hex(1, 0),),
        (Hex(2, -1),),
        (Hex(2, 0),),
        (Hex(3, -1),),
        (Hex(4, -1),),
    ]


def test_line_to_skips_clipped_hexes_that_hexes_crossed_to_reports() -> None:
    line = {h for step in ORIGIN.line_to(Hex(-6, -1)) for h in step}
    crossed = [h for step in ORIGIN.hexes_crossed_to(Hex(-6, -1)) for h in step]
    assert Hex(-2, -1) not in line
    assert Hex(-4, 0) not in line
    assert crossed == [
        Hex(0, 0),
        Hex(-1, 0),
        Hex(-2, 0),
        Hex(-2, -1),
        Hex(-3, 0),
        Hex(-3, -1),
        Hex(-4, 0),
        Hex(-4, -1),
        Hex(-5, -1),
        Hex(-6, -1),
    ]


def test_line_through_a_corner_does_not_report_the_hex_only_touched() -> None:
    # (0, 0) -> (5, -4) passes exactly through the corner shared by (1, -1), (2, -1)
    # and (2, -2) at a third of the way, going from (1, -1) into (2, -2).
    crossed = ORIGIN.hexes_crossed_to(Hex(5, -4))
    flat = [h for step in crossed for h in step]
    assert all(len(step) == 1 for step in crossed)
    assert Hex(1, -1) in flat
    assert Hex(2, -2) in flat
    assert Hex(2, -1) not in flat


def _float_hex_at(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def test_line_to_agrees_with_red_blob_lerp_nudged_both_ways() -> None:
    """The exact pair rule equals "lines nudged by +eps and -eps disagree here"."""
    eps_q, eps_r = 1e-6, 2e-6
    for target in ORIGIN.within(7):
        n = ORIGIN.distance(target)
        expected: list[tuple[Hex, ...]] = []
        for i in range(n + 1):
            t = i / n if n else 0.0
            fq, fr = target.q * t, target.r * t
            plus = _float_hex_at(fq + eps_q, fr + eps_r)
            minus = _float_hex_at(fq - eps_q, fr - eps_r)
            expected.append((plus,) if plus == minus else tuple(sorted((plus, minus))))
        assert ORIGIN.line_to(target) == expected, target


def test_hexes_crossed_to_matches_dense_sampling() -> None:
    """Every single hex is visited by a fine sampling, and nothing else is."""
    samples = 4001  # prime, so no sample sits exactly on a corner
    for target in ORIGIN.within(5):
        if target == ORIGIN:
            continue
        crossed = ORIGIN.hexes_crossed_to(target)
        seen = {
            _float_hex_at(target.q * k / samples, target.r * k / samples)
            for k in range(samples + 1)
        }
        singles = {step[0] for step in crossed if len(step) == 1}
        everything = {h for step in crossed for h in step}
        assert singles <= seen, target
        assert seen <= everything, target


# --- grid -------------------------------------------------------------------------


def test_grid_hexes_are_in_column_major_label_order() -> None:
    grid = HexGrid(20, 12)
    assert len(grid) == 240
    assert labels(grid.hexes[:3]) == ["0101", "0102", "0103"]
    assert grid.hexes[12].label == "0201"
    assert grid.hexes[-1].label == "2012"
    assert list(grid.hexes) == sorted(grid.hexes)
    assert list(grid) == list(grid.hexes)


def test_grid_index_and_hex_at_are_inverse() -> None:
    grid = HexGrid(5, 4)
    for i, h in enumerate(grid.hexes):
        assert grid.index(h) == i
        assert grid.hex_at(i) is h
    column, row = Hex.from_label("0302").to_offset()
    assert grid.index(Hex.from_label("0302")) == (column - 1) * 4 + (row - 1)


def test_grid_rejects_out_of_range_index_and_off_map_hex() -> None:
    grid = HexGrid(5, 4)
    with pytest.raises(HexError, match="20"):
        grid.hex_at(20)
    with pytest.raises(HexError, match="-1"):
        grid.hex_at(-1)
    with pytest.raises(HexError, match="hex 0605 is off the 5x4 map"):
        grid.index(Hex.from_label("0605"))
    with pytest.raises(HexError, match=r"Hex\(q=-1, r=0\) is off the 5x4 map"):
        grid.neighbours_on_map(Hex(-1, 0))


def test_grid_contains_exactly_its_hexes() -> None:
    grid = HexGrid(3, 2)
    inside = set(grid.hexes)
    for h in ORIGIN.within(6):
        assert grid.contains(h) == (h in inside) == (h in grid)
        column, row = h.to_offset()
        assert grid.contains(h) == (1 <= column <= 3 and 1 <= row <= 2)


def test_parse_rejects_off_map_hex_naming_the_map() -> None:
    grid = HexGrid(20, 12)
    assert grid.parse("2012") == Hex.from_offset(20, 12)
    with pytest.raises(HexError, match=r"^hex 2105 is off the 20x12 map$"):
        grid.parse("2105")
    with pytest.raises(HexError, match=r"^hex 0113 is off the 20x12 map$"):
        grid.parse("0113")
    with pytest.raises(HexError, match="'21x5'"):
        grid.parse("21x5")


def test_parse_returns_the_grids_shared_hex_object() -> None:
    grid = HexGrid(4, 4)
    assert grid.parse("0203") is grid.hexes[grid.index(Hex.from_label("0203"))]


def test_neighbours_on_map_drop_off_map_hexes() -> None:
    grid = HexGrid(4, 3)
    assert labels(grid.neighbours_on_map(grid.parse("0101"))) == ["0201", "0102"]
    # Even column, top row: sits lower, so it has both upper-side neighbours.
    assert labels(grid.neighbours_on_map(grid.parse("0201"))) == [
        "0301",
        "0302",
        "0202",
        "0102",
        "0101",
    ]
    assert len(grid.neighbours_on_map(grid.parse("0202"))) == 6
    for h in grid.hexes:
        assert grid.neighbours_on_map(h) == tuple(n for n in h.neighbours() if n in grid)


def test_grid_needs_at_least_one_hex() -> None:
    with pytest.raises(HexError, match="0x5"):
        HexGrid(0, 5)


def test_grids_of_equal_size_are_equal() -> None:
    assert HexGrid(3, 4) == HexGrid(3, 4)
    assert hash(HexGrid(3, 4)) == hash(HexGrid(3, 4))
    assert HexGrid(3, 4) != HexGrid(4, 3)
    assert repr(HexGrid(3, 4)) == "HexGrid(3, 4)"


# --- movement ---------------------------------------------------------------------


def line_costs(*costs: int) -> tuple[list[Hex], dict[Hex, list[tuple[Hex, int]]]]:
    """A straight corridor of hexes; costs[i] is the cost to enter hex i + 1."""
    hexes = [Hex(0, i) for i in range(len(costs) + 1)]
    table: dict[Hex, list[tuple[Hex, int]]] = {h: [] for h in hexes}
    for i, c in enumerate(costs):
        table[hexes[i]].append((hexes[i + 1], c))
        table[hexes[i + 1]].append((hexes[i], c))
    return hexes, table


def test_reachable_sums_entry_costs_within_budget() -> None:
    h, table = line_costs(1, 2, 1, 3)
    assert reachable(h[0], 4, table) == {h[0]: 0, h[1]: 1, h[2]: 3, h[3]: 4}
    assert reachable(h[0], 0, table) == {h[0]: 0}


def test_reachable_picks_the_cheaper_of_two_routes() -> None:
    a, b, c, d = Hex(0, 0), Hex(1, 0), Hex(0, 1), Hex(1, 1)
    table = {a: [(b, 4), (c, 1)], b: [(d, 1)], c: [(d, 1)], d: []}
    assert reachable(a, 10, table) == {a: 0, b: 4, c: 1, d: 2}


def test_hex_missing_from_step_costs_has_no_exits() -> None:
    a, b, c = Hex(0, 0), Hex(0, 1), Hex(0, 2)
    assert reachable(a, 5, {a: [(b, 1)], c: [(a, 1)]}) == {a: 0, b: 1}


def test_blocked_hex_is_never_entered_nor_passed() -> None:
    h, table = line_costs(1, 1, 1)
    assert reachable(h[0], 5, table, blocked={h[2]}) == {h[0]: 0, h[1]: 1}


def test_stop_hex_can_be_entered_but_not_passed_through() -> None:
    h, table = line_costs(1, 1, 1)
    assert reachable(h[0], 5, table, stops={h[1]}) == {h[0]: 0, h[1]: 1}


def test_stop_hex_does_not_block_other_routes() -> None:
    a, b, c, d = Hex(0, 0), Hex(1, 0), Hex(0, 1), Hex(1, 1)
    table = {a: [(b, 1), (c, 2)], b: [(d, 1)], c: [(d, 1)], d: []}
    # Cheapest route to d is via the stop b; the route via c still gets there.
    assert reachable(a, 10, table, stops={b}) == {a: 0, b: 1, c: 2, d: 3}


def test_start_in_a_stop_hex_can_still_move() -> None:
    h, table = line_costs(1, 1, 1)
    assert reachable(h[0], 2, table, stops={h[0]}) == {h[0]: 0, h[1]: 1, h[2]: 2}


def test_reachable_rejects_negative_budget_and_negative_costs() -> None:
    h, table = line_costs(1)
    with pytest.raises(HexError, match="budget"):
        reachable(h[0], -1, table)
    with pytest.raises(HexError, match="budget"):
        reachable_with_paths(h[0], -1, table)
    _, bad = line_costs(-1)
    with pytest.raises(HexError, match="negative"):
        reachable(h[0], 3, bad)
    with pytest.raises(HexError, match="negative"):
        reachable_with_paths(h[0], 3, bad)


def test_zero_cost_steps_are_allowed() -> None:
    h, table = line_costs(0, 0, 2)
    assert reachable(h[0], 1, table) == {h[0]: 0, h[1]: 0, h[2]: 0}


def test_path_to_reads_back_the_cheapest_route() -> None:
    a, b, c, d = Hex(0, 0), Hex(1, 0), Hex(0, 1), Hex(1, 1)
    table = {a: [(b, 4), (c, 1)], b: [(d, 1)], c: [(d, 1)], d: []}
    costs, previous = reachable_with_paths(a, 10, table)
    assert costs == reachable(a, 10, table)
    assert path_to(previous, a, d) == [a, c, d]
    assert path_to(previous, a, b) == [a, b]
    assert path_to(previous, a, a) == [a]


def test_path_to_an_unreached_hex_raises() -> None:
    h, table = line_costs(1, 5)
    _, previous = reachable_with_paths(h[0], 2, table)
    with pytest.raises(HexError, match="no path"):
        path_to(previous, h[0], h[2])


def test_path_to_detects_a_looping_predecessor_map() -> None:
    a, b, c = Hex(0, 0), Hex(0, 1), Hex(0, 2)
    with pytest.raises(HexError, match="loops"):
        path_to({b: c, c: b}, a, b)


def test_step_costs_builds_a_table_of_on_map_steps() -> None:
    grid = HexGrid(4, 4)
    rough = grid.parse("0202")
    wall = grid.parse("0303")

    def cost(here: Hex, there: Hex) -> int | None:
        if there == wall:
            return None
        return 2 if there == rough else 1

    table = grid.step_costs(cost)
    assert set(table) == set(grid.hexes)
    start = grid.parse("0101")
    assert dict(table[start]) == {grid.parse("0201"): 1, grid.parse("0102"): 1}
    assert all(wall not in dict(steps) for steps in table.values())
    assert rough not in reachable(start, 2, table)  # 0101 -> 0201 -> 0202 costs 1 + 2
    assert reachable(start, 3, table)[rough] == 3


def test_grid_movement_stops_in_a_zone_of_control_before_an_enemy() -> None:
    grid = HexGrid(6, 1)  # one zig-zag row: 0101 - 0201 - 0301 - ...
    table = grid.step_costs(lambda a, b: 1)
    enemy = grid.parse("0401")
    zoc = set(grid.neighbours_on_map(enemy))
    assert {h.label for h in zoc} == {"0301", "0501"}
    costs = reachable(grid.parse("0101"), 10, table, blocked={enemy}, stops=zoc)
    assert {h.label: c for h, c in costs.items()} == {"0101": 0, "0201": 1, "0301": 2}


# --- layout -----------------------------------------------------------------------


def test_corners_are_size_away_from_the_centre() -> None:
    h = Hex(3, -1)
    cx, cy = Layout.hex_to_pixel(h, 12.0)
    corners = Layout.corners(h, 12.0)
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(12.0)
    assert corners[0] == pytest.approx((cx + 12.0, cy))  # east corner first


def test_adjacent_hexes_share_two_corners() -> None:
    for n in ORIGIN.neighbours():
        mine = Layout.corners(ORIGIN, 10.0)
        theirs = Layout.corners(n, 10.0)
        shared = [c for c in mine if any(math.dist(c, t) < 1e-9 for t in theirs)]
        assert len(shared) == 2


def test_pixel_to_hex_inverts_hex_to_pixel() -> None:
    for h in Hex(2, 2).within(4):
        x, y = Layout.hex_to_pixel(h, 7.5)
        assert Layout.pixel_to_hex(x, y, 7.5) == h
        assert Layout.pixel_to_hex(x + 3.0, y - 3.0, 7.5) == h


def test_pixel_to_hex_rejects_non_positive_size() -> None:
    with pytest.raises(HexError, match="size"):
        Layout.pixel_to_hex(0.0, 0.0, 0.0)
