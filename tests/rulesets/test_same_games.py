"""Same seed, same game (issue 28): recorded open-table games replay action by action.

``tests/corpus/games/open_tables.json`` holds, for every built-in scenario of VSGMR,
MGV and Invisible Enemy, a random-vs-random and a greedy-vs-greedy game (seed 1,
the bots seeded ``seed * 10 + i`` as ``benchmarks/bench_open_tables.py`` seeds
them): the text of every action and the final state digest, recorded before the
engines were sped up. A speed-up may not change which action a bot picks, nor
what the rules make of it. ``benchmarks/check_same_games.py`` checks many more
seeds against a record it writes itself.

The random games were recorded when the random bot drew an index of the whole legal
list; it now draws through the ruleset's groups (``core/sampling.py``: as uniform,
but another sequence of actions), so they are replayed by :class:`IndexBot`, which
draws as it did. What they check is the engine: the same legal lists, in the same
order, and the same rulings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.bots.base import SeededBot
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.seat import Seat

RECORDED = Path(__file__).resolve().parents[1] / "corpus" / "games" / "open_tables.json"
GAMES: dict[str, Any] = json.loads(RECORDED.read_text())


class IndexBot(SeededBot):
    """The random bot as it was: one draw picks an index of the whole legal list."""

    def choose(self, game: Seat, side: str) -> Action:
        actions = self.legal(game, side)
        return actions[int(self._random.random() * len(actions))]


def _play(scenario_id: str, bot: str, seed: int) -> tuple[list[str], str]:
    scenario = load_scenario(scenario_id)
    game = Game(scenario, seed)
    make = IndexBot if bot == "random" else lambda seed: make_bot(bot, seed)
    bots = {side: make(seed * 10 + i) for i, side in enumerate(scenario.sides)}
    actions: list[str] = []
    while waiting := game.waiting_for():
        side = waiting[0]
        action = bots[side].choose(game.seat(side), side)
        game.apply(action, side)
        actions.append(f"{side}: {action}")
    return actions, game.digest()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_recorded_game_replays(name: str) -> None:
    scenario_id, bot, seed = name.split()
    actions, digest = _play(scenario_id, bot, int(seed))
    want = GAMES[name]
    assert actions == want["actions"]
    assert digest == want["digest"]
