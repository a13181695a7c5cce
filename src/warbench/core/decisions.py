"""Decisions: what the game waits for now, and from whom."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class DecisionKind(Enum):
    """The three kinds of decision a game can wait for."""

    CHOOSE = "choose"
    """One side chooses an action."""
    SEALED = "sealed"
    """Several sides choose secretly; the choices are revealed together."""
    AUTO = "auto"
    """Nobody chooses: the engine proceeds (rolls initiative, say)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Which side(s) must act, what kind of choice it is, and a prompt for people."""

    kind: DecisionKind
    sides: tuple[str, ...]
    prompt: str

    @classmethod
    def choose(cls, side: str, prompt: str) -> Decision:
        return cls(DecisionKind.CHOOSE, (side,), prompt)

    @classmethod
    def sealed(cls, sides: tuple[str, ...], prompt: str) -> Decision:
        return cls(DecisionKind.SEALED, sides, prompt)

    @classmethod
    def auto(cls, prompt: str) -> Decision:
        return cls(DecisionKind.AUTO, (), prompt)
