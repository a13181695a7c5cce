"""Continuations per second of the CGME kernel's ``play_from`` against the engine, one worker.

What a search bot's rollouts cost: from a few positions in the middle of
greedy-vs-greedy games of ``cgme/skirmish`` and ``veg/tank-battle`` (in the
middle of a movement phase, or waiting on an open attack, as they come), the
game is played on to its end by greedy bots on both sides, each rollout with
its own dice and bot streams, by the compiled kernel
(:func:`warbench.rulesets.cgme.playout.play_from`, through ``Ruleset.play_from``)
and by the Python engine (a copy of the game, ``sim.runner.play_on``) with the
very same generators; the first rollouts of each position are checked to be
the same game. Timed in CPU time of this process (the machine is shared). A
measurement, not a test: it always exits 0. Run with `make bench` or
``python benchmarks/bench_play_from_cgme.py [--scale 0.2]``.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import random
import time

from warbench.bots import make_bot
from warbench.core.dice import Dice
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.cgme.playout import kernel_built
from warbench.sim.differential import positions
from warbench.sim.runner import play_on

SCENARIOS = ("cgme/skirmish", "veg/tank-battle")
WHERE = (0.2, 0.5, 0.8)
"""The positions: after these shares of the actions of the greedy-vs-greedy game of seed 1."""
KERNEL_ROLLOUTS = 200
PYTHON_ROLLOUTS = 10
CHECKED = 3


def _positions(ref: str) -> list[Game]:
    scenario = load_scenario(ref)
    bots = dict.fromkeys(scenario.sides, "greedy")
    length = sum(1 for _ in positions(scenario, 1, bots, 1))
    after = {int(share * length) for share in WHERE}
    found = []
    for game, _ in positions(scenario, 1, bots, 1):
        if len(game.actions) in after:
            memo = {id(game.ruleset): game.ruleset, id(game.scenario): game.scenario}
            found.append(copy.deepcopy(game, memo))
    return found


def _where(game: Game) -> str:
    state = game.state
    step = " (open attack)" if state.attack is not None else ""
    return f"turn {state.turn}, {state.side} {state.phase_name}{step}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the rollout counts")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker")
    if not kernel_built():
        print("the playout kernel is not built (no C compiler?): nothing to measure")
        return
    fast_n = max(CHECKED, int(KERNEL_ROLLOUTS * args.scale))
    slow_n = max(CHECKED, int(PYTHON_ROLLOUTS * args.scale))
    for ref in SCENARIOS:
        scenario = load_scenario(ref)
        bots = dict.fromkeys(scenario.sides, "greedy")
        print(f"{ref}: greedy vs greedy, from the game of seed 1")
        for game in _positions(ref):
            ruleset = game.ruleset
            start = len(game.actions)
            kernel_actions = 0
            answers = []
            started = time.process_time()
            for k in range(fast_n):
                streams = {
                    side: random.Random(k * 7 + i) for i, side in enumerate(game.scenario.sides)
                }
                played = ruleset.play_from(game.state, random.Random(k), bots, streams)
                assert played is not None, "the kernel declined the position"
                kernel_actions += len(played.actions)
                if k < CHECKED:
                    answers.append(played.actions)
            fast_s = time.process_time() - started
            python_actions = 0
            started = time.process_time()
            for k in range(slow_n):
                memo = {id(game.ruleset): game.ruleset, id(game.scenario): game.scenario}
                slow = copy.deepcopy(game, memo)
                slow.dice = Dice(k)
                players = {
                    side: make_bot("greedy", k * 7 + i) for i, side in enumerate(scenario.sides)
                }
                play_on(slow, players)
                python_actions += len(slow.actions) - start
                if k < CHECKED:
                    taken = [(t.side, t.action) for t in slow.actions[start:]]
                    assert taken == answers[k], "the kernel and the engine played different games"
            slow_s = time.process_time() - started
            fast = fast_n / max(fast_s, 1e-9)
            python = slow_n / max(slow_s, 1e-9)
            print(
                f"  after {start:3} actions ({_where(game)}): kernel {fast:7.1f} continuations/s "
                f"({kernel_actions / fast_n:4.0f} actions each, {fast_n} rollouts); "
                f"Python engine {python:5.2f}/s ({python_actions / slow_n:4.0f} actions each, "
                f"{slow_n} rollouts); x{fast / python:.0f}"
            )


if __name__ == "__main__":
    main()
