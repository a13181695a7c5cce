"""The mesh's judgement of lines by circles (:meth:`NavMesh._sure`) never disagrees with
the exact clearance test (``shapely.dwithin``), and the line tests that use it
(:meth:`NavMesh._lines_clear`) answer as the exact test alone does: lines from random
points and from the layouts' own nodes to every node, and lines that graze the
obstacles' corners and their inner and outer circles by tiny amounts, on every VSGMR
layout and several base sizes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
import shapely

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.nav import NavMesh

Floats = npt.NDArray[np.float64]


def _exact(mesh: NavMesh, a: Floats, b: Floats) -> npt.NDArray[np.bool_]:
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    near = shapely.dwithin(lines[:, None], mesh._obstacles[None, :], mesh.clear_by)
    return np.asarray(~near.any(axis=1))


def _grazing(
    centres: Floats, gaps: Floats, rng: np.random.Generator, count: int
) -> tuple[Floats, Floats]:
    """Lines passing about ``gaps`` from ``centres`` (picked at random), tangent-wise."""
    pick = rng.integers(0, len(centres), count)
    angle = rng.uniform(0.0, 2 * np.pi, count)
    off = gaps[pick] * (1.0 + rng.choice([-1e-12, -1e-9, 0.0, 1e-9, 1e-12, 1e-6], count))
    through = centres[pick] + off[:, None] * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    turn = angle + np.pi / 2 + rng.normal(0.0, 1e-7, count)
    reach = rng.uniform(0.0, 20.0, (count, 2))
    step = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    return through - reach[:, :1] * step, through + reach[:, 1:] * step


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_lines_judged_by_circles_agree_with_the_exact_test(name: str) -> None:
    setup = Game(load_scenario(f"vsgmr/{name}"), 1).state.setup
    rng = np.random.default_rng(11)
    ids = [f.id for f in setup.features if f.blocks_movement]
    decided = 0
    for radius in (0.5, 1.0, 0.3):
        for drop in [(), tuple(ids[::2]), tuple(ids[1::3])]:
            mesh = NavMesh(setup.table, setup.terrain(frozenset(drop)), radius)
            if not len(mesh._obstacles) or not len(mesh.nodes):
                continue
            n = len(mesh.nodes)
            size = [setup.table.width, setup.table.height]
            cases = [
                (np.broadcast_to(p, (n, 2)), mesh.nodes) for p in rng.uniform(0, size, (60, 2))
            ]
            cases += [(np.broadcast_to(p, (n, 2)), mesh.nodes) for p in mesh.nodes[:20]]
            corners = shapely.get_coordinates(mesh._obstacles)
            has_inner = np.isfinite(mesh._inner_r)
            for centres, gaps in [
                (corners, np.full(len(corners), mesh.clear_by)),
                (mesh._inner[has_inner], mesh._inner_r[has_inner] + mesh.clear_by),
                (mesh._outer, mesh._outer_r + mesh.clear_by),
            ]:
                if len(centres):
                    cases.append(_grazing(centres, gaps, rng, 1500))
            for a, b in cases:
                a = np.ascontiguousarray(a, dtype=np.float64)
                b = np.ascontiguousarray(b, dtype=np.float64)
                line, obstacle = mesh._may_meet(a, b)
                near, far = mesh._sure(a, b, line, obstacle)
                made = shapely.linestrings(np.stack([a[line], b[line]], axis=1))
                exact = shapely.dwithin(made, mesh._obstacles[obstacle], mesh.clear_by)
                assert exact[near].all()
                assert not exact[far].any()
                decided += int(near.sum() + far.sum())
                for part in range(0, len(a), 40):  # batches small enough for the pair test
                    piece = slice(part, part + 40)
                    got = mesh._lines_clear(a[piece], b[piece])
                    assert (got == _exact(mesh, a[piece], b[piece])).all()
    assert decided


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_points_and_paths_judged_by_circles_agree_with_the_exact_test(name: str) -> None:
    """:meth:`NavMesh._clear_points` (points, lines and paths) as the exact test of the
    obstacles near it alone answers, with grazing lines as above."""
    setup = Game(load_scenario(f"vsgmr/{name}"), 1).state.setup
    rng = np.random.default_rng(5)
    size = np.array([setup.table.width, setup.table.height])
    for radius in (0.5, 1.0):
        mesh = NavMesh(setup.table, setup.terrain(frozenset()), radius)
        has_inner = np.isfinite(mesh._inner_r)
        starts, ends = [], []
        for centres, gaps in [
            (mesh._inner[has_inner], mesh._inner_r[has_inner] + mesh.clear_by),
            (mesh._outer, mesh._outer_r + mesh.clear_by),
        ]:
            if len(centres):
                a, b = _grazing(centres, gaps, rng, 1500)
                starts.append(a)
                ends.append(b)
        starts.append(rng.uniform(0, size, (1500, 2)))
        ends.append(starts[-1] + rng.normal(0.0, 6.0, (1500, 2)))
        paths: list[list[tuple[float, float]]] = []
        for a, b in zip(
            np.concatenate(starts).tolist(), np.concatenate(ends).tolist(), strict=True
        ):
            paths.append([tuple(a)])
            paths.append([tuple(a), tuple(b)])
            bend = (b[0] + rng.normal(0.0, 3.0), b[1] + rng.normal(0.0, 3.0))
            paths.append([tuple(a), tuple(b), bend])
        for points in paths:
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            near = mesh._near(min(xs), min(ys), max(xs), max(ys))
            geom = shapely.LineString(points) if len(points) > 1 else shapely.Point(points[0])
            assert mesh._clear_points(points) == mesh._clear_near(geom, near)
