"""Depth crossed by half-planes (:mod:`warbench.geometry.table.depth`) decides as
shapely's ``length(intersection(line, area))`` does: sight's test of lines from an eye
(round and rectangular bases, and points) into areas seen into to a depth, on random
lines, lines about as deep as the limit, and the lines the bisection of a silhouette's
edge asks for."""

from __future__ import annotations

import math
import random

import numpy as np
import shapely

from warbench.geometry.table import Feature, Figure, RectBase, RoundBase
from warbench.geometry.table.index import FigureIndex
from warbench.geometry.table.sight import _DEPTH_EPS, _Looking
from warbench.geometry.table.terrain import Terrain

AREAS = [
    Feature.polygon(
        "square", [(10, 0), (15, 0), (15, 30), (10, 30)], see_depth=2.0, blocks_los="beyond"
    ),
    Feature.polygon(
        "round",
        [
            (30 + 4 * math.cos(a), 15 + 3 * math.sin(a))
            for a in np.linspace(0, 2 * math.pi, 64, endpoint=False).tolist()
        ],
        see_depth=2.0,
        blocks_los="beyond",
    ),
    Feature.polygon("thin", [(20, 2), (21, 2.5), (20.2, 8)], see_depth=0.5, blocks_los="beyond"),
]


def _shapely_deep(look: _Looking, owner: int, ends: np.ndarray) -> list[bool]:
    a, left = look._from_eye(ends)
    lines = shapely.linestrings(np.stack([a, ends], axis=1))
    crossed = shapely.length(shapely.intersection(lines, look.terrain.geoms[owner]))
    limit = float(look.terrain.depth[owner]) + _DEPTH_EPS
    return [bool(ok and c > limit) for c, ok in zip(crossed.tolist(), left.tolist(), strict=True)]


def test_depth_by_half_planes_decides_as_shapely() -> None:
    terrain = Terrain(AREAS)
    figures = FigureIndex([])
    rng = random.Random(3)
    checked = 0
    eyes: list[Figure | tuple[float, float]] = []
    for _ in range(40):
        x, y = rng.uniform(0, 45), rng.uniform(0, 30)
        eyes.append(Figure("e", x, y, rng.uniform(0, 360), RoundBase(rng.choice([1.0, 1.6]))))
        eyes.append(Figure("e", x, y, rng.uniform(0, 360), RectBase(1.0, 2.0)))
        eyes.append((x, y))
    for eye in eyes:
        p = eye.at if isinstance(eye, Figure) else eye
        look = _Looking(terrain, figures, eye, p, p, 0.0, set())
        for owner, feature in enumerate(terrain.active):
            ends = [(rng.uniform(0, 45), rng.uniform(0, 30)) for _ in range(30)]
            # Lines about as deep as the limit: ends placed by bisection on shapely's measure.
            centre = shapely.centroid(feature.geometry)
            for _ in range(6):
                angle = rng.uniform(-0.3, 0.3) + math.atan2(centre.y - p[1], centre.x - p[0])
                lo, hi = 0.0, 60.0
                for _ in range(rng.choice([20, 40, 60])):
                    mid = (lo + hi) / 2
                    end = np.array([[p[0] + mid * math.cos(angle), p[1] + mid * math.sin(angle)]])
                    if _shapely_deep(look, owner, end)[0]:
                        hi = mid
                    else:
                        lo = mid
                ends += [(p[0] + r * math.cos(angle), p[1] + r * math.sin(angle)) for r in (lo, hi)]
            at = np.array(ends, dtype=np.float64)
            assert look._too_deep(owner, at).tolist() == _shapely_deep(look, owner, at)
            checked += len(ends)
    assert checked
