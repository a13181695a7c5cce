"""The greedy bot: one ply, best expected gain by the ruleset's exact odds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.bots.base import SeededBot
from warbench.core.actions import Action
from warbench.core.decisions import DecisionKind

if TYPE_CHECKING:
    from warbench.core.seat import Seat


class GreedyBot(SeededBot):
    """Scores every legal action with ``ruleset.evaluate`` and plays the best.

    The scores are expected material gains computed from the exact odds and
    unit costs (each ruleset defines its own). Ties go to a seeded random pick,
    so two greedy bots do not play the same game every time. In a sealed
    simultaneous decision it plays the ruleset's mixed strategy when there is
    one (``Ruleset.sealed_strategy``): a fixed best reply could be read.
    """

    name = "greedy"
    reads_state = True

    def choose(self, game: Seat, side: str) -> Action:
        decision = game.decision
        if decision is not None and decision.kind is DecisionKind.SEALED:
            mixed = game.ruleset.sealed_strategy(game.state, side, self._random)
            if mixed is not None:
                return mixed
        actions = self.legal(game, side)
        scores = self.scores(game, side, actions)
        best = max(scores)
        top = [i for i, score in enumerate(scores) if score >= best - 1e-9]
        return actions[top[int(self._random.random() * len(top))]]

    def scores(self, game: Seat, side: str, actions: Sequence[Action]) -> list[float]:
        """The one-ply scores the bot plays the best of: ``ruleset.evaluate``'s."""
        return game.ruleset.evaluate(game.state, side, actions)
