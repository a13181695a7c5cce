"""``warbench calibrate RULESET``: unit values from randomised mirrored battles, with
their intervals, against the printed costs; with ``--scenario``, how many points would
make a scenario fair, checked by a balance run of the adjusted scenario."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from warbench.cli.command import BATCH, add_command, argument, json_flag, ruleset_name, whole
from warbench.cli.common import out_console, print_json, progress_bar, say
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from rich.console import Console

    from warbench.cli.common import Commands
    from warbench.sim.calibrate import Calibration, Fairness


def register(commands: Commands) -> None:
    """Add ``calibrate``."""
    add_command(
        commands,
        "calibrate",
        run,
        help="unit values from play (with intervals) against the printed costs; "
        "--scenario: points that would make a scenario fair",
        description=(
            "Play randomised battles in the ruleset's arena (a random unit type or nothing "
            "in each slot, each battle played twice with the forces trading sides), fit a "
            "logistic model of who wins on the forces, and print each unit type's worth "
            "in points with its 95%% bootstrap interval beside its printed cost."
        ),
        arguments=(
            ruleset_name("a ruleset name (e.g. miniwars)"),
            argument(
                "--arena",
                metavar="ID",
                help="a two-sided scenario to recast (default: the ruleset's)",
            ),
            argument(
                "--bot",
                default="greedy",
                metavar="BOT",
                help="the bot playing every side (default greedy)",
            ),
            whole(
                "--pairs",
                200,
                "N",
                "battles, each played twice with the forces swapped (default 200)",
            ),
            argument(
                "--scenario",
                metavar="ID",
                help="also weigh this scenario: how many points its first side is ahead, an "
                "adjusted scenario written to --out and a balance run of it",
            ),
            argument(
                "--out",
                type=Path,
                metavar="FILE",
                help="with --scenario: where to write the adjusted scenario (default "
                "<scenario>-fair.toml here)",
            ),
            whole(
                "--balance-pairs",
                100,
                "N",
                "with --scenario: seeds of each balance run (default 100)",
            ),
            whole(
                "--changes",
                3,
                "K",
                "with --scenario: at most K unit substitutions a round (default 3)",
            ),
            whole(
                "--rounds",
                3,
                "R",
                "with --scenario: rounds of changes, each checked by a balance run (default 3)",
            ),
            json_flag("the result as one JSON object"),
            *BATCH,
        ),
    )


def run(args: argparse.Namespace) -> int:
    from warbench.sim.calibrate import calibrate, fairness

    out = args.out or Path(f"{Path(args.scenario or 'scenario').stem}-fair.toml")
    if args.scenario is not None and out.exists():  # before the battles, not after
        raise WarbenchError(f"{out} exists: give a new file for the adjusted scenario (--out)")
    with progress_bar("battles", enabled=not args.json) as advance:
        result = calibrate(
            args.ruleset,
            args.arena,
            bot=args.bot,
            pairs=args.pairs,
            **BATCH.settings(args),
            progress=advance,
        )
    fair: Fairness | None = None
    if args.scenario is not None:
        with progress_bar("balance games", enabled=not args.json) as update:
            fair = fairness(
                args.scenario,
                result,
                out,
                bot=args.bot,
                pairs=args.balance_pairs,
                **BATCH.settings(args),
                most=args.changes,
                rounds=args.rounds,
                progress=lambda running: update(running.games, running.planned, running.text()),
            )
    if args.json:
        data = result.to_json()
        if fair is not None:
            data["fairness"] = fair.to_json()
        print_json(data)
        return 0
    console = out_console()
    _print_values(console, result)
    if fair is not None:
        _print_fairness(console, fair)
    return 0


def _print_values(console: Console, c: Calibration) -> None:
    from rich.table import Table

    say(
        console,
        f"{c.ruleset}: {c.games} games ({c.pairs} battles, forces swapped) in {c.arena}, "
        f"bot {c.bot}, seed {c.seed}",
    )
    table = Table(title="Unit values from play (points; 95% bootstrap interval)")
    table.add_column("type")
    table.add_column("printed", justify="right")
    table.add_column("from play", justify="right")
    table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("fielded", justify="right")
    table.add_column("printed within", justify="center")
    for k in c.kinds:
        table.add_row(
            k.name,
            f"{k.cost:g}",
            f"{k.points:.1f}",
            f"{k.low:.1f} .. {k.high:.1f}",
            str(k.fielded),
            "no" if k.disagrees else "yes",
        )
    console.print(table)
    say(
        console,
        f"scaled so the values add up to the printed costs: {c.points_per_log_odds:.1f} points "
        f"move the log-odds of winning by 1 (near an even fight, a point is about "
        f"{25 / c.points_per_log_odds:.2f} percentage points of win chance)",
    )
    if c.spearman is not None:
        say(console, f"rank correlation with the printed costs (Spearman): {c.spearman:.2f}")
    worst = c.disagreements()
    if worst:
        say(
            console,
            "disagree most: "
            + "; ".join(
                f"{k.name} (printed {k.cost:g}, from play {k.points:.0f}, "
                f"{k.low:.0f} .. {k.high:.0f})"
                for k in worst
            ),
        )
    say(console, f"{c.games / c.seconds:.1f} games/s ({c.seconds:.1f} s)")


def _print_fairness(console: Console, f: Fairness) -> None:
    first, second = f.sides
    for number, r in enumerate(f.rounds):
        rate, low, high = r.score
        name = f.scenario if number == 0 else f"{r.played} (adjusted, round {number})"
        say(
            console,
            f"{name}: {first} scores {100 * rate:.1f}% ({100 * low:.1f}% .. {100 * high:.1f}%) "
            f"over {r.report.games} games (a draw counted half)",
        )
        if r.even:
            say(
                console, "  even within its interval" + (": no change needed" if not number else "")
            )
            break
        behind, lead = (second, r.ahead) if r.ahead > 0 else (first, -r.ahead)
        say(console, f"  {behind} should get about {lead:.0f} more points to make it even")
        if not r.changes:
            if number + 1 < len(f.rounds) or number == 0:
                say(console, "  no substitution among the types each side fields brings it closer")
            break
        for c in r.changes:
            to = c.after if c.after is not None else "taken out"
            say(
                console, f"  {c.piece} ({c.side}): {c.before} -> {to} ({c.points:+.0f} for {first})"
            )
    if f.written is not None:
        last = f.rounds[-1]
        verdict = "even within its interval" if last.even else "still uneven"
        say(console, f"adjusted scenario written to {f.written} ({verdict} in its last check)")
