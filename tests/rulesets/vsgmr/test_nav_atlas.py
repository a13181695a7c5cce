"""A mesh built from the set-up's atlas of clearance tests (:class:`nav._Atlas`) is the
mesh built by testing again: the same nodes, ring neighbours, distances and next hops,
for layouts that lost any of their obstacles, at several base sizes."""

from __future__ import annotations

import random

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.nav import NavMesh, _Atlas


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_atlas_meshes_equal_tested_ones(name: str) -> None:
    state = Game(load_scenario(f"vsgmr/{name}"), 1).state
    setup = state.setup
    ids = [f.id for f in setup.features if f.blocks_movement]
    full = setup.terrain(frozenset())
    rng = random.Random(7)
    used = 0
    for radius in (0.5, 1.0, 0.3):
        atlas = _Atlas(setup.table, [f for f in full.active if f.blocks_movement], radius)
        drops = [(), *(tuple(rng.sample(ids, rng.randint(1, len(ids)))) for _ in range(12))]
        for drop in drops:
            terrain = setup.terrain(frozenset(drop))
            tested = NavMesh(setup.table, terrain, radius)
            read = NavMesh(setup.table, terrain, radius, atlas)
            used += atlas.layout([f for f in terrain.active if f.blocks_movement]) is not None
            assert read.dense == tested.dense
            assert read.nodes.tobytes() == tested.nodes.tobytes()
            assert read._before.tobytes() == tested._before.tobytes()
            assert read._after.tobytes() == tested._after.tobytes()
            if tested.dense:
                assert read.dist.tobytes() == tested.dist.tobytes()
                assert read.next.tobytes() == tested.next.tobytes()
    assert used
