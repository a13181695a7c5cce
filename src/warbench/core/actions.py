"""Actions: small immutable values naming one choice, with a compact text form.

Each ruleset defines its own action classes (frozen dataclasses deriving from
:class:`Action`) whose ``str()`` is the text form used by the CLI and records,
and a parser that turns that text back into the action.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from warbench.errors import ActionSyntaxError


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


def verb_and_args(text: str, usage: Mapping[str, str]) -> tuple[str, list[str]]:
    """Split an action's text form into its verb (lower case) and the words after it.

    ``usage`` maps each verb of the ruleset to its form (``"move UNIT HEX"``);
    an empty text or an unknown verb is refused, listing the verbs.

    >>> verb_and_args("Move G1 0706", {"move": "move UNIT HEX"})
    ('move', ['G1', '0706'])
    """
    words = text.split()
    if not words:
        raise ActionSyntaxError(text, "empty action")
    verb = words[0].lower()
    if verb not in usage:
        raise ActionSyntaxError(text, f"unknown action '{words[0]}'; actions: {', '.join(usage)}")
    return verb, words[1:]
