"""The ``warbench`` command: argument parsing and the one place errors are reported.

Each sub-command lives in its own module with a ``register(subparsers)``
function that declares it (``warbench.cli.command.add_command``: its parser, its
arguments and ``run``, ``args -> exit status``).
Every :class:`~warbench.errors.WarbenchError` ends here as ``warbench: <message>``
on stderr with exit status 2: people see what is wrong, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from warbench import __version__
from warbench.cli import (
    balance,
    calibrate,
    catalogue,
    info,
    odds,
    play,
    render,
    replay,
    serve,
    simulate,
    tune,
)
from warbench.cli.command import Runner
from warbench.cli.common import EXIT_ERROR, EXIT_INTERRUPTED, tolerant_stdin
from warbench.errors import WarbenchError, excerpt, printable


class Parser(argparse.ArgumentParser):
    """argparse, but its usage errors quote the command line only as short,
    printable excerpts (an argument may be 5,000 characters of escape codes)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        shown = " ".join(excerpt(word) for word in message.split(" "))
        self.exit(EXIT_ERROR, f"{self.prog}: error: {printable(shown)}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command."""
    parser = Parser(
        prog="warbench",
        description="Play tabletop wargames with the rules enforced by software.",
    )
    parser.add_argument("--version", action="version", version=f"warbench {__version__}")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=Parser
    )
    for module in (
        catalogue,
        play,
        simulate,
        balance,
        calibrate,
        odds,
        replay,
        render,
        info,
        serve,
        tune,
    ):
        module.register(commands)
    return parser


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; extra words are allowed only where a command collects them.

    ``odds`` takes ``key=value`` words anywhere (also after ``--json``), which
    plain argparse would reject once its positionals are used up.
    """
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    collect: str | None = getattr(args, "collect_extra", None)
    if not extra:
        return args
    if collect is None or any(word.startswith("-") for word in extra):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    getattr(args, collect).extend(extra)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    tolerant_stdin()
    args = parse(sys.argv[1:] if argv is None else list(argv))
    run: Runner = args.run
    try:
        return run(args)
    except WarbenchError as exc:
        sys.stdout.flush()
        print(f"warbench: {printable(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as exc:  # an unwritable record folder, a missing file...
        print(f"warbench: {printable(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("\nwarbench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
