"""A round base's rough moment worked out from its start and legs alone, shapes made only
near rough terrain (``space._round_rough_moment``), is the one worked out from every
turn and leg's swept shape (``space._swept_rough_moment``): many moves of one, two and
three legs, with turns and held facings, across the scenarios' rough ground."""

from __future__ import annotations

import random

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.geometry.table import Leg, RoundBase
from warbench.rulesets.vsgmr import space


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_round_rough_moment_is_the_swept_one(name: str) -> None:
    state = Game(load_scenario(f"vsgmr/{name}"), 1).state
    table = state.setup.table
    figs = [f for f in state.figs.values() if isinstance(f.geo.base, RoundBase)]
    rough = {f.profile.aquatic: space._rough(state, f) for f in figs}
    assert any(rough.values())
    rng = random.Random(5)
    scene = space.scene(state)
    outcomes = set()
    for _ in range(600):
        fig = rng.choice(figs)
        x, y = rng.uniform(1, table.width - 1), rng.uniform(1, table.height - 1)
        start = fig.geo.moved_to((x, y), rng.uniform(0, 360))
        legs = []
        for _ in range(rng.randint(1, 3)):
            x = min(max(x + rng.uniform(-6, 6), 0.0), table.width)
            y = min(max(y + rng.uniform(-6, 6), 0.0), table.height)
            held = rng.choice([None, None, rng.uniform(0, 360)])
            legs.append(Leg((round(x, 2), round(y, 2)), held))
        facing = rng.choice([None, rng.uniform(0, 360)])
        result = scene.plan_move(
            start, legs, allowance=12.0, rules=space.MOVE_RULES, final_facing=facing
        )
        found = rough[fig.profile.aquatic]
        for at_start in (False, True):
            want = space._swept_rough_moment(found, start, result, at_start)
            assert space._round_rough_moment(found, start, result, at_start) == want
            outcomes.add(want)
    assert outcomes == {False, True}
