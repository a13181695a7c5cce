"""The random bot: uniform over the legal actions."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.core.game import Game


class RandomBot:
    """Picks uniformly among the legal actions of its side."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, game: Game, side: str) -> Action:
        actions = game.legal_actions(side)
        if not actions:
            raise WarbenchError(f"{side} has no legal action to choose from")
        return actions[int(self._random.random() * len(actions))]
