"""Throughput of the compiled MiniWars playout kernel on miniwars/danville, one worker.

Targets (issue 2, section 9): random vs random >= 200 games/s, greedy vs greedy
>= 50 games/s. Times :func:`warbench.rulesets.miniwars.playout.playout` alone
(seeds derived as ``simulate`` derives them) in CPU time of this process, since
the machine is shared. A measurement, not a test: it always exits 0. Run with
`make bench` or `python benchmarks/bench_playout.py`.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from warbench.core.loader import load_scenario
from warbench.rulesets.miniwars.playout import kernel_built, playout
from warbench.sim.runner import bot_seeds, game_seed

CASES = (
    ("random vs random", "random", 200.0, 1000),
    ("greedy vs greedy", "greedy", 50.0, 500),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker")
    if not kernel_built():
        print("the playout kernel is not built (no C compiler?): nothing to measure")
        return
    scenario = load_scenario("miniwars/danville")
    started = time.process_time()
    playout(scenario, 0, {}, bot_seeds(scenario, 0))  # builds the scenario's tables
    print(f"tables for {scenario.id}: {time.process_time() - started:.2f} s CPU, once")
    for name, bot, target, games in CASES:
        n = max(1, int(games * args.scale))
        bots = dict.fromkeys(scenario.sides, bot)
        actions = turns = 0
        started = time.process_time()
        for index in range(n):
            seed = game_seed(1, index)
            result = playout(scenario, seed, bots, bot_seeds(scenario, seed))
            assert result is not None
            actions += len(result.actions)
            turns += result.turns
        seconds = time.process_time() - started
        rate = n / seconds if seconds > 0 else float("inf")
        verdict = "meets" if rate >= target else "BELOW"
        print(
            f"{name}: {rate:7.1f} games/s over {n} games "
            f"(mean {turns / n:.1f} turns, {actions / n:.0f} actions, "
            f"{1e6 * seconds / max(actions, 1):.1f} us/action) - target {target:.0f}: {verdict}"
        )


if __name__ == "__main__":
    main()
