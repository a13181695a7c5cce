"""The greedy score's quick looks: how deep a line runs into terrain seen through to a
depth is decided as shapely's measure decides it (half-planes of convex features, with
shapely for the doubtful), on random lines and on lines along and between the corners
of the features; a look kept or worked out in a batch is the look worked out alone."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import shapely

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr import evaluate, space


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_depth_crossed_as_shapely_decides(name: str) -> None:
    state = Game(load_scenario(f"vsgmr/{name}"), 1).state
    pieces = evaluate._sight_pieces(space.terrain(state))
    assert pieces is not None
    tree, geoms, feats, deep, _ = pieces
    rng = random.Random(11)
    w, h = state.setup.table.width, state.setup.table.height
    asked = []
    for _ in range(3000):
        a = (round(rng.uniform(0, w), 2), round(rng.uniform(0, h), 2))
        b = (round(rng.uniform(0, w), 2), round(rng.uniform(0, h), 2))
        asked.append((a, 0.5, b, 0.5))
    for f in feats:
        if f.see_depth is None:
            continue
        corners = [tuple(p) for p in shapely.get_coordinates(f.geometry).tolist()][:24]
        asked += [(a, 0.5, b, 0.5) for a in corners for b in corners if a != b]
        centre = shapely.centroid(f.geometry)
        for _ in range(50):  # lines about as deep as the limit, through the middle
            angle = rng.uniform(0.0, 2.0 * math.pi)
            dx, dy = math.cos(angle) * 1.01, math.sin(angle) * 1.01
            asked.append(((centre.x - dx, centre.y - dy), 0.5, (centre.x + dx, centre.y + dy), 0.5))
    lines = shapely.linestrings([[eye, at] for eye, _, at, _ in asked])
    li, fi = tree.query(lines, predicate="intersects")
    through = np.nonzero(deep[fi])[0]
    assert len(through)
    got = evaluate._too_deep(pieces, asked, lines, li, fi, through)
    crossed = shapely.length(shapely.intersection(lines[li[through]], geoms[fi[through]]))
    limits = [feats[k].see_depth + 0.02 for k in fi[through].tolist()]
    assert got.tolist() == [float(c) > lim for c, lim in zip(crossed, limits, strict=True)]


def test_looks_alone_and_together() -> None:
    state = Game(load_scenario("vsgmr/field"), 1).state
    rng = random.Random(3)
    asked = [
        (
            (rng.uniform(1, 47), rng.uniform(1, 35)),
            0.5,
            (rng.uniform(1, 47), rng.uniform(1, 35)),
            0.5,
        )
        for _ in range(200)
    ]
    evaluate.prefetch_looks(state, asked)
    together = [evaluate.quick_sights(state, eye, r, [(at, tr)])[0] for eye, r, at, tr in asked]
    state.setup.caches.clear()
    alone = []
    for eye, r, at, tr in asked:
        state.setup.caches.clear()
        alone.append(evaluate.quick_sights(state, eye, r, [(at, tr)])[0])
    assert together == alone
