"""The Bot protocol every bot implements (random, greedy, and MCTS to come)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from warbench.core.actions import Action
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.core.seat import Seat


class Bot(Protocol):
    """Chooses one legal action for ``side`` in ``game``.

    ``game`` is the side's :class:`~warbench.core.seat.Seat` (``Game.seat``):
    what that side may know and nothing more, so a bot cannot read another
    side's secret even by accident; ``side`` is the seat's side. The caller
    applies the action the bot returns. Bots draw randomness from their own
    seeded stream, never from the game's dice.
    """

    name: str

    def choose(self, game: Seat, side: str) -> Action: ...


class SeededBot:
    """Base of the built-in bots: a private seeded stream and the legal actions."""

    name = "seeded"
    reads_state = False
    """Whether the bot reads ``seat.state`` (so it cannot play hidden-information games)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    @property
    def stream(self) -> random.Random:
        """The bot's own seeded stream (what a kernel continuing its play draws on)."""
        return self._random

    def legal(self, game: Seat, side: str) -> Sequence[Action]:
        actions = game.legal_actions(side)
        if not actions:
            raise WarbenchError(f"{side} has no legal action to choose from")
        return actions
