"""``warbench info SCENARIO UNIT``: what a side may know of a unit, hex or point at the start.

The answer is the ruleset's :meth:`~warbench.core.ruleset.Ruleset.unit_info`,
read from the side's view, so it never shows what that side may not see. With
no ``--side``, the unit's own side answers when a spectator can see whose the
unit is; otherwise (a hex, a point, a unit hidden from spectators) a spectator.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warbench.cli.command import SCENARIO_FILE, add_command, argument, point_of_view, scenario
from warbench.cli.common import out_console, say, side_named

if TYPE_CHECKING:
    from warbench.cli.common import Commands

UNIT_LISTS = ("units", "figures_state", "bases", "figures")
"""Where the views of the rulesets list their pieces, each with an ``id`` and a ``side``."""


def register(commands: Commands) -> None:
    """Add the ``info`` command."""
    add_command(
        commands,
        "info",
        run_info,
        help="what a side may know of a unit, hex or point at a scenario's start",
        description=(
            "Print everything SIDE may know of UNIT (a unit or figure id; a hex label such "
            "as 0405 on a hex map; a point X,Y in inches on a table) at the scenario's start."
        ),
        arguments=(
            scenario("SCENARIO", SCENARIO_FILE),
            argument("unit", metavar="UNIT", help="a unit or figure id, a hex label or a point"),
            point_of_view(
                "whose view to answer from (default: the unit's own side, else a spectator)",
                metavar="SIDE",
            ),
        ),
    )


def owner(view: Mapping[str, Any], ref: str) -> str | None:
    """The side of the piece called ``ref`` in ``view`` (any case), or None."""
    for key in UNIT_LISTS:
        for row in view.get(key) or []:
            if isinstance(row, Mapping) and str(row.get("id", "")).lower() == ref.lower():
                side = row.get("side")
                return str(side) if side else None
    return None


def run_info(args: argparse.Namespace) -> int:
    """Print the info lines; an unknown unit or side is a WarbenchError (exit 2)."""
    from warbench.core.loader import load_scenario
    from warbench.core.registry import get

    scenario = load_scenario(args.scenario)
    ruleset = get(scenario.ruleset)
    state = ruleset.initial_state(scenario)
    side = side_named(scenario.sides, args.side, f"{scenario.id}")
    if side is None:
        found = owner(ruleset.view(state, None), args.unit)
        side = found if found in scenario.sides else None
    lines = ruleset.unit_info(ruleset.view(state, side), args.unit)
    console = out_console()
    seen_by = f"as {side} sees it" if side else "as a spectator sees it"
    say(console, f"{scenario.title} ({scenario.id}), at the start, {seen_by}:")
    for line in lines:
        say(console, f"  {line}")
    return 0
