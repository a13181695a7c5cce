"""Simulation throughput on each backend (issue 14, part 3): one local worker, two local
workers, and a local Ray with two CPUs, and what the Ray path costs per game.

Plays the same games (same seed) on each and prints games per wall second; the Ray
overhead per game is the difference of the seconds per game against two local
workers (Ray's start is timed apart and left out). A measurement, not a test: it
always exits 0.

    python benchmarks/bench_backends.py [--scenario ID] [--games N]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from warbench.sim.runner import simulate


def timed(scenario: str, games: int, workers: int, backend: str) -> float:
    bots = {}
    started = time.perf_counter()
    simulate(scenario, games, bots, seed=1, workers=workers, backend=backend)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="vsgmr/street", help="scenario (vsgmr/street)")
    parser.add_argument("--games", type=int, default=200, help="games per run (200)")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores; {args.scenario}, "
        f"{args.games} random games per run"
    )
    one = timed(args.scenario, args.games, 1, "local")
    print(f"local, 1 worker   {args.games / one:8.1f} games/s")
    two = timed(args.scenario, args.games, 2, "local")
    print(f"local, 2 workers  {args.games / two:8.1f} games/s")
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"ray start         {time.perf_counter() - started:8.1f} s (left out below)")
    on_ray = timed(args.scenario, args.games, 2, "ray")
    print(f"ray, 2 CPUs       {args.games / on_ray:8.1f} games/s")
    print(f"ray overhead      {1000 * (on_ray - two) / args.games:8.2f} ms a game (vs 2 local)")
    ray.shutdown()


if __name__ == "__main__":
    main()
