"""Large tables: the sparse navigation mesh against the dense one, nearest enemies against
a brute-force sort, and candidates of a tiled scenario that stay legal."""

from __future__ import annotations

import math
import random

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.geometry.table import Feature, Table, Terrain
from warbench.rulesets.vsgmr import nav
from warbench.rulesets.vsgmr.candidates import _foes, movement_candidates
from warbench.rulesets.vsgmr.nav import NavMesh, length


def _layout(seed: int) -> tuple[Table, Terrain]:
    """A 96" x 72" table with 30 random buildings (rectangles) and walls."""
    rng = random.Random(seed)
    features = []
    for k in range(30):
        x, y = rng.uniform(4, 88), rng.uniform(4, 64)
        if k % 3:
            w, h = rng.uniform(1, 6), rng.uniform(1, 6)
            points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            features.append(Feature.polygon(f"b{k}", points, impassable=True))
        else:
            features.append(
                Feature.polyline(f"w{k}", [(x, y), (x + rng.uniform(-5, 5), y + 4)], barrier=True)
            )
    return Table(96, 72), Terrain(features)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sparse_routes_are_clear_and_as_short_as_the_dense_ones(monkeypatch, seed):
    table, terrain = _layout(seed)
    dense = NavMesh(table, terrain, 0.5)
    assert dense.dense
    monkeypatch.setattr(nav, "DENSE_NODES", 0)
    sparse = NavMesh(table, terrain, 0.5)
    assert not sparse.dense
    rng = random.Random(seed)
    checked = 0
    for _ in range(150):
        a = (rng.uniform(1, 95), rng.uniform(1, 71))
        b = (rng.uniform(1, 95), rng.uniform(1, 71))
        if not (dense.point_clear(a) and dense.point_clear(b)):
            continue
        exact = dense.route(a, b)
        found = sparse.route(a, b)
        assert (exact is None) == (found is None)
        if exact is None or found is None:
            continue
        checked += 1
        assert found[0] == a and found[-1] == b
        assert sparse.path_clear(found)
        # Never shorter than the shortest route, and close to it.
        assert length(found) >= length(exact) - 1e-9
        assert length(found) <= length(exact) * 1.25
    assert checked > 50


def test_nearest_enemies_match_a_brute_force_sort():
    scenario = load_scenario("vsgmr/field")
    game = Game(scenario, 3)
    state = game.state
    foes = _foes(state, "grey")
    rng = random.Random(5)
    for _ in range(200):
        p = (round(rng.uniform(0, 48), 1), round(rng.uniform(0, 36), 1))
        enemies = [f for f in state.figs.values() if f.side != "grey" and f.active]
        order = sorted(enemies, key=lambda e, p=p: math.dist(foes.at[enemies.index(e)], p))
        assert [f.id for f in foes.nearest(p, 2)] == [f.id for f in order[:2]]


def test_candidates_of_a_tiled_scenario_are_legal():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).parents[3] / "benchmarks" / "bench_vsgmr_large.py"
    spec = importlib.util.spec_from_file_location("bench_vsgmr_large", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    scenario = bench.large_scenario(120)
    game = Game(scenario, 1)
    side = game.waiting_for()[0]
    game.apply(game.legal_actions(side)[0], side)
    side = game.waiting_for()[0]
    moves = movement_candidates(game.ruleset, game.state, side)
    assert len(moves) > 100
    for move in moves[::7]:
        assert game.refusal(move, side) is None, move


def _crowded(rows: int) -> tuple[Table, Terrain]:
    """Small round impassable features (24 points, 0.4" radius) 3" apart, ``rows`` x ``rows``
    of them on a 40" x 40" table (the dense benchmark's layout in small)."""
    features = []
    for i in range(rows):
        for j in range(rows):
            cx, cy = 6.5 + 3 * i, 6.5 + 3 * j
            points = [
                (
                    cx + 0.4 * math.cos(2 * math.pi * t / 24),
                    cy + 0.4 * math.sin(2 * math.pi * t / 24),
                )
                for t in range(24)
            ]
            features.append(Feature.polygon(f"d{i}_{j}", points, impassable=True))
    return Table(40, 40), Terrain(features)


def test_small_round_obstacles_get_eight_nodes_only_in_sparse_meshes():
    table, terrain = _crowded(4)
    few = NavMesh(table, terrain, 0.5)
    assert few.dense and len(few.nodes) == 16 * 16  # their own outlines, as always
    table, terrain = _crowded(11)
    many = NavMesh(table, terrain, 0.5)
    assert not many.dense and len(many.nodes) == 8 * 121
    # Each node keeps clear of every obstacle, beyond the base and the clearance.
    assert many.points_clear([(float(x), float(y)) for x, y in many.nodes]).all()


def test_crowded_nodes_try_the_nearest_first_and_keep_routes_clear_and_short(monkeypatch):
    table, terrain = _crowded(11)
    every = NavMesh(table, terrain, 0.5)  # every node within REACH tried, as on open tables
    nearest = NavMesh(table, terrain, 0.5)
    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        a = (rng.uniform(2, 38), rng.uniform(2, 38))
        b = (rng.uniform(2, 38), rng.uniform(2, 38))
        if not (every.point_clear(a) and every.point_clear(b)) or every.line_clear(a, b):
            continue
        monkeypatch.setattr(nav, "OPEN_NODES", 10**9)
        full = every.route(a, b)
        monkeypatch.setattr(nav, "OPEN_NODES", 0)
        found = nearest.route(a, b)
        assert full is not None and found is not None
        checked += 1
        assert found[0] == a and found[-1] == b
        assert nearest.path_clear(found)
        assert length(found) <= length(full) * 1.05
    assert checked > 20
    # A node tried only its nearest neighbours: far fewer edges than trying all.
    tried = [i for i in nearest._edges if i in every._edges]
    assert tried
    assert sum(len(nearest._edges[i][0]) for i in tried) < sum(
        len(every._edges[i][0]) for i in tried
    )
