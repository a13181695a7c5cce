"""Throughput of `simulate miniwars/danville` on one worker (issue: core + MiniWars).

Targets: random vs random >= 200 games/s, greedy vs greedy >= 50 games/s.
Prints the measured rate next to the target; it is a measurement, not a test,
so it always exits 0. Run with `make bench` or `python benchmarks/bench_simulate.py`.
"""

from __future__ import annotations

import argparse
import os
import platform

from warbench.sim import simulate

CASES = (
    ("random vs random", {"danville": "random", "horde": "random"}, 200.0, 200),
    ("greedy vs greedy", {"danville": "greedy", "horde": "greedy"}, 50.0, 50),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker")
    simulate("miniwars/danville", 2, {}, seed=0)  # warm up: imports, board tables
    for name, bots, target, games in CASES:
        n = max(1, int(games * args.scale))
        result = simulate("miniwars/danville", n, bots, seed=1, workers=1)
        rate = result.games_per_second
        verdict = "meets" if rate >= target else "BELOW"
        print(
            f"{name}: {rate:7.1f} games/s over {n} games "
            f"(mean {result.mean_turns:.1f} turns, {result.mean_actions:.0f} actions) "
            f"- target {target:.0f}: {verdict}"
        )


if __name__ == "__main__":
    main()
