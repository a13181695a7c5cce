"""Turn schema validation failures into ScenarioErrors that name file and field."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from warbench.errors import ScenarioError


def field_path(loc: Sequence[int | str]) -> str:
    """Render a pydantic location as a field path.

    >>> field_path(("forces", "horde", 2, "type"))
    'forces.horde[2].type'
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def from_validation(file: str, error: ValidationError) -> ScenarioError:
    """One ScenarioError carrying every problem pydantic found, one per line."""
    problems = []
    for item in error.errors(include_url=False):
        loc = [part for part in item["loc"] if not str(part).startswith("function-")]
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "unknown field (check the spelling)"
        elif item["type"] == "missing":
            message = "required field is missing"
        message = message.removeprefix("Value error, ")
        problems.append((field_path(loc), message))
    first_path, first_problem = problems[0]
    err = ScenarioError(file, first_path, first_problem)
    if len(problems) > 1:
        lines = [f"{file}: {path}: {problem}" for path, problem in problems]
        err.args = ("\n".join(lines),)
    return err
