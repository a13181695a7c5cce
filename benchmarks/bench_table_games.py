"""Greedy-vs-greedy games per CPU second of each MGV and Invisible Enemy scenario, on one worker.

The floors: MGV 5 games/s (issue 9), Invisible Enemy 2 games/s (issue 10).
Plays whole games through the engine (`Game.apply`, the bots' seats, every rule
check, the sealed and held rounds, MGV's missile split matrix game) and
measures CPU time with `time.process_time` (the machine is shared, so wall time
would measure the neighbours). The first game of each scenario is not timed:
it pays for imports and the caches every later game of a simulation shares.

It is a measurement, not a test, so it always exits 0. Run with `make bench` or
`python benchmarks/bench_table_games.py [--games N] [--bot random] [--ruleset mgv]`.
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

SCENARIOS = {
    "mgv": ("mgv/clear", "mgv/gauntlet", "mgv/strike"),
    "invisible-enemy": (
        "invisible-enemy/company",
        "invisible-enemy/breach",
        "invisible-enemy/fungus",
    ),
}
FLOOR = {"mgv": 5.0, "invisible-enemy": 2.0}
"""Greedy-vs-greedy games per second of each scenario on one worker (issues 9 and 10)."""


def play(scenario: Scenario, seed: int, bot: str) -> int:
    """One game; returns its number of actions."""
    game = Game(scenario, seed)
    bots = {side: make_bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)}
    actions = 0
    while not game.is_over:
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game.seat(side), side), side)
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--ruleset", choices=sorted(SCENARIOS), action="append")
    args = parser.parse_args()
    print(f"{args.bot} vs {args.bot}, {args.games} games per scenario, one worker")
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus")
    for ruleset in args.ruleset or list(SCENARIOS):
        for scenario_id in SCENARIOS[ruleset]:
            measure(scenario_id, args.games, args.bot, FLOOR[ruleset])


def measure(scenario_id: str, games: int, bot: str, floor: float) -> None:
    scenario = load_scenario(scenario_id)
    play(scenario, 0, bot)  # warm-up: imports and shared caches
    start = time.process_time()
    actions = sum(play(scenario, seed, bot) for seed in range(1, games + 1))
    spent = time.process_time() - start
    rate = games / spent
    verdict = "meets" if rate >= floor or bot != "greedy" else "BELOW"
    print(
        f"{scenario_id:24} {rate:6.1f} games/s  {actions / spent:7.0f} actions/s  "
        f"{actions / games:5.0f} actions/game  ({verdict} the floor of {floor:g})"
    )


if __name__ == "__main__":
    main()
