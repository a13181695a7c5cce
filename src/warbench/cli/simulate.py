"""``warbench simulate ID --games N``: many bot-vs-bot games, then the statistics."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from warbench.cli.command import BATCH, add_command, argument, json_flag, scenario, seating, whole
from warbench.cli.common import (
    bot_names,
    out_console,
    parse_sides,
    percent,
    print_json,
    progress_bar,
    reasons_table,
    say,
)

if TYPE_CHECKING:
    from rich.console import Console

    from warbench.cli.common import Commands
    from warbench.sim import SimResult


def register(commands: Commands) -> None:
    """Add ``simulate``."""
    add_command(
        commands,
        "simulate",
        run,
        help="play many bot-vs-bot games",
        arguments=(
            scenario(),
            whole("--games", None, "N", "how many games", required=True),
            seating("NAME=BOT", "the bot playing a side (default: random); repeatable"),
            argument("--record-dir", type=Path, metavar="DIR", help="write every game's record"),
            json_flag("the result as one JSON object"),
            *BATCH,
        ),
    )


def run(args: argparse.Namespace) -> int:
    """Check the sides, run the batch (with a progress bar unless ``--json``), report."""
    from warbench.core.loader import load_scenario
    from warbench.sim import simulate

    scenario = load_scenario(args.scenario)
    bots = parse_sides(args.side, scenario.sides, bot_names())
    with progress_bar("games", enabled=not args.json) as update:
        result = simulate(
            args.scenario,
            args.games,
            bots,
            **BATCH.settings(args),
            record_dir=args.record_dir,
            progress=lambda done: update(done, args.games),
        )
    if args.json:
        print_json(result.to_json())
    else:
        _print_result(out_console(), result, scenario.sides)
    return 0


def _print_result(console: Console, result: SimResult, sides: tuple[str, ...]) -> None:
    """Wins per side, draws, then pace and the reasons games ended."""
    from rich.table import Table

    table = Table(title=f"{result.scenario}: {result.games} games, seed {result.seed}")
    table.add_column("side")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("%", justify="right")
    for side in sides:
        wins = result.wins.get(side, 0)
        table.add_row(side, result.bots.get(side, "?"), str(wins), percent(wins, result.games))
    table.add_row("draws", "", str(result.draws), percent(result.draws, result.games))
    console.print(table)
    say(
        console,
        f"mean turns {result.mean_turns:.2f}; {result.games_per_second:.1f} games/s "
        f"({result.seconds:.2f} s)",
    )
    console.print(reasons_table(result.reasons, result.games))
