"""Live games: each game rebuilt from its stored actions, acted on one action at a time,
with its bots playing until a person must act, and what each seat may see.

Nothing here knows a ruleset: the engine (:class:`~warbench.core.game.Game`) checks
every action, and a seat's message is built from that seat's view only
(:meth:`Hub.message`): the view, the events, whose turn it is and the seat's own
legal actions. Bots act one action at a time (:meth:`Hub.bot_job`, :func:`choose_for`,
:meth:`Hub.bot_apply`), called by the server in the background after every change. The
version of a game is the number of actions stored; an action sent with another version is
refused (the sender has not seen the latest move).
An action is stored (committed) before anyone is told of it; if storing fails, the
game in memory is rebuilt from the database, so memory never runs ahead of it.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from warbench.bots import check_bot, make_bot, registered_bot
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.core.odds import odds_table
from warbench.errors import IllegalAction, WarbenchError, excerpt
from warbench.scenario.model import Scenario
from warbench.server.store import (
    HUMAN,
    DamagedRow,
    StaleVersion,
    Store,
    StoredGame,
    new_token,
    token_hash,
)
from warbench.sim.runner import game_seed

MAX_EVENTS = 200
"""The latest events a message carries (the record and the replay have them all)."""
MAX_ACTION_TEXT = 2_000
"""The longest action text accepted."""
CHAT_KEPT = 200
"""The newest chat lines a game keeps."""
MAX_CHAT_TEXT = 500
"""The longest chat line accepted."""
LIVE_GAMES = 1000
"""The games a server keeps in memory by default (the least recently used beyond it are
dropped, and rebuilt from the database when next asked for)."""
STEPS_KEPT = 120
"""The latest actions whose marks a game keeps (and rebuilds): more than one side's run
of actions in any built-in scenario."""


class NotFound(WarbenchError):
    """No such game."""


class Forbidden(WarbenchError):
    """A token that is no seat of this game, or a seat acting out of its place."""


class Stale(WarbenchError):
    """An action sent against an older version of the game."""


class Damaged(Exception):
    """A stored game that no longer replays (a row edited by hand, a scenario the engine
    no longer accepts): the server says so for that game and serves the others. Not a
    :class:`WarbenchError`: it is no fault of the request."""


_LOST_RACE = (
    "another change to this game was stored first (by another seat or another server): "
    "nothing was changed; reload the game and try again"
)


@dataclass(frozen=True, slots=True)
class Step:
    """One stored action as the boards show it afterwards: who took it, in which turn,
    and the picture marks of what it did (paths moved, shots with their result) as each
    viewer may see them (``Ruleset.annotations``, made from the state just after it)."""

    number: int
    side: str
    turn: int
    marks: Mapping[str | None, list[dict[str, Any]]]


@dataclass(slots=True)
class Live:
    """A game in memory with what the server needs beside it."""

    stored: StoredGame
    game: Game
    lock: threading.Lock
    revision: int = 0
    """The stored revision this game in memory is at (one more at every change, an undo
    included, so that, unlike the version, it never goes back)."""
    updated: float = 0.0
    """When it last changed (seconds since the epoch)."""
    said: dict[str | None, str] = field(default_factory=dict)
    """Each seat's message (JSON text) at the game's present state: a change clears it,
    so the reply to an action and every watcher's update are built once, not per send."""
    events_json: list[dict[str, Any]] = field(default_factory=list)
    """The game's events as plain data so far (events are only ever appended, except
    by an undo or a rebuild, which start it again)."""
    steps: list[Step] = field(default_factory=list)
    """The latest actions' marks (at most :data:`STEPS_KEPT`), for the board's "what
    happened" overlay."""

    def note(self, events_before: int) -> None:
        """Remember the marks of the action just applied (its events are those from
        ``events_before`` on)."""
        self.steps.append(note_step(self.game, events_before))
        del self.steps[:-STEPS_KEPT]

    def changed(self, *, rewound: bool = False) -> None:
        self.said.clear()
        if rewound:
            self.events_json.clear()

    def latest_events(self) -> list[dict[str, Any]]:
        events = self.game.events
        known = self.events_json
        if len(known) > len(events):
            known.clear()
        known.extend(e.to_json() for e in events[len(known) :])
        return known[-MAX_EVENTS:]


