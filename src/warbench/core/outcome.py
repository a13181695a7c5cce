"""How a game ended: the winner (or none, a draw), why, how it was decided, and each
side's score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

DecidedBy = Literal["mission", "elimination", "points", "time"]
"""What settled a game, in words every ruleset shares (balance runs count them):

- ``mission``: a scenario objective was met, or can no longer be met (a breakthrough,
  a target destroyed, an objective hex reached, an item carried off);
- ``elimination``: a side had nothing left to fight with (the field cleared);
- ``points``: the turn limit came and a count decided (points destroyed, units left),
  or the count was equal;
- ``time``: the turn limit came and the scenario names the result without counting
  (a side that held, or a draw).
"""
DECIDED_BY: tuple[DecidedBy, ...] = ("mission", "elimination", "points", "time")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game. ``winner`` is ``None`` for a draw.

    ``reason`` is the rules' own words; ``decided_by`` the shared kind of it
    (:data:`DecidedBy`). ``decided_by`` follows from the same code as ``reason``, so
    :meth:`to_json` (part of a state's digest and of records) leaves it out.
    """

    winner: str | None
    reason: str
    scores: Mapping[str, float] = field(default_factory=dict)
    decided_by: DecidedBy = field(kw_only=True)

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "scores": dict(self.scores)}
