"""A whole bot-vs-bot game played in one call, for simulations.

A ruleset may offer :meth:`~warbench.core.ruleset.Ruleset.playout`: given the
scenario, the game seed and the bots, it plays the game to its end in one go
(MiniWars does it in a compiled kernel) and returns what happened. It must be
the very game the engine would play action by action with the same seeds:
the same actions, hence the same dice, outcome and final state. Tests hold
each such ruleset to that by replaying the actions through a
:class:`~warbench.core.game.Game`.
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.actions import Action


@dataclass(frozen=True, slots=True)
class Playout:
    """A finished game as a playout returns it."""

    actions: list[tuple[str, Action]]
    """(side, action) in the order they were taken."""
    winner: str | None
    reason: str
    turns: int
