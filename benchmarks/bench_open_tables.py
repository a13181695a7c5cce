"""Random-vs-random speed of the open-table games (issue 13, part 1; issue 28).

The target: VSGMR ``street`` at 50 games/s or more per core, and the same
geometry speed for MGV and Invisible Enemy (they share the table geometry).
For each scenario of VSGMR, MGV and Invisible Enemy, plays whole games through
the engine (``Game.apply`` and the bots' seats, every rule check) with the
random bot on every side, and prints games/s and actions/s of CPU time
(``time.process_time``: the machine is shared). The first game of each
scenario is played untimed: it pays for imports and the per-terrain tables
(navigation meshes, cover spots) every later game of a simulation shares.

``--targets`` prints issue 28's figures against their targets instead: random
games/s of ``vsgmr/street``, ``mgv/clear`` and ``invisible-enemy/company``,
greedy games/s of every scenario against twice the speed measured before the
work began (:data:`GREEDY_BEFORE`), and the time a 2,000-figure VSGMR table
takes to reach its second decision (``bench_vsgmr_large.py``).

A measurement, not a test: it always exits 0. Run
``python benchmarks/bench_open_tables.py [--games N] [--seconds S]
[--scenario ID ...] [--bot random] [--targets]``.
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
from warbench.sim.runner import play_on

SCENARIOS = (
    "vsgmr/street",
    "vsgmr/field",
    "vsgmr/relic",
    "mgv/clear",
    "mgv/gauntlet",
    "mgv/strike",
    "invisible-enemy/company",
    "invisible-enemy/breach",
    "invisible-enemy/fungus",
)
TARGET = {"vsgmr/street": 50.0}
"""Random-vs-random games per CPU second wanted (issue 13)."""
RANDOM_TARGET = {"vsgmr/street": 20.0, "mgv/clear": 25.0, "invisible-enemy/company": 40.0}
"""Random-vs-random games per CPU second wanted (issue 28, first target)."""
GREEDY_BEFORE = {
    "vsgmr/street": 13.5,
    "vsgmr/field": 8.3,
    "vsgmr/relic": 8.0,
    "mgv/clear": 2.7,
    "mgv/gauntlet": 4.5,
    "mgv/strike": 4.2,
    "invisible-enemy/company": 4.4,
    "invisible-enemy/breach": 2.7,
    "invisible-enemy/fungus": 5.2,
}
"""Greedy-vs-greedy games per CPU second when issue 28 began; the target is twice that."""
LARGE_TARGET = 2.0
"""CPU seconds for a 2,000-figure VSGMR table to reach its second decision (issue 28)."""


def play(scenario: Scenario, seed: int, bot: str) -> int:
    """One whole game as ``simulate`` plays it (:func:`~warbench.sim.runner.play_on`, the
    garbage collector set as it sets it); returns its number of actions (every
    ``Game.apply``)."""
    game = Game(scenario, seed)
    bots = {side: make_bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)}
    return len(play_on(game, bots).actions)


def rate(scenario_id: str, bot: str, games: int, seconds: float) -> tuple[float, int, int, float]:
    """Games per CPU second; games played, actions taken and CPU seconds spent."""
    scenario = load_scenario(scenario_id)
    play(scenario, 0, bot)  # warm-up: imports and the per-terrain tables
    played = actions = 0
    spent = 0.0
    while played < games and (played == 0 or spent < seconds):
        played += 1
        start = time.process_time()
        actions += play(scenario, played, bot)
        spent += time.process_time() - start
    return played / spent, played, actions, spent


def measure(scenario_id: str, bot: str, games: int, seconds: float) -> None:
    rate_, played, actions, spent = rate(scenario_id, bot, games, seconds)
    target = TARGET.get(scenario_id)
    note = (
        ""
        if target is None
        else f"  (target {target:g}: {'met' if rate_ >= target else 'NOT met'})"
    )
    print(
        f"{scenario_id:26} {rate_:7.1f} games/s {actions / spent:9.0f} actions/s "
        f"{actions / played:6.0f} actions/game  {played:4} games{note}",
        flush=True,
    )


def _line(what: str, got: float, target: float, unit: str, below: bool = False) -> None:
    met = got <= target if below else got >= target
    sign = "<" if below else ">="
    print(
        f"{what:36} {got:7.2f} {unit:8} target {sign} {target:g}: {'met' if met else 'NOT met'}",
        flush=True,
    )


def targets(games: int, seconds: float) -> None:
    """Issue 28's figures, each against its target."""
    for scenario_id, want in RANDOM_TARGET.items():
        _line(
            f"random {scenario_id}", rate(scenario_id, "random", games, seconds)[0], want, "games/s"
        )
    for scenario_id, before in GREEDY_BEFORE.items():
        got = rate(scenario_id, "greedy", games, seconds)[0]
        _line(f"greedy {scenario_id}", got, 2 * before, "games/s")
    from bench_vsgmr_large import large_scenario, second_decision

    scenario = large_scenario(2000)
    second = second_decision(scenario, 1)[2]
    _line("vsgmr 2,000 figures, second decision", second, LARGE_TARGET, "s", below=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="at most this many per scenario")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per scenario")
    parser.add_argument("--scenario", action="append", help="scenario id (repeatable)")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--targets", action="store_true", help="issue 28's figures and targets")
    args = parser.parse_args()
    print(
        f"{args.bot} vs {args.bot}, one worker, CPU time; python {platform.python_version()}, "
        f"{os.cpu_count()} cpus"
    )
    if args.targets:
        targets(args.games, args.seconds)
        return
    for scenario_id in args.scenario or SCENARIOS:
        measure(scenario_id, args.bot, args.games, args.seconds)


if __name__ == "__main__":
    main()
