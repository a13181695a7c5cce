"""The random bot: uniform over the legal actions.

It asks its seat for one action drawn with its own stream
(:meth:`~warbench.core.seat.Seat.sample_action`) rather than for the whole list:
the draw is as uniform as an index into the list, but where a ruleset builds its
actions in parts (the open tables' candidate moves) only the part drawn is built."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.bots.base import SeededBot
from warbench.core.actions import Action
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.core.seat import Seat


class RandomBot(SeededBot):
    """Picks uniformly among the legal actions of its side."""

    name = "random"

    def choose(self, game: Seat, side: str) -> Action:
        action = game.sample_action(self._random.random, side)
        if action is None:
            raise WarbenchError(f"{side} has no legal action to choose from")
        return action