class Hub:
    """Every game the server holds, over one :class:`Store`."""

    def __init__(self, store: Store, live_games: int = LIVE_GAMES) -> None:
        if live_games < 1:
            raise ValueError("a hub keeps at least one game in memory")
        self.store = store
        self.live_games = live_games
        """At most this many games in memory, the least recently used dropped first."""
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._guard = threading.Lock()

    # -- making games --------------------------------------------------------------
    def create(
        self,
        scenario: Scenario,
        players: Mapping[str, str],
        seed: int | None = None,
        practice: bool = False,
    ) -> tuple[str, dict[str, str]]:
        """Store a new game; returns its id and each human seat's token.

        The dice come from ``seed``: given, only for a game of bots alone or a
        ``practice`` game (a known seed tells every future die, the bots' too, whose
        seeds are drawn from it); by default a secret one (:func:`secret_seed`), kept
        in the database and shown to nobody before the game ends (the record, which
        holds it, is given only then)."""
        unknown = sorted(set(players) - set(scenario.sides))
        if unknown:
            raise WarbenchError(
                f"no side {', '.join(unknown)} in {scenario.id}; sides: {', '.join(scenario.sides)}"
            )
        seats = {side: players.get(side, HUMAN) for side in scenario.sides}
        if seed is not None and HUMAN in seats.values() and not practice:
            raise WarbenchError(
                "a seed tells every future die, so a game with a person in it takes none: "
                "leave it out (the dice come from a secret seed), or make it a practice "
                "game (practice: true)"
            )
        if seed is None:
            seed = secret_seed()
        info = registry.get(scenario.ruleset).info
        for player in seats.values():
            if player != HUMAN:  # a registered bot only: never code of the caller's choice
                registered_bot(player)  # an unknown bot or a bad option: a clear error now
                check_bot(player, info)
        tokens = {side: new_token() for side in scenario.sides}
        now = time.time()
        game_id = self.store.create(scenario.id, scenario.raw, seed, seats, tokens, now)
        hashes = {token_hash(token): side for side, token in tokens.items()}
        stored = StoredGame(game_id, scenario.id, dict(scenario.raw), seed, seats, [], hashes)
        game = Game(shared_scenario(scenario.id, scenario.raw, scenario), seed)
        # In memory at once: its first visitor does not wait for a rebuild.
        self._keep(game_id, Live(stored, game, threading.Lock(), 0, now))
        return game_id, {side: tokens[side] for side, p in seats.items() if p == HUMAN}

    # -- reading -------------------------------------------------------------------
    def side_of(self, game_id: str, token: str | None) -> str | None:
        """The seat a token opens (None: a spectator, no token); Forbidden for a token
        that opens no seat of this game."""
        live = self._get(game_id)
        if token is None:
            return None
        side = live.stored.token_hashes.get(token_hash(token))
        if side is None:
            raise Forbidden("that token opens no seat of this game")
        return side

    def message(self, game_id: str, side: str | None) -> dict[str, Any]:
        """What ``side`` (None: a spectator) may know of the game now."""
        result: dict[str, Any] = orjson.loads(self.message_json(game_id, side))
        return result

    def message_json(self, game_id: str, side: str | None) -> str:
        """:meth:`message` as JSON text, built once per state of the game and seat."""
        with self._hold(game_id) as live:
            return self._said(live, side)

    def messages_json(self, game_id: str, sides: Iterable[str | None]) -> dict[str | None, str]:
        """:meth:`message_json` for each of ``sides``, at one and the same state."""
        with self._hold(game_id) as live:
            return {side: self._said(live, side) for side in sides}

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record, once it is over (before, its seed would tell the dice)."""
        with self._hold(game_id) as live:
            if not live.game.is_over:
                raise Stale("the record is given once the game is over (its seed tells the dice)")
            return live.game.record({"players": dict(live.stored.players)})

    # -- acting --------------------------------------------------------------------
    def act(self, game_id: str, side: str, version: int, text: str) -> str:
        """Apply ``side``'s action if ``version`` is the game's and store it; returns the
        seat's new message (JSON text)."""
        if len(text) > MAX_ACTION_TEXT:
            raise IllegalAction(text, f"an action is at most {MAX_ACTION_TEXT} characters")
        with self._hold(game_id) as live:
            game = live.game
            if version != len(game.actions):
                raise Stale(
                    f"the game is at version {len(game.actions)}, not {version}: "
                    "look at the latest move and try again"
                )
            if live.stored.players.get(side) != HUMAN:
                raise Forbidden(f"{side} is played by a bot")
            if side not in game.waiting_for():
                raise IllegalAction(text, f"it is not {side}'s turn to act")
            before = len(game.events)
            game.apply(text, side)  # IllegalAction, game untouched, if it is not legal
            live.changed()
            self._store_last(live, 1)  # stored before the reply
            live.note(before)
            return self._said(live, side)

    def undo(self, game_id: str, side: str, version: int) -> str:
        """Take back ``side``'s last action where the rules allow (the engine's undo);
        returns the seat's new message (JSON text)."""
        with self._hold(game_id) as live:
            game = live.game
            if version != len(game.actions):
                raise Stale(f"the game is at version {len(game.actions)}, not {version}")
            before = [(t.side, str(t.action)) for t in game.actions]
            game.undo(side)  # UndoError, nothing changed, where the rules forbid it
            live.steps[:] = [step for step in live.steps if step.number < len(game.actions)]
            live.changed(rewound=True)
            after = [(t.side, str(t.action)) for t in game.actions]
            first = next(
                (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
                len(after),
            )
            now = time.time()
            try:
                self.store.rewrite(
                    live.stored.id, first, len(before), after[first:], live.revision, now
                )
            except Exception as exc:
                self._reload(live)
                if isinstance(exc, StaleVersion):
                    raise Stale(_LOST_RACE) from None
                raise
            live.stored.actions[:] = after
            live.revision += 1
            live.updated = now
            return self._said(live, side)

    def explain(self, game_id: str, side: str, texts: list[str]) -> list[dict[str, Any]]:
        """For each action text: whether ``side`` may take it now (and why not), what it
        costs and its exact odds, all from ``side``'s own knowledge."""
        with self._hold(game_id) as live:
            seat = live.game.seat(side)
            out: list[dict[str, Any]] = []
            for text in texts:
                entry: dict[str, Any] = {"action": text}
                try:
                    action = seat.parse(text)
                except WarbenchError as exc:
                    entry["refusal"] = str(exc)
                    out.append(entry)
                    continue
                refusal = seat.refusal(action) if side in live.game.waiting_for() else None
                entry["refusal"] = refusal
                if refusal is None:
                    entry["cost"] = seat.action_cost(action)
                    entry["odds"] = seat.action_odds(action)
                    result = seat.odds(action) if entry["odds"] else None
                    entry["table"] = odds_table(result) if result is not None else None
                out.append(entry)
            return out

    def fire_arcs(self, game_id: str, side: str, piece: str) -> list[dict[str, Any]]:
        """The arcs of fire of one of ``side``'s own pieces, as picture marks."""
        with self._hold(game_id) as live:
            return live.game.seat(side).fire_arcs(piece)

    def plans_against(
        self, game_id: str, side: str, piece: str, target: str
    ) -> list[dict[str, Any]]:
        """Ways for one of ``side``'s pieces to act on ``target`` (a click on one, then the
        other), each with the rules' refusal of its first step now, if any."""
        with self._hold(game_id) as live:
            if side not in live.game.waiting_for():
                return []
            return live.game.seat(side).plans_against(piece, target)

    def move_reach(self, game_id: str, side: str, piece: str) -> dict[str, Any] | None:
        """The ring of how far one of ``side``'s own pieces may still move now (None: it
        may not, or the rules forbid measuring now)."""
        with self._hold(game_id) as live:
            if side not in live.game.waiting_for():
                return None
            return live.game.seat(side).move_reach(piece)

    def measure(self, game_id: str, side: str, first: str, second: str) -> str:
        """Distance and line of sight between two things or points, from ``side``'s own
        knowledge, where the rules allow measuring (``QuestionRefused`` says why not)."""
        with self._hold(game_id) as live:
            return live.game.seat(side).measure(first, second)

    def unit_info(self, game_id: str, side: str | None, ref: str) -> list[str]:
        """What ``side`` (None: a spectator) may know of a unit, hex or point."""
        with self._hold(game_id) as live:
            view = live.game.view(side)
            return live.game.ruleset.unit_info(view, ref)

    def at(self, game_id: str, number: int) -> dict[str, Any]:
        """A spectator's message after the game's first ``number`` actions: a replay,
        given once the game is over (before, it would show a side's past secrets)."""
        with self._hold(game_id) as live:
            if not live.game.is_over:
                raise Stale("a replay is given once the game is over")
            stored = live.stored
            if not 0 <= number <= len(stored.actions):
                raise NotFound(f"the game has {len(stored.actions)} actions, not {number}")
        past = replace(stored, actions=stored.actions[:number])
        game, steps = _rebuild(past, STEPS_KEPT)
        message = self._message(Live(past, game, threading.Lock(), steps=steps), None)
        message["actions_total"] = len(stored.actions)
        return message

    # -- between the players ---------------------------------------------------------
    def say(self, game_id: str, side: str, text: str) -> dict[str, Any]:
        """Add ``side``'s line to the game's chat; returns it as the pages show it. Only
        what the player wrote is stored and sent: nothing of the game is in it."""
        line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
        if not line:
            raise WarbenchError("say something: the line is empty")
        if len(line) > MAX_CHAT_TEXT:
            raise WarbenchError(f"a chat line is at most {MAX_CHAT_TEXT} characters")
        self._exists(game_id)
        number, when = self.store.say(game_id, side, line, CHAT_KEPT)
        return {"number": number, "side": side, "text": line, "time": when}

    def chat(self, game_id: str) -> list[dict[str, Any]]:
        """The game's chat, oldest first."""
        self._exists(game_id)
        return [
            {"number": number, "side": side, "text": text, "time": when}
            for number, side, text, when in self.store.chat(game_id)
        ]

    def summary(self, game_id: str, side: str) -> dict[str, Any]:
        """One line of a player's list of games: what it is, whose move, when it changed."""
        with self._hold(game_id) as live:
            game = live.game
            outcome = game.outcome
            waiting = list(game.waiting_for())
            return {
                "game": game_id,
                "side": side,
                "scenario": {"id": game.scenario.id, "title": game.scenario.title},
                "players": dict(live.stored.players),
                "turn": game.turn,
                "version": len(game.actions),
                "waiting_for": waiting,
                "your_move": side in waiting,
                "updated": live.updated,
                "outcome": outcome.to_json() if outcome else None,
            }

    # -- inside ----------------------------------------------------------------------
    def _get(self, game_id: str) -> Live:
        """The game in memory (loaded and rebuilt if it is not), as it was when last
        looked at: what never changes (its seats) may be read from it without its lock;
        anything else goes through :meth:`_hold`."""
        return self._fetch(game_id)[0]

    @contextmanager
    def _hold(self, game_id: str) -> Iterator[Live]:
        """The game in memory under its lock, brought up to date with the database first
        (another server on the same database may have changed it): its stored revision
        is read (one indexed row) and, if it moved, the game is caught up."""
        live, fresh = self._fetch(game_id)
        with live.lock:
            if not fresh:
                self._catch_up(live)
            yield live

    def _fetch(self, game_id: str) -> tuple[Live, bool]:
        """The game in memory, and whether it was loaded from the database just now."""
        with self._guard:
            live = self._live.get(game_id)
            if live is not None:
                self._live.move_to_end(game_id)  # the most recently used, last to go
                return live, False
        # Loaded and rebuilt outside the guard: a game coming back from the database
        # never makes the requests of other games wait (if two threads load it at once,
        # the first one's copy is kept).
        stored = self._load(game_id)
        game, steps = _rebuild(stored, STEPS_KEPT)
        loaded = Live(stored, game, threading.Lock(), stored.revision, stored.updated, steps=steps)
        kept = self._keep(game_id, loaded)
        return kept, kept is loaded

    def _keep(self, game_id: str, live: Live) -> Live:
        """Hold ``live`` in memory (or the copy another thread put there first), dropping
        the least recently used games beyond :attr:`live_games`. A dropped game still in
        use finishes what it is doing (its writes are checked against the database like
        any other) and is rebuilt from the database when next asked for."""
        with self._guard:
            kept = self._live.setdefault(game_id, live)
            self._live.move_to_end(game_id)
            while len(self._live) > self.live_games:
                self._live.popitem(last=False)
            return kept

    def _forget(self, live: Live) -> None:
        """Drop ``live`` from memory (it no longer matches anything in the database)."""
        with self._guard:
            if self._live.get(live.stored.id) is live:
                del self._live[live.stored.id]

    def _exists(self, game_id: str) -> None:
        if self.store.revision(game_id) is None:
            raise NotFound(f"no game '{excerpt(game_id, 40)}'")

    def _load(self, game_id: str) -> StoredGame:
        try:
            stored = self.store.load(game_id)
        except DamagedRow as exc:
            logging.getLogger("warbench.server").error("game %s: %s", game_id, exc)
            raise Damaged(_damaged(game_id, "a row of it cannot be read")) from None
        if stored is None:
            raise NotFound(f"no game '{excerpt(game_id, 40)}'")
        return stored

    def _catch_up(self, live: Live) -> None:
        """Bring ``live`` (held under its lock) to the database's latest revision, if
        another process stored a change since this one last looked."""
        revision = self.store.revision(live.stored.id)
        if revision is None:
            self._forget(live)
            raise NotFound(f"no game '{excerpt(live.stored.id, 40)}'")
        if revision != live.revision:
            self._reload(live)

    def _reload(self, live: Live) -> None:
        """Put the game (held under its lock) back as the database has it: after another
        server's change, or after a failed write (memory never runs ahead of the store).
        When the stored actions only add to those in memory, just those are applied;
        otherwise (an undo) the game is replayed from the start. A stored game that no
        longer replays is dropped from memory and :class:`Damaged` raised."""
        try:
            stored = self._load(live.stored.id)
        except (Damaged, NotFound):
            self._forget(live)
            raise
        game = live.game
        have = [(t.side, str(t.action)) for t in game.actions]
        if stored.actions[: len(have)] == have:
            try:
                for side, text in stored.actions[len(have) :]:
                    before = len(game.events)
                    game.apply(text, side)
                    live.note(before)
            except Exception:  # replayed from the start below, which names the damage
                pass
            else:
                live.stored, live.revision, live.updated = stored, stored.revision, stored.updated
                live.changed()
                return
        try:
            live.game, live.steps = _rebuild(stored, STEPS_KEPT)
        except Damaged:
            self._forget(live)
            raise
        live.stored, live.revision, live.updated = stored, stored.revision, stored.updated
        live.changed(rewound=True)

    def _store_last(self, live: Live, count: int) -> None:
        """Store the game's last ``count`` actions; on failure rebuild from the store."""
        game = live.game
        number = len(game.actions) - count
        entries = [(t.side, str(t.action)) for t in game.actions[number:]]
        now = time.time()
        try:
            self.store.append(live.stored.id, number, entries, live.revision, now)
        except Exception as exc:  # memory never runs ahead of the store
            self._reload(live)
            if isinstance(exc, StaleVersion):
                raise Stale(_LOST_RACE) from None
            raise
        live.stored.actions.extend(entries)
        live.revision += 1
        live.updated = now

    def bot_job(self, game_id: str) -> BotJob | None:
        """What a bot asked to act now needs to choose (None: no bot is asked): the game as
        its record, so that another process may rebuild it and choose there."""
        with self._hold(game_id) as live:
            game = live.game
            bots = [s for s in game.waiting_for() if live.stored.players.get(s, HUMAN) != HUMAN]
            if not bots:
                return None
            side = bots[0]
            stored = live.stored
            return BotJob(
                game_id,
                stored.scenario_id,
                stored.scenario,
                stored.seed,
                tuple(stored.actions),
                side,
                stored.players[side],
                game_seed(stored.seed, len(game.actions), side),
            )

    def bot_apply(self, job: BotJob, text: str) -> None:
        """Apply and store a bot's choice, if the game is still where the bot saw it
        (if something happened meanwhile, nothing: the next job looks again)."""
        with self._hold(job.game_id) as live:
            if len(live.game.actions) != len(job.actions):
                return
            before = len(live.game.events)
            live.game.apply(text, job.side)
            live.changed()
            try:
                self._store_last(live, 1)
            except Stale:  # another server's bot (or a person) moved first: it looks again
                return
            live.note(before)

    def bots_to_move(self, game_id: str) -> bool:
        """Whether a bot is asked to act now."""
        with self._hold(game_id) as live:
            waiting = live.game.waiting_for()
            return any(live.stored.players.get(s, HUMAN) != HUMAN for s in waiting)

    def _said(self, live: Live, side: str | None) -> str:
        text = live.said.get(side)
        if text is None:
            encoded = orjson.dumps(self._message(live, side), option=orjson.OPT_NON_STR_KEYS)
            text = live.said[side] = encoded.decode()
        return text

    def _message(self, live: Live, side: str | None) -> dict[str, Any]:
        game = live.game
        waiting = list(game.waiting_for())
        legal: list[str] = []
        form = None
        if side is not None and side in waiting:
            legal = [str(a) for a in game.legal_actions(side)]
            form = game.seat(side).choice_form()
        outcome = game.outcome
        view = game.view(side)
        # Marks are drawn as each viewer sees the table (Ruleset.annotations: by eye
        # where the rules forbid measuring, MGV and Invisible Enemy).
        recent = recent_steps(live.steps, side, game.turn)
        return {
            "game": live.stored.id,
            "scenario": {"id": game.scenario.id, "title": game.scenario.title},
            "ruleset": game.ruleset.info.name,
            "geometry": game.ruleset.info.geometry,
            "sides": list(game.scenario.sides),
            "players": dict(live.stored.players),
            "you": side,
            "version": len(game.actions),
            "revision": live.revision,
            "updated": live.updated,
            "turn": game.turn,
            "waiting_for": waiting,
            "legal_actions": legal,
            "form": form,
            "view": view,
            "events": live.latest_events(),
            "events_total": len(game.events),
            "outcome": outcome.to_json() if outcome else None,
            "scores": game.ruleset.scores(game.state),
            "recent": {"marks": [mark for step in recent for mark in step.marks.get(side, ())]},
            "goal": game.ruleset.goal(game.scenario),
            "actions_total": len(live.stored.actions),
        }


def secret_seed() -> int:
    """A game's seed nobody can foresee (63 bits from the operating system's source)."""
    return secrets.randbits(63)


@dataclass(frozen=True, slots=True)
class BotJob:
    """A bot's turn to choose, as plain data (it may cross to another process)."""

    game_id: str
    scenario_id: str
    scenario: dict[str, Any]
    seed: int
    actions: tuple[tuple[str, str], ...]
    side: str
    bot: str
    bot_seed: int


_bot_games: dict[str, Game] = {}
"""The games a bot process has rebuilt, by id: the next job of a game replays only the
actions since (the last few games are kept)."""
_BOT_GAMES_KEPT = 64


def choose_for(job: BotJob) -> str:
    """The bot's action (as text) from its own seat of the game the job describes."""
    game = _bot_games.get(job.game_id)
    have = 0 if game is None else len(game.actions)
    if (
        game is None
        or have > len(job.actions)
        or any((t.side, str(t.action)) != job.actions[k] for k, t in enumerate(game.actions))
    ):
        stored = StoredGame(job.game_id, job.scenario_id, job.scenario, job.seed, {}, [])
        game, have = _rebuild(stored)[0], 0  # the actions follow below
    for side, text in job.actions[have:]:
        game.apply(text, side)
    _bot_games.pop(job.game_id, None)
    _bot_games[job.game_id] = game
    while len(_bot_games) > _BOT_GAMES_KEPT:
        del _bot_games[next(iter(_bot_games))]
    bot = make_bot(registered_bot(job.bot), job.bot_seed)
    return str(bot.choose(game.seat(job.side), job.side))


_SCENARIOS_KEPT = 64
_scenarios: dict[bytes, Scenario] = {}
_scenarios_guard = threading.Lock()


def shared_scenario(
    scenario_id: str, raw: Mapping[str, Any], make: Scenario | None = None
) -> Scenario:
    """The scenario a game stored with ``raw`` plays, built once for every game of this
    process that plays the same file (``make``: one already built from it). A scenario
    is never changed by a game (simulations share one across thousands), and sharing it
    spares each game's board: a CGME board takes ~90 ms to build and much memory, which
    every full garbage collection walked again."""
    key = orjson.dumps([scenario_id, raw], option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    with _scenarios_guard:
        found = _scenarios.pop(key, None)
        if found is not None:
            _scenarios[key] = found  # the newest, last to be forgotten
            return found
    built = make or scenario_from_dict(dict(raw), "a stored game", scenario_id)
    with _scenarios_guard:
        found = _scenarios.setdefault(key, built)
        while len(_scenarios) > _SCENARIOS_KEPT:
            del _scenarios[next(iter(_scenarios))]
    return found


def _rebuild(stored: StoredGame, noted: int = 0) -> tuple[Game, list[Step]]:
    """The stored game replayed, with the marks of its last ``noted`` actions;
    :class:`Damaged` if it no longer replays (what failed is logged, not told: an action's
    text may be a sealed choice)."""
    log = logging.getLogger("warbench.server")
    try:
        game = Game(shared_scenario(stored.scenario_id, stored.scenario), stored.seed)
    except Exception:
        log.exception("game %s: its stored scenario no longer builds", stored.id)
        raise Damaged(_damaged(stored.id, "its stored scenario no longer builds")) from None
    steps: list[Step] = []
    first_noted = len(stored.actions) - noted
    for number, (side, text) in enumerate(stored.actions):
        before = len(game.events)
        try:
            game.apply(text, side)
        except Exception:
            log.exception("game %s: stored action %d no longer replays", stored.id, number)
            where = f"its stored action {number} (of {len(stored.actions)}) no longer replays"
            raise Damaged(_damaged(stored.id, where)) from None
        if number >= first_noted:
            steps.append(note_step(game, before))
    return game, steps


def _damaged(game_id: str, what: str) -> str:
    return (
        f"the stored game '{excerpt(game_id, 40)}' is damaged: {what}. Nothing can be done "
        "with it until the server's operator repairs its rows in the database (the "
        "server's log says what failed); the other games are not affected"
    )


def note_step(game: Game, events_before: int) -> Step:
    """The :class:`Step` of the action ``game`` has just applied."""
    taken = game.actions[-1]
    events = game.events[events_before:]
    viewers: list[str | None] = [*game.scenario.sides, None]
    marks: dict[str | None, list[dict[str, Any]]] = {}
    if events:
        try:
            marks = {v: game.ruleset.annotations(game.state, events, v) for v in viewers}
        except Exception:  # a picture's marks must never cost a stored action its reply
            logging.getLogger("warbench.server").exception("no marks for an action")
    return Step(len(game.actions) - 1, taken.side, game.turn, marks)


def recent_steps(steps: list[Step], viewer: str | None, turn: int) -> list[Step]:
    """What a viewer is shown as "what happened": the actions of this turn and the last
    (``turn`` is the game's now), the other sides' for a seat (it knows its own), every
    side's for a spectator."""
    return [
        step for step in steps if step.turn >= turn - 1 and (viewer is None or step.side != viewer)
    ]
