"""Strength ladder (issue 13): `mcts` against `greedy` in the main scenario of every ruleset.

For each scenario it plays ``--pairs`` pairs of games: the same dice seed twice,
with mcts on one side then on the other (seats swapped, paired seeds), and
prints mcts's wins, losses and draws, its share of the decided games and the
Wilson 95% interval of that share, with the slowest game's time. The bar the
issue sets: at least 60% of decided games, with the interval's lower bound over
50%, in every ruleset, at a budget where one game takes at most 60 s on one
core. A measurement, not a test: it always exits 0.

    python benchmarks/ladder.py --pairs 10
    python benchmarks/ladder.py --pairs 10 --mcts mcts:iterations=100,rollout=random
    python benchmarks/ladder.py --scenario miniwars/danville --pairs 50
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from warbench.bots import make_bot
from warbench.core.loader import load_scenario
from warbench.sim.runner import play_game
from warbench.sim.stats import wilson

MAIN_SCENARIOS = (
    "miniwars/bridge",
    "cgme/skirmish",
    "veg/tank-battle",
    "vsgmr/street",
    "mgv/clear",
    "invisible-enemy/company",
)
"""The main scenario of each built-in ruleset. MiniWars is played on ``bridge``: greedy
against greedy it is even (49/51 in 400 games), where ``danville`` goes to the horde in
97% of games, so a seat-swapped pair there splits 1-1 whoever plays better."""

BUDGETS = {
    "miniwars/bridge": "mcts:iterations=200",
    "cgme/skirmish": "mcts:iterations=50",
    "veg/tank-battle": "mcts:iterations=35",
    "vsgmr/street": "mcts:iterations=12",
    "mgv/clear": "mcts:iterations=16",
    "invisible-enemy/company": "mcts:iterations=12",
}
"""The default mcts of each scenario: a budget whose games should take under 60 s of one
core here with the default rollouts (greedy, depth 40); the ladder prints the slowest."""


def ladder(
    scenario_id: str, pairs: int, mcts: str, greedy: str, seed: int, progress: bool = False
) -> str:
    """Play the pairs of one scenario and return its table row."""
    scenario = load_scenario(scenario_id)
    first, second = scenario.sides[0], scenario.sides[1]
    wins = losses = draws = 0
    slowest = 0.0
    started = time.perf_counter()
    for pair in range(pairs):
        game_seed = seed + pair
        for mcts_side in (first, second):
            other = second if mcts_side == first else first
            bots = {mcts_side: mcts, other: greedy}
            t0 = time.process_time()
            game = play_game(scenario, game_seed, bots)
            slowest = max(slowest, time.process_time() - t0)
            outcome = game.outcome
            winner = outcome.winner if outcome is not None else None
            if winner is None:
                draws += 1
            elif winner == mcts_side:
                wins += 1
            else:
                losses += 1
            if progress:
                print(
                    f"  {scenario_id} seed {game_seed} mcts as {mcts_side}: "
                    f"{'draw' if winner is None else winner + ' won'} "
                    f"({time.process_time() - t0:.1f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    decided = wins + losses
    low, high = wilson(wins, decided)
    share = f"{100 * wins / decided:5.1f}%" if decided else "    -"
    meets = decided and wins / decided >= 0.6 and low > 0.5 and slowest <= 60.0
    return (
        f"{scenario_id:26} {wins:4} {losses:4} {draws:4}  {share}  "
        f"[{100 * low:5.1f}%, {100 * high:5.1f}%]  {slowest:6.1f} s  "
        f"{time.perf_counter() - started:7.0f} s  {'meets' if meets else 'below'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", help="a scenario id (default: all main)")
    parser.add_argument("--pairs", type=int, default=10, help="pairs of games per scenario (10)")
    parser.add_argument(
        "--mcts", help="the mcts bot with its options (default: BUDGETS, per scenario)"
    )
    parser.add_argument("--greedy", default="greedy", help="the opponent (default greedy)")
    parser.add_argument("--seed", type=int, default=1000, help="first game seed (1000)")
    parser.add_argument(
        "--progress", action="store_true", help="print each game's result as it ends (stderr)"
    )
    args = parser.parse_args()
    scenarios = args.scenario or MAIN_SCENARIOS
    budgets = {s: args.mcts or BUDGETS.get(s, "mcts") for s in scenarios}
    for name in (*budgets.values(), args.greedy):
        make_bot(name, 0)  # a bad option fails here, before any game
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, one core; "
        f"mcts vs {args.greedy}, {args.pairs} pairs (seats swapped, paired seeds)"
    )
    print(
        f"{'scenario':26} {'won':>4} {'lost':>4} {'drew':>4}  {'won%':>6}  "
        f"{'Wilson 95%':16}  {'slowest':>8}  {'total':>9}  budget"
    )
    for scenario_id in scenarios:
        row = ladder(
            scenario_id, args.pairs, budgets[scenario_id], args.greedy, args.seed, args.progress
        )
        print(f"{row}  {budgets[scenario_id]}", flush=True)


if __name__ == "__main__":
    main()
