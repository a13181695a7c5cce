"""Reading scenario files: the text, then its TOML, with errors that name the file.

Nothing here knows any ruleset; :mod:`warbench.core.loader` hands the parsed
table to the ruleset the file names.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from warbench.errors import ScenarioError


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error names the file, line and column."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "", f"bad TOML syntax: {exc}") from None


def read_scenario_file(path: Path, source: str) -> dict[str, Any]:
    """Read and parse the scenario file at ``path`` (named ``source`` in errors)."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(source, "", f"cannot read the file: {exc}") from None
    return parse_toml(text, source)
