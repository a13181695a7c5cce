"""A server over a fresh SQLite file per test, driven through FastAPI's TestClient; and for
the browser tests, a real server (uvicorn in a thread) and Debian's chromium, headless."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, sync_playwright

from warbench.server.app import create_app
from warbench.server.client import free_port


class Api:
    """The test client with the helpers every server test needs."""

    def __init__(self, client: TestClient, db: str) -> None:
        self.client = client
        self.db = db

    @property
    def hub(self) -> Any:
        return self.client.app.state.hub  # type: ignore[attr-defined]

    def new(
        self, scenario: str, seats: dict[str, str] | None = None, seed: int = 0
    ) -> dict[str, Any]:
        r = self.client.post(
            "/api/games",
            json={"scenario": scenario, "seats": seats or {}, "seed": seed, "practice": True},
        )
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        self.settle(data["id"])
        return data

    def settle(self, game: str, seconds: float = 30.0) -> None:
        """Wait until the game's bots (played in the background) have nothing to do."""
        deadline = time.monotonic() + seconds
        running = self.client.app.state.bots._running  # type: ignore[attr-defined]
        while self.hub.bots_to_move(game) or (game in running and not running[game].done()):
            assert time.monotonic() < deadline, "the bots never finished"
            time.sleep(0.01)

    def look(self, game: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.client.get(f"/api/games/{game}", headers=headers)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def act(self, game: str, token: str | None, version: int, action: str) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        reply = self.client.post(
            f"/api/games/{game}/actions",
            json={"version": version, "action": action},
            headers=headers,
        )
        if reply.status_code == 200:
            self.settle(game)  # the bots answer in the background
        return reply


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def api(db_url: str) -> Iterator[Api]:
    with TestClient(create_app(db_url), base_url="http://localhost") as client:
        yield Api(client, db_url)


@pytest.fixture(scope="session")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "games.db"
    port = free_port()
    config = uvicorn.Config(
        create_app(f"sqlite:///{db}"), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, (
        "Debian's chromium is missing: make test installs it (apt-get install chromium)"
    )
    with sync_playwright() as p:
        found = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield found
        found.close()
