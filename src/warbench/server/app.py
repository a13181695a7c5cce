"""The HTTP and WebSocket API (FastAPI), and the pages of the browser client.

Endpoints (JSON; errors are ``{"error": "..."}`` with the status below):

- ``GET /api/scenarios``: the built-in scenarios; ``GET /api/bots``: the bots.
- ``POST /api/games`` ``{"scenario": ID | "scenario_toml": TEXT, "seats": {side:
  "human" | BOT}}`` (``"seed": N`` only for bots alone or ``"practice": true``; by
  default the dice are drawn from a secret seed): a new game; returns its id, each
  human seat's token and link (the token after ``#`` in the link, so it never
  reaches a server log), and the spectators' link. 400 for a bad scenario (the
  same message as the CLI's), 413 for an upload over 1 MiB.
- ``GET /api/games/{id}``: what the caller may see: a seat with
  ``Authorization: Bearer TOKEN``, a spectator without. 404 unknown game, 403 a
  token that opens no seat of it.
- ``POST /api/games/{id}/actions`` ``{"version": N, "action": TEXT}`` with the seat's
  token: the action, stored before the reply; bots answer before the reply too.
  409 when ``version`` is not the game's (the reply holds the latest state), 422
  for an illegal action (with the rules' reason; nothing changed), 403 for a bot's
  side or another game's token, 401 without a token.
- ``GET /api/games/{id}/board.svg``: the board as the caller may see it.
- ``GET /api/games/{id}/record``: the record, once the game is over (409 before).
- ``WS /api/games/{id}/live``: send ``{"token": TOKEN}`` (or ``{}`` to watch) first;
  the server sends the caller's state now and after every change.

Tokens travel in headers and WebSocket messages only, never in a URL the server
logs, and uvicorn runs without an access log.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import AsyncIterator, Collection, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

import orjson
from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from warbench.bots import bot_names, registered_bot
from warbench.bots.timing import about_bots, expected_seconds
from warbench.core import registry
from warbench.core.loader import (
    ScenarioInfo,
    builtin_scenarios,
    is_calibration,
    list_scenarios,
    load_scenario,
    scenario_from_dict,
    with_options,
)
from warbench.errors import IllegalAction, UnknownScenario, WarbenchError, excerpt
from warbench.scenario.files import MAX_FILE_BYTES, parse_toml
from warbench.scenario.model import Scenario
from warbench.server.hub import (
    LIVE_GAMES,
    BotJob,
    Damaged,
    Forbidden,
    Hub,
    NotFound,
    Stale,
)
from warbench.server.limits import (
    BOT_GAMES,
    DECISION_GRACE,
    DECISION_SECONDS,
    HELLO_SECONDS,
    LOCAL_HOSTS,
    Guard,
    choose_by,
    choose_within,
    fallback_choice,
    network_bot,
)
from warbench.server.store import HUMAN, Store, StoreFull

MAX_BODY = MAX_FILE_BYTES + 64 * 1024
"""The largest request body read: a scenario file at its limit and a little JSON."""


FIRST_GAME: dict[str, Any] = {
    "scenario": "miniwars/bridge",
    "seats": {"guards": "human", "vanguard": "greedy"},
    "why": (
        "Hold the Bridge as the town guards against the greedy bot: a small hex map, "
        "eleven units, eight turns, about half an hour. An even fight: the greedy bot "
        "wins 21 of 40 games as the guards against itself (warbench balance, paired "
        "seeds), so the game is yours to win."
    ),
}
"""The lobby's suggestion for a first game (a short, even one)."""

BUSY_RETRY_SECONDS = 60
"""When to try again, told with a refusal because the bots are busy (``Retry-After``)."""

BOT_NICENESS = 10
"""How much lower than the server the bot processes run (``nice``)."""


class Body(BaseModel):
    """A request body: a key it does not know is refused by name (a misspelt ``seats``
    must not silently make every seat human)."""

    model_config = ConfigDict(extra="forbid")


class NewGame(Body):
    scenario: str | None = Field(default=None, max_length=300)
    scenario_toml: str | None = Field(default=None, max_length=MAX_BODY)
    seats: dict[str, str] = Field(default_factory=dict, max_length=16)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    """The dice's seed: only for a practice game or one of bots alone (the seed tells
    every future die); by default a secret one, shown to nobody before the game ends."""
    practice: bool = False
    """A practice game: the seed may be chosen (and its dice foreseen) with people in it."""
    options: dict[str, str] = Field(default_factory=dict, max_length=16)
    """Scenario options the players choose (``{"measuring": "free"}``), values as a
    scenario file writes them: the ones ``GET /api/scenarios/{id}`` lists."""


