"""Load on the web server (issue 15): 50 concurrent games on localhost, each a scripted
client playing random legal actions against a bot seat (hex games: MiniWars bridge and
CGME skirmish, half each), and the round trip of each action: from the POST until the reply
(the action stored; the bots answer in the background, and the client learns of its turn
over the game's WebSocket, as the browser does). Prints the percentiles (target: p99 under
50 ms for hex
games) and the actions per second. A measurement, not a test: it always exits 0.

    python benchmarks/bench_server.py [--games 50] [--seconds 20] [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
from typing import Any

import httpx
import websockets

try:
    import uvloop
except ImportError:  # no uvloop on this platform: asyncio's own loop
    uvloop = None  # type: ignore[assignment]

from warbench.server.client import ApiClient, free_port


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    return ApiClient(base, timeout=60).call(method, path, body, token)


async def _client(
    http: httpx.AsyncClient,
    game: str,
    token: str,
    until: float,
    times: list[float],
    served: list[float],
    think: float,
) -> None:
    """One scripted player, as the browser client plays: it learns of every change over
    the game's WebSocket, and when its turn comes POSTs a random legal action (timed)."""
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(game)
    url = str(http.base_url).replace("http://", "ws://").rstrip("/") + f"/api/games/{game}/live"
    async with websockets.connect(url, max_size=None) as live:
        await live.send(json.dumps({"token": token}))
        state = json.loads(await live.recv())
        await asyncio.sleep(rng.uniform(0, think))  # players do not all start at once
        while time.perf_counter() < until and state["outcome"] is None:
            if not state["legal_actions"]:
                state = json.loads(await live.recv())  # the bots are moving
                continue
            body = {"version": state["version"], "action": rng.choice(state["legal_actions"])}
            started = time.perf_counter()
            reply = await http.post(f"/api/games/{game}/actions", json=body, headers=auth)
            times.append(time.perf_counter() - started)
            timing = reply.headers.get("server-timing", "app;dur=0")
            served.append(float(timing.partition("dur=")[2]) / 1000)
            if reply.status_code == 200:
                state = reply.json()
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))  # 0.5 to 1.5 x think
            while True:  # skip to the newest state the socket has
                try:
                    newer = json.loads(await asyncio.wait_for(live.recv(), 0.001))
                except TimeoutError:
                    break
                if newer["version"] >= state["version"]:
                    state = newer


async def _load(
    base: str, games: list[tuple[str, str]], seconds: float, think: float
) -> tuple[list[float], list[float]]:
    times: list[float] = []
    served: list[float] = []
    until = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=len(games) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        await asyncio.gather(*(_client(http, g, t, until, times, served, think) for g, t in games))
    return times, served


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="mean seconds a player waits between actions (each wait drawn from 0.5 to 1.5 "
        "times it, so that players do not act in lockstep; default 0.5)",
    )
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--base", help="load a server already running here (http://HOST:PORT)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="warbench-bench-")
    db = args.db or f"sqlite:///{folder}/games.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = None
    if args.base:
        base = args.base
    else:
        command = [sys.executable, "-m", "warbench.cli.main", "serve", "--port", str(port)]
        server = subprocess.Popen([*command, "--db", db], stderr=subprocess.DEVNULL)
    try:
        for _ in range(400):
            try:
                _call(base, "GET", "/api/bots")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        games = []
        for k in range(args.games):
            scenario, human, bot = (
                ("miniwars/bridge", "guards", "vanguard")
                if k % 2 == 0
                else ("cgme/skirmish", "blue", "red")
            )
            made = _call(
                base,
                "POST",
                "/api/games",
                {
                    "scenario": scenario,
                    "seats": {bot: args.bot},
                    "seed": k,
                },
            )
            games.append((made["id"], made["seats"][human]["token"]))
        started = time.perf_counter()
        runner = uvloop.run if uvloop is not None else asyncio.run  # the lighter client loop
        times, served = runner(_load(base, games, args.seconds, args.think))
        wall = time.perf_counter() - started
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs")
    print(
        f"{args.games} concurrent hex games (bot: {args.bot}), {len(times)} actions in {wall:.1f} s"
    )
    if times:
        ms = [1000 * t for t in times]
        print(
            f"round trip ms: p50 {_percentile(ms, 50):.1f}, p95 {_percentile(ms, 95):.1f}, "
            f"p99 {_percentile(ms, 99):.1f}, max {max(ms):.1f} (target p99 < 50)"
        )
        ms = [1000 * t for t in served]
        print(
            f"inside the server (Server-Timing) ms: p50 {_percentile(ms, 50):.1f}, "
            f"p95 {_percentile(ms, 95):.1f}, p99 {_percentile(ms, 99):.1f}, max {max(ms):.1f}"
        )
        print(f"{len(times) / wall:.0f} actions/s")


if __name__ == "__main__":
    main()
