"""The Scenario value: a validated scenario file, ready to start a game from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario file after validation.

    ``raw`` is the file's parsed TOML, kept whole so that a record carries the
    scenario it was played with; ``spec`` is the ruleset's own validated model.
    """

    id: str
    title: str
    ruleset: str
    source: str
    raw: Mapping[str, Any]
    sides: tuple[str, ...]
    turn_limit: int | None
    options: Mapping[str, Any] = field(default_factory=dict)
    spec: Any = None
