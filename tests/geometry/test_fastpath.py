"""The integer reach search: the C kernel and the Python search agree with Dijkstra."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.geometry import fastpath
from warbench.geometry.fastpath import Adjacency, reach_indexed
from warbench.geometry.hexgrid import HexGrid, reachable


@st.composite
def boards(draw: st.DrawFn) -> tuple[HexGrid, Adjacency, bytes, bytes, int, int]:
    columns, rows = draw(st.integers(2, 8)), draw(st.integers(2, 8))
    grid = HexGrid(columns, rows)
    n = len(grid.hexes)
    costs = draw(st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=n, max_size=n))
    index = {h: i for i, h in enumerate(grid.hexes)}
    steps = [
        [(index[m], costs[index[m]]) for m in grid.neighbours_on_map(h) if costs[index[m]]]
        for h in grid.hexes
    ]
    blocked = bytes(draw(st.lists(st.sampled_from([0, 0, 0, 1]), min_size=n, max_size=n)))
    stops = bytes(draw(st.lists(st.sampled_from([0, 0, 0, 1]), min_size=n, max_size=n)))
    start = draw(st.integers(0, n - 1))
    budget = draw(st.integers(0, 12))
    return grid, Adjacency(steps), blocked, stops, start, budget


@settings(max_examples=300, deadline=None)
@given(boards())
def test_both_searches_agree_with_dijkstra_on_hexes(
    case: tuple[HexGrid, Adjacency, bytes, bytes, int, int],
) -> None:
    grid, table, blocked, stops, start, budget = case
    hexes = grid.hexes
    expected = reachable(
        hexes[start],
        budget,
        {hexes[i]: [(hexes[j], c) for j, c in row] for i, row in enumerate(table.steps)},
        {hexes[i] for i, b in enumerate(blocked) if b},
        {hexes[i] for i, s in enumerate(stops) if s},
    )
    as_indices = {grid.hexes.index(h): c for h, c in expected.items()}
    assert reach_indexed(start, budget, table.steps, blocked, stops) == as_indices
    assert table.reach(start, budget, blocked, stops, native=False) == as_indices
    assert table.reach(start, budget, blocked, stops) == as_indices


@pytest.mark.skipif(not fastpath.native_kernel(), reason="the C kernel was not built here")
def test_the_c_kernel_refuses_inconsistent_arguments() -> None:
    table = Adjacency([[(1, 1)], [(0, 1)]])
    with pytest.raises(ValueError, match="inconsistent"):
        table.reach(5, 3, bytes(2), bytes(2))
    with pytest.raises(ValueError, match="inconsistent"):
        table.reach(0, 3, bytes(2), bytes(3))


def test_negative_costs_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Adjacency([[(1, -1)], []])
