"""A light game for bots that look ahead: a state copy played on with dice of its own.

Search bots (mcts, search) simulate from the state their side may know
(``seat.state``) with the ruleset's own hooks (``apply``, ``proceed``,
``apply_sealed``, ``hold_sealed``) and dice of their own seed. A choice another
side held before the search began cannot be known: opening it raises
:class:`Unseen`, and the simulation stops there. :func:`search_root` and
:func:`own_held` are where both bots' searches start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.decisions import Decision, DecisionKind
from warbench.core.dice import Dice
from warbench.core.game import Resolution
from warbench.errors import HiddenInformation, IllegalAction, WarbenchError

if TYPE_CHECKING:
    import random

    from warbench.core.ruleset import Ruleset
    from warbench.core.seat import Seat

MAX_AUTO_STEPS = 10_000
"""Automatic steps in a row a simulation allows (as the engine does)."""


@dataclass(frozen=True, slots=True)
class Root:
    """Where a search starts: the decision and the state its side may know."""

    decision: Decision
    state: Any


def search_root(
    game: Seat, side: str, actions: Sequence[Action], stream: random.Random
) -> Action | Root:
    """Where a search bot's decision starts, from its seat alone (``seat.state``), or
    its choice when there is nothing to search from: a random legal one (from the
    bot's ``stream``) where its side may know no state (``check_bot`` refuses the bot
    for such a ruleset; a caller that seats it anyway gets a random legal choice, never
    a look at the whole state), or the ruleset's mixed strategy in a sealed round that
    has one."""
    decision = game.decision
    if decision is None:
        raise WarbenchError("the game is over")
    try:
        known = game.state
    except HiddenInformation:
        return actions[int(stream.random() * len(actions))]
    if decision.kind is DecisionKind.SEALED:
        mixed = game.ruleset.sealed_strategy(known, side, stream)
        if mixed is not None:
            return mixed
    return Root(decision, known)


def own_held(game: Seat, side: str) -> dict[str, Action]:
    """The side's own held choice (from its view), the only one it may know: the held
    choices a simulation from its state starts with."""
    text = game.view().get("my_held_choice")
    return {side: game.parse(str(text))} if text else {}


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


__all__ = [
    "MAX_AUTO_STEPS",
    "Refused",
    "Root",
    "Sim",
    "SimResolution",
    "Unseen",
    "own_held",
    "search_root",
]
