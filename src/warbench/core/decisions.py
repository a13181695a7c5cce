"""Decisions: what the game waits for now, and from whom."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class DecisionKind(Enum):
    """The three kinds of decision a game can wait for."""

    CHOOSE = "choose"
    """One side chooses an action."""
    SEALED = "sealed"
    """Several sides choose secretly; the choices are revealed together (or, for a
    round that holds them, kept secret until rules code opens each one later)."""
    AUTO = "auto"
    """Nobody chooses: the engine proceeds (rolls initiative, say)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Which side(s) must act, what kind of choice it is, and a prompt for people."""

    kind: DecisionKind
    sides: tuple[str, ...]
    prompt: str
    hold: bool = False
    """For a SEALED round: keep the choices secret when it completes instead of
    revealing them. Some secrets must outlast public decisions taken after them
    (MGV's photon range guesses are written before targets are declared and
    read only at resolution): the engine then tells the ruleset only which
    sides chose (:meth:`~warbench.core.ruleset.Ruleset.hold_sealed`) and keeps
    the choices itself, until rules code opens one with
    :meth:`~warbench.core.game.Resolution.open_held`."""

    @classmethod
    def choose(cls, side: str, prompt: str) -> Decision:
        return cls(DecisionKind.CHOOSE, (side,), prompt)

    @classmethod
    def sealed(cls, sides: tuple[str, ...], prompt: str, hold: bool = False) -> Decision:
        return cls(DecisionKind.SEALED, sides, prompt, hold)

    @classmethod
    def auto(cls, prompt: str) -> Decision:
        return cls(DecisionKind.AUTO, (), prompt)
