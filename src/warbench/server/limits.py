"""What a server open to strangers refuses or cuts short (issue 27).

- :class:`Guard`, an ASGI middleware in front of every route: a request whose ``Host``
  is not one the server serves gets 400 (DNS rebinding: a page of another site whose
  name was pointed at this address must not reach the API with the browser's help), and
  a body is counted as it is read, whatever ``Content-Length`` announced (a chunked
  body announces nothing): once over the limit, 413 and nothing of it reaches a route.
- :func:`network_bot`: the bot a seat names over the network, within limits (its
  ``time`` option, its searches' budget, its expected seconds a decision).
- :func:`choose_within`: a bot's decision with a hard time limit (in a bot process, a
  timer signal cuts the think short and a random legal action is played instead).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import Collection, Iterable
from dataclasses import replace
from types import FrameType

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from warbench.bots import registered_bot, split_options
from warbench.bots.timing import expected_seconds
from warbench.errors import WarbenchError, excerpt
from warbench.server import hub
from warbench.server.hub import BotJob, choose_for

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The names a server answers to unless told others (``--allowed-host``)."""

ANY_HOST = "*"
"""``--allowed-host *``: every Host (behind a proxy that checks it, say)."""

MAX_BOT_TIME = 10.0
"""The most seconds a decision a seat may give a bot over the network (its ``time``)."""
MAX_EXPECTED_SECONDS = 30.0
"""The most seconds a decision a bot without a time limit may be expected to take (as
measured, ``bots.timing``): over it, the seat is refused with the figure."""
MAX_BUDGET = {"iterations": 20_000, "rollouts": 20_000, "depth": 400, "horizon": 1_000}
"""Caps on the options that size a search, whatever the estimate says (an unmeasured
ruleset has none)."""
DECISION_SECONDS = 60.0
"""A bot's decision is answered within this long of its turn, its wait for a bot process
included: a think that would end later is cut off (a random legal action is played
instead), so no seat's options, no slow position and no crowd of other games' bots hold a
game longer."""
BOT_GAMES = 32
"""The default of ``--bot-games``: a new game with bot seats is refused (503, try again
later) while this many games have bots thinking or waiting for a bot process, so that a
crowd of bot games cannot spend everyone's decisions in the queue."""
DECISION_GRACE = 30.0
"""How much longer the server waits for a bot process before it gives up on it (its
timer could not fire: stuck in compiled code) and starts the processes again."""
HALF_OPEN_SECONDS = 20
"""A connection that has not sent a whole request's head after this long is closed (a
client that connects and says nothing, or a byte at a time, holds nothing for long); so
is one idle after a reply (uvicorn's keep-alive), and a WebSocket whose peer stops
answering pings."""
BODY_SECONDS = 30.0
"""The most seconds a request's body may take to arrive (then 408)."""
HELLO_SECONDS = 10.0
"""A WebSocket that has not said hello (its token, or ``{}``) after this long is closed."""


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port, brackets or final dot, lower case
    (``[::1]:8000`` -> ``::1``, ``Example.ORG.:80`` -> ``example.org``)."""
    text = header.strip().lower()
    if text.startswith("["):  # an IPv6 address, maybe with a port
        return text[1:].partition("]")[0]
    if text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def allowed_hosts(bound: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The hosts a server bound to ``bound`` answers to: the local names, ``bound``
    itself (unless it is every address, 0.0.0.0 or ::), and ``extra`` (``*``: any)."""
    names = {*LOCAL_HOSTS, *(host_name(h) if h != ANY_HOST else h for h in extra)}
    if bound and bound not in ("0.0.0.0", "::", ""):
        names.add(host_name(bound if ":" not in bound else f"[{bound}]"))
    return frozenset(names)


def _json_reply(status: int, message: str) -> tuple[Message, Message]:
    body = orjson.dumps({"error": message})
    start: Message = {
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))],
    }
    return start, {"body": body}


