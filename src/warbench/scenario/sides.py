"""Checks every scenario file makes of its sides and their forces.

>>> check_sides("s.toml", ["red", "blue"], {"red": [1], "blue": [2]})
>>> check_sides("s.toml", ["red", "red"], {"red": [1]})
Traceback (most recent call last):
...
warbench.errors.ScenarioError: s.toml: sides[1].name: side 'red' is listed twice
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Sized

from warbench.errors import ScenarioError, excerpt


def check_sides(
    file: str,
    names: Sequence[str],
    forces: Mapping[str, Sized],
    *,
    key: str = "forces",
    piece: str = "unit",
) -> None:
    """Side names are unique; ``forces`` (the table ``key``) names only sides, each with a piece."""
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise ScenarioError(file, f"sides[{i}].name", f"side '{name}' is listed twice")
    for side in forces:
        if side not in names:
            raise ScenarioError(
                file,
                f"{key}.{excerpt(side, 40)}",
                f"no side '{excerpt(side)}'; sides: {', '.join(names)}",
            )
    for side in names:
        if not forces.get(side):
            raise ScenarioError(file, f"{key}.{side}", f"every side needs at least one {piece}")
