"""Each ruleset's standing (``Ruleset.standing``, what the mcts bot values a position it
stopped short of the end by): one figure per side, in evaluate's unit, that falls when a
side loses something and only then (issue 13)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from warbench.bots import GreedyBot, MctsBot
from warbench.bots.simulation import Sim as _Sim
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios

LOSSES = {
    "miniwars": ("destroyed", "disrupted"),
    "cgme": ("destroyed", "wounded"),
    "veg": ("destroyed", "wounded"),
    "vsgmr": ("defeated",),
    "mgv": ("circles", "destroyed"),
    "invisible-enemy": ("hits", "destroyed"),
}


def _losses(game: Game) -> dict[str, tuple[Any, ...]]:
    """What each side has lost so far, as the state tells it (the test's own count)."""
    state: Any = game.state
    name = game.ruleset.info.name
    out: dict[str, list[Any]] = {side: [] for side in game.scenario.sides}
    if name == "miniwars":
        for u in state.units.values():
            out[u.side].append((u.id, u.on_board, u.disrupted))
    elif name in ("cgme", "veg"):
        for u in state.units.values():
            out[u.side].append((u.id, u.pos is not None, u.wounded))
    elif name == "vsgmr":
        for f in state.figs.values():
            out[f.side].append((f.id, f.active))
        for side in out:
            out[side].append(("score", state.scores.get(side, 0.0)))
    elif name == "mgv":
        for b in state.bases.values():
            out[b.side].append((b.id, b.destroyed, str(b.log)))
    else:
        for b in state.bases.values():
            out[b.side].append((b.id, b.destroyed, b.hits))
    return {side: tuple(v) for side, v in out.items()}


@pytest.mark.parametrize("scenario_id", sorted(builtin_scenarios()))
def test_standing_moves_only_with_what_a_side_has(scenario_id: str) -> None:
    game = Game.start(scenario_id, seed=4)
    start = game.ruleset.standing(game.state)
    assert start is not None, "every built-in ruleset gives a standing"
    assert set(start) == set(game.scenario.sides)
    assert all(value > 0 for value in start.values()), start
    rng = random.Random(4)
    greedy = GreedyBot(4)
    moved = 0
    games = 1
    for _ in range(6000):
        waiting = game.waiting_for()
        if not waiting:
            if moved or games == 4:
                break
            games += 1  # a game can end with nothing lost: play another
            game = Game.start(scenario_id, seed=4 + games)
            continue
        side = waiting[0]
        before, had = game.ruleset.standing(game.state), _losses(game)
        legal = list(game.legal_actions(side))
        if games > 1:  # random play may never fight: the greedy bot's choices instead
            game.apply(greedy.choose(game.seat(side), side), side)
        else:
            game.apply(rng.choice(legal), side)
        after, has = game.ruleset.standing(game.state), _losses(game)
        assert before is not None and after is not None
        for s in game.scenario.sides:
            if had[s] == has[s]:
                assert after[s] == pytest.approx(before[s]), f"{s} changed with nothing lost"
            elif after[s] != pytest.approx(before[s]):
                moved += 1
    assert moved, "four games in which no side's standing moved"


def test_mcts_values_what_the_dice_did() -> None:
    """The value of an iteration that ended short of the game's end is the standings'
    swing since the root: the side that lost a unit is the one valued lower."""
    game = Game.start("miniwars/bridge", seed=2)
    bot = MctsBot(1, iterations=2, depth=1)
    state: Any = game.ruleset.copy_state(game.state)
    bot._sides = tuple(game.scenario.sides)
    bot._root_standing = game.ruleset.standing(state)
    loser = game.scenario.sides[0]
    victim = next(u for u in state.units.values() if u.side == loser)
    state.occupant.pop(victim.pos, None)
    victim.pos = None

    sim = _Sim(game.ruleset, state, seed=1, held={})
    rewards = bot._rewards(sim, cut=False)
    winner = game.scenario.sides[1]
    assert rewards[winner] > 0.5 > rewards[loser]
