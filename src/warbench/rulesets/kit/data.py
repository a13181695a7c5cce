"""Data the hex rulesets' charts share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class TurnSequence:
    """The phases of a game turn, in order (``[sequence] phases``), and their titles."""

    phases: tuple[str, ...]
    phase_titles: Mapping[str, str]
