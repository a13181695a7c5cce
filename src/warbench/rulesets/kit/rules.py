"""Pieces of rules the hex rulesets share: finding the unit an action names, and
the end of the game at the turn limit."""

from __future__ import annotations

from typing import Any, ClassVar, Generic

from warbench.core.actions import Action
from warbench.core.game import Resolution
from warbench.core.outcome import DecidedBy, Outcome
from warbench.errors import IllegalAction
from warbench.rulesets.kit.state import U


class Lookups(Generic[U]):
    """What the rules read of a state: the turn, the outcome, and the unit an action
    names (a state's ``units`` by id)."""

    gone: ClassVar[str] = "has been destroyed"
    """Why a unit that is no longer on the board cannot act or be acted on."""

    def turn(self, state: Any) -> int:
        turn: int = state.turn
        return turn

    def outcome(self, state: Any) -> Outcome | None:
        outcome: Outcome | None = state.outcome
        return outcome

    def _unit(self, state: Any, ref: str, action: Action) -> U:
        unit: U | None = state.units.get(ref)
        if unit is None:
            raise IllegalAction(action, f"there is no unit '{ref}'")
        if unit.pos is None:
            raise IllegalAction(action, f"{ref} {self.gone}")
        return unit

    def _own(self, state: Any, side: str, ref: str, action: Action) -> U:
        unit = self._unit(state, ref, action)
        if unit.side != side:
            raise IllegalAction(action, f"{ref} is not {side}'s unit")
        return unit


def end_at_turn_limit(
    state: Any,
    res: Resolution,
    scores: dict[str, float],
    decided_by: DecidedBy,
    decided: tuple[str | None, str] | None,
) -> None:
    """End the game at the turn limit: ``decided`` is the winner and reason the
    ruleset's own ``at_turn_limit`` rules found, else the scenario's rule is
    ``draw`` or the side that holds."""
    rule = state.setup.at_turn_limit
    if decided is not None:
        winner, reason = decided
    elif rule == "draw":
        winner, reason = None, "turn limit reached"
    else:
        winner, reason = rule, f"turn limit: {rule} holds"
    state.outcome = Outcome(winner, reason, scores, decided_by=decided_by)
    res.emit("end", f"game over ({reason}): " + (f"{winner} wins" if winner else "a draw"))
