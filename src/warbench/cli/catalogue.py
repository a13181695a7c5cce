"""``warbench rulesets``, ``scenarios`` and ``validate``: what there is to play."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from warbench.cli.command import SCENARIO_FILE, add_command, argument, json_flag, scenario
from warbench.cli.common import out_console, print_json, say

if TYPE_CHECKING:
    from warbench.cli.common import Commands


def register(commands: Commands) -> None:
    """Add the three catalogue commands."""
    add_command(commands, "rulesets", run_rulesets, help="list the registered rulesets")
    add_command(
        commands,
        "scenarios",
        run_scenarios,
        help="list the built-in scenarios",
        arguments=(
            json_flag("a JSON list"),
            argument(
                "--long",
                action="store_true",
                help="each scenario's full goal: its description and every victory condition",
            ),
        ),
    )
    add_command(commands, "bots", run_bots, help="list the bots that can play a side")
    add_command(
        commands,
        "validate",
        run_validate,
        help="check a scenario file or id",
        arguments=(scenario("FILE|ID", SCENARIO_FILE),),
    )


def run_rulesets(args: argparse.Namespace) -> int:
    """Print a table of the registered rulesets."""
    from rich.table import Table

    from warbench.core.catalogue import ruleset_rows

    table = Table(title="Rulesets")
    for column in ("name", "aliases", "version", "geometry", "title"):
        table.add_column(column)
    for row in ruleset_rows():
        table.add_row(row.name, ", ".join(row.aliases), row.version, row.geometry, row.title)
    out_console().print(table)
    return 0


def run_bots(args: argparse.Namespace) -> int:
    """Print the built-in bots, those installed packages offer, and how to name one's own."""
    from rich.table import Table

    from warbench.bots import BOT_NAMES, LEVELS, bot_factory, installed_bots
    from warbench.bots.timing import expected_seconds

    levels = Table(title="Levels (for a game against the computer)")
    for column in ("level", "bot", "what it does", "seconds a decision (miniwars, mgv)"):
        levels.add_column(column)
    for name, (spec, about) in LEVELS.items():
        times = [expected_seconds(name, ruleset) for ruleset in ("miniwars", "mgv")]
        shown = ", ".join("?" if t is None else f"{t:.2g}" for t in times)
        levels.add_row(name, spec, about, shown)
    table = Table(title="Bots")
    for column in ("name", "from", "about"):
        table.add_column(column)
    for name in BOT_NAMES:
        doc = (bot_factory(name).__doc__ or "").strip().splitlines()
        table.add_row(name, "built in", doc[0] if doc else "")
    for name, target in sorted(installed_bots().items()):
        table.add_row(name, target, "installed (entry point warbench.bots)")
    console = out_console()
    console.print(levels)
    console.print(table)
    console.print(
        "A level or bot takes options after a colon (hard:time=3, search:rollouts=800); "
        "a bot of your own: --side SIDE=module:Class (any importable class or function "
        "taking a seed; see docs/bots.md)."
    )
    return 0


def run_scenarios(args: argparse.Namespace) -> int:
    """Print the built-in scenarios as a table with how each is won, or as JSON with
    ``--json``; ``--long`` gives each one's whole goal (description and conditions)."""
    from rich.table import Table

    from warbench.core.catalogue import scenario_rows

    found = scenario_rows()
    if args.json:
        rows: list[dict[str, object]] = [
            {"id": s.id, "ruleset": s.ruleset, "title": s.title} for s in found
        ]
        if args.long:
            for row, info in zip(rows, found, strict=True):
                row["goal"] = list(info.goal)
        print_json(rows)
        return 0
    console = out_console()
    if args.long:
        for info in found:
            say(console, f"{info.id}: {info.title} ({info.ruleset})", style="bold")
            for line in info.goal:
                say(console, f"  {line}")
            say(console, "")
        return 0
    table = Table(title="Scenarios")
    # The id is what a person types: never cut or wrapped (its first part names the ruleset).
    table.add_column("id", no_wrap=True, min_width=max((len(i.id) for i in found), default=2))
    table.add_column("title", ratio=1)
    table.add_column("how it is won", ratio=2)
    for info in found:
        table.add_row(info.id, info.title, short_goal(list(info.goal)))
    console.print(table)
    say(console, "warbench scenarios --long: each scenario's description and every condition.")
    return 0


def short_goal(lines: list[str]) -> str:
    """The first victory condition (the line after the description), for one table cell."""
    return lines[1] if len(lines) > 1 else (lines[0] if lines else "")


def run_validate(args: argparse.Namespace) -> int:
    """Load a scenario; a problem raises ScenarioError, which main reports (exit 2)."""
    from warbench.core.loader import load_scenario
    from warbench.core.registry import get as get_ruleset

    scenario = load_scenario(args.scenario)
    sides = len(scenario.sides)
    limit = f"turn limit {scenario.turn_limit}" if scenario.turn_limit else "no turn limit"
    say(
        out_console(),
        f"OK: {scenario.id} ({scenario.title}), {sides} side{'s' if sides != 1 else ''} "
        f"({', '.join(scenario.sides)}), {limit}, ruleset {scenario.ruleset}",
    )
    goal = get_ruleset(scenario.ruleset).goal(scenario)
    if goal:
        say(out_console(), "Goal:")
        for line in goal:
            say(out_console(), f"  {line}")
    options = get_ruleset(scenario.ruleset).scenario_options(scenario)
    if options:
        say(out_console(), "Options (play --option KEY=VALUE):")
        for option in options:
            values = " | ".join(option["choices"]) + (" | ..." if option["open"] else "")
            say(
                out_console(),
                f"  {option['key']} = {option['value']}  ({values}; {option['source']})",
            )
    return 0
