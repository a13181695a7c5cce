"""A write on a full disk is a clear 507, and the server keeps serving (issue 27): a real
``warbench serve`` on SQLite, started under a file-size limit (``RLIMIT_FSIZE``, with
SIGXFSZ ignored so that a write past it fails with EFBIG, as on a full disk, instead of
killing the process), is played until its database can no longer grow. The refused
action answers 507 with a clear error; the game is left exactly as stored (the action is
not applied in memory either); reads and other games go on; a new game is refused the
same way; and once the disk has room again (the server restarted without the limit) the
game plays on from the last acknowledged action, the refused one included."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
import urllib.error
from collections.abc import Callable
from pathlib import Path
from typing import Any

from warbench.server.client import ApiClient, ApiError, free_port
from warbench.server.store import Store


class Server:
    """``warbench serve`` as a separate process, optionally under a file-size limit."""

    def __init__(self, db: str, log: Path, max_file_bytes: int | None = None) -> None:
        self.port = free_port()
        self.api = ApiClient(f"http://127.0.0.1:{self.port}", timeout=20)
        command = [sys.executable, "-m", "warbench.cli.main", "serve", "--port", str(self.port)]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*command, "--db", db],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=None if max_file_bytes is None else _limited(max_file_bytes),
            )
        for _ in range(400):
            try:
                self.api.call("GET", "/api/bots")
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        self.stop()
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


def _limited(max_file_bytes: int) -> Callable[[], None]:
    def limit() -> None:  # in the child, before it runs the server
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it: EFBIG, not death
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

    return limit


def _mover(api: ApiClient, game: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The token of a seat that may act now and what it sees."""
    for token in tokens.values():
        state: dict[str, Any] = api.state(game, token)
        if state["legal_actions"]:
            return token, state
    raise AssertionError(f"nobody may act in game {game}")


def test_a_write_on_a_full_disk_is_a_clear_507_and_the_server_keeps_serving(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.db"
    db = f"sqlite:///{path}"
    server = Server(db, tmp_path / "first.log")
    try:
        game = server.api.new_game("miniwars/bridge", seed=3)
        other = server.api.new_game("cgme/skirmish", seed=4)
    finally:
        server.stop()  # a clean stop: the WAL is folded into the database file
    tokens = {side: seat["token"] for side, seat in game["seats"].items()}
    other_tokens = {side: seat["token"] for side, seat in other["seats"].items()}
    # Room for the database as it is and a few writes more: the WAL file grows by a few
    # pages at each commit, until it reaches the limit.
    limit = path.stat().st_size + 48 * 1024
    server = Server(db, tmp_path / "limited.log", max_file_bytes=limit)
    acknowledged: list[str] = []
    last_token = ""
    try:
        refused: ApiError | None = None
        for _ in range(200):
            token, before = _mover(server.api, game["id"], tokens)
            action = before["legal_actions"][0]
            try:
                reply = server.api.act(game["id"], token, before["version"], action)
            except ApiError as exc:
                refused = exc
                break
            acknowledged.append(action)
            last_token = token
            assert reply["version"] == len(acknowledged)
        assert refused is not None, "the database never filled its file-size limit"
        assert acknowledged, "the limit left no room for a single action"
        assert refused.status == 507, str(refused)
        assert "could not store the action: its disk is full" in str(refused)
        assert "nothing was changed" in str(refused)
        # Left exactly as stored: the refused action is not in memory either.
        assert server.api.state(game["id"], token) == before
        assert server.api.state(game["id"])["version"] == len(acknowledged)
        # Tried again while the disk is still full: the same answer, nothing changed.
        try:
            server.api.act(game["id"], token, before["version"], action)
            raise AssertionError("an action was acknowledged on a full disk")
        except ApiError as exc:
            assert exc.status == 507, str(exc)
        assert server.api.state(game["id"], token) == before
        # Other requests go on: reads, another game, the scenarios.
        other_state = server.api.state(other["id"], next(iter(other_tokens.values())))
        assert other_state["version"] == 0
        assert server.api.call("GET", "/api/scenarios")
        # An undo, a write too: the same answer, nothing changed.
        try:
            server.api.call(
                "POST", f"/api/games/{game['id']}/undo", {"version": len(acknowledged)}, last_token
            )
            raise AssertionError("an undo was acknowledged on a full disk")
        except ApiError as exc:
            assert exc.status == 507, str(exc)
            assert "could not store the undo: its disk is full" in str(exc)
        assert server.api.state(game["id"], token) == before
        # A new game, needing a write too, is refused the same way and leaves nothing.
        try:
            server.api.new_game("miniwars/bridge", seed=5)
            raise AssertionError("a new game was acknowledged on a full disk")
        except ApiError as exc:
            assert exc.status == 507, str(exc)
            assert "could not store the new game: its disk is full" in str(exc)
        assert server.process.poll() is None, "the server died"
    finally:
        server.stop()
    printed = (tmp_path / "limited.log").read_text("utf-8", errors="replace")
    assert "Traceback" not in printed, printed[-3000:]
    # Stored as acknowledged, and once there is room the refused action is taken.
    store = Store(db)
    try:
        stored = store.load(game["id"])
        assert stored is not None
        assert [text for _, text in stored.actions] == acknowledged
    finally:
        store.dispose()
    server = Server(db, tmp_path / "after.log")
    try:
        token, state = _mover(server.api, game["id"], tokens)
        assert state == before
        reply = server.api.act(game["id"], token, state["version"], action)
        assert reply["version"] == len(acknowledged) + 1
    finally:
        server.stop()
