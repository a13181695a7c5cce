"""The Bot protocol every bot implements (random, greedy, and MCTS to come)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warbench.core.actions import Action

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
