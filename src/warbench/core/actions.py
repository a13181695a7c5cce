"""Actions: small immutable values naming one choice, with a compact text form.

Each ruleset defines its own action classes (frozen dataclasses deriving from
:class:`Action`) whose ``str()`` is the text form used by the CLI and records,
and a parser that turns that text back into the action.

The text form must give the action back: records store the text and replay it.
So an action is refused when it is built with a value no text could carry:
every name in it (a string field, or a string in a tuple field) must be one
word of printable characters (:func:`check_words`, run by every action's
``__post_init__``), and a hex must have a label (:func:`check_labelled`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import ClassVar

from warbench.errors import ActionSyntaxError, IllegalAction, excerpt
from warbench.geometry.hexgrid import Hex, HexError

WORD_LIMIT = 64
"""Characters in a name an action carries: ids in scenarios are far shorter, and
refusals quote names, so a longer one is refused before it reaches the rules."""


_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each action class's field names (``dataclasses.fields`` is slow to ask every time)."""


def check_words(action: Action) -> None:
    """Refuse to make ``action`` if a name in it is not one printable word.

    A name with a space (or nothing at all) would be several words (or none) in
    the text form, a control character would reach a terminal in a refusal, and
    none of them names anything in a scenario.

    >>> @dataclass(frozen=True, slots=True)
    ... class Fire(Action):
    ...     unit: str
    >>> Fire("G 1")
    Traceback (most recent call last):
    ...
    warbench.errors.IllegalAction: illegal action 'fire': 'G 1' is not a name (one word)
    """
    cls = type(action)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(action))
    for name in names:
        value = getattr(action, name)
        if isinstance(value, str):
            if not (
                value and len(value) <= WORD_LIMIT and value.isprintable() and " " not in value
            ):
                _refuse_word(action, value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, str):
                    check_word(action, item)


def check_word(action: Action, word: str) -> None:
    """Refuse to make ``action`` if ``word``, a name in it, is not one printable word."""
    if not (word and len(word) <= WORD_LIMIT and word.isprintable() and " " not in word):
        _refuse_word(action, word)


def _refuse_word(action: Action, word: str) -> None:
    if not word:
        raise IllegalAction(action, "a name is empty")
    if len(word) > WORD_LIMIT:
        raise IllegalAction(action, f"'{excerpt(word)}' is too long for a name")
    raise IllegalAction(action, f"'{excerpt(word)}' is not a name (one word)")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses with ``__str__``.

    A subclass with its own ``__post_init__`` calls :func:`check_words` itself.
    """

    ends_step: ClassVar[bool] = False
    """The action ends its side's part of a step or phase (``end``, Invisible Enemy's
    ``done``): the terminal asks before one that skips legal actions."""

    def __post_init__(self) -> None:
        check_words(self)

    def __str__(self) -> str:  # pragma: no cover - every concrete action overrides it
        return type(self).__name__.lower()


@dataclass(frozen=True, slots=True)
class End(Action):
    """Ends a phase, step or turn: shared by the rulesets, whose text for it is ``end``."""

    ends_step: ClassVar[bool] = True

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
        verbs = ", ".join(usage)
        raise ActionSyntaxError(text, f"unknown action '{excerpt(words[0])}'; actions: {verbs}")
    return verb, words[1:]


def match_id(ref: str, known: Collection[str], what: str, text: str) -> str:
    """The id in ``known`` that ``ref`` names, matched without regard to case.

    Anything else is refused, quoting (an excerpt of) ``ref`` and saying what was
    looked for; ``text`` is the whole action, for the error.

    >>> match_id("g1", ("G1", "G2"), "unit", "fire g1 W3")
    'G1'
    """
    if ref in known:
        return ref
    lowered = ref.lower()
    for name in known:
        if name.lower() == lowered:
            return name
    raise ActionSyntaxError(text, f"there is no {what} '{excerpt(ref)}'")


def check_labelled(action: Action, to: Hex) -> None:
    """Refuse to make ``action`` if its hex ``to`` has no label, so no text names it.

    Every action prints as text that parses back to it (records replay the text);
    a hex left of column 1 or above row 1 would otherwise fail only later, inside
    the rules, with an error that is not a refusal.
    """
    try:
        to.label  # noqa: B018 - computing the label is the check
    except HexError as exc:
        raise IllegalAction(action, str(exc)) from None
