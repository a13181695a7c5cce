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

import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from warbench.bots import check_bot, make_bot
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction, WarbenchError, excerpt
from warbench.scenario.model import Scenario
from warbench.server.store import (
    HUMAN,
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


class NotFound(WarbenchError):
    """No such game."""


class Forbidden(WarbenchError):
    """A token that is no seat of this game, or a seat acting out of its place."""


class Stale(WarbenchError):
    """An action sent against an older version of the game."""


@dataclass(slots=True)
class Live:
    """A game in memory with what the server needs beside it."""

    stored: StoredGame
    game: Game
    lock: threading.Lock


class Hub:
    """Every game the server holds, over one :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._live: dict[str, Live] = {}
        self._guard = threading.Lock()

    # -- making games --------------------------------------------------------------
    def create(
        self, scenario: Scenario, players: Mapping[str, str], seed: int
    ) -> tuple[str, dict[str, str]]:
        """Store a new game; returns its id and each human seat's token."""
        unknown = sorted(set(players) - set(scenario.sides))
        if unknown:
            raise WarbenchError(
                f"no side {', '.join(unknown)} in {scenario.id}; sides: {', '.join(scenario.sides)}"
            )
        seats = {side: players.get(side, HUMAN) for side in scenario.sides}
        info = registry.get(scenario.ruleset).info
        for player in seats.values():
            if player != HUMAN:
                make_bot(player, 0)  # an unknown bot or a bad option: a clear error now
                check_bot(player, info)
        tokens = {side: new_token() for side in scenario.sides}
        game_id = self.store.create(scenario.id, scenario.raw, seed, seats, tokens)
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
        live = self._get(game_id)
        with live.lock:
            return self._message(live, side)

    def record(self, game_id: str) -> dict[str, Any]:
        """The game's record, once it is over (before, its seed would tell the dice)."""
        live = self._get(game_id)
        with live.lock:
            if not live.game.is_over:
                raise Stale("the record is given once the game is over (its seed tells the dice)")
            return live.game.record({"players": dict(live.stored.players)})

    # -- acting --------------------------------------------------------------------
    def act(self, game_id: str, side: str, version: int, text: str) -> dict[str, Any]:
        """Apply ``side``'s action if ``version`` is the game's, store it, let the bots
        answer; returns the seat's new message."""
        if len(text) > MAX_ACTION_TEXT:
            raise IllegalAction(text, f"an action is at most {MAX_ACTION_TEXT} characters")
        live = self._get(game_id)
        with live.lock:
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
            game.apply(text, side)  # IllegalAction, game untouched, if it is not legal
            self._store_last(live, 1)  # stored before the reply
            return self._message(live, side)

    def undo(self, game_id: str, side: str, version: int) -> dict[str, Any]:
        """Take back ``side``'s last action where the rules allow (the engine's undo)."""
        live = self._get(game_id)
        with live.lock:
            game = live.game
            if version != len(game.actions):
                raise Stale(f"the game is at version {len(game.actions)}, not {version}")
            before = [(t.side, str(t.action)) for t in game.actions]
            game.undo(side)  # UndoError, nothing changed, where the rules forbid it
            after = [(t.side, str(t.action)) for t in game.actions]
            first = next(
                (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
                len(after),
            )
            try:
                self.store.rewrite(live.stored.id, first, len(before), after[first:])
            except Exception:
                stored = self.store.load(live.stored.id)
                assert stored is not None
                live.stored, live.game = stored, _rebuild(stored)
                raise
            live.stored.actions[:] = after
            return self._message(live, side)

    def explain(self, game_id: str, side: str, texts: list[str]) -> list[dict[str, Any]]:
        """For each action text: whether ``side`` may take it now (and why not), what it
        costs and its exact odds, all from ``side``'s own knowledge."""
        live = self._get(game_id)
        with live.lock:
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
                out.append(entry)
            return out

    def fire_arcs(self, game_id: str, side: str, piece: str) -> list[dict[str, Any]]:
        """The arcs of fire of one of ``side``'s own pieces, as picture marks."""
        live = self._get(game_id)
        with live.lock:
            return live.game.seat(side).fire_arcs(piece)

    def measure(self, game_id: str, side: str, first: str, second: str) -> str:
        """Distance and line of sight between two things or points, from ``side``'s own
        knowledge, where the rules allow measuring (``QuestionRefused`` says why not)."""
        live = self._get(game_id)
        with live.lock:
            return live.game.seat(side).measure(first, second)

    def unit_info(self, game_id: str, side: str | None, ref: str) -> list[str]:
        """What ``side`` (None: a spectator) may know of a unit, hex or point."""
        live = self._get(game_id)
        with live.lock:
            view = live.game.view(side)
            return live.game.ruleset.unit_info(view, ref)

    def at(self, game_id: str, number: int) -> dict[str, Any]:
        """A spectator's message after the game's first ``number`` actions: a replay,
        given once the game is over (before, it would show a side's past secrets)."""
        live = self._get(game_id)
        with live.lock:
            if not live.game.is_over:
                raise Stale("a replay is given once the game is over")
            stored = live.stored
            if not 0 <= number <= len(stored.actions):
                raise NotFound(f"the game has {len(stored.actions)} actions, not {number}")
        past = replace(stored, actions=stored.actions[:number])
        message = self._message(Live(past, _rebuild(past), threading.Lock()), None)
        message["actions_total"] = len(stored.actions)
        return message

    # -- inside ----------------------------------------------------------------------
    def _get(self, game_id: str) -> Live:
        with self._guard:
            live = self._live.get(game_id)
            if live is not None:
                return live
            stored = self.store.load(game_id)
            if stored is None:
                raise NotFound(f"no game '{excerpt(game_id, 40)}'")
            live = Live(stored, _rebuild(stored), threading.Lock())
            self._live[game_id] = live
            return live

    def _store_last(self, live: Live, count: int) -> None:
        """Store the game's last ``count`` actions; on failure rebuild from the store."""
        game = live.game
        number = len(game.actions) - count
        entries = [(t.side, str(t.action)) for t in game.actions[number:]]
        try:
            self.store.append(live.stored.id, number, entries)
        except Exception as exc:  # memory never runs ahead of the store
            stored = self.store.load(live.stored.id)
            assert stored is not None
            live.stored, live.game = stored, _rebuild(stored)
            if isinstance(exc, StaleVersion):
                raise Stale(f"another action was stored first: {exc}") from None
            raise
        live.stored.actions.extend(entries)

    def bot_job(self, game_id: str) -> BotJob | None:
        """What a bot asked to act now needs to choose (None: no bot is asked): the game as
        its record, so that another process may rebuild it and choose there."""
        live = self._get(game_id)
        with live.lock:
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
                game_seed(game.seed, len(game.actions), side),
            )

    def bot_apply(self, job: BotJob, text: str) -> bool:
        """Apply and store a bot's choice, if the game is still where the bot saw it."""
        live = self._get(job.game_id)
        with live.lock:
            if len(live.game.actions) != len(job.actions):
                return True  # something happened meanwhile: look again
            live.game.apply(text, job.side)
            self._store_last(live, 1)
            return True

    def bots_to_move(self, game_id: str) -> bool:
        """Whether a bot is asked to act now."""
        live = self._get(game_id)
        with live.lock:
            waiting = live.game.waiting_for()
            return any(live.stored.players.get(s, HUMAN) != HUMAN for s in waiting)

    def _message(self, live: Live, side: str | None) -> dict[str, Any]:
        game = live.game
        waiting = list(game.waiting_for())
        legal: list[str] = []
        if side is not None and side in waiting:
            legal = [str(a) for a in game.legal_actions(side)]
        outcome = game.outcome
        return {
            "game": live.stored.id,
            "scenario": {"id": game.scenario.id, "title": game.scenario.title},
            "ruleset": game.ruleset.info.name,
            "geometry": game.ruleset.info.geometry,
            "sides": list(game.scenario.sides),
            "players": dict(live.stored.players),
            "you": side,
            "version": len(game.actions),
            "turn": game.turn,
            "waiting_for": waiting,
            "legal_actions": legal,
            "view": game.view(side),
            "events": [e.to_json() for e in game.events[-MAX_EVENTS:]],
            "events_total": len(game.events),
            "outcome": outcome.to_json() if outcome else None,
            "goal": game.ruleset.goal(game.scenario),
            "actions_total": len(live.stored.actions),
        }


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
        game, have = _rebuild(stored), 0  # the actions follow below
    for side, text in job.actions[have:]:
        game.apply(text, side)
    _bot_games.pop(job.game_id, None)
    _bot_games[job.game_id] = game
    while len(_bot_games) > _BOT_GAMES_KEPT:
        del _bot_games[next(iter(_bot_games))]
    bot = make_bot(job.bot, job.bot_seed)
    return str(bot.choose(game.seat(job.side), job.side))


def _rebuild(stored: StoredGame) -> Game:
    scenario = scenario_from_dict(stored.scenario, f"game {stored.id}", stored.scenario_id)
    game = Game(scenario, stored.seed)
    for side, text in stored.actions:
        game.apply(text, side)
    return game