class Guard:
    """Refuses a request for a Host the server does not serve (400) and a body over
    ``max_body`` bytes as read (413); adds the server's own share of each request's time
    as a ``Server-Timing`` header. Plain ASGI: no task per request."""

    def __init__(self, app: ASGIApp, allowed: Collection[str], max_body: int) -> None:
        self.app = app
        self.any_host = ANY_HOST in allowed
        self.allowed = frozenset(allowed)
        self.max_body = max_body

    def _host_problem(self, scope: Scope) -> str | None:
        if self.any_host:
            return None
        hosts = [value for name, value in scope["headers"] if name == b"host"]
        if len(hosts) != 1:
            return "a request names exactly one Host"
        given = hosts[0].decode("latin-1")
        if host_name(given) in self.allowed:
            return None
        return (
            f"this server does not serve the host '{excerpt(given, 80)}' (it serves "
            f"{', '.join(sorted(self.allowed))}; start it with --allowed-host NAME for another)"
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        problem = self._host_problem(scope)
        if problem is not None:
            await self._refuse(kind, scope, send, 400, problem)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + BODY_SECONDS
        while True:  # the body, counted as it arrives (Content-Length may lie or be absent)
            try:
                message = await asyncio.wait_for(receive(), deadline - time.monotonic())
            except TimeoutError:
                await self._refuse(kind, scope, send, 408, "the request's body came too slowly")
                return
            if message["type"] != "http.request":  # the client is gone
                return
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse(
                    kind, scope, send, 413, f"a request is at most {self.max_body:,} bytes"
                )
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                spent = 1000 * (time.perf_counter() - started)
                timing = (b"server-timing", f"app;dur={spent:.2f}".encode())
                message = {**message, "headers": [*message.get("headers", ()), timing]}
            await send(message)

        await self.app(scope, replay, timed)

    @staticmethod
    async def _refuse(kind: str, scope: Scope, send: Send, status: int, message: str) -> None:
        start, body = _json_reply(status, message)
        if kind == "http":
            await send({"type": "http.response.start", **start})
            await send({"type": "http.response.body", **body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", **start})
            await send({"type": "websocket.http.response.body", **body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})


def network_bot(spec: str, ruleset: str) -> str:
    """``spec`` if a seat may name it over the network on ``ruleset``: its ``time`` at
    most :data:`MAX_BOT_TIME`, the options sizing its search within :data:`MAX_BUDGET`,
    and, without a time limit, expected to take at most :data:`MAX_EXPECTED_SECONDS` a
    decision here; otherwise a WarbenchError saying which limit and how to stay under it."""
    registered_bot(spec)  # never a module:attr (its estimate would import it)
    _, given = split_options(spec)
    for key, value in given.items():
        try:
            number = float(value)
        except ValueError:
            continue  # not a number: the bot's own check says what is wrong
        if key == "time" and number > MAX_BOT_TIME:
            raise WarbenchError(
                f"bot '{excerpt(spec)}': time={excerpt(value, 20)} is over this server's limit "
                f"of {MAX_BOT_TIME:g} seconds a decision"
            )
        cap = MAX_BUDGET.get(key)
        if cap is not None and number > cap:
            raise WarbenchError(
                f"bot '{excerpt(spec)}': {key}={excerpt(value, 20)} is over this server's "
                f"limit of {cap:,}"
            )
    seconds = expected_seconds(spec, ruleset)
    timed = float(given.get("time", "0") or 0) > 0
    if seconds is not None and not timed and seconds > MAX_EXPECTED_SECONDS:
        raise WarbenchError(
            f"bot '{excerpt(spec)}' is expected to take about {seconds:,.0f} s a decision on "
            f"{ruleset}, over this server's limit of {MAX_EXPECTED_SECONDS:g} s: give it "
            f"time=S (at most {MAX_BOT_TIME:g}) or a smaller budget"
        )
    return spec


class _Overrun(BaseException):
    """A bot's decision ran past its time limit. A BaseException, as KeyboardInterrupt
    is, so that no ``except Exception`` on the way (the engine's safety net around a
    ruleset's step) swallows it and lets the think run on."""


def _overrun(_signal: int, _frame: FrameType | None) -> None:
    raise _Overrun


def choose_within(job: BotJob, seconds: float) -> str:
    """The bot's choice (:func:`choose_for`), cut off after ``seconds`` where a timer
    signal can interrupt it (the main thread of a bot process): then a random legal
    action instead, so that no decision holds its game or its process longer."""
    if threading.current_thread() is not threading.main_thread():
        return choose_for(job)  # the caller bounds its wait (a thread cannot be stopped)
    previous = signal.signal(signal.SIGALRM, _overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return choose_for(job)
    except _Overrun:
        hub._bot_games.pop(job.game_id, None)  # cut mid-think: never reuse that game
        logging.getLogger("warbench.server").warning(
            "the %s bot of game %s took over %g s: a random action instead",
            job.bot,
            job.game_id,
            seconds,
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return fallback_choice(job)


def choose_by(job: BotJob, deadline: float) -> str:
    """The bot's choice, due by ``deadline`` (``time.time()``, the same clock in every
    process): the time spent waiting for a bot process comes off the think. A decision
    whose time ran out in the queue is not begun (a random legal action at once)."""
    seconds = deadline - time.time()
    if seconds <= QUICKEST_THINK:
        logging.getLogger("warbench.server").warning(
            "the %s bot of game %s waited its whole time for a bot process: a random action",
            job.bot,
            job.game_id,
        )
        return fallback_choice(job)
    return choose_within(job, seconds)


QUICKEST_THINK = 0.01
"""Less time than this left for a decision: not worth beginning the think."""


def fallback_choice(job: BotJob) -> str:
    """What is played for a bot whose decision ran out of time: a random legal action."""
    return choose_for(replace(job, bot="random"))


def patient_protocol() -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol (httptools), closing a connection that has not sent a
    whole request head within :data:`HALF_OPEN_SECONDS` of connecting (uvicorn itself
    waits for it forever; its keep-alive timeout starts only after a reply)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Protocol(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _heads = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._head_timer = self.loop.call_later(HALF_OPEN_SECONDS, self._no_head)

        def on_headers_complete(self) -> None:
            self._heads += 1
            super().on_headers_complete()

        def _no_head(self) -> None:
            if self._heads == 0 and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

    return Protocol
