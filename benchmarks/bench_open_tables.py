"""Random-vs-random speed of the open-table games (issue 13, part 1).

The target: VSGMR ``street`` at 50 games/s or more per core, and the same
geometry speed for MGV and Invisible Enemy (they share the table geometry).
For each scenario of VSGMR, MGV and Invisible Enemy, plays whole games through
the engine (``Game.apply`` and the bots' seats, every rule check) with the
random bot on every side, and prints games/s and actions/s of CPU time
(``time.process_time``: the machine is shared). The first game of each
scenario is played untimed: it pays for imports and the per-terrain tables
(navigation meshes, cover spots) every later game of a simulation shares.

A measurement, not a test: it always exits 0. Run
``python benchmarks/bench_open_tables.py [--games N] [--seconds S]
[--scenario ID ...] [--bot random]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.scenario.model import Scenario

SCENARIOS = (
    "vsgmr/street",
    "vsgmr/field",
    "vsgmr/relic",
    "mgv/clear",
    "mgv/gauntlet",
    "mgv/strike",
    "invisible-enemy/company",
    "invisible-enemy/breach",
    "invisible-enemy/fungus",
)
TARGET = {"vsgmr/street": 50.0}
"""Random-vs-random games per CPU second wanted (issue 13)."""


def play(scenario: Scenario, seed: int, bot: str) -> int:
    """One whole game; returns its number of actions (every ``Game.apply``)."""
    game = Game(scenario, seed)
    bots = {side: make_bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)}
    actions = 0
    while True:
        waiting = game.waiting_for()
        if not waiting:
            return actions
        side = waiting[0]
        game.apply(bots[side].choose(game.seat(side), side), side)
        actions += 1


def measure(scenario_id: str, bot: str, games: int, seconds: float) -> None:
    scenario = load_scenario(scenario_id)
    play(scenario, 0, bot)  # warm-up: imports and the per-terrain tables
    played = actions = 0
    spent = 0.0
    while played < games and (played == 0 or spent < seconds):
        played += 1
        start = time.process_time()
        actions += play(scenario, played, bot)
        spent += time.process_time() - start
    rate = played / spent
    target = TARGET.get(scenario_id)
    note = (
        "" if target is None else f"  (target {target:g}: {'met' if rate >= target else 'NOT met'})"
    )
    print(
        f"{scenario_id:26} {rate:7.1f} games/s {actions / spent:9.0f} actions/s "
        f"{actions / played:6.0f} actions/game  {played:4} games{note}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="at most this many per scenario")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per scenario")
    parser.add_argument("--scenario", action="append", help="scenario id (repeatable)")
    parser.add_argument("--bot", default="random")
    args = parser.parse_args()
    print(
        f"{args.bot} vs {args.bot}, one worker, CPU time; python {platform.python_version()}, "
        f"{os.cpu_count()} cpus"
    )
    for scenario_id in args.scenario or SCENARIOS:
        measure(scenario_id, args.bot, args.games, args.seconds)


if __name__ == "__main__":
    main()
