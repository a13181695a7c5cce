"""Throughput of bot-vs-bot V.E.G. games on one worker (issue: V.E.G. on a CGME core).

For each built-in V.E.G. scenario: random vs random and greedy vs greedy,
played through the engine exactly as ``warbench simulate`` plays them. Prints
games/s, decisions (actions) per second and turns per game.

Target: the MiniWars rates per game turn of comparable size. MiniWars's
target is 200 random and 50 greedy games/s for Danville (12 turns, 27 units),
i.e. 2,400 and 600 game turns per second at 27 units; scaled here to each
scenario's unit count (work per turn grows with the units that act). It is a
measurement, not a test: it always exits 0. Run with `make bench` or
`python benchmarks/bench_veg.py [--scale 0.2]`.
"""

from __future__ import annotations

import argparse
import os
import platform

from warbench.core.loader import load_scenario
from warbench.sim import simulate

SCENARIOS = ("veg/tank-battle", "veg/city-assault", "veg/crater-field")
MINIWARS_UNITS = 27
TARGETS = {"random": 200.0 * 12, "greedy": 50.0 * 12}
"""MiniWars target game turns per second, at Danville's size."""
GAMES = {"random": 100, "greedy": 40}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker")
    for ref in SCENARIOS:
        scenario = load_scenario(ref)
        units = len(scenario.spec.units)
        simulate(ref, 2, {}, seed=0)  # warm up: imports, board tables, shared searches
        for bot in ("random", "greedy"):
            n = max(1, int(GAMES[bot] * args.scale))
            result = simulate(ref, n, dict.fromkeys(scenario.sides, bot), seed=1, workers=1)
            rate = result.games_per_second
            turns = result.mean_turns
            turn_rate = rate * turns
            target = TARGETS[bot] * MINIWARS_UNITS / units
            verdict = "meets" if turn_rate >= target else "BELOW"
            print(
                f"{ref:18} {bot:6} vs {bot:6}: {rate:6.1f} games/s, "
                f"{rate * result.mean_actions:7.0f} decisions/s, {turns:4.1f} turns/game, "
                f"{result.mean_actions:4.0f} decisions/game; {turn_rate:6.0f} game turns/s "
                f"({units} units; target {target:4.0f}): {verdict}"
            )


if __name__ == "__main__":
    main()
