"""Property tests for warbench.geometry.hexgrid (hypothesis)."""

from __future__ import annotations

import itertools
from collections import deque

from hypothesis import given
from hypothesis import strategies as st

from warbench.geometry.hexgrid import (
    Hex,
    HexGrid,
    Hexside,
    path_to,
    reachable,
    reachable_with_paths,
)

coordinate = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coordinate, coordinate)
small_radius = st.integers(min_value=0, max_value=8)

GRID = HexGrid(9, 7)
grid_hexes = st.sampled_from(GRID.hexes)
# Cost to enter each hex (None = impassable terrain), in GRID.hexes order.
terrain = st.lists(
    st.one_of(st.none(), st.integers(min_value=0, max_value=4)),
    min_size=len(GRID),
    max_size=len(GRID),
)
hex_sets = st.frozensets(grid_hexes, max_size=12)
budgets = st.integers(min_value=0, max_value=14)


def table_for(entry: list[int | None]) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
    return GRID.step_costs(lambda here, there: entry[GRID.index(there)])


def flat(steps: list[tuple[Hex, ...]]) -> set[Hex]:
    return {h for step in steps for h in step}


# --- distance ---------------------------------------------------------------------


@given(hexes, hexes)
def test_distance_is_symmetric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)


@given(hexes, hexes)
def test_distance_is_zero_exactly_for_the_same_hex(a: Hex, b: Hex) -> None:
    assert a.distance(a) == 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) >= 0


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, hexes)
def test_distance_is_translation_invariant(a: Hex, b: Hex) -> None:
    assert a.distance(b) == (a - b).distance(Hex(0, 0))


@given(hexes)
def test_neighbours_are_the_six_hexes_at_distance_one(h: Hex) -> None:
    neighbours = h.neighbours()
    assert len(set(neighbours)) == 6
    assert all(h.distance(n) == 1 for n in neighbours)
    assert all(h.direction_to(n) == d for d, n in enumerate(neighbours))
    assert all(Hexside.of(h, n) == Hexside.of(n, h) for n in neighbours)


# --- rings and areas --------------------------------------------------------------


@given(hexes, st.integers(min_value=1, max_value=12))
def test_ring_has_six_r_distinct_hexes_all_at_distance_r(h: Hex, radius: int) -> None:
    ring = h.ring(radius)
    assert len(ring) == 6 * radius
    assert len(set(ring)) == 6 * radius
    assert all(h.distance(x) == radius for x in ring)
    # Consecutive ring hexes (cyclically) are adjacent.
    assert all(ring[i - 1].distance(ring[i]) == 1 for i in range(len(ring)))


@given(hexes, small_radius)
def test_within_is_every_hex_at_most_r_away_sorted(h: Hex, radius: int) -> None:
    area = h.within(radius)
    assert len(area) == 3 * radius * (radius + 1) + 1
    assert area == sorted(set(area))
    assert all(h.distance(x) <= radius for x in area)
    assert set(area) == {x for k in range(radius + 1) for x in h.ring(k)}


# --- lines ------------------------------------------------------------------------


