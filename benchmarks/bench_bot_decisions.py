"""How long each built-in bot takes to decide, per ruleset: what the lobby shows beside
each bot ("about 0.4 s a decision") and what a seat's time limit is weighed against.

For every ruleset, one built-in scenario (its first that is not a calibration arena) is
played by greedy against random; at evenly spaced decisions of those games each bot
decides from the same position and is timed (random, greedy and planner whole, mcts per
iteration at ``--mcts-iterations``, search per rollout at ``--search-rollouts``), in
CPU seconds, so that a busy machine does not inflate them.
Prints the means; ``--write`` stores them in ``src/warbench/bots/data/decision_times.toml``,
which the server reads.

    .venv/bin/python benchmarks/bench_bot_decisions.py [--positions 24] [--write]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import tomli_w

from warbench.bots import SearchBot, check_bot, make_bot
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, is_calibration
from warbench.errors import WarbenchError

OUT = Path(__file__).resolve().parents[1] / "src/warbench/bots/data/decision_times.toml"


def positions(scenario: str, count: int, seed: int) -> list[tuple[Game, str]]:
    """Copies of a greedy-against-random game at ``count`` evenly spaced decisions."""
    game = Game.start(scenario, seed)
    sides = list(game.scenario.sides)
    bots = {
        side: make_bot("greedy" if k == 0 else "random", seed + k) for k, side in enumerate(sides)
    }
    seen: list[tuple[Game, str]] = []
    history: list[tuple[str, str]] = []
    while not game.is_over and len(history) < 400:
        side = game.waiting_for()[0]
        history.append((side, str(bots[side].choose(game.seat(side), side))))
        game.apply(history[-1][1], side)
    step = max(1, len(history) // count)
    for cut in range(0, len(history), step):
        copy = Game.start(scenario, seed)
        for side, text in history[:cut]:
            copy.apply(text, side)
        if not copy.is_over:
            seen.append((copy, copy.waiting_for()[0]))
    return seen[:count]


def per_rollout(bot_name: str, at: list[tuple[Game, str]]) -> float | None:
    """Seconds per rollout of the search bot over the positions' searched decisions."""
    spent = 0.0
    rollouts = 0
    for k, (game, side) in enumerate(at):
        bot = make_bot(bot_name, k)
        assert isinstance(bot, SearchBot)
        started = time.process_time()
        try:
            bot.choose(game.seat(side), side)
        except WarbenchError:
            return None
        spent += time.process_time() - started
        rollouts += bot.last.rollouts
    return spent / rollouts if rollouts else None


def timed(bot_name: str, at: list[tuple[Game, str]]) -> float | None:
    times = []
    for k, (game, side) in enumerate(at):
        bot = make_bot(bot_name, k)
        started = time.process_time()
        try:
            bot.choose(game.seat(side), side)
        except WarbenchError:
            return None
        times.append(time.process_time() - started)
    return statistics.fmean(times) if times else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--mcts-iterations", type=int, default=20)
    parser.add_argument("--search-rollouts", type=int, default=48)
    parser.add_argument("--write", action="store_true", help=f"store the means in {OUT.name}")
    args = parser.parse_args()
    table: dict[str, dict[str, float]] = {}
    for ruleset in registry.all_rulesets():
        name = ruleset.info.name
        scenario = next(
            s for s in builtin_scenarios() if s.startswith(f"{name}/") and not is_calibration(s)
        )
        at = positions(scenario, args.positions, 1)
        row: dict[str, float] = {}
        for bot in ("random", "greedy", "planner"):
            try:
                check_bot(bot, ruleset.info)
            except WarbenchError:
                continue
            found = timed(bot, at)
            if found is not None:
                row[bot] = round(found, 5)
        mcts = f"mcts:iterations={args.mcts_iterations}"
        found = timed(mcts, at[: max(4, args.positions // 3)])
        if found is not None:
            row["mcts_per_iteration"] = round(found / args.mcts_iterations, 5)
        search = f"search:rollouts={args.search_rollouts}"
        found = per_rollout(search, at[: max(4, args.positions // 3)])
        if found is not None:
            row["search_per_rollout"] = round(found, 6)
        table[name] = row
        shown = ", ".join(f"{k} {v * 1000:.2f} ms" for k, v in row.items())
        print(f"{name:16} {scenario:28} {shown}")
    if args.write:
        header = "# Written by benchmarks/bench_bot_decisions.py --write: mean seconds a bot\n"
        header += "# takes per decision (mcts: per iteration; search: per rollout), by ruleset.\n"
        OUT.write_text(header + tomli_w.dumps(table), "utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
