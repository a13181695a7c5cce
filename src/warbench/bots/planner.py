"""The planner bot: greedy that plays the scenario (``Ruleset.plan``).

Where the greedy bot scores an action by the material it is expected to win,
the planner asks the ruleset's :meth:`~warbench.core.ruleset.Ruleset.plan`,
which adds what the victory conditions ask (hold a place until the turn that
wins, reach the objective, keep a named base alive), the worth of holding
back, and attacks valued with the friends that can join them on one target.
A ruleset without a plan of its own scores as greedy does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.bots.greedy import GreedyBot
from warbench.core.actions import Action
from warbench.core.decisions import DecisionKind

if TYPE_CHECKING:
    from warbench.core.seat import Seat


class PlannerBot(GreedyBot):
    """Greedy that plays the scenario: the best of ``ruleset.plan``'s scores.

    Ties go to a seeded pick and sealed choices to the ruleset's mixed strategy, as
    greedy's do."""

    name = "planner"

    def choose(self, game: Seat, side: str) -> Action:
        decision = game.decision
        if decision is not None and decision.kind is DecisionKind.SEALED:
            mixed = game.ruleset.sealed_strategy(game.state, side, self._random)
            if mixed is not None:
                return mixed
        actions = self.legal(game, side)
        scores = game.ruleset.plan(game.state, side, actions)
        best = max(scores)
        top = [i for i, score in enumerate(scores) if score >= best - 1e-9]
        return actions[top[int(self._random.random() * len(top))]]
