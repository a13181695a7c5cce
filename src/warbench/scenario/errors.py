"""Turn schema validation failures into ScenarioErrors that name file and field.

A scenario file gets one error naming the first problem pydantic found; when
there are more, the message lists them one per line (at most
:data:`MAX_LISTED`). Nothing in it echoes more than an excerpt of what the
file says (:func:`warbench.errors.excerpt`): keys in the field path, and
values in the problem, are cut short and their control characters escaped.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from pydantic import ValidationError

from warbench.errors import EXCERPT_LIMIT, ScenarioError, excerpt

KEY_LIMIT: Final = 40
"""At most this many characters of a key in a field path."""
PROBLEM_LIMIT: Final = 300
"""At most this many characters of a problem pydantic words."""
MAX_LISTED: Final = 10
"""At most this many problems are listed; a last line counts the rest."""

_TABLE_TYPES = frozenset({"dict_type", "model_type", "model_attributes_type"})
_LIST_TYPES = frozenset({"list_type", "tuple_type"})
_BOUNDS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})
_PLAIN_WORDS = (
    ("Input should be a valid integer", "should be a whole number"),
    ("Input should be a valid number", "should be a number"),
    ("Input should be a valid string", "should be text in quotes"),
    ("Input should be a valid boolean", "should be true or false"),
    ("Input should be", "should be"),
    ("String should", "should"),
    ("List should", "should"),
    ("Tuple should", "should"),
    ("Dictionary should", "should"),
    (" after validation", ""),
)
"""pydantic's wording made plainer, in order."""


def field_path(loc: Sequence[int | str]) -> str:
    """Render a pydantic location as a field path; keys are quoted as excerpts.

    >>> field_path(("forces", "horde", 2, "type"))
    'forces.horde[2].type'
    >>> field_path(("forces", "x" * 100))
    'forces.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…(100 characters)'
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            key = excerpt(part, KEY_LIMIT)
            out += f".{key}" if out else key
    return out


def listing(names: Iterable[str], limit: int = 20) -> str:
    """Names for a "known: ..." list: sorted, each an excerpt, at most ``limit`` of them.

    >>> listing(["b", "a"])
    'a, b'
    >>> listing([f"t{n:02d}" for n in range(30)], limit=3)
    't00, t01, t02, … (30 in all)'
    """
    ordered = sorted(names)
    shown = ", ".join(excerpt(name, KEY_LIMIT) for name in ordered[:limit])
    return f"{shown}, … ({len(ordered)} in all)" if len(ordered) > limit else shown


def describe(value: object) -> str:
    """What a value in a scenario file is, for "should be X, not Y" (quoting an excerpt).

    >>> describe("12"), describe(True), describe([1]), describe({}), describe(2.5)
    ('the text "12"', 'true', 'a list', 'a table', '2.5')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'the text "{excerpt(value)}"'
    if isinstance(value, int | float):
        return excerpt(value)
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, datetime.date | datetime.time):
        return "a date or time"
    return f"a {type(value).__name__}"


def problem_of(item: Mapping[str, Any]) -> str:
    """The problem of one pydantic error, in words, quoting input only as an excerpt."""
    kind: str = item["type"]
    value = item.get("input")
    ctx: Mapping[str, Any] = item.get("ctx") or {}
    if kind == "extra_forbidden":
        return "unknown field (check the spelling)"
    if kind == "missing":
        return "required field is missing"
    if kind == "union_tag_invalid":
        expected = ctx.get("expected_tags", "")
        return (
            f"{excerpt(ctx.get('discriminator', 'kind'))} '{excerpt(ctx.get('tag', ''))}' "
            f"is not one of {expected}"
        )
    if kind in _TABLE_TYPES:
        return f"should be a table, not {describe(value)}"
    if kind in _LIST_TYPES:
        return f"should be a list, not {describe(value)}"
    message: str = item["msg"].removeprefix("Value error, ")
    for quoted in (value, *ctx.values()):
        if isinstance(quoted, str) and len(quoted) > EXCERPT_LIMIT and quoted in message:
            message = message.replace(quoted, excerpt(quoted))
    for words, plain in _PLAIN_WORDS:
        message = message.replace(words, plain)
    if kind.endswith("_type") or kind in ("int_from_float", "finite_number"):
        message += f", not {describe(value)}"
    elif kind in ("string_pattern_mismatch", "literal_error", "enum"):
        message += f", not '{excerpt(value)}'" if isinstance(value, str) else ""
    elif kind in _BOUNDS and isinstance(value, int | float):
        message += f", not {excerpt(value)}"
    return excerpt(message, PROBLEM_LIMIT)


def from_validation(file: str, error: ValidationError) -> ScenarioError:
    """One ScenarioError for what pydantic found: the first problem, then the others
    one per line (at most :data:`MAX_LISTED`, then how many more)."""
    problems = []
    for item in error.errors(include_url=False):
        loc = [part for part in item["loc"] if not str(part).startswith("function-")]
        problem = problem_of(item)
        if "[key]" in loc:  # pydantic's mark for a problem with the key, not its value
            loc = loc[: loc.index("[key]")]
            problem = f"the key {problem}"
        problems.append((field_path(loc), problem))
    first_path, first_problem = problems[0]
    err = ScenarioError(file, first_path, first_problem)
    if len(problems) > 1:
        lines = [f"{file}: {path}: {problem}" for path, problem in problems[:MAX_LISTED]]
        if len(problems) > MAX_LISTED:
            lines.append(f"{file}: … and {len(problems) - MAX_LISTED:,} more problems")
        err.args = ("\n".join(lines),)
    return err