class Upload(Body):
    scenario_toml: str = Field(max_length=MAX_BODY)


def _describe(scenario: Scenario) -> dict[str, Any]:
    return {
        "id": scenario.id,
        "ruleset": scenario.ruleset,
        "title": scenario.title,
        "sides": list(scenario.sides),
        "goal": registry.get(scenario.ruleset).goal(scenario),
        "options": registry.get(scenario.ruleset).scenario_options(scenario),
    }


class Explain(Body):
    actions: list[Annotated[str, Field(max_length=2000)]] = Field(max_length=500)


class Undo(Body):
    version: int = Field(ge=0)


class NewAction(Body):
    version: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=2000)


class Say(Body):
    text: str = Field(min_length=1, max_length=2000)


class MySeat(Body):
    game: str = Field(max_length=40)
    token: str = Field(max_length=200)


class Mine(Body):
    seats: list[MySeat] = Field(max_length=200)


class _StaleFor(Exception):
    """A stale action, with the side that sent it (to reply with its latest state)."""

    def __init__(self, side: str, error: Stale) -> None:
        self.side = side
        self.error = error


def _json(text: str) -> Response:
    """A reply of JSON text already encoded (a seat's message is encoded once a state)."""
    return Response(text, media_type="application/json")


@functools.cache
def _builtin(scenario_id: str) -> Scenario:
    """A built-in scenario, read and built once per server (games share it)."""
    return load_scenario(scenario_id)


@functools.cache
def _scenario_list() -> list[ScenarioInfo]:
    """The built-in scenarios, read once per server (reading them all takes ~0.1 s)."""
    return list(list_scenarios())


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def _what_is_stored(path: str) -> str:
    """What a write to ``path`` stores, in words (for a 507)."""
    if path.endswith("/actions"):
        return "the action"
    if path.endswith("/undo"):
        return "the undo"
    if path.endswith("/chat"):
        return "the chat line"
    if path.rstrip("/") == "/api/games":
        return "the new game"
    return "the change"


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    kind, _, token = authorization.partition(" ")
    if kind.lower() != "bearer" or not token.strip():
        raise Forbidden("give the seat's token as 'Authorization: Bearer TOKEN'")
    return token.strip()


