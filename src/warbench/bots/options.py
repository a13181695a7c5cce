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


def count(low: int, high: int) -> Callable[[str], int]:
    """A parser of whole numbers from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"'{text}' is not a whole number") from None
        if not low <= value <= high:
            raise ValueError(f"{value} is out of range ({low} to {high})")
        return value

    return parse


def real(low: float, high: float) -> Callable[[str], float]:
    """A parser of finite numbers from ``low`` to ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"'{text}' is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise ValueError(f"{text} is out of range ({low:g} to {high:g})")
        return value

    return parse


def choice(*names: str) -> Callable[[str], str]:
    """A parser of one of ``names``."""

    def parse(text: str) -> str:
        if text not in names:
            raise ValueError(f"'{text}' is not {' or '.join(names)}")
        return text

    return parse


__all__ = ["BotOption", "choice", "count", "real"]
