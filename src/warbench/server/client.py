"""A small Python client of the server's HTTP API, for scripts, tests and benchmarks.

>>> client = ApiClient("http://127.0.0.1:8000")  # doctest: +SKIP
>>> game = client.new_game("miniwars/bridge", {"vanguard": "greedy"})  # doctest: +SKIP
>>> token = game["seats"]["guards"]["token"]  # doctest: +SKIP
>>> state = client.state(game["id"], token)  # doctest: +SKIP
>>> client.act(game["id"], token, state["version"], state["legal_actions"][0])  # doctest: +SKIP
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any

from warbench.errors import WarbenchError


class ApiError(WarbenchError):
    """The server refused a request: its status and its error message."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(f"{status}: {message}")


class ApiClient:
    """Calls to one server (``http://HOST:PORT``), with a seat's token where given."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        self.base = base.rstrip("/")
        self.timeout = timeout

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                return json.load(reply)
        except urllib.error.HTTPError as exc:
            try:
                message = json.load(exc).get("error", exc.reason)
            except ValueError:
                message = exc.reason
            raise ApiError(exc.code, str(message)) from None

    def new_game(
        self, scenario: str, seats: dict[str, str] | None = None, seed: int | None = None
    ) -> dict[str, Any]:
        """A new game of a built-in scenario; returns its id, tokens and links. With a
        ``seed`` it is a practice game (its dice foreseeable); without, secret dice."""
        body: dict[str, Any] = {"scenario": scenario, "seats": seats or {}}
        if seed is not None:
            body.update(seed=seed, practice=True)
        made: dict[str, Any] = self.call("POST", "/api/games", body)
        return made

    def state(self, game: str, token: str | None = None) -> dict[str, Any]:
        """What the seat of ``token`` (a spectator without) may see now."""
        found: dict[str, Any] = self.call("GET", f"/api/games/{game}", token=token)
        return found

    def act(self, game: str, token: str, version: int, action: str) -> dict[str, Any]:
        """Take an action for the seat; returns its new state (the action stored)."""
        body = {"version": version, "action": action}
        done: dict[str, Any] = self.call("POST", f"/api/games/{game}/actions", body, token)
        return done


def free_port() -> int:
    """A TCP port nobody listens on now, on this machine."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
