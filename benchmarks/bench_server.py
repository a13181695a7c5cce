"""Load on the web server (issue 15): 50 concurrent games on localhost, each a scripted
player taking random legal actions against a bot seat (hex games: MiniWars bridge and
CGME skirmish, half each, greedy bots in the server's bot process), and the round trip
of each action: from sending the POST until the whole reply is read (the action stored
before the reply). The player learns of its turn over the game's WebSocket, as the
browser does, and waits 0.5 to 1.5 times ``--think`` (0.5 s) between actions, starting
at a random moment. Prints the percentiles (target: p99 under 50 ms for hex games), the
server's own share (its Server-Timing header) and the actions per second. A measurement,
not a test: it always exits 0. The players share one light process (plain asyncio
streams, uvloop), so that the load generator does not measure itself.

    python benchmarks/bench_server.py [--games 50] [--seconds 20] [--think 0.5] [--db URL]
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

import orjson
import websockets

try:
    import uvloop
except ImportError:  # no uvloop on this platform: asyncio's own loop
    uvloop = None  # type: ignore[assignment]

from warbench.server.client import ApiClient, free_port


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    return ApiClient(base, timeout=60).call(method, path, body, token)


class _Http:
    """One player's keep-alive HTTP/1.1 connection, written on asyncio's streams: the
    load generator must cost little, or it measures itself (httpx cost ~3 ms of client
    processor per request here, and the client shares the machine with the server)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, path: str, body: bytes, token: str) -> tuple[int, dict[str, str], bytes]:
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        writer.write(head.encode() + body)
        status = int((await reader.readline()).split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        data = await reader.readexactly(int(headers.get("content-length", "0")))
        return status, headers, data

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


async def _client(
    base: str,
    game: str,
    token: str,
    until: float,
    times: list[float],
    served: list[float],
    think: float,
) -> None:
    """One scripted player, as the browser client plays: it learns of every change over
    the game's WebSocket, and when its turn comes POSTs a random legal action (timed)."""
    rng = random.Random(game)
    address = base.removeprefix("http://").rstrip("/")
    host, _, port = address.partition(":")
    http = _Http(host, int(port or 80))
    async with websockets.connect(f"ws://{address}/api/games/{game}/live", max_size=None) as live:
        await live.send(json.dumps({"token": token}))
        state = orjson.loads(await live.recv())
        await asyncio.sleep(rng.uniform(0, think))  # players do not all start at once
        while time.perf_counter() < until and state["outcome"] is None:
            if not state["legal_actions"]:
                state = orjson.loads(await live.recv())  # the bots are moving
                continue
            action = rng.choice(state["legal_actions"])
            body = orjson.dumps({"version": state["version"], "action": action})
            started = time.perf_counter()
            status, headers, data = await http.post(f"/api/games/{game}/actions", body, token)
            times.append(time.perf_counter() - started)
            timing = headers.get("server-timing", "app;dur=0")
            served.append(float(timing.partition("dur=")[2]) / 1000)
            if status == 200:
                state = orjson.loads(data)
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))  # 0.5 to 1.5 x think
            while True:  # skip to the newest state the socket has
                try:
                    newer = orjson.loads(await asyncio.wait_for(live.recv(), 0.001))
                except TimeoutError:
                    break
                if newer["version"] >= state["version"]:
                    state = newer
    http.close()


async def _load(
    base: str, games: list[tuple[str, str]], seconds: float, think: float
) -> tuple[list[float], list[float]]:
    times: list[float] = []
    served: list[float] = []
    until = time.perf_counter() + seconds
    await asyncio.gather(*(_client(base, g, t, until, times, served, think) for g, t in games))
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
                    "practice": True,  # the same dice each run
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
