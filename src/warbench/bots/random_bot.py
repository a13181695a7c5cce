"""The random bot: uniform over the legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.bots.base import SeededBot
from warbench.core.actions import Action

if TYPE_CHECKING:
    from warbench.core.seat import Seat


class RandomBot(SeededBot):
    """Picks uniformly among the legal actions of its side."""

    name = "random"

    def choose(self, game: Seat, side: str) -> Action:
        actions = self.legal(game, side)
        return actions[int(self._random.random() * len(actions))]
