"""How a command is declared: :func:`add_command` makes its parser from its name, help,
description, runner and arguments, and the arguments several commands share are written
once here (a scenario or ruleset named, ``--json``, ``--svg``/``--png``, ``--side`` as a
seating or as a point of view, the batch options), so each command states only its own.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from warbench.cli.common import MAX_COUNT, seed_int, whole_numbers

if TYPE_CHECKING:
    from warbench.cli.common import Commands

Runner = Callable[[argparse.Namespace], int]
"""What runs a parsed command line and returns its exit status."""


@dataclass(frozen=True)
class Argument:
    """One argument of a command: its name (or flags) and the settings of argparse's
    ``add_argument``."""

    names: tuple[str, ...]
    settings: dict[str, Any]

    @property
    def dest(self) -> str:
        """Where argparse keeps its value (an option's first long flag, as a name)."""
        flags = [name for name in self.names if name.startswith("--")] or list(self.names)
        return str(self.settings.get("dest", flags[0].lstrip("-").replace("-", "_")))


def argument(*names: str, **settings: Any) -> Argument:
    """An argument, written as it is given to ``add_argument``."""
    return Argument(names, settings)


def add_command(
    commands: Commands,
    name: str,
    run: Runner,
    help: str,
    arguments: Sequence[Argument] = (),
    **settings: Any,
) -> argparse.ArgumentParser:
    """Add the command ``name``: its parser (``settings``: ``description`` and any other of
    ``add_parser``'s), then its ``arguments`` in order; ``run`` runs it."""
    parser = commands.add_parser(name, help=help, **settings)
    for each in arguments:
        parser.add_argument(*each.names, **each.settings)
    parser.set_defaults(run=run)
    return parser


# -- the arguments commands share -------------------------------------------------------
SCENARIO_ID = "a built-in scenario id or a file"
"""The help of a scenario argument that is named by id first."""
SCENARIO_FILE = "a scenario file or built-in id"
"""The help of a scenario argument that is named as a file first."""


def scenario(metavar: str = "ID", help: str = SCENARIO_ID, **settings: Any) -> Argument:
    """The scenario a command reads: a built-in id or a scenario file."""
    return argument("scenario", metavar=metavar, help=help, **settings)


def ruleset_name(help: str, metavar: str | None = "RULESET", **settings: Any) -> Argument:
    """The ruleset a command works on, by name."""
    return argument("ruleset", metavar=metavar, help=help, **settings)


def json_flag(what: str) -> Argument:
    """``--json``: print ``what`` (the command's result as JSON) instead of tables."""
    return argument("--json", action="store_true", help=f"print {what}")


def pictures(kind: Callable[[str], Any] | None = None) -> tuple[Argument, ...]:
    """``--svg`` and ``--png``: files to write the command's picture to (read as ``kind``)."""
    return tuple(
        argument(f"--{ext}", type=kind, metavar="FILE", help=f"write the picture as {ext.upper()}")
        for ext in ("svg", "png")
    )


def seating(metavar: str, help: str) -> Argument:
    """``--side NAME=WHO``, repeatable: who plays a side (read by ``common.parse_sides``)."""
    return argument("--side", action="append", default=[], metavar=metavar, help=help)


def point_of_view(help: str, metavar: str = "NAME") -> Argument:
    """``--side NAME``: whose view a command shows (read by ``common.side_named``)."""
    return argument("--side", metavar=metavar, help=help)


def whole(
    flag: str,
    default: int | None,
    metavar: str | None,
    help: str,
    low: int = 1,
    high: int = MAX_COUNT,
    **settings: Any,
) -> Argument:
    """An option taking a whole number from ``low`` to ``high`` (by default a count of at
    least 1: games, pairs, rounds, processes...)."""
    return argument(
        flag, type=whole_numbers(low, high), default=default, metavar=metavar, help=help, **settings
    )


@dataclass(frozen=True)
class Options:
    """Options declared together and read back together (``*group`` gives them to
    :func:`add_command`; :meth:`settings` reads what the command line said)."""

    arguments: tuple[Argument, ...]

    def __iter__(self) -> Iterator[Argument]:
        return iter(self.arguments)

    def settings(self, args: argparse.Namespace) -> dict[str, Any]:
        """What the command line gave these options, by name (as keyword arguments)."""
        return {each.dest: getattr(args, each.dest) for each in self.arguments}


BATCH = Options(
    (
        argument("--seed", type=seed_int, default=0, metavar="S", help="master seed (default 0)"),
        whole("--workers", 1, "W", "processes (default 1)"),
        argument(
            "--backend",
            choices=("local", "ray"),
            default="local",
            help="local processes (default) or Ray (pip install 'warbench[ray]')",
        ),
        argument(
            "--address",
            metavar="ADDR",
            help="with --backend ray: an existing cluster (auto, or HOST:PORT); "
            "default: a local Ray with --workers CPUs",
        ),
    )
)
"""What the commands that play many games share: the master seed, and where the games
are played (``--workers``, ``--backend``, ``--address``); ``BATCH.settings(args)`` are
the keyword arguments of ``warbench.sim``'s batch functions."""
