"""Two servers on one database (issue 27): two real ``warbench serve`` processes share a
SQLite file, then a PostgreSQL cluster (``test_durability``'s). A read on one server
after a write on the other shows the write, undo included; an undo on one racing an
action on the other never leaves a game that cannot be replayed: no request answers 500,
the loser is told to reload (409), and afterwards both servers serve the same game, the
one the database replays."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from warbench.server.client import ApiError
from warbench.server.hub import _rebuild
from warbench.server.store import Store

from .test_durability import Server, _call
from .test_durability import postgres as postgres  # the PostgreSQL cluster fixture


def _status(base: str, method: str, path: str, body: Any, token: str | None) -> int:
    try:
        _call(base, method, path, body, token)
    except ApiError as exc:
        return exc.status
    return 200


def _servers(db: str, tmp_path: Path) -> tuple[Server, Server]:
    first = Server(db, tmp_path / "first.log")
    first.start()  # migrates a new database before the second opens it
    second = Server(db, tmp_path / "second.log")
    second.start()
    return first, second


def _new_game(server: Server) -> tuple[str, dict[str, str]]:
    """Two people at Hold the Bridge (seed 1: the vanguard chooses its entry, the guards
    fire, then move without dice, so a move may be taken back)."""
    made = _call(
        server.base,
        "POST",
        "/api/games",
        {"scenario": "miniwars/bridge", "seed": 1, "practice": True},
    )
    return made["id"], {side: seat["token"] for side, seat in made["seats"].items()}


def _look(server: Server, game: str, token: str | None = None) -> dict[str, Any]:
    state: dict[str, Any] = _call(server.base, "GET", f"/api/games/{game}", token=token)
    return state


def _same(state: dict[str, Any]) -> dict[str, Any]:
    """A state as two servers must agree on it: the legal actions as a set (MiniWars
    lists them in an order that depends on what was asked before, not on the game)."""
    return {**state, "legal_actions": sorted(state["legal_actions"])}


def _play(server: Server, game: str, tokens: dict[str, str], prefer: str = "move") -> str:
    """The side to move takes its first action starting with ``prefer`` (or its first)."""
    side = _look(server, game)["waiting_for"][0]
    state = _look(server, game, tokens[side])
    legal = state["legal_actions"]
    action = next((a for a in legal if a.startswith(prefer)), legal[0])
    path = f"/api/games/{game}/actions"
    _call(server.base, "POST", path, {"version": state["version"], "action": action}, tokens[side])
    return action


def _same_everywhere(db: str, servers: tuple[Server, Server], game: str, token: str) -> int:
    """Both servers serve the same game, the one the database replays; its version."""
    first, second = (_look(s, game, token) for s in servers)
    assert _same(first) == _same(second)
    store = Store(db)
    try:
        stored = store.load(game)
    finally:
        store.dispose()
    assert stored is not None
    replayed, _ = _rebuild(stored)  # raises if the stored history cannot be replayed
    assert len(replayed.actions) == first["version"] == len(stored.actions)
    assert stored.revision == first["revision"]
    version: int = first["version"]
    return version


def _read_after_write(db: str, tmp_path: Path) -> None:
    servers = first, second = _servers(db, tmp_path)
    try:
        game, tokens = _new_game(first)
        for _ in range(3):
            _play(first, game, tokens)
        guards = tokens["guards"]
        assert _look(second, game, guards)["version"] == 3  # the second has it in memory
        moved = _play(first, game, tokens)
        assert _look(second, game, guards)["version"] == 4, "the second served an old game"
        assert _same(_look(second, game)) == _same(_look(first, game))  # a spectator's
        assert _same_everywhere(db, servers, game, guards) == 4
        _call(first.base, "POST", f"/api/games/{game}/undo", {"version": 4}, guards)
        after_undo = _look(second, game, guards)
        assert after_undo["version"] == 3 and moved in after_undo["legal_actions"]
        assert _same_everywhere(db, servers, game, guards) == 3
        _play(second, game, tokens)  # and the other way round
        assert _look(first, game, guards)["version"] == 4
        assert _same_everywhere(db, servers, game, guards) == 4
    finally:
        first.stop()
        second.stop()


def _send(
    statuses: dict[str, int],
    what: str,
    server: Server,
    path: str,
    body: Any,
    token: str,
    start: threading.Barrier,
) -> None:
    start.wait()  # both requests leave together
    statuses[what] = _status(server.base, "POST", path, body, token)


def _undo_races_a_write(db: str, tmp_path: Path, races: int = 8) -> None:
    servers = first, second = _servers(db, tmp_path)
    try:
        game, tokens = _new_game(first)
        raced = 0
        for k in range(60):
            undoer, writer = (first, second) if k % 2 == 0 else (second, first)
            state = _look(undoer, game)
            if state["outcome"] is not None or raced == races:
                break
            side = state["waiting_for"][0]
            token = tokens[side]
            legal = _look(undoer, game, token)["legal_actions"]
            if not any(a.startswith("move") for a in legal):
                _play(undoer, game, tokens)  # no move to take back: play on
                continue
            _play(undoer, game, tokens)  # a move (no dice) the side may take back
            version = state["version"] + 1
            seen = _look(writer, game, token)
            assert seen["version"] == version, "the writer's server served an old game"
            moves = [a for a in seen["legal_actions"] if a.startswith("move")]
            if side not in seen["waiting_for"] or not moves:
                continue
            statuses: dict[str, int] = {}
            start = threading.Barrier(2)
            undo = ("undo", undoer, f"/api/games/{game}/undo", {"version": version})
            body = {"version": version, "action": moves[-1]}
            act = ("act", writer, f"/api/games/{game}/actions", body)
            threads = [
                threading.Thread(target=_send, args=(statuses, *args, token, start))
                for args in (undo, act)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            assert set(statuses) == {"undo", "act"}
            assert 500 not in statuses.values(), statuses
            assert set(statuses.values()) <= {200, 409}, statuses
            assert 200 in statuses.values(), statuses  # one of them was stored
            after = _same_everywhere(db, servers, game, token)
            assert after == (version - 1 if statuses["undo"] == 200 else version + 1)
            raced += 1
        assert raced >= races // 2, f"only {raced} races: too few to prove anything"
        for server in servers:  # every request still answers
            assert _status(server.base, "GET", f"/api/games/{game}", None, None) == 200
    finally:
        first.stop()
        second.stop()


def test_sqlite_a_read_on_one_server_shows_a_write_on_the_other(tmp_path: Path) -> None:
    _read_after_write(f"sqlite:///{tmp_path / 'games.db'}", tmp_path)


def test_sqlite_an_undo_racing_a_write_on_another_server_never_bricks_the_game(
    tmp_path: Path,
) -> None:
    _undo_races_a_write(f"sqlite:///{tmp_path / 'games.db'}", tmp_path)


def test_postgresql_a_read_on_one_server_shows_a_write_on_the_other(
    postgres: str, tmp_path: Path
) -> None:
    _read_after_write(postgres, tmp_path)


def test_postgresql_an_undo_racing_a_write_on_another_server_never_bricks_the_game(
    postgres: str, tmp_path: Path
) -> None:
    _undo_races_a_write(postgres, tmp_path)
