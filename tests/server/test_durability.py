"""No acknowledged action is lost, and no token is printed (issue 15): a server under load
from bot games and scripted clients is killed with SIGKILL mid-game, restarted on the same
database, and every action a client saw acknowledged is there, in its place; every game
still replays; nothing the server printed holds a seat's token. Once on the default SQLite
file, once on PostgreSQL (a throwaway cluster started by the test from Debian's package;
skipped only where the machine has no PostgreSQL, which ``make test`` installs)."""

from __future__ import annotations

import contextlib
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from warbench.server.client import ApiClient, ApiError, free_port
from warbench.server.store import Store


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    return ApiClient(base, timeout=20).call(method, path, body, token)


class Server:
    """``warbench serve`` as a separate process, to be killed for real."""

    def __init__(self, db: str, log: Path) -> None:
        self.db = db
        self.log = log
        """Everything the server printed (both runs): it must never hold a token."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.groups: list[int] = []
        """The process groups of every run: a killed server leaves its bot process."""

    def start(self) -> None:
        command = [sys.executable, "-m", "warbench.cli.main", "serve", "--port", str(self.port)]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [*command, "--db", self.db],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its bot process too is ours to end at the finish
            )
            self.groups.append(self.process.pid)
        for _ in range(400):
            try:
                _call(self.base, "GET", "/api/bots")
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait()
        for group in self.groups:  # what a kill -9 left behind (the bot process)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)


def _client(
    base: str, game: str, token: str, seen: dict[str, list[tuple[int, str]]], stop: threading.Event
) -> None:
    """Play random legal actions; note each acknowledged one (its version and text)."""
    rng = random.Random(game)
    while not stop.is_set():
        try:
            state = _call(base, "GET", f"/api/games/{game}", token=token)
            if state["outcome"] is not None or not state["legal_actions"]:
                return
            action = rng.choice(state["legal_actions"])
            reply = _call(
                base,
                "POST",
                f"/api/games/{game}/actions",
                {"version": state["version"], "action": action},
                token,
            )
        except (ApiError, urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            return  # the server is gone (killed) or refused: stop
        seen[game].append((state["version"], action))
        assert reply["version"] > state["version"]


def _kill_under_load(db: str, log: Path) -> None:
    server = Server(db, log)
    server.start()
    store = Store(db)
    try:
        games: dict[str, str] = {}
        for k in range(8):
            scenario = ("miniwars/bridge", "cgme/skirmish")[k % 2]
            sides = ("guards", "vanguard") if k % 2 == 0 else ("blue", "red")
            made = _call(
                server.base,
                "POST",
                "/api/games",
                {"scenario": scenario, "seats": {sides[1]: "greedy"}, "seed": k, "practice": True},
            )
            games[made["id"]] = made["seats"][sides[0]]["token"]
        for k in range(4):  # bots alone, played out when made
            _call(
                server.base,
                "POST",
                "/api/games",
                {
                    "scenario": "miniwars/bridge",
                    "seats": {"guards": "random", "vanguard": "random"},
                    "seed": 100 + k,
                },
            )
        seen: dict[str, list[tuple[int, str]]] = {game: [] for game in games}
        stop = threading.Event()
        threads = [
            threading.Thread(target=_client, args=(server.base, g, t, seen, stop))
            for g, t in games.items()
        ]
        for thread in threads:
            thread.start()
        time.sleep(2.0)
        server.kill()  # mid-game, clients still sending
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        assert sum(len(v) for v in seen.values()) > 10, "too little load to prove anything"
        server.start()
        for game, token in games.items():
            state = _call(server.base, "GET", f"/api/games/{game}", token=token)
            record_actions = state["version"]
            for version, _ in seen[game]:
                assert record_actions > version, f"{game}: acknowledged action {version} lost"
            loaded = store.load(game)
            assert loaded is not None and len(loaded.actions) == record_actions
            for version, action in seen[game]:
                assert loaded.actions[version][1] == action, f"{game}: action {version} differs"
        printed = log.read_text("utf-8", errors="replace")
        assert "warbench is serving" in printed
        leaked = [t for t in games.values() if t in printed]
        assert not leaked, "a seat's token was printed by the server"
    finally:
        server.stop()
        store.dispose()


def test_sqlite_keeps_every_acknowledged_action_after_kill_9(tmp_path: Path) -> None:
    _kill_under_load(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log")


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


@pytest.fixture
def postgres() -> Iterator[str]:
    initdb, pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not on this machine (make test installs it from Debian)")
    # Not under pytest's own temporary folder: as root, the cluster runs as the postgres
    # user (initdb refuses root), who may not enter root's private folders.
    folder = Path(tempfile.mkdtemp(prefix="warbench-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    run = lambda *c: subprocess.run([*as_user, *c], check=True, capture_output=True)  # noqa: E731
    run(initdb, "-D", str(folder), "-U", "postgres", "--auth=trust", "-E", "UTF8")
    run(
        pg_ctl,
        "-D",
        str(folder),
        "-l",
        str(folder / "log"),
        "-w",
        "-o",
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1",
        "start",
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(pg_ctl, "-D", str(folder), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_postgresql_keeps_every_acknowledged_action_after_kill_9(
    postgres: str, tmp_path: Path
) -> None:
    _kill_under_load(postgres, tmp_path / "server.log")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = Path(stat).read_text().rpartition(")")[2].split()
            if int(fields[1]) == pid:
                found.append(int(stat.split("/")[2]))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_bot_process_dies_with_its_server_after_kill_9(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot end its bot process itself: the bot process
    notices that its parent is gone and ends (it used to live on, reparented to init)."""
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log")
    server.start()
    try:
        assert server.process is not None
        _call(
            server.base,
            "POST",
            "/api/games",
            {"scenario": "miniwars/bridge", "seats": {"guards": "random", "vanguard": "random"}},
        )
        workers: list[int] = []
        for _ in range(200):  # the bot process is spawned at the bots' first think
            workers = [
                pid
                for pid in _children(server.process.pid)
                if b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes()
            ]
            if len(workers) >= 2:  # the spawn helper (resource tracker) and a worker
                break
            time.sleep(0.05)
        assert workers, "no bot process was started"
        server.kill()
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = {pid: Path(f"/proc/{pid}/stat").read_text() for pid in workers if _alive(pid)}
        assert not left, f"a bot process outlived its server: {left}"
    finally:
        server.stop()
