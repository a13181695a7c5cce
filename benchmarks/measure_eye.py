"""By eye (issue 24): how well bots range photon shots in MGV and land barrages in
Invisible Enemy, greedy against greedy, seats swapped over paired seeds.

Prints the mean absolute ranging error of every photon shot (MGV 5.3) and the share of
Invisible Enemy kills made by barrage markers (3.0). Run it on two trees to compare
(``PYTHONPATH=other/src python benchmarks/measure_eye.py``): the closing note of issue
24 compares the eye-precision model with the bots of before, which drew each guess from
the estimate model at the true range and scattered markers from exact aims.

    python benchmarks/measure_eye.py [--games 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

from warbench.bots import make_bot
from warbench.core.game import Game


def play(scenario: str, seed: int) -> Game:
    game = Game.start(scenario, seed)
    sides = game.scenario.sides
    order = sides if seed % 2 == 0 else tuple(reversed(sides))  # seats swapped
    bots = {side: make_bot("greedy", seed * 10 + i) for i, side in enumerate(order)}
    while not game.is_over:
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game.seat(side), side), side)
    return game


def photon_errors(games: int) -> list[float]:
    errors = []
    for seed in range(games):
        for event in play("mgv/clear", seed).events:
            if event.kind == "attack" and "error" in event.data:
                errors.append(float(event.data["error"]))
    return errors


def barrage_share(games: int) -> tuple[int, int]:
    by_barrage = total = 0
    for seed in range(games):
        for event in play("invisible-enemy/company", seed).events:
            if event.kind == "destroyed":
                total += 1
                by_barrage += "barrage" in event.text or "marker" in event.text
    return by_barrage, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    start = time.perf_counter()
    errors = photon_errors(args.games)
    if errors:
        mean = statistics.fmean(errors)
        within = sum(e < 0.5 for e in errors) / len(errors)
        print(
            f"MGV clear, {args.games} greedy games: {len(errors)} photon shots, mean absolute "
            f"ranging error {mean:.2f} in (median {statistics.median(errors):.2f}), "
            f"{100 * within:.0f}% within half an inch"
        )
    else:
        print(f"MGV clear, {args.games} greedy games: no photon shot")
    by_barrage, total = barrage_share(args.games)
    print(
        f"Invisible Enemy company, {args.games} greedy games: {by_barrage} of {total} bases "
        f"destroyed by barrage ({100 * by_barrage / max(total, 1):.1f}%)"
    )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
