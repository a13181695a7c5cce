"""Actions: small immutable values naming one choice, with a compact text form.

Each ruleset defines its own action classes (frozen dataclasses deriving from
:class:`Action`) whose ``str()`` is the text form used by the CLI and records,
and a parser that turns that text back into the action.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses with ``__str__``."""

    def __str__(self) -> str:  # pragma: no cover - every concrete action overrides it
        return type(self).__name__.lower()


@dataclass(frozen=True, slots=True)
class End(Action):
    """Ends a phase, step or turn: shared by the rulesets, whose text for it is ``end``."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Declines an offered option (an attack, an advance): ``pass``."""

    def __str__(self) -> str:
        return "pass"


END = End()
PASS = Pass()
