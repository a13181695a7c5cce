"""``warbench balance ID``: paired seeds with the bots trading seats, and statistics with
their intervals (win rates, draws, the first player, lengths, how games ended and what
decided them, the standing by turn, unit types, removals by cause, the ruleset's own
tallies), as tables, ``--json`` or a picture."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from warbench.cli.command import BATCH, add_command, argument, json_flag, pictures, scenario, whole
from warbench.cli.common import out_console, print_json, progress_bar, reasons_table, say
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from warbench.cli.common import Commands
    from warbench.sim.balance import BalanceReport
    from warbench.sim.stats import Share


def register(commands: Commands) -> None:
    """Add ``balance``."""
    add_command(
        commands,
        "balance",
        run,
        help="paired bot games with seats swapped: win rates with intervals, lengths, score",
        description=(
            "Play every seed once per seating (the bots trade sides) and report each "
            "side's and bot's win rate with its Wilson 95% interval, draws, the first "
            "player's share, game lengths, how games ended and what decided them "
            "(mission, elimination, points or time), the standing by turn, unit types, "
            "how pieces were removed (by cause) and the ruleset's own tallies per game."
        ),
        arguments=(
            scenario(),
            argument(
                "--bots",
                default="greedy",
                metavar="BOT[,BOT...]",
                help="one bot for every side, or one per side, rotated over the seats "
                "(e.g. greedy,mcts:iterations=50; default greedy)",
            ),
            whole("--pairs", 100, "N", "seeds to play, each in every seating (default 100)"),
            argument(
                "--precision",
                type=float,
                metavar="P",
                help="instead of --pairs: play until every interval's half-width is at most P "
                "(e.g. 0.02), up to --max-games",
            ),
            whole(
                "--max-games",
                10_000,
                "M",
                "with --precision: stop after this many games (default 10,000)",
            ),
            json_flag("the report as one JSON object"),
            *pictures(Path),
            *BATCH,
        ),
    )


def split_bots(text: str) -> list[str]:
    """The bots of ``--bots``: split at commas, an ``option=value`` piece going with the
    bot before it (a bot's name never holds ``=``).

    >>> split_bots("greedy,mcts:iterations=50,depth=3")
    ['greedy', 'mcts:iterations=50,depth=3']
    """
    bots: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if bots and "=" in piece and ":" not in piece:
            bots[-1] += "," + piece
        else:
            bots.append(piece)
    if not bots:
        raise WarbenchError("--bots names no bot")
    return bots


def run(args: argparse.Namespace) -> int:
    """Run the pairs (a progress bar with the running estimate unless ``--json``), report."""
    from warbench.sim.balance import balance

    bots = split_bots(args.bots)
    with progress_bar("games", enabled=not args.json) as update:
        report = balance(
            args.scenario,
            bots,
            pairs=args.pairs,
            **BATCH.settings(args),
            precision=args.precision,
            max_games=args.max_games,
            progress=lambda r: update(r.games, r.planned, r.text()),
        )
    if args.svg is not None or args.png is not None:
        _write_pictures(report, args.svg, args.png)
    if args.json:
        print_json(report.to_json())
    else:
        _print_report(out_console(), report)
    return 0


def _write_pictures(report: BalanceReport, svg: Path | None, png: Path | None) -> None:
    from warbench.render.balance import balance_svg

    text = balance_svg(report)
    try:
        if svg is not None:
            svg.write_text(text, "utf-8")
        if png is not None:
            from warbench.render.png import write_png

            write_png(text, png)
    except OSError as exc:
        raise WarbenchError(f"cannot write the picture: {exc.strerror or exc}") from None


def _interval(s: Share) -> str:
    return f"{100 * s.low:.1f}% .. {100 * s.high:.1f}%"


def _shares_table(title: str, first: str, counted: str) -> Table:
    """A table of shares: a name, how many (``counted``), the percentage and its 95%
    interval, a row each (``_share_row``)."""
    from rich.table import Table

    table = Table(title=title)
    table.add_column(first)
    table.add_column(counted, justify="right")
    table.add_column("%", justify="right")
    table.add_column("95% interval")
    return table


def _share_row(table: Table, name: str, s: Share, count: str | None = None) -> None:
    """A share's row: ``count`` (default: how many) beside the name."""
    table.add_row(
        name, str(s.count) if count is None else count, f"{100 * s.rate:.1f}%", _interval(s)
    )


def _print_report(console: Console, report: BalanceReport) -> None:
    """Win rates with intervals, then the first player, lengths, endings and score."""
    from rich.table import Table

    seats = "one seating" if len(report.bots) == 1 else f"{len(report.bots)} seatings"
    title = (
        f"{report.scenario}: {report.games} games ({report.pairs} seeds x {seats}), "
        f"bots {', '.join(report.bots)}, seed {report.seed}"
    )
    say(console, title)
    table = _shares_table("Wins", "", "wins")
    for side, s in report.by_side.items():
        _share_row(table, side, s)
    _share_row(table, "draws", report.draws)
    for bot, s in report.by_bot.items():
        _share_row(table, f"bot {bot}", s, f"{s.count}/{s.trials}")
    console.print(table)
    if report.precision is not None:
        say(
            console,
            f"widest half-interval {100 * report.widest:.1f}% "
            f"(asked: {100 * report.precision:.1f}%)",
        )
    if report.first_player is not None:
        f = report.first_player
        say(
            console,
            f"the side with the first initiative won {100 * f.rate:.1f}% of "
            f"{f.trials} games ({_interval(f)})",
        )
    lengths = Table(title="Game length")
    lengths.add_column("")
    keys = ("min", "p5", "p25", "p50", "p75", "p95", "max", "mean")
    for key in keys:
        lengths.add_column(key, justify="right")
    lengths.add_row("turns", *(f"{report.turns[k]:g}" for k in keys))
    lengths.add_row("actions", *(f"{report.actions[k]:g}" for k in keys))
    console.print(lengths)
    console.print(reasons_table(report.reasons, report.games))
    decided = _shares_table("What decided the games", "decided by", "games")
    for kind, s in report.decided_by.items():
        _share_row(decided, kind, s)
    console.print(decided)
    if report.score_by_turn and any(report.score_by_turn[0].values()):
        score = Table(title="Standing at the end of each turn (mean: what each side still has)")
        score.add_column("turn", justify="right")
        score.add_column("games", justify="right")
        for side in report.sides:
            score.add_column(side, justify="right")
        for t, (means, n) in enumerate(zip(report.score_by_turn, report.reached, strict=True)):
            score.add_row(str(t + 1), str(n), *(f"{means.get(s, 0.0):.1f}" for s in report.sides))
        console.print(score)
        line = f"lead changes per game {report.lead_changes:.2f}"
        if report.comebacks is not None:
            c = report.comebacks
            line += (
                f"; won from behind at half time: {100 * c.rate:.1f}% of decided games "
                f"({_interval(c)})"
            )
        say(console, line)
    if report.by_kind:
        kinds = Table(title="Unit types (every side, every game)")
        kinds.add_column("type")
        kinds.add_column("fielded", justify="right")
        kinds.add_column("survived (95%)", justify="right", no_wrap=True)
        kinds.add_column("kills each", justify="right")
        kinds.add_column("removed per point", justify="right")
        for kind, k in report.by_kind.items():
            v = k.survived
            kinds.add_row(
                kind,
                str(k.fielded),
                f"{100 * v.rate:.0f}% ({100 * v.low:.0f}-{100 * v.high:.0f})",
                f"{k.kills_per_piece:.2f}",
                f"{k.value_per_cost:.2f}",
            )
        console.print(kinds)
    if report.causes:
        causes = Table(title=f"How pieces were removed ({report.removals} in all)")
        causes.add_column("cause")
        causes.add_column("removals", justify="right")
        causes.add_column("%", justify="right")
        causes.add_column("per game", justify="right")
        for cause, s in report.causes.items():
            causes.add_row(
                cause, str(s.count), f"{100 * s.rate:.1f}%", f"{s.count / report.games:.2f}"
            )
        console.print(causes)
    if report.tallies:
        tallies = Table(title="Per game (the ruleset's own tallies)")
        tallies.add_column("tally")
        for key in ("mean", "min", "p50", "max"):
            tallies.add_column(key, justify="right")
        for name, figures in report.tallies.items():
            tallies.add_row(
                name,
                *(
                    f"{figures[k]:.2f}" if k == "mean" else f"{figures[k]:g}"
                    for k in ("mean", "min", "p50", "max")
                ),
            )
        console.print(tallies)
    say(console, f"{report.games / report.seconds:.1f} games/s ({report.seconds:.1f} s)")