@given(hexes, hexes)
def test_line_has_distance_plus_one_steps_from_start_to_end(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    assert len(line) == a.distance(b) + 1
    assert line[0] == (a,)
    assert line[-1] == (b,)
    assert all(len(step) in (1, 2) for step in line)


@given(hexes, hexes)
def test_line_step_k_is_k_away_from_the_start(a: Hex, b: Hex) -> None:
    for k, step in enumerate(a.line_to(b)):
        assert all(a.distance(h) == k for h in step)


@given(hexes, hexes)
def test_line_pairs_are_adjacent_sorted_hexes(a: Hex, b: Hex) -> None:
    for step in a.line_to(b):
        if len(step) == 2:
            assert step[0] < step[1]
            assert step[0].distance(step[1]) == 1


@given(hexes, hexes)
def test_consecutive_line_steps_touch(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    for here, there in itertools.pairwise(line):
        for h in here:
            assert any(h.distance(x) <= 1 for x in there)
        for x in there:
            assert any(h.distance(x) <= 1 for h in here)


@given(hexes, hexes)
def test_line_is_symmetric(a: Hex, b: Hex) -> None:
    assert flat(a.line_to(b)) == flat(b.line_to(a))
    assert a.line_to(b) == list(reversed(b.line_to(a)))


@given(hexes, hexes)
def test_line_is_translation_invariant(a: Hex, b: Hex) -> None:
    shift = Hex(7, -3)
    shifted = [tuple(h + shift for h in step) for step in a.line_to(b)]
    assert (a + shift).line_to(b + shift) == shifted


@given(hexes, hexes)
def test_hexes_crossed_include_the_whole_line_and_run_start_to_end(a: Hex, b: Hex) -> None:
    crossed = a.hexes_crossed_to(b)
    assert crossed[0] == (a,)
    assert crossed[-1] == (b,)
    assert flat(a.line_to(b)) <= flat(crossed)
    assert len(crossed) >= a.distance(b) + 1
    assert len(flat(crossed)) == sum(len(step) for step in crossed)  # no repeats


@given(hexes, hexes)
def test_hexes_crossed_are_symmetric(a: Hex, b: Hex) -> None:
    assert a.hexes_crossed_to(b) == list(reversed(b.hexes_crossed_to(a)))


@given(hexes, hexes)
def test_consecutive_hexes_crossed_touch(a: Hex, b: Hex) -> None:
    crossed = a.hexes_crossed_to(b)
    for here, there in itertools.pairwise(crossed):
        for h in here:
            assert all(h.distance(x) == 1 for x in there)


# --- offsets and labels -----------------------------------------------------------


@given(hexes)
def test_offset_round_trips(h: Hex) -> None:
    column, row = h.to_offset()
    assert Hex.from_offset(column, row) == h


@given(st.integers(min_value=1, max_value=2000), st.integers(min_value=1, max_value=2000))
def test_label_round_trips(column: int, row: int) -> None:
    h = Hex.from_offset(column, row)
    assert h.to_offset() == (column, row)
    label = h.label
    assert Hex.from_label(label) == h
    assert len(label) % 2 == 0
    assert len(label) == 4 if max(column, row) < 100 else len(label) >= 6


@given(grid_hexes)
def test_grid_parse_of_label_is_the_grid_hex(h: Hex) -> None:
    assert GRID.parse(h.label) == h
    assert GRID.hex_at(GRID.index(h)) == h


# --- movement ---------------------------------------------------------------------


@given(grid_hexes, budgets, terrain, hex_sets, hex_sets)
def test_reachable_costs_never_exceed_the_budget(
    start: Hex,
    budget: int,
    entry: list[int | None],
    blocked: frozenset[Hex],
    stops: frozenset[Hex],
) -> None:
    costs = reachable(start, budget, table_for(entry), blocked - {start}, stops)
    assert costs[start] == 0
    assert all(0 <= c <= budget for c in costs.values())
    assert not (set(costs) & (blocked - {start}))


@given(grid_hexes, budgets, st.integers(min_value=0, max_value=6), terrain, hex_sets, hex_sets)
def test_reachable_grows_monotonically_with_the_budget(
    start: Hex,
    budget: int,
    extra: int,
    entry: list[int | None],
    blocked: frozenset[Hex],
    stops: frozenset[Hex],
) -> None:
    table = table_for(entry)
    small = reachable(start, budget, table, blocked, stops)
    large = reachable(start, budget + extra, table, blocked, stops)
    assert set(small) <= set(large)
    assert all(large[h] == c for h, c in small.items())
    assert {h for h, c in large.items() if c <= budget} == set(small)


def bfs(start: Hex, budget: int, blocked: frozenset[Hex], stops: frozenset[Hex]) -> dict[Hex, int]:
    found = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if (here != start and here in stops) or found[here] == budget:
            continue
        for there in GRID.neighbours_on_map(here):
            if there not in found and there not in blocked:
                found[there] = found[here] + 1
                queue.append(there)
    return found


@given(grid_hexes, budgets, hex_sets, hex_sets)
def test_reachable_with_unit_costs_equals_breadth_first_search(
    start: Hex, budget: int, blocked: frozenset[Hex], stops: frozenset[Hex]
) -> None:
    table = GRID.step_costs(lambda here, there: 1)
    assert reachable(start, budget, table, blocked, stops) == bfs(start, budget, blocked, stops)


def bellman_ford(
    start: Hex,
    budget: int,
    table: dict[Hex, tuple[tuple[Hex, int], ...]],
    blocked: frozenset[Hex],
    stops: frozenset[Hex],
) -> dict[Hex, int]:
    best = {start: 0}
    changed = True
    while changed:
        changed = False
        for here, cost in list(best.items()):
            if here != start and here in stops:
                continue
            for there, step in table[here]:
                new = cost + step
                if there in blocked or new > budget:
                    continue
                if new < best.get(there, budget + 1):
                    best[there] = new
                    changed = True
    return best


@given(grid_hexes, budgets, terrain, hex_sets, hex_sets)
def test_reachable_equals_brute_force_least_costs(
    start: Hex,
    budget: int,
    entry: list[int | None],
    blocked: frozenset[Hex],
    stops: frozenset[Hex],
) -> None:
    table = table_for(entry)
    expected = bellman_ford(start, budget, table, blocked, stops)
    assert reachable(start, budget, table, blocked, stops) == expected


@given(grid_hexes, budgets, terrain, hex_sets, hex_sets)
def test_paths_are_legal_and_cost_what_reachable_says(
    start: Hex,
    budget: int,
    entry: list[int | None],
    blocked: frozenset[Hex],
    stops: frozenset[Hex],
) -> None:
    table = table_for(entry)
    costs, previous = reachable_with_paths(start, budget, table, blocked, stops)
    assert costs == reachable(start, budget, table, blocked, stops)
    assert set(previous) == set(costs) - {start}
    for goal, cost in costs.items():
        path = path_to(previous, start, goal)
        assert path[0] == start
        assert path[-1] == goal
        total = 0
        for here, there in itertools.pairwise(path):
            assert here == start or here not in stops  # never moves on from a stop
            assert there not in blocked
            total += dict(table[here])[there]
        assert total == cost
