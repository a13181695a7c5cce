"""``warbench odds RULESET ATTACK key=value ...``: exact odds of one attack.

The attacks and their keys come from ``ruleset.odds_queries()``, so the CLI
knows nothing of any game. Its own ``--help`` is handled here: after a
ruleset name it lists that ruleset's attacks and keys with their defaults.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from warbench.cli.command import add_command, argument, json_flag, ruleset_name
from warbench.cli.common import out_console, print_json, say
from warbench.errors import OddsError, excerpt

if TYPE_CHECKING:
    from rich.console import Console

    from warbench.cli.common import Commands
    from warbench.core.odds import OddsQuery, OddsResult
    from warbench.core.ruleset import Ruleset

USAGE = "warbench odds RULESET ATTACK [key=value ...] [--json]"


def register(commands: Commands) -> None:
    """Add ``odds``; its help is ruleset-aware, so argparse's own is switched off."""
    parser = add_command(
        commands,
        "odds",
        run,
        help="exact odds of an attack",
        usage=USAGE,
        add_help=False,
        arguments=(
            ruleset_name("a ruleset name (see: warbench rulesets)", metavar=None, nargs="?"),
            argument("attack", nargs="?", help="the kind of attack"),
            argument("pairs", nargs="*", metavar="key=value", help="the situation"),
            json_flag("the odds as JSON"),
            argument("-h", "--help", action="store_true", help="list attacks and keys"),
        ),
    )
    parser.set_defaults(collect_extra="pairs")


def run(args: argparse.Namespace) -> int:
    """List attacks (help, or no attack given) or compute and print one attack's odds."""
    console = out_console()
    if args.ruleset is None:
        _print_rulesets(console)
        return 0
    ruleset = _ruleset(args.ruleset)
    queries = ruleset.odds_queries()
    if args.help or args.attack is None:
        _print_attacks(console, ruleset.info.name, queries, args.attack)
        return 0
    query = _query(ruleset.info.name, queries, args.attack)
    values = query.parse_args(args.pairs)
    result = query.compute(values)
    if args.json:
        print_json(result.to_json())
    else:
        _print_result(console, ruleset.info.name, query, values, result)
    return 0


def _ruleset(name: str) -> Ruleset[Any]:
    from warbench.core import registry

    return registry.get(name)


def _query(ruleset: str, queries: Mapping[str, OddsQuery], attack: str) -> OddsQuery:
    """The query called ``attack``; the error lists the ones there are."""
    query = queries.get(attack)
    if query is None:
        known = ", ".join(queries) or "none"
        raise OddsError(f"{ruleset} has no attack '{excerpt(attack)}'; attacks: {known}")
    return query


def _print_rulesets(console: Console) -> None:
    """Usage, and which rulesets have odds to ask."""
    from warbench.core.registry import all_rulesets

    say(console, f"usage: {USAGE}")
    for ruleset in all_rulesets():
        attacks = ", ".join(ruleset.odds_queries()) or "(none)"
        say(console, f"  {ruleset.info.name}: {attacks}")
    say(console, "Try: warbench odds RULESET --help")


def _print_attacks(
    console: Console, ruleset: str, queries: Mapping[str, OddsQuery], only: str | None
) -> None:
    """Each attack with its keys and defaults (just ``only`` if it is one of them)."""
    if only is not None and only in queries:
        queries = {only: queries[only]}
    say(console, f"usage: warbench odds {ruleset} ATTACK [key=value ...] [--json]")
    if not queries:
        say(console, f"{ruleset} offers no odds queries.")
    for query in queries.values():
        say(console, f"\n{query.name}: {query.help}")
        for key in query.keys:
            say(console, f"  {key.describe()}")


def _print_result(
    console: Console,
    ruleset: str,
    query: OddsQuery,
    values: Mapping[str, Any],
    result: OddsResult,
) -> None:
    """The situation, then a table of outcomes (and side effects) with exact fractions."""
    from rich.table import Table

    shown = query.situation(values)
    situation = " ".join(f"{name}={_show(value)}" for name, value in shown.items())
    say(console, f"{ruleset} {query.name}: {situation}", style="bold")
    table = Table()
    table.add_column("outcome")
    table.add_column("chance", justify="right")
    table.add_column("exact", justify="right")
    for name, chance in result.outcomes.items():
        table.add_row(name, _pct(chance), str(chance))
    if result.extra:
        table.add_section()
        for name, chance in result.extra.items():
            table.add_row(f"{name} (also)", _pct(chance), str(chance))
    console.print(table)


def _pct(chance: Fraction) -> str:
    return f"{float(chance) * 100:.2f}%"


def _show(value: Any) -> str:
    """Values as a person types them back (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
