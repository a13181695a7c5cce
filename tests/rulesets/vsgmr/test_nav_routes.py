"""A dense mesh's route to a goal whose sight lines are tested one at a time, best pair
first (:meth:`nav.NavMesh._nearest_seen`), is the route of the full search that tests
them all at once: the same points, for many starts and goals (open, behind obstacles,
inside them), at several base sizes; and the cheaper ``np.unique`` of sorted values
(:func:`nav._runs`) gives what ``np.unique`` gives."""

from __future__ import annotations

import random

import numpy as np
import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr import space
from warbench.rulesets.vsgmr.nav import NavMesh, _runs


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_goal_tested_lazily_gives_the_full_search_route(name: str) -> None:
    state = Game(load_scenario(f"vsgmr/{name}"), 1).state
    setup = state.setup
    table = setup.table
    terrain = space.terrain(state)
    rng = random.Random(11)
    lazily = 0
    for radius in (0.5, 1.0, 0.3):
        quick = NavMesh(table, terrain, radius)
        full = NavMesh(table, terrain, radius)
        assert quick.dense
        nodes = [(float(x), float(y)) for x, y in quick.nodes.tolist()]
        for _ in range(150):
            start = (round(rng.uniform(0, table.width), 2), round(rng.uniform(0, table.height), 2))
            if rng.random() < 0.3:  # a goal just beside a node: around a corner
                x, y = rng.choice(nodes)
                goal = (round(x + rng.uniform(-1, 1), 2), round(y + rng.uniform(-1, 1), 2))
            else:
                goal = (
                    round(rng.uniform(0, table.width), 2),
                    round(rng.uniform(0, table.height), 2),
                )
            if not quick.line_clear(start, goal) and quick.point_clear(goal):
                lazily += 1
            full._seen[goal] = full._visible(goal)  # known: the full search decides
            assert quick._route(start, goal) == full._route(start, goal)
    assert lazily > 50


def test_runs_is_unique_of_sorted_values() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 60, 400):
        for _ in range(50):
            values = np.sort(rng.integers(0, 25, n)).astype(np.intp)
            want, want_which = np.unique(values, return_inverse=True)
            got, which = _runs(values)
            assert got.tolist() == want.tolist()
            assert which.tolist() == want_which.tolist()
