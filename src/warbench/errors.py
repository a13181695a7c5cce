"""The error tree: one root, a few specific kinds, messages that name the culprit.

Every error warbench raises on purpose derives from :class:`WarbenchError`, so an
interface can catch that one class and print the message without a traceback.
"""

from __future__ import annotations

from collections.abc import Callable

EXCERPT_LIMIT = 60
"""At most this many characters of someone's input are echoed back in an error."""


def excerpt(value: object, limit: int = EXCERPT_LIMIT) -> str:
    """A short, printable excerpt of input to quote in an error message.

    Control characters (and other unprintable ones) are escaped, so an error
    never sends raw terminal codes; long input is cut, saying how long it was.

    >>> print(excerpt("move G1 0706"))
    move G1 0706
    >>> print(excerpt("a" + chr(27) + "[2Jb"))
    a\\x1b[2Jb
    >>> print(excerpt("9" * 500, limit=10))
    999999999…(500 characters)
    """
    text = value if isinstance(value, str) else _safe_str(value)
    size = len(text)
    if size > limit:
        text = text[: limit - 1]
    shown = "".join(ch if ch.isprintable() else _escape(ch) for ch in text)
    return f"{shown}…({size} characters)" if size > limit else shown


def printable(message: str, line_limit: int = 400) -> str:
    """``message`` made safe for a terminal: control characters escaped (newlines
    kept), each line cut at ``line_limit`` characters. The last guard before an
    error reaches a person.

    >>> print(printable("bad" + chr(7) + "\\nnext"))
    bad\\x07
    next
    """
    return "\n".join(excerpt(line, line_limit) for line in message.split("\n"))


def _safe_str(value: object) -> str:
    try:
        return str(value)
    except Exception:  # an object whose str() fails (a huge int, say) is still reported
        return f"<{type(value).__name__}>"


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class WarbenchError(Exception):
    """Root of every error warbench raises on purpose."""


def _rebuilt(cls: type[Exception], init: tuple[object, ...], args: tuple[object, ...]) -> Exception:
    """An error unpickled in another process: built as it was, message and all."""
    error = cls(*init)
    error.args = args
    return error


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

    def __reduce__(self) -> tuple[object, ...]:  # picklable: errors cross worker processes
        return (_rebuilt, (type(self), (self.file, self.path, self.problem), self.args))


class IllegalAction(WarbenchError, ValueError):
    """An action the rules do not allow now; the game is left exactly as it was.

    The message is written when first read (``str``, ``args``): a bot that lists
    moves tries many the rules refuse, and reads none of their messages.

    >>> str(IllegalAction("move G1 0706", "G1 has moved"))
    "illegal action 'move G1 0706': G1 has moved"
    """

    def __init__(self, action: object, reason: str | Callable[[], str]) -> None:
        self.action = action
        self._reason = reason
        self._args: tuple[object, ...] | None = None
        super().__init__()

    @property
    def reason(self) -> str:
        """Why the rules refuse it (a reason given as a function is asked once, when read)."""
        reason = self._reason
        if not isinstance(reason, str):
            reason = self._reason = reason()
        return reason

    @property
    def reason_given(self) -> str | Callable[[], str]:
        """The reason as given (a function not yet asked stays one): to pass it on."""
        return self._reason

    @property
    def args(self) -> tuple[object, ...]:
        if self._args is None:
            self._args = (f"illegal action '{excerpt(self.action)}': {self.reason}",)
        return self._args

    @args.setter
    def args(self, value: tuple[object, ...]) -> None:
        self._args = tuple(value)

    def __str__(self) -> str:
        args = self.args
        if not args:
            return ""
        return str(args[0]) if len(args) == 1 else str(args)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.args))})"

    def __reduce__(self) -> tuple[object, ...]:  # picklable: errors cross worker processes
        return (_rebuilt, (type(self), (excerpt(self.action), self.reason), self.args))


class MoveRefused(IllegalAction):
    """A refused move on an open table, with the geometry's kind of problem ("allowance",
    "figure", "terrain", ...), so a bot can tell a move too long from one blocked."""

    def __init__(self, action: object, reason: str | Callable[[], str], kind: str = "") -> None:
        super().__init__(action, reason)
        self.kind = kind

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuilt, (type(self), (excerpt(self.action), self.reason, self.kind), self.args))


class ActionSyntaxError(IllegalAction):
    """Text that does not parse as an action of the ruleset."""


class NotYourDecision(IllegalAction):
    """An action from a side that is not asked to decide now."""


class QuestionRefused(WarbenchError, ValueError):
    """A question a person or program asks of the game (``info``, ``measure``) that has
    no answer: it names nothing there, or the rules forbid knowing it (measuring where
    only guesses are allowed). The message says which, and what may be asked."""


class UndoError(WarbenchError):
    """An undo the game cannot grant (dice were rolled, or it is not your action)."""


class HiddenInformation(WarbenchError, PermissionError):
    """A request for what the asking side may not know (another side's view, say)."""


class RecordError(WarbenchError, ValueError):
    """A record file that cannot be read or replayed."""


class OddsError(WarbenchError, ValueError):
    """An odds query naming an unknown attack, key or value."""
