"""The error tree: one root, a few specific kinds, messages that name the culprit.

Every error warbench raises on purpose derives from :class:`WarbenchError`, so an
interface can catch that one class and print the message without a traceback.
"""

from __future__ import annotations


class WarbenchError(Exception):
    """Root of every error warbench raises on purpose."""


class UnknownRuleset(WarbenchError, LookupError):
    """A ruleset name that is not registered; the message lists the known ones."""


class UnknownScenario(WarbenchError, LookupError):
    """A scenario id that is neither built in nor a file."""


class ScenarioError(WarbenchError, ValueError):
    """A scenario file that cannot be played: names the file, field path and problem.

    >>> str(ScenarioError("a.toml", "forces.horde[2].type", "unknown unit type 'orc'"))
    "a.toml: forces.horde[2].type: unknown unit type 'orc'"
    """

    def __init__(self, file: str, path: str, problem: str) -> None:
        self.file = file
        self.path = path
        self.problem = problem
        where = f"{file}: {path}" if path else file
        super().__init__(f"{where}: {problem}")


class IllegalAction(WarbenchError, ValueError):
    """An action the rules do not allow now; the game is left exactly as it was."""

    def __init__(self, action: object, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action '{action}': {reason}")


class ActionSyntaxError(IllegalAction):
    """Text that does not parse as an action of the ruleset."""


class NotYourDecision(IllegalAction):
    """An action from a side that is not asked to decide now."""


class UndoError(WarbenchError):
    """An undo the game cannot grant (dice were rolled, or it is not your action)."""


class RecordError(WarbenchError, ValueError):
    """A record file that cannot be read or replayed."""


class OddsError(WarbenchError, ValueError):
    """An odds query naming an unknown attack, key or value."""
