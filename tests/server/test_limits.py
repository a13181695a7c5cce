"""A server one can host for strangers (issue 27): bodies bounded by what is read, hosts
checked, bot options bounded over the network, seat tokens stored only as hashes."""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from warbench.cli import serve
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.server.app import MAX_BODY, BotRunner, Watchers, create_app
from warbench.server.hub import LIVE_GAMES, BotJob, Hub, choose_for
from warbench.server.limits import BOT_GAMES, allowed_hosts, choose_within, host_name
from warbench.server.store import Store

from .conftest import Api


def test_a_chunked_body_is_bounded_by_the_bytes_read(api: Api) -> None:
    """A body sent in chunks announces no length: it used to be read whole (256 MiB
    was accepted). Now it is counted as it arrives and refused with 413 once over."""

    def chunks() -> Iterator[bytes]:
        yield b'{"scenario_toml": "'
        for _ in range(4):
            yield b"x" * (512 * 1024)
        yield b'"}'

    for path in ("/api/games", "/api/scenarios/check", "/api/mine", "/api/bots"):
        r = api.client.post(path, content=chunks(), headers={"Content-Type": "application/json"})
        assert "content-length" not in r.request.headers  # chunked: nothing announced
        assert r.status_code == 413, (path, r.status_code, r.text)
        assert r.json()["error"] == f"a request is at most {MAX_BODY:,} bytes"
    small = api.client.post(  # a small chunked body is read as any other
        "/api/games",
        content=iter([b'{"scenario": "miniwars/bridge", ', b'"seats": {"guards": "random"}}']),
        headers={"Content-Type": "application/json"},
    )
    assert small.status_code == 201, small.text


