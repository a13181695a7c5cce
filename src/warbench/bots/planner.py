"""The planner bot: greedy that plays the scenario (``Ruleset.plan``).

Where the greedy bot scores an action by the material it is expected to win,
the planner asks the ruleset's :meth:`~warbench.core.ruleset.Ruleset.plan`,
which adds what the victory conditions ask (hold a place until the turn that
wins, reach the objective, keep a named base alive), the worth of holding
back, and attacks valued with the friends that can join them on one target.
A ruleset without a plan of its own scores as greedy does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.bots.greedy import GreedyBot
from warbench.core.actions import Action

if TYPE_CHECKING:
    from warbench.core.seat import Seat


class PlannerBot(GreedyBot):
    """Greedy that plays the scenario: the best of ``ruleset.plan``'s scores.

    Ties go to a seeded pick and sealed choices to the ruleset's mixed strategy, as
    greedy's do."""

    name = "planner"

    def scores(self, game: Seat, side: str, actions: Sequence[Action]) -> list[float]:
        return game.ruleset.plan(game.state, side, actions)
