"""Throughput of the compiled CGME playout kernel on the V.E.G. and cgme scenarios, one worker.

For each built-in scenario of the cgme engine's worlds: random vs random and
greedy vs greedy games through :func:`warbench.rulesets.cgme.playout.playout`
(what ``warbench simulate`` uses when no records are asked for), seeds derived
as ``simulate`` derives them, timed in CPU time of this process (the machine
is shared). A few games are also played action by action in Python
(``sim.runner.play_game``) for the speed-up.

Target (issue 3): the MiniWars rates per game turn of comparable size. MiniWars
asks for 200 random and 50 greedy games/s on Danville (12 turns, 27 units),
i.e. 2,400 and 600 game turns per second at 27 units; scaled here to each
scenario's unit count, as in ``bench_veg.py``, and shown as games/s at the
scenario's mean game length. A measurement, not a test: it always exits 0. Run
with `make bench` or `python benchmarks/bench_veg_playout.py [--scale 0.2]`.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from warbench.core.loader import load_scenario
from warbench.rulesets.cgme.playout import kernel_built, playout
from warbench.sim.runner import bot_seeds, game_seed, play_game

SCENARIOS = ("veg/tank-battle", "veg/city-assault", "veg/crater-field", "cgme/skirmish")
MINIWARS_UNITS = 27
TARGETS = {"random": 200.0 * 12, "greedy": 50.0 * 12}
"""MiniWars target game turns per second, at Danville's size."""
GAMES = {"random": 400, "greedy": 200}
PYTHON_GAMES = {"random": 8, "greedy": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker")
    if not kernel_built():
        print("the playout kernel is not built (no C compiler?): nothing to measure")
        return
    for ref in SCENARIOS:
        scenario = load_scenario(ref)
        units = len(scenario.spec.units)
        started = time.process_time()
        if playout(scenario, 0, {}, bot_seeds(scenario, 0)) is None:
            print(f"{ref}: the kernel declines this scenario (the engine plays it in Python)")
            continue
        print(f"{ref}: {units} units, tables in {time.process_time() - started:.3f} s CPU")
        for bot in ("random", "greedy"):
            bots = dict.fromkeys(scenario.sides, bot)
            n = max(1, int(GAMES[bot] * args.scale))
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
            mean_turns = turns / n
            target = TARGETS[bot] * MINIWARS_UNITS / units / mean_turns
            slow_n = max(1, int(PYTHON_GAMES[bot] * args.scale))
            started = time.process_time()
            for index in range(slow_n):
                play_game(scenario, game_seed(1, index), bots)
            slow = slow_n / max(time.process_time() - started, 1e-9)
            verdict = "meets" if rate >= target else "BELOW"
            print(
                f"  {bot:6} vs {bot:6}: {rate:7.1f} games/s over {n} games "
                f"({mean_turns:4.1f} turns, {actions / n:4.0f} actions, "
                f"{1e6 * seconds / max(actions, 1):5.1f} us/action; "
                f"{rate * mean_turns:6.0f} game turns/s) - target {target:5.1f} games/s: "
                f"{verdict}; Python engine {slow:5.1f} games/s (x{rate / slow:.0f})"
            )


if __name__ == "__main__":
    main()