class BotRunner:
    """Plays the bots of a game in the background, one action at a time, telling every
    watcher after each; at most one runner a game."""

    def __init__(
        self, hub: Hub, watchers: Watchers, processes: int = 0, games: int = BOT_GAMES
    ) -> None:
        self.hub = hub
        self.watchers = watchers
        self._running: dict[str, asyncio.Task[None]] = {}
        self._processes = processes
        self._pool_tries = 0
        self._pool = self._new_pool() if processes > 0 else None
        """Bots think in other processes, so that requests never wait for them."""
        self.decision_seconds = DECISION_SECONDS
        """How long after its turn a bot's decision is answered, at the latest (its wait
        for a bot process included; a think cut short plays a random legal action)."""
        self.decision_grace = DECISION_GRACE
        """How much longer a bot process may take before it is taken for stuck."""
        self.games = games
        """At most this many games have bots playing when a new game with bots is made."""
        self._closed = False
        """The server is stopping: no bot starts or plays another action."""

    def busy(self) -> int:
        """The games whose bots are thinking or waiting for a bot process now."""
        return sum(1 for task in self._running.values() if not task.done())

    def full(self) -> bool:
        """No room for another game's bots: a new game with bot seats must wait."""
        return self.busy() >= self.games

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            self._processes,
            mp_context=context,
            initializer=_think_behind_requests,
            initargs=(os.getpid(),),
        )

    def close(self) -> None:
        """Stop every game's bots (each after the action in hand) and the bot processes.
        A task's cancellation alone is not enough: on Python 3.11 ``asyncio.wait_for``
        may swallow it when the bot's answer arrives at that moment, and the bots would
        play their game on while the server stops."""
        self._closed = True
        for task in self._running.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def poke(self, game_id: str) -> None:
        """Start the game's bots if they are not already playing."""
        task = self._running.get(game_id)
        if self._closed:
            return
        if task is None or task.done():
            self._running[game_id] = asyncio.create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        hub = self.hub
        sides = self.watchers.sides

        def then(job: BotJob, text: str) -> tuple[BotJob | None, dict[str | None, str]]:
            """The bot's action applied and stored, the watchers' news and the next job, in
            one trip to a worker thread (each trip waits for the interpreter)."""
            hub.bot_apply(job, text)
            return hub.bot_job(game_id), hub.messages_json(game_id, sides(game_id))

        try:
            job = await run_in_threadpool(hub.bot_job, game_id)
            while job is not None and not self._closed:
                text = await self._choose(job)
                if self._closed:
                    return
                job, news = await run_in_threadpool(then, job, text)
                await self.watchers.send(game_id, news)
        except Exception:  # a bot's failure must not kill the server; the game waits
            logging.getLogger("warbench.server").exception("the bots of game %s stopped", game_id)

    async def _choose(self, job: BotJob) -> str:
        """The bot's choice, from the process pool (started again once if it broke; then
        the server's own threads, so that a broken pool never stalls a game). A decision
        is due :attr:`decision_seconds` after it is asked for, however long it waited for
        a bot process (other games' bots were thinking): the process cuts the think at
        that moment (a random legal action instead). One that does not answer even
        :attr:`decision_grace` later is given up on, its pool started again, and a random
        action played, so no game waits on it forever. (The process and the server count
        from the same moment: a decision that waited in the queue is not taken for a
        stuck process.)"""
        due = time.time() + self.decision_seconds
        for _ in range(2):
            pool = self._pool
            if pool is None:
                break
            try:
                loop = asyncio.get_running_loop()
                thinking = loop.run_in_executor(pool, choose_by, job, due)
                waited = max(due - time.time(), 0.0) + self.decision_grace
                return await asyncio.wait_for(thinking, waited)
            except TimeoutError:
                logging.getLogger("warbench.server").warning("a bot process stopped answering")
                if self._pool is pool:
                    self._replace_pool(pool, count=False)
                return await run_in_threadpool(fallback_choice, job)
            except BrokenProcessPool:
                if self._pool is pool:  # the first to find it broken replaces it
                    logging.getLogger("warbench.server").warning("the bot process died")
                    self._replace_pool(pool, count=True)
        thinking_here = asyncio.ensure_future(run_in_threadpool(choose_within, job, 0.0))
        try:  # a thread cannot be stopped: stop waiting for it
            left = max(due - time.time(), 0.0)
            return await asyncio.wait_for(asyncio.shield(thinking_here), left)
        except TimeoutError:
            logging.getLogger("warbench.server").warning(
                "the %s bot of game %s took over %g s: a random action instead",
                job.bot,
                job.game_id,
                self.decision_seconds,
            )
            return await run_in_threadpool(fallback_choice, job)

    def _replace_pool(self, pool: ProcessPoolExecutor, *, count: bool) -> None:
        """End ``pool`` (its processes killed: one may be stuck) and start another (after
        three deaths, none: the bots think in the server's threads)."""
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        if count:
            self._pool_tries += 1
        self._pool = self._new_pool() if self._pool_tries < 3 else None


def _think_behind_requests(server: int) -> None:
    """A bot process runs at a lower priority than the server: on a busy machine a
    person's request is answered first and a bot's long think waits (its decision's limit,
    ``DECISION_SECONDS``, leaves room for that).
    It also ends when the server does, however the server ended (``kill -9`` included)."""
    with contextlib.suppress(AttributeError, OSError):  # no nice() here: think as we are
        os.nice(BOT_NICENESS)
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


ORPHAN_CHECK_SECONDS = 0.5
"""How often a bot process looks whether its server is still there."""


def _end_with(server: int) -> None:
    """End this process once ``server`` (its parent) is gone: a killed parent leaves its
    children to init, and a bot process nobody will ever ask again must not live on."""
    while os.getppid() == server:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(0)


SEND_QUEUE = 64
"""The messages a WebSocket may have waiting to be sent: a consumer that falls further
behind (it stopped reading) is dropped, never waited for."""
SLOW_CLOSE = 4408
"""The close code of a WebSocket dropped for not reading its updates."""


