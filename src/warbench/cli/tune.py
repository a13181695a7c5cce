"""``warbench tune RULESET [ARGS...]``: a ruleset's own tuning tool.

A ruleset whose stand-ins are tuned against its text keeps the tool beside its rules,
as ``warbench.rulesets.<package>.tuning`` with a ``main(argv) -> exit status``; this
command runs it with the words after the ruleset's name (``warbench tune mgv --games 0``;
``warbench tune mgv --help`` for its own options). Today MGV has one: its combat
stand-ins measured against the design intent of its text (docs/rules/mgv.md).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from warbench.cli.command import add_command, argument, ruleset_name
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.cli.common import Commands

TOOL = "tuning"
"""The module of a ruleset's package that holds its tuning tool."""


def register(commands: Commands) -> None:
    """Add the ``tune`` command."""
    add_command(
        commands,
        "tune",
        run,
        help="run a ruleset's tuning tool (mgv: its combat stand-ins against the text)",
        description=(
            "Run the tuning tool of RULESET with ARGS (warbench tune mgv --help: its own "
            "options). Rulesets with one: " + ", ".join(tunable()) + "."
        ),
        arguments=(
            ruleset_name("a ruleset with a tuning tool"),
            argument(
                "tool_args", metavar="ARGS", nargs=argparse.REMAINDER, help="the tool's own options"
            ),
        ),
    )


def tunable() -> list[str]:
    """The built-in ruleset packages with a tuning tool (found on disk, not imported)."""
    import warbench.rulesets

    return sorted(
        folder.name.replace("_", "-")
        for root in warbench.rulesets.__path__
        for folder in Path(root).iterdir()
        if (folder / f"{TOOL}.py").is_file()
    )


def run(args: argparse.Namespace) -> int:
    """Import the ruleset's tuning module and run its ``main`` with the remaining words."""
    from warbench.core.registry import get

    ruleset = get(args.ruleset)
    package = type(ruleset).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.{TOOL}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{TOOL}":
            raise
        known = ", ".join(tunable()) or "none"
        raise WarbenchError(
            f"tune: {ruleset.info.name} has no tuning tool (rulesets with one: {known})"
        ) from None
    main: Callable[[Sequence[str]], int] = module.main
    return main(list(args.tool_args))
