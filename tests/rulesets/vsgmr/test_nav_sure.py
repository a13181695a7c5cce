"""The mesh's shortcut for lines surely near an obstacle (:meth:`NavMesh._surely_near`)
never claims a pair the exact test (``shapely.dwithin``) finds clear, and the line
tests that use it (:meth:`NavMesh._lines_clear`) answer as the exact test alone does:
lines from random points and from the layouts' own nodes to every node, and lines that
graze obstacles' corners and edges by tiny amounts, on every VSGMR layout."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.nav import NavMesh


def _exact(mesh: NavMesh, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    near = shapely.dwithin(lines[:, None], mesh._obstacles[None, :], mesh.clear_by)
    return np.asarray(~near.any(axis=1))


def _grazing(mesh: NavMesh, rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
    """Lines through points at about the clearance from obstacles' corners and edges."""
    corners = np.concatenate([mesh._edge_a, mesh._edge_b])
    pick = corners[rng.integers(0, len(corners), count)]
    angle = rng.uniform(0.0, 2 * np.pi, count)
    off = mesh.clear_by * (1.0 + rng.choice([-1e-12, -1e-9, 0.0, 1e-9, 1e-12, 1e-6], count))
    through = pick + off[:, None] * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    turn = angle + np.pi / 2 + rng.normal(0.0, 1e-7, count)
    reach = rng.uniform(0.0, 20.0, (count, 2))
    step = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    return through - reach[:, :1] * step, through + reach[:, 1:] * step


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_sure_lines_agree_with_the_exact_test(name: str) -> None:
    state = Game(load_scenario(f"vsgmr/{name}"), 1).state
    setup = state.setup
    rng = np.random.default_rng(11)
    ids = [f.id for f in setup.features if f.blocks_movement]
    sure_seen = 0
    for radius in (0.5, 1.0, 0.3):
        for drop in [(), tuple(ids[::2]), tuple(ids[1::3])]:
            mesh = NavMesh(setup.table, setup.terrain(frozenset(drop)), radius)
            if not len(mesh._obstacles) or not len(mesh.nodes):
                continue
            n = len(mesh.nodes)
            starts = rng.uniform(0.0, [setup.table.width, setup.table.height], (60, 2))
            cases = [(np.broadcast_to(p, (n, 2)), mesh.nodes) for p in starts]
            cases += [(np.broadcast_to(p, (n, 2)), mesh.nodes) for p in mesh.nodes[:20]]
            cases.append(_grazing(mesh, rng, 3000))
            for a, b in cases:
                a = np.ascontiguousarray(a, dtype=np.float64)
                b = np.ascontiguousarray(b, dtype=np.float64)
                line, obstacle = mesh._may_meet(a, b)
                sure = mesh._surely_near(a, b, line, obstacle)
                if sure.any():
                    made = shapely.linestrings(np.stack([a[line[sure]], b[line[sure]]], axis=1))
                    exact = shapely.dwithin(made, mesh._obstacles[obstacle[sure]], mesh.clear_by)
                    assert exact.all()
                    sure_seen += int(sure.sum())
                assert (mesh._lines_clear(a, b) == _exact(mesh, a, b)).all()
    assert sure_seen