class Outbox:
    """One WebSocket's messages waiting to be sent, sent in order by its own task: a
    socket that stops reading holds up only itself, and once :data:`SEND_QUEUE` messages
    wait it is closed with a reason."""

    def __init__(self, socket: WebSocket, side: str | None) -> None:
        self.socket = socket
        self.side = side
        self._queue: asyncio.Queue[str] = asyncio.Queue(SEND_QUEUE)
        self._task = asyncio.create_task(self._pump())
        self.dropped = False

    def offer(self, text: str) -> bool:
        """Queue ``text``; False (and the socket closed) if too many already wait."""
        if self.dropped:
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("too slow: the updates were not read; connect again for the latest")
            return False
        return True

    async def _pump(self) -> None:
        while True:
            text = await self._queue.get()
            try:
                await self.socket.send_text(text)
            except Exception:  # closed: nothing more to send
                self.dropped = True
                return

    def drop(self, reason: str) -> None:
        """Stop sending and close the socket with ``reason`` (in the background, bounded:
        a peer that reads nothing may never take the close either)."""
        if self.dropped:
            return
        self.dropped = True
        self._task.cancel()
        closing = asyncio.create_task(self._close(reason))
        _background.add(closing)
        closing.add_done_callback(_background.discard)

    async def _close(self, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.socket.close(code=SLOW_CLOSE, reason=reason), 5)

    def stop(self) -> None:
        self.dropped = True
        self._task.cancel()


_background: set[asyncio.Task[None]] = set()


