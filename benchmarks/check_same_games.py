"""Same seed, same game: record or check open-table games action by action (issue 28).

Plays random-vs-random, index-vs-index and greedy-vs-greedy games of every built-in
scenario of VSGMR, MGV and Invisible Enemy through the engine (``Game.apply`` with the bots'
seats, as ``bench_open_tables.py`` plays them) and writes, for each game, the
text of every action and the final state digest to a JSON file (``--record``),
or compares fresh games with such a file (``--check``) and names the first
action where a game differs. A speed-up of the engines must not change a game.

Run ``python benchmarks/check_same_games.py --record FILE [--seeds N]`` on the
unchanged code, then ``--check FILE`` after each change.

``index`` is the random bot as it was before it drew through the rulesets' groups
(``core/sampling.py``): one draw picks an index of the whole legal list, so its games
check the lists themselves, whatever the groups' bounds (which steer ``random``'s
draws).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from warbench.bots import make_bot
from warbench.bots.base import SeededBot
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.seat import Seat

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
BOTS = ("random", "index", "greedy")


class IndexBot(SeededBot):
    """One draw picks an index of the whole legal list."""

    def choose(self, game: Seat, side: str) -> Action:
        actions = self.legal(game, side)
        return actions[int(self._random.random() * len(actions))]


def _bot(name: str, seed: int) -> Any:
    return IndexBot(seed) if name == "index" else make_bot(name, seed)


def play(scenario_id: str, seed: int, bot: str, limit: int | None = None) -> dict[str, Any]:
    """One game (or its first ``limit`` actions): its actions as text and final digest."""
    scenario = load_scenario(scenario_id)
    game = Game(scenario, seed)
    bots = {side: _bot(bot, seed * 10 + i) for i, side in enumerate(scenario.sides)}
    actions: list[str] = []
    while limit is None or len(actions) < limit:
        waiting = game.waiting_for()
        if not waiting:
            break
        side = waiting[0]
        action = bots[side].choose(game.seat(side), side)
        game.apply(action, side)
        actions.append(f"{side}: {action}")
    return {"actions": actions, "digest": game.digest()}


def key(scenario_id: str, bot: str, seed: int) -> str:
    return f"{scenario_id} {bot} {seed}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", metavar="FILE")
    what.add_argument("--check", metavar="FILE")
    parser.add_argument("--seeds", type=int, default=3, help="seeds 1..N per scenario and bot")
    parser.add_argument("--greedy-seeds", type=int, default=None, help="default: --seeds")
    parser.add_argument("--scenario", action="append", help="scenario id (repeatable)")
    parser.add_argument("--bot", action="append", choices=BOTS, help="bot (repeatable)")
    args = parser.parse_args()
    scenarios = args.scenario or list(SCENARIOS)
    bots = args.bot or list(BOTS)
    if args.check:
        with open(args.check) as f:
            expected: dict[str, Any] = json.load(f)
    else:
        expected = {}
    out: dict[str, Any] = {}
    bad = 0
    for scenario_id in scenarios:
        for bot in bots:
            seeds = (
                args.seeds if bot != "greedy" or args.greedy_seeds is None else args.greedy_seeds
            )
            for seed in range(1, seeds + 1):
                k = key(scenario_id, bot, seed)
                if args.check and k not in expected:
                    continue
                start = time.process_time()
                got = play(scenario_id, seed, bot)
                spent = time.process_time() - start
                out[k] = got
                note = ""
                if args.check:
                    want = expected[k]
                    if got != want:
                        bad += 1
                        at = next(
                            (
                                i
                                for i, (a, b) in enumerate(
                                    zip(got["actions"], want["actions"], strict=False)
                                )
                                if a != b
                            ),
                            min(len(got["actions"]), len(want["actions"])),
                        )
                        note = (
                            f"  DIFFERS at action {at}: "
                            f"{got['actions'][at] if at < len(got['actions']) else '(end)'!r} vs "
                            f"{want['actions'][at] if at < len(want['actions']) else '(end)'!r}"
                            if got["actions"] != want["actions"]
                            else "  DIFFERS: final digest"
                        )
                    else:
                        note = "  same"
                print(f"{k:36} {len(got['actions']):5} actions {spent:7.2f} s{note}", flush=True)
    if args.record:
        with open(args.record, "w") as f:
            json.dump(out, f, indent=0)
    elif bad:
        print(f"{bad} game(s) differ", flush=True)
        return 1
    else:
        print(f"all {len(out)} games the same", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
