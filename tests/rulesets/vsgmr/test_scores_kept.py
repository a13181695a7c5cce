"""The greedy bot's and the planner's scores come from results kept across actions and
games (move scores, quick looks, enemy odds, per set-up; movers, per state). After every
action of random and greedy games, the scores of every legal action equal, float for
float, those worked out afresh: on a copy of the state with nothing worked out, with
the set-up's caches emptied for the while."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.evaluate import evaluate
from warbench.rulesets.vsgmr.plan import plan
from warbench.rulesets.vsgmr.state import State

MAX_ACTIONS = 150


def _scores(rules: Any, state: State, side: str, actions: list[Any]) -> tuple[Any, ...]:
    return (evaluate(rules, state, side, actions), plan(rules, state, side, actions))


def _fresh_scores(rules: Any, state: State, side: str, actions: list[Any]) -> tuple[Any, ...]:
    """The scores with nothing kept: a copy without caches or kept results, the set-up's
    caches emptied (and given back after)."""
    clone: State = rules.copy_state(state)
    clone.caches = {}
    clone.kept = {}
    caches = state.setup.caches
    kept = dict(caches)
    caches.clear()
    try:
        return _scores(rules, clone, side, actions)
    finally:
        caches.clear()
        caches.update(kept)


@pytest.mark.parametrize(
    ("name", "bot", "seed"),
    [
        ("relic", "random", 1),
        ("relic", "random", 2),
        ("relic", "greedy", 3),
        ("relic", "greedy", 4),
        ("relic", "greedy", 5),
        ("street", "random", 6),
        ("street", "greedy", 7),
        ("field", "random", 8),
        ("field", "greedy", 9),
    ],
)
def test_kept_scores_equal_fresh_ones(name: str, bot: str, seed: int) -> None:
    scenario = load_scenario(f"vsgmr/{name}")
    # An earlier game of the set-up first: its kept scores are there to be (mis)used.
    for warm in (seed + 100, seed):
        game = Game(scenario, warm)
        bots = {side: make_bot(bot, warm * 10 + i) for i, side in enumerate(scenario.sides)}
        rules: Any = game.ruleset
        checked = 0
        for _ in range(MAX_ACTIONS):
            waiting = game.waiting_for()
            if not waiting:
                break
            side = waiting[0]
            state = game.state
            actions = list(game.legal_actions(side))
            if warm == seed and len(actions) > 1:
                kept = _scores(rules, state, side, actions)
                fresh = _fresh_scores(rules, state, side, actions)
                assert kept == fresh, f"after {len(game.actions)} actions"
                checked += 1
            game.apply(bots[side].choose(game.seat(side), side), side)
        if warm == seed:
            assert checked > 10
