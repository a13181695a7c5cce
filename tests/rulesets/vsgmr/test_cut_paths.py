"""A figure's raw candidates built with the routes' cut paths kept across games of the
set-up (``candidates._Builder._cut``) are those built with nothing kept: at every
movement decision of random and greedy games, for every figure that may move."""

from __future__ import annotations

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.candidates import _Builder
from warbench.rulesets.vsgmr.rules import VSGMRRules


@pytest.mark.parametrize("name", ["street", "field", "relic"])
def test_kept_cut_paths_give_the_same_candidates(name: str) -> None:
    scenario = load_scenario(f"vsgmr/{name}")
    built = kept = 0
    for seed, bot in ((1, "random"), (2, "greedy"), (3, "random")):
        game = Game(scenario, seed)
        rules = game.ruleset
        assert isinstance(rules, VSGMRRules)
        bots = {side: make_bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)}
        while waiting := game.waiting_for():
            state = game.state
            side = waiting[0]
            if state.phase == "movement":
                for fig in state.side_figs(side):
                    if not rules.may_move(state, fig):
                        continue
                    shared = _Builder(rules, state, fig)
                    kept += sum(
                        1 for key in shared.cut_paths if key[0] == shared.start
                    )  # the shared cache knows routes from here already
                    fresh = _Builder(rules, state, fig)
                    fresh.cut_paths = {}
                    assert shared.build() == fresh.build()
                    built += 1
            game.apply(bots[side].choose(game.seat(side), side), side)
    assert built > 50 and kept > 50
