"""A light game for bots that look ahead: a state copy played on with dice of its own.

Search bots (mcts, search) simulate from the state their side may know
(``seat.state``) with the ruleset's own hooks (``apply``, ``proceed``,
``apply_sealed``, ``hold_sealed``) and dice of their own seed. A choice another
side held before the search began cannot be known: opening it raises
:class:`Unseen`, and the simulation stops there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.decisions import Decision, DecisionKind
from warbench.core.dice import Dice
from warbench.core.game import Resolution
from warbench.errors import IllegalAction

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

MAX_AUTO_STEPS = 10_000
"""Automatic steps in a row a simulation allows (as the engine does)."""


class Unseen(Exception):
    """The simulation came to open a choice another side held before the search began:
    the bot cannot know it, so the iteration stops there and is valued as it stands."""


class SimResolution(Resolution):
    """The engine's Resolution, refusing to make up a held choice nobody gave it."""

    __slots__ = ()

    def open_held(self, side: str) -> Action | None:
        action = super().open_held(side)
        if action is None:
            raise Unseen(side)
        return action


class Refused(Exception):
    """An action the simulation tried was refused in this sample (open tables list
    candidates, and a determinised world may refuse what the real one allows)."""


class Sim:
    """A light game for simulation: a state copy, own dice, held choices, expected gains."""

    __slots__ = ("dice", "gains", "held", "ruleset", "state")

    def __init__(
        self, ruleset: Ruleset[Any], state: Any, seed: int, held: Mapping[str, Action]
    ) -> None:
        self.ruleset = ruleset
        self.state = state
        self.dice = Dice(seed)
        self.held = dict(held)
        self.gains: dict[str, float] = {}

    def decision(self) -> Decision | None:
        """What the simulated game asks now, after its automatic steps."""
        ruleset, state = self.ruleset, self.state
        for _ in range(MAX_AUTO_STEPS):
            decision = ruleset.decision(state)
            if decision is None or decision.kind is not DecisionKind.AUTO:
                return decision
            res = SimResolution(self.dice, self.held)
            ruleset.proceed(state, res)
            self._opened(res)
        raise RuntimeError("the ruleset proceeded automatically for too long")

    def act(self, decision: Decision, choices: Mapping[str, Action]) -> None:
        """Apply one side's choice, or a sealed round's choices together."""
        res = SimResolution(self.dice, self.held)
        try:
            if decision.kind is DecisionKind.SEALED:
                for side, action in choices.items():
                    self.ruleset.check_sealed(self.state, side, action)
                if decision.hold:
                    self.ruleset.hold_sealed(self.state, decision.sides, res)
                    self.held.update(choices)
                else:
                    self.ruleset.apply_sealed(self.state, choices, res)
            else:
                ((side, action),) = choices.items()
                self.ruleset.apply(self.state, side, action, res)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        self._opened(res)

    def _opened(self, res: Resolution) -> None:
        for side in res.opened:
            self.held.pop(side, None)

    def gain(self, side: str, score: float) -> None:
        self.gains[side] = self.gains.get(side, 0.0) + score


__all__ = ["MAX_AUTO_STEPS", "Refused", "Sim", "SimResolution", "Unseen"]
