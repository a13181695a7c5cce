"""What every scenario schema shares: a strict base model and checked text types.

:class:`ScenarioModel` is the base of every ruleset's scenario models. It is
strict: a string where a number belongs (``columns = "16"``), a boolean where
a whole number belongs (``turn_limit = true``) or a number where text belongs
is refused, not converted; a whole number is still accepted where a fraction
is expected (TOML writes ``5`` for five inches). NaN and infinities are
refused everywhere, and so is any key the schema does not know.

Strictness refuses lists where pydantic wants tuples, and TOML has only lists:
a tuple field takes ``Field(strict=False)`` (its items stay strict), as
:data:`warbench.geometry.table.serial.PointSpec` does.

Free text (titles, names, labels, descriptions) is bounded in length and may
not carry control or other unprintable characters (terminal escapes, bidi
overrides, zero-width characters), since it is shown on terminals and in
pictures.

>>> from pydantic import ValidationError
>>> class Demo(ScenarioModel):
...     title: Title
...     turns: int = 1
>>> Demo.model_validate({"title": "A raid", "turns": 3}).turns
3
>>> def problem(data):
...     try:
...         Demo.model_validate(data)
...     except ValidationError as exc:
...         return exc.errors()[0]["msg"]
>>> problem({"title": "A raid", "turns": "3"})
'Input should be a valid integer'
>>> problem({"title": "A raid", "turns": True})
'Input should be a valid integer'
>>> problem({"title": "Bad" + chr(27) + "[2J"})  # doctest: +ELLIPSIS
'Value error, contains the unprintable character U+001B at position 4...'
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Final

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

MAX_TITLE: Final = 200
"""Characters in a title, name or label."""
MAX_DESCRIPTION: Final = 10_000
"""Characters in a description."""
MAX_KEY: Final = 40
"""Characters in a key of the scenario's own tables (unit types, profiles, skills)."""
MAX_POINTS: Final = 1_000_000
"""Points, costs and values a scenario gives (per unit, item or task)."""

_SPACES = frozenset({"Zs"})
"""Unicode categories allowed although ``str.isprintable`` says no (odd spaces)."""


class ScenarioModel(BaseModel):
    """Base of every scenario model: strict types, finite numbers, no unknown keys."""

    model_config = ConfigDict(
        extra="forbid", strict=True, allow_inf_nan=False, populate_by_name=True
    )


def _unprintable(text: str, allowed: str) -> None:
    for position, ch in enumerate(text, start=1):
        if ch.isprintable() or ch in allowed or unicodedata.category(ch) in _SPACES:
            continue
        raise ValueError(
            f"contains the unprintable character U+{ord(ch):04X} at position {position}"
            " (control, format and private characters are not allowed)"
        )


def _one_line(text: str) -> str:
    _unprintable(text, "")
    return text


def _multi_line(text: str) -> str:
    _unprintable(text, "\n\t\r")
    return text


def _not_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


Label = Annotated[str, Field(max_length=MAX_TITLE), AfterValidator(_one_line)]
"""One line of printable text, possibly empty (a label, an optional name)."""
Title = Annotated[Label, AfterValidator(_not_blank)]
"""One line of printable text with something in it (a title)."""
Description = Annotated[str, Field(max_length=MAX_DESCRIPTION), AfterValidator(_multi_line)]
"""Printable text over several lines."""
Key = Annotated[str, Field(min_length=1, max_length=MAX_KEY), AfterValidator(_one_line)]
"""A name the scenario defines and refers to (a unit type's key, a profile, a skill)."""
