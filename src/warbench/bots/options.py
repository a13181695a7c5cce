"""The options a built-in bot takes after its name (``mcts:iterations=50,time=1``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class BotOption:
    """One option a bot takes in ``--side SIDE=NAME:key=value,...``."""

    parse: Callable[[str], Any]
    default: Any
    about: str


def _ranged(
    convert: Callable[[str], float], what: str, low: float, high: float
) -> Callable[[str], Any]:
    """A parser of ``convert``'s finite numbers from ``low`` to ``high``; ``what`` names
    them in the error (a whole number, a number)."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise ValueError(f"'{text}' is not {what}") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise ValueError(f"{text.strip()} is out of range ({_shown(low)} to {_shown(high)})")
        return value

    return parse


def _shown(bound: float) -> str:
    return f"{bound:g}" if isinstance(bound, float) else str(bound)


def count(low: int, high: int) -> Callable[[str], int]:
    """A parser of whole numbers from ``low`` to ``high``."""
    parse: Callable[[str], int] = _ranged(int, "a whole number", low, high)
    return parse


def real(low: float, high: float) -> Callable[[str], float]:
    """A parser of finite numbers from ``low`` to ``high``."""
    parse: Callable[[str], float] = _ranged(float, "a number", low, high)
    return parse


def choice(*names: str) -> Callable[[str], str]:
    """A parser of one of ``names``."""

    def parse(text: str) -> str:
        if text not in names:
            raise ValueError(f"'{text}' is not {' or '.join(names)}")
        return text

    return parse


__all__ = ["BotOption", "choice", "count", "real"]
