"""Helpers shared by the commands: consoles, JSON output, ``--side`` parsing, input.

Commands print results on stdout (a rich console, or plain JSON with
``--json``) and progress and problems on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeAlias

from rich.console import Console

from warbench.errors import WarbenchError, excerpt, printable

EXIT_ERROR = 2
"""Exit status for any WarbenchError (and argparse's own usage errors)."""
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C, as shells report it."""

if TYPE_CHECKING:
    from rich.table import Table

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
    """Print one line as is: no markup, no highlighting, no wrapping by rich.

    Control characters and undecodable input are shown escaped, never sent raw.
    """
    console.print(
        printable(text, SAY_LIMIT), style=style, markup=False, highlight=False, soft_wrap=True
    )


SAY_LIMIT = 20_000
"""Longer lines are cut (nothing warbench says is that long; echoed input could be)."""


def tolerant_stdin() -> None:
    """Read standard input so that bytes that are not UTF-8 never raise.

    They arrive as lone surrogates, which no action or command matches and
    every message shows escaped: a stray byte gets an error, not a traceback.
    """
    if sys.stdin is None:  # started with standard input closed: reading gives end of input
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    stdin = sys.stdin
    if hasattr(stdin, "reconfigure"):
        with contextlib.suppress(OSError, ValueError):  # a closed or odd stream
            stdin.reconfigure(errors="surrogateescape")


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
    pairs: Iterable[str], sides: Sequence[str], allowed: Sequence[str], bots_by_path: bool = True
) -> dict[str, str]:
    """Turn ``--side NAME=WHO`` options into {side: who}, checking both names.

    Side names match without regard to case; ``allowed`` lists what a side may
    be given (bot names, and ``human`` where people can play); a bot's name may
    carry options (``mcts:iterations=50``); with ``bots_by_path`` a
    ``module:attr`` is a bot of one's own (both checked when the bot is made).
    """
    chosen: dict[str, str] = {}
    by_lower = {side.lower(): side for side in sides}
    for pair in pairs:
        name, sep, who = pair.partition("=")
        if not sep or not name or not who:
            raise WarbenchError(f"--side wants NAME=WHO, got '{excerpt(pair)}'")
        side = by_lower.get(name.lower())
        if side is None:
            raise WarbenchError(
                f"no side '{excerpt(name)}' in this scenario; sides: {', '.join(sides)}"
            )
        base, colon, options = who.partition(":")
        if colon and base.lower() in allowed:  # a named bot with options: mcts:iterations=50
            chosen[side] = f"{base.lower()}:{options}"  # checked when the bot is made
            continue
        if ":" in who and bots_by_path:  # a bot of one's own: module:attr, as written
            chosen[side] = who
            continue
        if who.lower() not in allowed:
            own = ", or module:Class (a bot of your own)" if bots_by_path else ""
            raise WarbenchError(
                f"side {side}: unknown player '{excerpt(who)}'; one of {', '.join(allowed)}{own}"
            )
        chosen[side] = who.lower()
    return chosen


def whole_number(text: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (ASCII digits only).

    >>> whole_number("12", 0, 99)
    12
    """
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    shown = excerpt(text, 30)
    if not digits or not digits.isascii() or not digits.isdigit():
        raise argparse.ArgumentTypeError(f"'{shown}' is not a whole number")
    if len(digits) > len(str(high)) + 1:
        raise argparse.ArgumentTypeError(f"'{shown}' is out of range ({low} to {high})")
    value = int(body)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{shown} is out of range ({low} to {high})")
    return value


MAX_COUNT = 10**9
"""The largest count a command takes (games, workers, action numbers)."""


def whole_numbers(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def read(text: str) -> int:
        return whole_number(text, low, high)

    return read


def natural_int(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    return whole_number(text, 0, MAX_COUNT)


def seed_int(text: str) -> int:
    """An argparse type: a dice seed, 0 to 2**63 - 1 (what records accept)."""
    from warbench.core.record import MAX_SEED

    return whole_number(text, 0, MAX_SEED)


def bot_names() -> tuple[str, ...]:
    """The bots that can play a side by name (imported late: bots may import much);
    ``module:Class`` names a bot of one's own as well."""
    from warbench.bots import bot_names as names

    return names()


def percent(part: float, whole: float) -> str:
    """``part`` as a percentage of ``whole`` with one decimal (``-`` if whole is 0)."""
    return f"{100 * part / whole:.1f}%" if whole else "-"


def reasons_table(reasons: Mapping[str, int], games: int) -> Table:
    """How ``games`` games ended: each reason with its count and share, most first."""
    from rich.table import Table

    table = Table(title="How the games ended")
    table.add_column("reason")
    table.add_column("games", justify="right")
    table.add_column("%", justify="right")
    for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
        table.add_row(reason, str(count), percent(count, games))
    return table


def side_named(sides: Sequence[str], name: str | None, where: str = "this game") -> str | None:
    """The side called ``name`` (any case) among ``sides``, or None when no name is given.

    An unknown name is a clear error listing the sides (``--side`` of replay and render).
    """
    if name is None:
        return None
    by_lower = {side.lower(): side for side in sides}
    side = by_lower.get(name.lower())
    if side is None:
        raise WarbenchError(
            f"--side: no side '{excerpt(name)}' in {where}; sides: {', '.join(sides)}"
        )
    return side


def print_map(console: Console, view: Mapping[str, Any]) -> None:
    """Draw a view in the terminal: the hex map, or the coarse character map of an open
    table, compact when the full drawing would not fit the console's width."""
    from warbench.render.table_text import render_table
    from warbench.render.text import map_width, render_map

    if "table" in view:
        console.print(render_table(view, width=console.width))
    else:
        console.print(render_map(view, compact=map_width(view) > console.width))


@contextmanager
def progress_bar(label: str, enabled: bool = True) -> Iterator[Callable[..., None]]:
    """A transient rich progress bar on stderr: ``update(done, total=None, text="")``
    (a no-op when not ``enabled``, as under ``--json``)."""
    if not enabled:
        yield lambda done, total=None, text="": None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, console=err_console(), transient=True) as bar:
        task = bar.add_task("", total=None)

        def update(done: int, total: int | None = None, text: str = "") -> None:
            bar.update(task, completed=done, total=total, description=text)

        yield update