class Watchers:
    """The WebSockets watching each game, with the side each may see."""

    def __init__(self) -> None:
        self._by_game: dict[str, list[Outbox]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, game_id: str, socket: WebSocket, side: str | None) -> Outbox:
        outbox = Outbox(socket, side)
        self._by_game.setdefault(game_id, []).append(outbox)
        return outbox

    def remove(self, game_id: str, socket: WebSocket) -> None:
        kept = []
        for outbox in self._by_game.get(game_id, []):
            if outbox.socket is socket:
                outbox.stop()
            else:
                kept.append(outbox)
        if kept:
            self._by_game[game_id] = kept
        else:
            self._by_game.pop(game_id, None)

    def tell_soon(self, hub: Hub, game_id: str) -> None:
        """Tell the watchers in the background (a reply does not wait for them)."""
        if self._by_game.get(game_id):
            task = asyncio.create_task(self.tell(hub, game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def sides(self, game_id: str) -> set[str | None]:
        """The seats watching the game (None: spectators)."""
        return {outbox.side for outbox in self._by_game.get(game_id, ())}

    async def tell(self, hub: Hub, game_id: str) -> None:
        """Send every watcher of the game its own state (built from its own view)."""
        sides = self.sides(game_id)
        if sides:
            await self.send(game_id, await run_in_threadpool(hub.messages_json, game_id, sides))

    async def broadcast(self, game_id: str, text: str) -> None:
        """Send every watcher of the game the same message (a chat line)."""
        await self.send(game_id, dict.fromkeys(self.sides(game_id), text))

    async def send(self, game_id: str, news: Mapping[str | None, str]) -> None:
        """Queue for each watcher the message of its own seat from ``news`` (a seat missing
        there, one that began watching meanwhile, already had the latest on arrival). Never
        waits for a socket: one that has fallen too far behind is dropped."""
        for outbox in list(self._by_game.get(game_id, [])):
            message = news.get(outbox.side)
            if message is not None and not outbox.offer(message):
                self.remove(game_id, outbox.socket)


def create_app(
    db_url: str,
    bot_processes: int = 0,
    live_games: int = LIVE_GAMES,
    allowed_hosts: Collection[str] = LOCAL_HOSTS,
    bot_games: int = BOT_GAMES,
) -> FastAPI:
    """The application over the database at ``db_url`` (created and migrated if new);
    bots think in ``bot_processes`` other processes (0: in this one's threads); at most
    ``live_games`` games are kept in memory (the others are rebuilt when asked for). A
    request naming a Host not in ``allowed_hosts`` (``*``: any) is refused, and so is a
    new game with bot seats while ``bot_games`` games have bots playing."""
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        runner: BotRunner | None = state.get("bots")
        if runner is not None:
            runner.close()
        store: Store | None = state.get("store")
        if store is not None:
            store.dispose()

    app = FastAPI(title="warbench", lifespan=lifespan, docs_url=None, redoc_url=None)
    store = Store(db_url)
    state["store"] = store
    hub = Hub(store, live_games)
    watchers = Watchers()
    bots = BotRunner(hub, watchers, bot_processes, bot_games)
    state["bots"] = bots
    app.state.hub = hub
    app.state.bots = bots

    app.add_middleware(Guard, allowed=allowed_hosts, max_body=MAX_BODY)

    async def seat_side(game_id: str, authorization: str | None) -> str | None:
        """The side whose seat the request's bearer token opens (None: a spectator)."""
        return await run_in_threadpool(hub.side_of, game_id, _bearer(authorization))

    def changed(game_id: str, message: str) -> Response:
        """The reply to a seat that changed the game (an action, an undo): its message;
        the watchers are told after the reply, and the bots whose turn it is poked."""
        watchers.tell_soon(hub, game_id)  # after the reply, not before it
        bots.poke(game_id)
        return _json(message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for e in exc.errors()[:10]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            if e.get("type") == "extra_forbidden":
                problems.append(f"unknown key '{excerpt(where, 60)}'")
            else:
                problems.append(f"{excerpt(where, 60)}: {e.get('msg')}")
        return _error(422, "; ".join(problems))

    @app.exception_handler(NotFound)
    async def not_found(_: Request, exc: NotFound) -> JSONResponse:
        return _error(404, str(exc))

    @app.exception_handler(Forbidden)
    async def forbidden(_: Request, exc: Forbidden) -> JSONResponse:
        return _error(403, str(exc))

    @app.exception_handler(Damaged)
    async def damaged(_: Request, exc: Damaged) -> JSONResponse:
        return _error(500, str(exc), damaged=True)

    @app.exception_handler(StoreFull)
    async def store_full(request: Request, exc: StoreFull) -> JSONResponse:
        """A write the database could not make (a full disk, a file-size limit): rolled
        back, and the game in memory put back as stored; the other requests go on."""
        logging.getLogger("warbench.server").error(
            "%s %s: %s (%s)", request.method, request.url.path, exc, exc.__cause__
        )
        what = _what_is_stored(request.url.path)
        return _error(
            507,
            f"the server could not store {what}: its disk is full; "
            "nothing was changed, try again later",
            disk_full=True,
        )

    @app.get("/api/scenarios")
    async def scenarios() -> list[dict[str, Any]]:
        """The built-in scenarios, the ones to play first (the suggested first game
        leading) and the calibration arenas last, each marked."""
        found = await run_in_threadpool(_scenario_list)
        listed = [
            {
                "id": s.id,
                "ruleset": s.ruleset,
                "title": s.title,
                "calibration": is_calibration(s.id),
                "first": s.id == FIRST_GAME["scenario"],
            }
            for s in found
        ]
        return sorted(listed, key=lambda s: (s["calibration"], not s["first"]))

    @app.get("/api/first-game")
    async def first_game() -> dict[str, Any]:
        """The game the lobby suggests to a newcomer, with why."""
        return FIRST_GAME

    @app.post("/api/scenarios/check", response_model=None)
    async def check_upload(body: Upload) -> Any:
        """An uploaded scenario file validated as the CLI validates it: its sides and goal,
        or the problem (file, field, what is wrong)."""
        if len(body.scenario_toml.encode()) > MAX_FILE_BYTES:
            return _error(413, f"a scenario file is at most {MAX_FILE_BYTES:,} bytes")

        def checking() -> dict[str, Any]:  # off the event loop, as a new game's
            raw = parse_toml(body.scenario_toml, "uploaded scenario")
            return _describe(scenario_from_dict(raw, "uploaded scenario", "uploaded"))

        try:
            return await run_in_threadpool(checking)
        except WarbenchError as exc:
            return _error(400, str(exc))

    @app.get("/api/scenarios/{scenario_id:path}", response_model=None)
    async def scenario_info(scenario_id: str) -> Any:
        if scenario_id not in builtin_scenarios():
            return _error(404, f"no built-in scenario '{scenario_id[:200]}'")
        scenario = await run_in_threadpool(_builtin, scenario_id)
        return _describe(scenario)

    @app.get("/api/bots")
    async def bot_list() -> list[str]:
        return list(bot_names())

    @app.get("/api/bots/about")
    async def bots_about(ruleset: str | None = None) -> list[dict[str, Any]]:
        """Each bot with what it is, its options, whether a seat may give it a time limit
        per decision, and its expected seconds a decision on ``ruleset`` (measured)."""
        known = ruleset if ruleset in {r.info.name for r in registry.all_rulesets()} else None
        return await run_in_threadpool(about_bots, known)

    @app.get("/api/bots/estimate", response_model=None)
    async def bot_estimate(ruleset: str, bot: str) -> Any:
        """The expected seconds a decision of ``bot`` (with its options) on ``ruleset``,
        or why the bot is not one a seat may name."""
        try:
            registered_bot(bot[:300])
            seconds = expected_seconds(bot[:300], ruleset[:60])
        except WarbenchError as exc:
            return _error(400, str(exc))
        return {"bot": bot[:300], "ruleset": ruleset[:60], "seconds": seconds}

    @app.post("/api/games", status_code=201, response_model=None)
    async def new_game(body: NewGame) -> Any:
        if (body.scenario is None) == (body.scenario_toml is None):
            return _error(400, "give a built-in scenario id (scenario) or a file (scenario_toml)")
        if body.scenario_toml is not None and len(body.scenario_toml.encode()) > MAX_FILE_BYTES:
            return _error(413, f"a scenario file is at most {MAX_FILE_BYTES:,} bytes")
        if any(player != HUMAN for player in body.seats.values()) and bots.full():
            busy = _error(
                503,
                f"the server's bots are busy ({bots.busy()} games have bots playing, its "
                f"limit is {bots.games}): try again in a minute, or play a person",
            )
            busy.headers["Retry-After"] = str(BUSY_RETRY_SECONDS)
            return busy

        def making() -> tuple[Scenario, str, dict[str, str]]:
            """Read, check and build the scenario and store the game, off the event loop:
            a large upload takes a second or two, and requests of other games must not wait
            for it."""
            if body.scenario is not None:
                if body.scenario not in builtin_scenarios():  # never a path on this machine
                    raise UnknownScenario(
                        f"no built-in scenario '{body.scenario}' (upload a file as scenario_toml)"
                    )
                scenario = _builtin(body.scenario)
            else:
                raw = parse_toml(body.scenario_toml or "", "uploaded scenario")
                scenario = scenario_from_dict(raw, "uploaded scenario", "uploaded")
            if body.options:
                scenario = with_options(scenario, body.options)
            for player in body.seats.values():
                if player != HUMAN:  # within the server's limits (time, budget)
                    network_bot(player, scenario.ruleset)
            game_id, tokens = hub.create(scenario, body.seats, body.seed, body.practice)
            return scenario, game_id, tokens

        try:
            scenario, game_id, tokens = await run_in_threadpool(making)
            bots.poke(game_id)
        except WarbenchError as exc:  # a bad scenario (file, field, problem), seat or bot
            return _error(400, str(exc))
        return {
            "id": game_id,
            "seats": {
                side: {"player": body.seats.get(side, HUMAN), "token": tokens.get(side)}
                for side in scenario.sides
            },
            "links": {side: f"/play/{game_id}#seat={token}" for side, token in tokens.items()},
            "spectate": f"/play/{game_id}",
        }

    @app.get("/api/games/{game_id}", response_model=None)
    async def show(game_id: str, authorization: str | None = Header(default=None)) -> Any:
        token = _bearer(authorization)

        def looking() -> tuple[bool, str]:  # one hop to a worker thread
            side = hub.side_of(game_id, token)
            return hub.bots_to_move(game_id), hub.message_json(game_id, side)

        bots_asked, message = await run_in_threadpool(looking)
        if bots_asked:
            bots.poke(game_id)  # a restarted server picks up bots that were mid-turn
        return _json(message)

    @app.post("/api/games/{game_id}/actions", response_model=None)
    async def act(
        game_id: str, body: NewAction, authorization: str | None = Header(default=None)
    ) -> Any:
        token = _bearer(authorization)
        if token is None:
            return _error(401, "acting needs the seat's token ('Authorization: Bearer TOKEN')")

        def acting() -> str:  # one hop to a worker thread, not two
            side = hub.side_of(game_id, token)
            assert side is not None
            try:
                return hub.act(game_id, side, body.version, body.action)
            except Stale as exc:
                raise _StaleFor(side, exc) from None

        try:
            message = await run_in_threadpool(acting)
        except _StaleFor as stale:
            latest = await run_in_threadpool(hub.message, game_id, stale.side)
            return _error(409, str(stale.error), state=latest)
        except IllegalAction as exc:
            return _error(422, str(exc))
        except Forbidden:
            raise
        except WarbenchError as exc:
            return _error(422, str(exc))
        return changed(game_id, message)

    @app.post("/api/games/{game_id}/explain", response_model=None)
    async def explain(
        game_id: str, body: Explain, authorization: str | None = Header(default=None)
    ) -> Any:
        side = await seat_side(game_id, authorization)
        if side is None:
            return _error(401, "odds and costs are for a seat: give its token")
        return await run_in_threadpool(hub.explain, game_id, side, body.actions)

    @app.get("/api/games/{game_id}/info", response_model=None)
    async def info(game_id: str, ref: str, authorization: str | None = Header(default=None)) -> Any:
        side = await seat_side(game_id, authorization)
        try:
            lines = await run_in_threadpool(hub.unit_info, game_id, side, ref[:100])
        except WarbenchError as exc:
            return _error(404, str(exc))
        return {"ref": ref[:100], "lines": lines}

    @app.get("/api/games/{game_id}/measure", response_model=None)
    async def measure(
        game_id: str, a: str, b: str, authorization: str | None = Header(default=None)
    ) -> Any:
        """Distance and line of sight from the seat's own knowledge, where the rules let a
        player measure (a photon guess, a barrage marker: refused with the rule)."""
        side = await seat_side(game_id, authorization)
        if side is None:
            return _error(401, "measuring is for a seat: give its token")
        try:
            text = await run_in_threadpool(hub.measure, game_id, side, a[:60], b[:60])
        except WarbenchError as exc:
            return _error(422, str(exc))
        return {"a": a[:60], "b": b[:60], "answer": text}

    @app.get("/api/games/{game_id}/against", response_model=None)
    async def against(
        game_id: str, piece: str, target: str, authorization: str | None = Header(default=None)
    ) -> Any:
        """What the seat's ``piece`` could do to ``target`` (a click on one, then the other)
        where no action of the list names them both now: the rules' plans, each with the
        refusal of its first step (melee in MiniWars: "hold here, then attack")."""
        side = await seat_side(game_id, authorization)
        if side is None:
            return _error(401, "plans are for a seat: give its token")
        plans = await run_in_threadpool(hub.plans_against, game_id, side, piece[:40], target[:40])
        return {"plans": plans}

    @app.get("/api/games/{game_id}/reach", response_model=None)
    async def reach(
        game_id: str, piece: str, authorization: str | None = Header(default=None)
    ) -> Any:
        """How far one of the seat's own pieces may still move now, as a ring to draw
        (``{"reach": null}`` where it may not, or while the rules forbid measuring)."""
        side = await seat_side(game_id, authorization)
        if side is None:
            return _error(401, "a move's reach is for a seat: give its token")
        return {"reach": await run_in_threadpool(hub.move_reach, game_id, side, piece[:40])}

    @app.post("/api/games/{game_id}/undo", response_model=None)
    async def undo(
        game_id: str, body: Undo, authorization: str | None = Header(default=None)
    ) -> Any:
        token = _bearer(authorization)
        if token is None:
            return _error(401, "undoing needs the seat's token")
        side = await run_in_threadpool(hub.side_of, game_id, token)
        assert side is not None
        try:
            message = await run_in_threadpool(hub.undo, game_id, side, body.version)
        except Stale as exc:
            return _error(409, str(exc), state=await run_in_threadpool(hub.message, game_id, side))
        except WarbenchError as exc:
            return _error(422, str(exc))
        return changed(game_id, message)

    @app.get("/api/games/{game_id}/chat", response_model=None)
    async def chat_lines(game_id: str) -> Any:
        """The game's chat (what its players said to each other), for anyone who watches."""
        return await run_in_threadpool(hub.chat, game_id)

    @app.post("/api/games/{game_id}/chat", status_code=201, response_model=None)
    async def say(game_id: str, body: Say, authorization: str | None = Header(default=None)) -> Any:
        """A seat's line in the game's chat, stored and sent to every watcher at once."""
        side = await seat_side(game_id, authorization)
        if side is None:
            return _error(401, "only a seat may speak: give its token")
        try:
            line = await run_in_threadpool(hub.say, game_id, side, body.text)
        except WarbenchError as exc:
            return _error(422, str(exc))
        await watchers.broadcast(game_id, orjson.dumps({"chat": [line]}).decode())
        return line

    @app.post("/api/mine", response_model=None)
    async def mine(body: Mine) -> Any:
        """A player's games, from the seats (game and token) their browser keeps: each
        one's scenario, side, whose move and last change (or why it cannot be shown)."""

        def listing() -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            for seat in body.seats:
                try:
                    side = hub.side_of(seat.game, seat.token)
                    assert side is not None
                    out.append(hub.summary(seat.game, side))
                except (NotFound, Forbidden, Damaged) as exc:
                    out.append({"game": seat.game, "error": str(exc)})
            return out

        return await run_in_threadpool(listing)

    async def _picture(
        game_id: str,
        authorization: str | None,
        at: int | None,
        arcs: str | None = None,
        recent: bool = False,
        legend: str = "right",
    ) -> str:
        from warbench.render.svg import render_svg

        marks: list[dict[str, Any]] = []
        if at is None:
            side = await seat_side(game_id, authorization)
            message = await run_in_threadpool(hub.message, game_id, side)
            if arcs and side is not None:  # a seat's own piece only: weapons may be secret
                marks = await run_in_threadpool(hub.fire_arcs, game_id, side, arcs[:40])
        else:
            message = await run_in_threadpool(hub.at, game_id, at)
        if recent:  # what happened lately, as this viewer may see it
            marks = [*message["recent"]["marks"], *marks]
        title = message["scenario"]["title"]
        return await run_in_threadpool(
            lambda: render_svg(
                message["view"], title=title, annotations=marks, legend_below=legend == "below"
            )
        )

    @app.get("/api/games/{game_id}/board.{kind}", response_model=None)
    async def board(
        game_id: str,
        kind: str,
        at: int | None = None,
        arcs: str | None = None,
        recent: bool = False,
        legend: str = "right",
        authorization: str | None = Header(default=None),
    ) -> Any:
        """The board as the caller may see it, as SVG or PNG (``?at=N``: a replay;
        ``?arcs=PIECE``: with the arcs of fire of one of the seat's own pieces;
        ``?recent=1``: with what happened lately drawn over it, moves as arrows and
        attacks as lines with their result; ``?legend=below``: the legend under the
        board, for a page that fits the board to the screen's width)."""
        from warbench.render.png import svg_to_png

        if kind not in ("svg", "png"):
            return _error(404, f"the board is board.svg or board.png, not board.{kind[:10]}")
        try:
            svg = await _picture(game_id, authorization, at, arcs, recent, legend)
        except Stale as exc:
            return _error(409, str(exc))
        if kind == "svg":
            return Response(svg, media_type="image/svg+xml")
        return Response(await run_in_threadpool(svg_to_png, svg), media_type="image/png")

    @app.get("/api/games/{game_id}/at/{number}", response_model=None)
    async def replay_at(game_id: str, number: int) -> Any:
        try:
            return await run_in_threadpool(hub.at, game_id, number)
        except Stale as exc:
            return _error(409, str(exc))

    @app.get("/api/games/{game_id}/record", response_model=None)
    async def record(game_id: str) -> Any:
        try:
            return await run_in_threadpool(hub.record, game_id)
        except Stale as exc:
            return _error(409, str(exc))

    @app.websocket("/api/games/{game_id}/live")
    async def live(socket: WebSocket, game_id: str) -> None:
        await socket.accept()
        try:
            hello = await asyncio.wait_for(socket.receive_json(), timeout=HELLO_SECONDS)
            token = hello.get("token") if isinstance(hello, Mapping) else None
            side = await run_in_threadpool(hub.side_of, game_id, token)
        except (NotFound, Forbidden, Damaged) as exc:
            await socket.send_json({"error": str(exc)})
            await socket.close(code=4403)
            return
        except (TimeoutError, WebSocketDisconnect, ValueError):
            await socket.close(code=4400)
            return
        outbox = watchers.add(game_id, socket, side)
        if await run_in_threadpool(hub.bots_to_move, game_id):
            bots.poke(game_id)
        try:
            outbox.offer(await run_in_threadpool(hub.message_json, game_id, side))
            while True:
                await socket.receive_text()  # the client speaks only to say hello
        except (WebSocketDisconnect, RuntimeError):  # gone, or closed by us (too slow)
            pass
        finally:
            watchers.remove(game_id, socket)

    app.mount(
        "/static",
        StaticFiles(directory=str(resources.files("warbench.server") / "static")),
        name="static",
    )

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> str:
        return _page("lobby.html")

    @app.get("/play/{game_id}", response_class=HTMLResponse)
    async def play(game_id: str) -> str:
        return _page("play.html")

    @app.get("/games", response_class=HTMLResponse)
    async def my_games() -> str:
        return _page("games.html")

    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    async def replay(game_id: str) -> str:
        return _page("replay.html")

    return app


def settle_process() -> None:
    """Before serving: load every ruleset and the scenario list (what the first game
    would load), then set all of it aside from the garbage collector (``gc.freeze``).
    Those objects live as long as the process; left in, every full collection walked
    them again and paused every request for 60-120 ms (measured with 50 games)."""
    registry.all_rulesets()
    builtin_scenarios()
    _scenario_list()
    gc.collect()
    gc.freeze()


def _page(name: str) -> str:
    return (resources.files("warbench.server") / "static" / name).read_text("utf-8")
