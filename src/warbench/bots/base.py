"""The Bot protocol every bot implements (random, greedy, and MCTS to come)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from warbench.core.actions import Action
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.core.game import Game


class Bot(Protocol):
    """Chooses one legal action for ``side`` in ``game``.

    A bot reads the game only through its public API (legal actions, views, the
    ruleset's evaluation and odds) and must not change it; the caller applies
    the action it returns. Bots draw randomness from their own seeded stream,
    never from the game's dice.
    """

    name: str

    def choose(self, game: Game, side: str) -> Action: ...


class SeededBot:
    """Base of the built-in bots: a private seeded stream and the legal actions."""

    name = "seeded"

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def legal(self, game: Game, side: str) -> Sequence[Action]:
        actions = game.legal_actions(side)
        if not actions:
            raise WarbenchError(f"{side} has no legal action to choose from")
        return actions