def test_a_request_for_another_host_is_refused(db_url: str) -> None:
    """DNS rebinding: a page of another site whose name points at 127.0.0.1 must not reach
    the API. By default only the local names (and the address bound) are served."""
    with TestClient(create_app(db_url), base_url="http://evil.example") as client:
        r = client.get("/api/scenarios")
        assert r.status_code == 400
        assert "does not serve the host 'evil.example'" in r.json()["error"]
        assert "--allowed-host" in r.json()["error"]
        for host in ("localhost", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST."):
            assert client.get("/api/scenarios", headers={"host": host}).status_code == 200, host
        r = client.post("/api/games", json={"scenario": "miniwars/bridge"})
        assert r.status_code == 400 and "evil.example" in r.json()["error"]
        refused = client.get("/", headers={"host": "evil.example:8000"})
        assert refused.status_code == 400
    with TestClient(create_app(db_url, allowed_hosts=allowed_hosts(None, ["games.example"]))) as c:
        assert c.get("/api/bots", headers={"host": "games.example:443"}).status_code == 200
        assert c.get("/api/bots", headers={"host": "evil.example"}).status_code == 400
    with TestClient(create_app(db_url, allowed_hosts=["*"])) as anyone:
        assert anyone.get("/api/bots", headers={"host": "evil.example"}).status_code == 200


def test_a_websocket_for_another_host_is_refused(api: Api) -> None:
    made = api.new("miniwars/bridge")
    url = f"ws://evil.example/api/games/{made['id']}/live"
    try:
        with api.client.websocket_connect(url):
            raise AssertionError("the socket was accepted")
    except Exception as exc:  # starlette's WebSocketDenialResponse: the 400 reply
        status = getattr(exc, "status_code", None)
        assert status == 400, repr(exc)


def test_the_hosts_a_server_serves() -> None:
    assert host_name("[::1]:8000") == "::1" and host_name("Example.ORG.:80") == "example.org"
    assert allowed_hosts("0.0.0.0") == {"127.0.0.1", "localhost", "::1"}
    assert "192.168.1.5" in allowed_hosts("192.168.1.5")
    assert "fe80::1" in allowed_hosts("fe80::1")
    assert "*" in allowed_hosts("0.0.0.0", ["*"])


def test_bot_options_over_the_network_have_limits(api: Api) -> None:
    """A seat of mcts with a million iterations, or an hour a move, tied the shared bot
    process up for everyone: over the network a bot's options have limits (400 with the
    limit); the command line keeps them all."""
    post = api.client.post
    cases = [
        ("mcts:time=3600", "time=3600 is over this server's limit of 10 seconds"),
        ("mcts:iterations=10000000", "iterations=10000000 is over this server's limit of 20,000"),
        ("search:rollouts=1000000", "rollouts=1000000 is over this server's limit"),
        ("search:horizon=100000", "horizon=100000 is over this server's limit"),
        ("hard:time=60", "time=60 is over this server's limit"),
        ("mcts:iterations=20000", "over this server's limit of 30 s: give it time=S"),
    ]
    for bot, words in cases:
        body = {"scenario": "cgme/skirmish", "seats": {"red": bot}}
        r = post("/api/games", json=body)
        assert r.status_code == 400, (bot, r.text)
        assert words in r.json()["error"], (bot, r.json())
    for bot in ("mcts:iterations=20000,time=2", "hard", "search:time=10", "greedy"):
        r = post("/api/games", json={"scenario": "cgme/skirmish", "seats": {"red": bot}})
        assert r.status_code == 201, (bot, r.text)


def test_a_bot_decision_past_its_time_limit_plays_a_random_action(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    """Every bot decision has a time limit: past it the game does not wait for the bot
    (a random legal action is played instead, and the server's log says so)."""
    runner = api.client.app.state.bots  # type: ignore[attr-defined]
    runner.decision_seconds = 0.05
    made = api.new("miniwars/bridge", {"vanguard": "mcts:time=0.5"})
    token = made["seats"]["guards"]["token"]
    state = api.look(made["id"], token)
    for _ in range(20):  # the guards play on until the bot has had to decide
        if "a random action instead" in caplog.text:
            break
        legal = state["legal_actions"]
        action = "end" if "end" in legal else legal[0]
        assert api.act(made["id"], token, state["version"], action).status_code == 200
        state = api.look(made["id"], token)
    bot_moves = [e for e in api.hub.store.load(made["id"]).actions if e[0] == "vanguard"]
    assert bot_moves and state["waiting_for"] == ["guards"]
    assert "took over 0.05 s: a random action instead" in caplog.text


def test_a_bot_process_cuts_a_decision_at_its_limit() -> None:
    """In a bot process (its main thread) a timer signal ends a think past its limit and
    a random legal action is played instead; a quick decision is the bot's own."""
    scenario = load_scenario("cgme/skirmish")
    side = scenario.sides[0]
    job = BotJob("g", scenario.id, dict(scenario.raw), 1, (), side, "mcts:time=60", 7)
    # In a bot process of its own, as the server runs bots (a test runner's worker may
    # run tests outside its main thread, where no timer signal can cut a think).
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        started = time.perf_counter()
        chosen = pool.submit(choose_within, job, 0.3).result(timeout=50)
        assert time.perf_counter() - started < 30  # the think would take 60 s
    game = Game(scenario, 1)
    assert chosen in {str(a) for a in game.legal_actions(side)}
    greedy = replace(job, bot="greedy")
    assert choose_within(greedy, 30) == choose_for(greedy)


def test_the_database_holds_no_seat_token_in_clear(api: Api, tmp_path: Path) -> None:
    """Only the SHA-256 of a seat's token is stored: a copy of the database opens no seat."""
    made = api.client.post(
        "/api/games", json={"scenario": "miniwars/bridge", "seats": {"vanguard": "human"}}
    ).json()
    tokens = [seat["token"] for seat in made["seats"].values()]
    assert len(tokens) == 2 and all(tokens)
    dump = "\n".join(sqlite3.connect(api.db.removeprefix("sqlite:///")).iterdump())
    wal = Path(api.db.removeprefix("sqlite:///") + "-wal")
    raw = dump + (wal.read_bytes().decode("latin-1") if wal.exists() else "")
    for token in tokens:
        assert token not in raw
    for token in tokens:
        assert hashlib.sha256(token.encode()).hexdigest() in dump
    assert api.look(made["id"], tokens[0])["you"] == "guards"  # verified by its hash


def test_a_decision_that_waited_for_a_bot_process_is_not_taken_for_a_stuck_one(
    db_url: str,
) -> None:
    """Bots of several games share the bot processes, so a decision may wait for one. The
    server used to time a decision from when it was asked for, but the bot process from
    when it began: a decision that had waited was taken for a stuck process, and every
    game's bots were killed and started again. Now both count from the moment it is asked
    for: one that waited thinks for what is left (none left: a random action at once), and
    every answer comes within the limit of its asking, the processes untouched."""
    scenario = load_scenario("miniwars/bridge")
    start = Game(scenario, 1)
    side = next(s for s in scenario.sides if start.legal_actions(s))
    legal = {str(a) for a in start.legal_actions(side)}

    async def three_games_at_once() -> tuple[list[float], bool]:
        runner = BotRunner(Hub(Store(db_url)), Watchers(), processes=1)
        runner.decision_seconds, runner.decision_grace = 3.0, 2.0
        try:
            warm = BotJob("warm", scenario.id, dict(scenario.raw), 1, (), side, "greedy", 1)
            await runner._choose(warm)  # the process is started and has imported the bots
            pool = runner._pool
            started = time.monotonic()

            async def timed(n: int) -> float:
                job = BotJob(
                    f"g{n}", scenario.id, dict(scenario.raw), 1, (), side, "mcts:time=2", n
                )
                assert await runner._choose(job) in legal
                return time.monotonic() - started

            answered = await asyncio.gather(*(timed(n) for n in range(3)))
            return list(answered), runner._pool is pool
        finally:
            runner.close()

    with ThreadPoolExecutor(1) as thread:  # a loop of its own (a browser test's may run here)
        answered, same_pool = thread.submit(asyncio.run, three_games_at_once()).result()
    assert same_pool, "a decision that waited in the queue was taken for a stuck process"
    assert max(answered) < 3.0 + 1.5, answered  # its limit, and room for a slow machine


def test_a_new_game_with_bots_waits_while_the_bots_are_busy(db_url: str) -> None:
    """A crowd of bot games would push every game's decisions into the queue: past the
    server's number of bot games (``--bot-games``), a new game with a bot seat is refused
    with 503 and when to try again; a game between people is made as ever."""
    with TestClient(create_app(db_url, bot_games=1), base_url="http://localhost") as client:
        busy = {"red": "mcts:time=1", "blue": "mcts:time=1"}
        first = client.post("/api/games", json={"scenario": "cgme/skirmish", "seats": busy})
        assert first.status_code == 201, first.text
        r = client.post(
            "/api/games", json={"scenario": "cgme/skirmish", "seats": {"red": "greedy"}}
        )
        assert r.status_code == 503, r.text
        assert (
            "the server's bots are busy (1 games have bots playing, its limit is 1)"
            in (r.json()["error"])
        )
        assert r.headers["retry-after"] == "60"
        people = client.post("/api/games", json={"scenario": "cgme/skirmish", "seats": {}})
        assert people.status_code == 201, people.text


def test_the_command_line_defaults_are_the_servers() -> None:
    """``warbench serve`` names its defaults without importing the server (a quick start):
    they must be the server's own."""
    assert serve.BOT_GAMES == BOT_GAMES and serve.LIVE_GAMES == LIVE_GAMES


def test_a_stopping_server_starts_no_more_bots(api: Api) -> None:
    """At shutdown the bots stop after the action in hand: a cancelled task alone could
    play on (Python 3.11's ``wait_for`` may swallow a cancellation), so the runner is
    closed first and then neither starts nor goes on with a game's bots."""
    bots = api.client.app.state.bots
    bots.close()
    bots.poke("any-game")
    assert bots.busy() == 0 and not bots._running
