"""Helpers shared by the commands: consoles, JSON output, ``--side`` parsing, input.

Commands print results on stdout (a rich console, or plain JSON with
``--json``) and progress and problems on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from rich.console import Console

from warbench.errors import WarbenchError

EXIT_ERROR = 2
"""Exit status for any WarbenchError (and argparse's own usage errors)."""
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C, as shells report it."""

if TYPE_CHECKING:
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
    """Where commands register their parsers (what ``add_subparsers()`` returns)."""

Reader = Callable[[str], str]
"""Reads one line of input after showing a prompt (``input``, or a script in tests)."""


def out_console() -> Console:
    """A console on stdout; plain text (no highlighting) so numbers are not recoloured."""
    return Console(highlight=False)


def err_console() -> Console:
    """A console on stderr, for progress bars and notes."""
    return Console(stderr=True, highlight=False)


def say(console: Console, text: str, style: str = "") -> None:
    """Print one line as is: no markup, no highlighting, no wrapping by rich."""
    console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Print one JSON document on stdout (infinities and NaN become ``null``)."""
    sys.stdout.write(json.dumps(_finite(data), indent=2, sort_keys=False) + "\n")
    sys.stdout.flush()


def _finite(data: Any) -> Any:
    """``data`` with non-finite floats replaced by None, since JSON has no infinity."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, Mapping):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(value) for value in data]
    return data


def parse_sides(
    pairs: Iterable[str], sides: Sequence[str], allowed: Sequence[str]
) -> dict[str, str]:
    """Turn ``--side NAME=WHO`` options into {side: who}, checking both names.

    Side names match without regard to case; ``allowed`` lists what a side may
    be given (bot names, and ``human`` where people can play).
    """
    chosen: dict[str, str] = {}
    by_lower = {side.lower(): side for side in sides}
    for pair in pairs:
        name, sep, who = pair.partition("=")
        if not sep or not name or not who:
            raise WarbenchError(f"--side wants NAME=WHO, got '{pair}'")
        side = by_lower.get(name.lower())
        if side is None:
            raise WarbenchError(f"no side '{name}' in this scenario; sides: {', '.join(sides)}")
        if who.lower() not in allowed:
            raise WarbenchError(f"side {side}: unknown player '{who}'; one of {', '.join(allowed)}")
        chosen[side] = who.lower()
    return chosen


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def bot_names() -> tuple[str, ...]:
    """The bots that can play a side (imported late: bots may import much)."""
    from warbench.bots import BOT_NAMES

    return tuple(BOT_NAMES)


def percent(part: float, whole: float) -> str:
    """``part`` as a percentage of ``whole`` with one decimal (``-`` if whole is 0)."""
    return f"{100 * part / whole:.1f}%" if whole else "-"
