"""Memory of a server that has seen many games: 10,000 games made on one server (its hub
and store, in this process), each looked at once (as its first visitor would), with the
resident memory (RSS) before, along the way and after. With ``--live-games`` (the
server's bound, 1000 by default) memory levels off once that many games are held; with
``--live-games 10000`` it grows with every game, for comparison.

    PYTHONPATH=src python benchmarks/bench_server_games.py [--games 10000] [--live-games 1000]
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import threading
import time
from pathlib import Path

from warbench.core.loader import load_scenario
from warbench.server.hub import LIVE_GAMES, Hub
from warbench.server.store import Store


def rss_mib() -> float:
    """This process's resident memory, in MiB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--live-games", type=int, default=LIVE_GAMES)
    parser.add_argument("--threads", type=int, default=4, help="callers at once (group commit)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-games-"))
    hub = Hub(Store(f"sqlite:///{folder / 'games.db'}"), args.live_games)
    scenario = load_scenario("miniwars/bridge")
    hub.message_json(hub.create(scenario, {}, 0, practice=True)[0], None)  # warm
    gc.collect()
    before = rss_mib()
    print(f"live games kept: {args.live_games}; RSS before: {before:.1f} MiB")
    made = 0
    lock = threading.Lock()
    started = time.perf_counter()

    def make(count: int) -> None:
        nonlocal made
        for k in range(count):
            game, _ = hub.create(scenario, {}, k, practice=True)
            hub.message_json(game, None)  # looked at once: its state built and cached
            with lock:
                made += 1
                if made % (args.games // 10) == 0:
                    print(
                        f"{made:>7,} games: RSS {rss_mib():7.1f} MiB, "
                        f"{len(hub._live):,} in memory, {time.perf_counter() - started:5.1f} s"
                    )

    share = args.games // args.threads
    threads = [threading.Thread(target=make, args=(share,)) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    gc.collect()
    after = rss_mib()
    print(
        f"RSS after {made:,} games: {after:.1f} MiB (+{after - before:.1f} MiB), "
        f"{len(hub._live):,} in memory, {time.perf_counter() - started:.1f} s"
    )
    hub.store.dispose()


if __name__ == "__main__":
    main()
