"""How a game ended: the winner (or none, a draw), why, and each side's score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game. ``winner`` is ``None`` for a draw."""

    winner: str | None
    reason: str
    scores: Mapping[str, float] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "scores": dict(self.scores)}
