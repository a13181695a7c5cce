"""Strength ladder (issues 13, 26): a bot (default: the search bot) against `greedy`, per scenario.

For each scenario it plays pairs of games, the same dice seed twice with the bot on
one side then on the other (seats swapped, paired seeds), and runs the pentanomial
GSPRT (H0: the bot scores 50% a game, H1: 60%, alpha = beta = 0.05,
``warbench.sim.sprt``) after every pair. It stops when the test decides, at
``--max-pairs`` or when the CPU budget is spent, and prints the pentanomial, the
score with its standard error, the LLR against its bounds and the verdict as it
is: "H1 accepted", "H0 accepted" or "not decided (budget)". A measurement, not a
test: it always exits 0.

    python benchmarks/ladder.py --budget 300
    python benchmarks/ladder.py --bot mcts:iterations=100,rollout=random --budget 600
    python benchmarks/ladder.py --scenario miniwars/danville --max-pairs 200
    python benchmarks/ladder.py --scenario cgme/skirmish --screen 4

With ``--screen GAMES`` it also plays GAMES games of the bot against greedy and, at
each of the bot's decisions where greedy would have chosen otherwise, plays both
choices on (greedy for every side, the same dice, eight pairs) and prints the mean
score the deviations gained, with its standard error (``sim/ladder.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

from warbench.bots import make_bot
from warbench.sim.ladder import Match, run_match, screen_deviations
from warbench.sim.sprt import Sprt

MAIN_SCENARIOS = (
    "miniwars/bridge",
    "miniwars/danville",
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
    "miniwars/bridge": "search:rollouts=300",
    "miniwars/danville": "search:rollouts=300",
    "cgme/skirmish": "search:rollouts=300",
    "veg/tank-battle": "search:rollouts=300",
    "vsgmr/street": "search:rollouts=32,horizon=20",
    "mgv/clear": "search:rollouts=32,horizon=20",
    "invisible-enemy/company": "search:rollouts=32,horizon=20",
}
"""The search bot of each scenario, as docs/bots.md's results table measured it: 300
rollouts a decision where a kernel plays them (tens of ms a decision), 32 rollouts 20
decisions deep in Python on the open tables."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", help="a scenario id (default: all main)")
    parser.add_argument(
        "--bot", help="the bot tested, with its options (default: BUDGETS' search, per scenario)"
    )
    parser.add_argument("--opponent", default="greedy", help="the opponent (default greedy)")
    parser.add_argument("--budget", type=float, default=300.0, help="CPU s per scenario (300)")
    parser.add_argument("--max-pairs", type=int, default=1000, help="pairs at most (1000)")
    parser.add_argument("--seed", type=int, default=1000, help="first game seed (1000)")
    parser.add_argument("--p0", type=float, default=0.5, help="H0's score per game (0.5)")
    parser.add_argument("--p1", type=float, default=0.6, help="H1's score per game (0.6)")
    parser.add_argument(
        "--progress", action="store_true", help="print the test after every pair (stderr)"
    )
    parser.add_argument(
        "--screen",
        type=int,
        default=0,
        metavar="GAMES",
        help="also screen the bot's departures from greedy's choice over GAMES games (0: no)",
    )
    args = parser.parse_args()
    scenarios = args.scenario or MAIN_SCENARIOS
    bots = {s: args.bot or BUDGETS.get(s, "search") for s in scenarios}
    for name in (*bots.values(), args.opponent):
        make_bot(name, 0)  # a bad option fails here, before any game
    sprt = Sprt(p0=args.p0, p1=args.p1)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, one core; against "
        f"{args.opponent}: pairs with seats swapped, GSPRT H0 {args.p0:.0%} H1 {args.p1:.0%} "
        f"(alpha = beta = 0.05), at most {args.budget:g} s CPU and {args.max_pairs} pairs each"
    )

    def report(match: Match) -> None:
        if args.progress:
            print(f"  {match.summary()}", file=sys.stderr, flush=True)

    for scenario_id in scenarios:
        match = run_match(
            scenario_id,
            bots[scenario_id],
            args.opponent,
            sprt=sprt,
            seed=args.seed,
            max_pairs=args.max_pairs,
            cpu_budget=args.budget,
            report=report,
        )
        print(f"{match.summary()}; slowest game {match.slowest:.1f} s", flush=True)
        if args.screen:
            screen = screen_deviations(
                scenario_id, bots[scenario_id], games=args.screen, cpu_budget=args.budget
            )
            print(f"  screen: {screen.summary()}", flush=True)


if __name__ == "__main__":
    main()
