"""Time per game of `vsgmr/street` (issue 4: a greedy-vs-greedy game in under 0.5 s).

Plays whole games through the engine (`Game.apply`, the bots, every rule check)
and measures CPU time with `time.process_time` (the machine is shared, so wall
time would measure the neighbours). Two figures per pairing:

- *warm*: the usual case of a simulation; what a set-up keeps for all its games
  (the navigation meshes, cover spots, sight lines and candidate moves already
  worked out for positions seen before) carries over from game to game;
- *cold*: every game starts from an empty set-up cache but the navigation
  meshes (built once per terrain, like MiniWars' board tables), so nothing a
  previous game worked out is reused.

It is a measurement, not a test, so it always exits 0. Run with `make bench` or
`python benchmarks/bench_vsgmr.py [--games N]`.
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

SCENARIO = "vsgmr/street"
TARGET = 0.5
"""Seconds per greedy-vs-greedy game (issue 4)."""


def play(scenario: Scenario, seed: int, bot: str) -> tuple[int, int]:
    """One game; returns (rounds, actions)."""
    game = Game(scenario, seed)
    bots = {side: make_bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)}
    actions = 0
    while not game.is_over:
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game, side), side)
        actions += 1
    return game.turn, actions


def measure(scenario: Scenario, bot: str, games: int, cold: bool) -> tuple[float, float]:
    """Mean CPU seconds and mean actions per game."""
    caches = scenario.spec.caches
    spent = 0.0
    actions = 0
    for seed in range(1, games + 1):
        if cold:
            for key in [k for k in caches if not (isinstance(k, tuple) and k[0] in KEEP)]:
                del caches[key]
        start = time.process_time()
        _, n = play(scenario, seed, bot)
        spent += time.process_time() - start
        actions += n
    return spent / games, actions / games


KEEP = ("terrain", "nav")
"""Set-up cache entries a cold game keeps: the terrain and its navigation meshes."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per measurement")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {SCENARIO}")
    scenario = load_scenario(SCENARIO)
    start = time.process_time()
    play(scenario, 0, "greedy")  # warm up: imports, terrain index, navigation meshes
    print(f"first game (imports, navigation meshes): {time.process_time() - start:.3f} s")
    for bot in ("greedy", "random"):
        for cold in (False, True):
            mean, actions = measure(scenario, bot, args.games, cold)
            label = f"{bot} vs {bot}, {'cold' if cold else 'warm'}"
            verdict = ""
            if bot == "greedy":
                verdict = " - target 0.5 s: " + ("meets" if mean < TARGET else "ABOVE")
            print(
                f"{label}: {mean:.3f} s per game over {args.games} games "
                f"({actions:.0f} actions){verdict}"
            )


if __name__ == "__main__":
    main()
