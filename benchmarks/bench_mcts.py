"""MCTS iterations per CPU second in every ruleset (issue 13): the engine's step path as a
search uses it (side state copies, apply on copies, candidates, evaluate).

For the main scenario of each ruleset it plays greedy games to a few positions
(the start, and after 10, 40 and 100 actions), lets an mcts bot search each for a
fixed number of iterations, and prints iterations/s with the greedy and random
rollouts. A measurement, not a test: it always exits 0.

    python benchmarks/bench_mcts.py --iterations 50
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from warbench.bots import GreedyBot, MctsBot
from warbench.core.game import Game

SCENARIOS = (
    "miniwars/danville",
    "cgme/skirmish",
    "veg/tank-battle",
    "vsgmr/street",
    "mgv/clear",
    "invisible-enemy/company",
)
AT_ACTIONS = (0, 10, 40, 100)


def positions(scenario_id: str, seed: int) -> list[Game]:
    """Games of greedy bots stopped after each of AT_ACTIONS actions (while not over)."""
    found = []
    for stop in AT_ACTIONS:
        game = Game.start(scenario_id, seed=seed)
        bots = {s: GreedyBot(seed + i) for i, s in enumerate(game.scenario.sides)}
        for _ in range(stop):
            if game.is_over:
                break
            side = game.waiting_for()[0]
            game.apply(bots[side].choose(game.seat(side), side), side)
        if not game.is_over:
            found.append(game)
    return found


def rate(games: list[Game], iterations: int, rollout: str, depth: int) -> tuple[float, int]:
    """Iterations per CPU second over the positions, and the iterations run."""
    done = 0
    spent = 0.0
    for game in games:
        side = game.waiting_for()[0]
        bot = MctsBot(1, iterations=iterations, rollout=rollout, depth=depth)
        started = time.process_time()
        bot.choose(game.seat(side), side)
        spent += time.process_time() - started
        done += bot.last_iterations
    return (done / spent if spent else 0.0), done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50, help="per position (50)")
    parser.add_argument("--depth", type=int, default=40, help="rollout depth (40)")
    parser.add_argument("--scenario", action="append", help="a scenario id (default: all)")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, one core; "
        f"{args.iterations} iterations per position, rollout depth {args.depth}"
    )
    print(f"{'scenario':26} {'positions':>9} {'greedy rollout':>16} {'random rollout':>16}")
    for scenario_id in args.scenario or SCENARIOS:
        games = positions(scenario_id, 1)
        greedy, _ = rate(games, args.iterations, "greedy", args.depth)
        random_, _ = rate(games, args.iterations, "random", args.depth)
        print(
            f"{scenario_id:26} {len(games):9} {greedy:12.0f} it/s {random_:12.0f} it/s",
            flush=True,
        )


if __name__ == "__main__":
    main()
