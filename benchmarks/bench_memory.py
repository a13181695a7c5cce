"""Memory of a long simulation in one process (issue 13: it stays flat).

Plays ``--games`` (default 1,000) games of a scenario (default
``vsgmr/street``, random against random) one after another in this process,
through the engine (``warbench.sim.runner.play_game``: ``Game.apply`` and the
bots), the way a ``simulate`` worker does. Every ``--every`` games (default
100) it prints the resident memory now (``/proc/self/statm``), the peak so
far (``resource.getrusage``), the growth since the last line, and the size of
the set-up's shared caches (what the games of one scenario keep between
them). With ``--trace`` it also reports Python's own allocations
(``tracemalloc``; slower), and with ``--top N`` the source lines holding most
of it at the end.

The verdict: memory is flat when the resident size grows by less than
``--tolerance`` MiB (default 10) over the second half of the run, after the
caches have filled. A measurement, not a test: it always exits 0. Run with
``python benchmarks/bench_memory.py [--games N] [--scenario ID]``.

``--all`` measures every built-in scenario with the random and the greedy bot,
each run in a process of its own (the peak is the process's), and prints one
table of peak memory, verdicts and games per wall second (the process start
included): ``python benchmarks/bench_memory.py --all
[--games N] [--bots random,greedy] [--scenario ID ...]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from typing import Any

from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.sim.runner import game_seed, play_game

MIB = 1024 * 1024


def rss_mib() -> float:
    """Resident memory of this process now."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / MIB


def peak_mib() -> float:
    """The highest resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cache_sizes(caches: dict[Any, Any]) -> str:
    """Entries of a set-up cache by kind (a nested cache counts its own entries)."""
    kinds: Counter[str] = Counter()
    for key, value in caches.items():
        kind = str(key[0] if isinstance(key, tuple) else key)
        kinds[kind] += len(value) if isinstance(value, dict) else 1
    return ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())) or "empty"


def every_scenario(scenarios: list[str], bots: list[str], games: int, every: int) -> None:
    """One run per scenario and bot, each in a fresh process; a table of their peaks."""
    print(
        f"python {platform.python_version()}, {games} games per run, one process per run "
        "(the same bot on every side)"
    )
    print(f"{'scenario':26} {'bot':7} {'peak MiB':>9} {'games/s':>8}  verdict")
    for scenario_id in scenarios:
        for bot in bots:
            command = [sys.executable, __file__, "--scenario", scenario_id, "--bot", bot]
            command += ["--games", str(games), "--every", str(every)]
            started = time.perf_counter()
            run = subprocess.run(command, capture_output=True, text=True, check=False)
            spent = time.perf_counter() - started
            last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
            if run.returncode != 0 or not last.startswith("peak "):
                error = (run.stderr.strip().splitlines() or ["no output"])[-1]
                print(f"{scenario_id:26} {bot:7} {'-':>9} {'-':>8}  failed: {error}", flush=True)
                continue
            peak = float(last.split()[1])
            verdict = last.rsplit(": ", 1)[-1]
            print(
                f"{scenario_id:26} {bot:7} {peak:9.1f} {games / spent:8.1f}  {verdict}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (1,000)")
    parser.add_argument("--every", type=int, default=100, help="report every N games (100)")
    parser.add_argument(
        "--all", action="store_true", help="every built-in scenario (or each --scenario), a table"
    )
    parser.add_argument(
        "--bots", default="random,greedy", help="with --all: the bots, one run each"
    )
    parser.add_argument(
        "--scenario", action="append", help="scenario id (vsgmr/street; repeat with --all)"
    )
    parser.add_argument("--bot", default="random", help="the bot of every side (random)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (1)")
    parser.add_argument("--tolerance", type=float, default=10.0, help="MiB (10)")
    parser.add_argument("--trace", action="store_true", help="also trace Python allocations")
    parser.add_argument(
        "--top", type=int, default=0, help="with --trace: the N source lines holding most memory"
    )
    args = parser.parse_args()
    if args.all:
        every_scenario(
            args.scenario or list(builtin_scenarios()),
            [b for b in args.bots.split(",") if b],
            args.games,
            args.every,
        )
        return
    scenario_id = (args.scenario or ["vsgmr/street"])[-1]
    if args.trace:
        tracemalloc.start()
    scenario = load_scenario(scenario_id)
    caches: dict[Any, Any] = getattr(getattr(scenario, "spec", None), "caches", {})
    bots = dict.fromkeys(scenario.sides, args.bot)
    print(
        f"python {platform.python_version()}, {scenario_id}, {args.bot} vs {args.bot}, "
        f"{args.games} games in one process"
    )
    start_rss = rss_mib()
    print(f"before the first game: {start_rss:.1f} MiB resident")
    header = f"{'games':>6} {'rss MiB':>8} {'peak MiB':>9} {'growth':>7} {'s':>6}"
    if args.trace:
        header += f" {'py MiB':>7}"
    print(header + "  set-up caches")
    samples: list[tuple[int, float]] = []
    last = start_rss
    clock = time.process_time()
    for index in range(args.games):
        play_game(scenario, game_seed(args.seed, index), bots)
        done = index + 1
        if done % args.every == 0 or done == args.games:
            gc.collect()
            now = rss_mib()
            line = (
                f"{done:>6} {now:>8.1f} {peak_mib():>9.1f} {now - last:>+7.1f} "
                f"{time.process_time() - clock:>6.1f}"
            )
            if args.trace:
                line += f" {tracemalloc.get_traced_memory()[0] / MIB:>7.1f}"
            print(f"{line}  {cache_sizes(caches)}", flush=True)
            samples.append((done, now))
            last = now
    half = [rss for done, rss in samples if done >= args.games // 2]
    late = max(half) - min(half) if len(half) > 1 else 0.0
    per_100 = late / max(1, args.games - args.games // 2) * 100
    verdict = "flat" if late < args.tolerance else "still growing"
    if args.trace and args.top:
        snapshot = tracemalloc.take_snapshot()
        print(f"most memory held at the end, by source line (top {args.top}):")
        for stat in snapshot.statistics("lineno")[: args.top]:
            print(f"  {stat.size / MIB:7.1f} MiB {stat.count:>9} blocks  {stat.traceback[0]}")
    print(
        f"peak {peak_mib():.1f} MiB; second half of the run grew {late:.1f} MiB "
        f"({per_100:.2f} MiB per 100 games): {verdict}"
    )


if __name__ == "__main__":
    main()
