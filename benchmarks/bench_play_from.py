"""Continuations per second from mid-game positions of miniwars/bridge, greedy both sides:
the compiled kernel (``playout.play_from``) against the engine playing on in Python.

What a search bot's rollouts cost. Positions are taken from a few greedy games
after a third and after half of their actions; each continuation gets fresh
copies of the game's dice generator and the bots' streams (made before timing),
and the engine plays a copy of the game (the copy is timed: a rollout needs one).
CPU time of this process, since the machine is shared. A measurement, not a
test: it always exits 0. Run with `make bench` or `python benchmarks/bench_play_from.py`.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import random
import time

from warbench.bots import Bot
from warbench.bots.base import SeededBot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.miniwars.playout import kernel_built, play_from
from warbench.sim.differential import positions
from warbench.sim.runner import play_on

SEEDS = range(1, 5)


def _stream(bot: Bot) -> random.Random:
    assert isinstance(bot, SeededBot)
    return bot.stream


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the repetitions")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker")
    if not kernel_built():
        print("the playout kernel is not built (no C compiler?): nothing to measure")
        return
    scenario = load_scenario("miniwars/bridge")
    bots = dict.fromkeys(scenario.sides, "greedy")
    starts: list[tuple[Game, dict[str, Bot]]] = []
    for seed in SEEDS:
        taken = [
            (copy.deepcopy(g), copy.deepcopy(p)) for g, p in positions(scenario, seed, bots, 1)
        ]
        starts += [taken[len(taken) // 3], taken[len(taken) // 2]]
    reps = max(1, int(25 * args.scale))

    kernel_actions = 0
    jobs = [
        (
            g.state,
            copy.deepcopy(g.dice.generator),
            {s: copy.deepcopy(_stream(b)) for s, b in p.items()},
        )
        for _ in range(reps)
        for g, p in starts
    ]
    warm = {side: random.Random(0) for side in bots}
    play_from(starts[0][0].state, random.Random(0), bots, warm)  # builds the tables, once
    started = time.process_time()
    for state, dice, streams in jobs:
        result = play_from(state, dice, bots, streams)
        assert result is not None
        kernel_actions += len(result.actions)
    kernel_seconds = time.process_time() - started
    kernel_rate = len(jobs) / kernel_seconds if kernel_seconds > 0 else float("inf")

    engine_runs = max(1, len(starts) * max(1, reps // 10))
    engine_actions = 0
    for game, players in starts:  # warms the board's caches the engine fills as it plays
        play_on(copy.deepcopy(game), {s: copy.deepcopy(b) for s, b in players.items()})
    started = time.process_time()
    for k in range(engine_runs):
        game, players = starts[k % len(starts)]
        slow = copy.deepcopy(game)
        play_on(slow, {s: copy.deepcopy(b) for s, b in players.items()})
        engine_actions += len(slow.actions) - len(game.actions)
    engine_seconds = time.process_time() - started
    engine_rate = engine_runs / engine_seconds if engine_seconds > 0 else float("inf")

    print(
        f"{scenario.id}, greedy vs greedy, {len(starts)} mid-game positions "
        f"(mean {kernel_actions / len(jobs):.0f} actions to the end)"
    )
    print(f"kernel play_from: {kernel_rate:8.1f} continuations/s over {len(jobs)}")
    print(
        f"engine play_on:   {engine_rate:8.1f} continuations/s over {engine_runs} "
        f"(mean {engine_actions / engine_runs:.0f} actions)"
    )
    print(f"speed-up: {kernel_rate / engine_rate:.0f}x")


if __name__ == "__main__":
    main()
