"""Speed of the engine path (``Game.apply``) for every built-in scenario, and state copies.

Issue 13 asks for actions/s and games/s of the engine path, one worker, random
and greedy bots, for every built-in scenario. The playout kernels some rulesets
have (which play whole games of the fixed bots at once) are left out: this is
the path a search bot and every table game use. Each row plays whole games,
with the bot of that row on every side, until ``--seconds`` of CPU time are
spent (at least one game, at most ``--games``), and counts actions (every
``Game.apply``, dice steps included) and the time the bots spent choosing.

The second table is what a search bot pays per node: ``ruleset.copy_state`` of
a state some way into a game of each ruleset's first scenario, next to the
generic ``copy.deepcopy`` of the same state.

CPU time (``time.process_time``), since the machine is shared. A measurement,
not a test: it always exits 0. Run ``python benchmarks/bench_engine.py`` with
``--scenario ID`` (repeatable), ``--bots random``, ``--seconds S``, ``--copies``.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from warbench.bots import Bot, make_bot
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.scenario.model import Scenario

MAX_ACTIONS = 200_000
"""A game that runs longer is a bug; the row says so instead of hanging."""


@dataclass
class Row:
    """What one scenario and bot pairing measured."""

    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    thinking: float = 0.0
    """CPU seconds of ``seconds`` spent in the bots' ``choose``."""
    unfinished: int = 0


def play(scenario: Scenario, seed: int, bot: str, row: Row) -> None:
    """One whole game through ``Game.apply``, timed into ``row``."""
    start = time.process_time()
    game = Game(scenario, seed)
    bots: dict[str, Bot] = {
        side: make_bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)
    }
    thinking = 0.0
    actions = 0
    while actions < MAX_ACTIONS:
        waiting = game.waiting_for()
        if not waiting:
            break
        side = waiting[0]
        before = time.process_time()
        action = bots[side].choose(game.seat(side), side)
        thinking += time.process_time() - before
        game.apply(action, side)
        actions += 1
    else:
        row.unfinished += 1
    row.seconds += time.process_time() - start
    row.thinking += thinking
    row.actions += actions
    row.games += 1


def measure(scenario: Scenario, bot: str, seconds: float, games: int) -> Row:
    row = Row()
    seed = 1
    while row.games < games and (row.games == 0 or row.seconds < seconds):
        play(scenario, seed, bot, row)
        seed += 1
    return row


def state_into_game(scenario: Scenario, actions: int) -> Game:
    """A game of random bots ``actions`` actions in (or over sooner)."""
    game = Game(scenario, 7)
    bots = {side: make_bot("random", 70 + i) for i, side in enumerate(scenario.sides)}
    for _ in range(actions):
        waiting = game.waiting_for()
        if not waiting:
            break
        game.apply(bots[waiting[0]].choose(game.seat(waiting[0]), waiting[0]), waiting[0])
    return game


def per_call(fn: Callable[[], object], budget: float = 0.5) -> float:
    """CPU microseconds per call of ``fn()``, repeated for about ``budget`` seconds."""
    fn()
    n = 0
    start = time.process_time()
    while True:
        for _ in range(20):
            fn()
        n += 20
        spent = time.process_time() - start
        if spent >= budget:
            return spent / n * 1e6


def copies(scenario_ids: list[str]) -> None:
    """copy_state against deepcopy, per ruleset, on its first scenario in this list."""
    seen: set[str] = set()
    print()
    print("state copies (a state 40 actions into a random game; CPU microseconds per copy)")
    print(f"{'ruleset':<16} {'scenario':<28} {'copy_state':>11} {'deepcopy':>10} {'ratio':>6}")
    for sid in scenario_ids:
        scenario = load_scenario(sid)
        if scenario.ruleset in seen:
            continue
        seen.add(scenario.ruleset)
        ruleset = registry.get(scenario.ruleset)
        state = state_into_game(scenario, 40).state
        fast = per_call(partial(ruleset.copy_state, state))
        slow = per_call(partial(copy.deepcopy, state))
        print(f"{scenario.ruleset:<16} {sid:<28} {fast:>11.1f} {slow:>10.1f} {slow / fast:>5.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", help="a scenario id (default: all)")
    parser.add_argument(
        "--bots", action="append", choices=("random", "greedy"), help="default: both"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row (3)")
    parser.add_argument("--games", type=int, default=1000, help="most games per row (1000)")
    parser.add_argument("--copies", action="store_true", help="only the state copy table")
    args = parser.parse_args()
    ids = args.scenario or list(builtin_scenarios())
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, one worker, engine path")
    if not args.copies:
        header = (
            f"{'scenario':<28} {'bots':<7} {'games':>6} {'actions':>8} "
            f"{'actions/s':>10} {'games/s':>8} {'bots %':>7}"
        )
        print(header)
        for sid in ids:
            scenario = load_scenario(sid)
            state_into_game(scenario, 5)  # warm up: imports, tables, meshes
            for bot in args.bots or ("random", "greedy"):
                row = measure(scenario, bot, args.seconds, args.games)
                spent = max(row.seconds, 1e-9)
                note = f"  ({row.unfinished} unfinished)" if row.unfinished else ""
                print(
                    f"{sid:<28} {bot:<7} {row.games:>6} {row.actions:>8} "
                    f"{row.actions / spent:>10,.0f} {row.games / spent:>8.2f} "
                    f"{100 * row.thinking / spent:>6.0f}%{note}",
                    flush=True,
                )
    copies(ids)


if __name__ == "__main__":
    main()
