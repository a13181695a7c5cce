"""Holding a compiled playout kernel to the engine: the same game, action for action.

A kernel (MiniWars', CGME's) must play the very game the engine plays with the
same seeds (:mod:`warbench.core.playout`). :func:`difference` plays one seed
both ways and says what differs, or None: the differential tests of every
kernel ask it, so they all compare the same things the same way.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from warbench.bots import Bot, make_bot
from warbench.bots.base import SeededBot
from warbench.core.game import Game, state_digest
from warbench.scenario.model import Scenario
from warbench.sim.runner import bot_seeds, play_game, play_on

PlayoutState = Callable[[Scenario, int, Mapping[str, str], Mapping[str, int]], Any]
"""A kernel's ``playout_state(scenario, seed, bots, bot_seeds)``: its result (with
``actions``, ``winner``, ``reason``, ``turns``) and final state, or None if it declines."""


def difference(
    playout_state: PlayoutState, scenario: Scenario, seed: int, bots: Mapping[str, str]
) -> str | None:
    """What differs between the kernel's game of ``seed`` and the engine's, or None.

    Compared: every action in order (the first difference is shown with the three
    before it), the winner, the reason, the number of turns, and the digest of
    the final state.
    """
    played = playout_state(scenario, seed, bots, bot_seeds(scenario, seed))
    if played is None:
        return f"{scenario.id}: the kernel declined the game"
    fast, final = played
    return _compare(f"{scenario.id} seed {seed}", fast, final, play_game(scenario, seed, bots), 0)


def _compare(where: str, fast: Any, final: Any, slow: Game, start: int) -> str | None:
    """What differs between the kernel's result ``fast`` (with its ``final`` state) and
    the engine's finished game ``slow`` from its action ``start`` on, or None."""
    expected = [(t.side, t.action) for t in slow.actions[start:]]
    if fast.actions != expected:
        k = next(
            (i for i, (a, b) in enumerate(zip(fast.actions, expected, strict=False)) if a != b),
            min(len(fast.actions), len(expected)),
        )
        shown = [(s, str(a)) for s, a in expected[max(0, k - 3) : k + 1]]
        got = [(s, str(a)) for s, a in fast.actions[max(0, k - 3) : k + 1]]
        on = " on" if start else ""
        return f"{where}: action {k}{on} differs; Python {shown}, kernel {got}"
    outcome = slow.outcome
    if outcome is None:
        return f"{where}: the engine's game did not end"
    ours = (fast.winner, fast.reason, fast.turns)
    theirs = (outcome.winner, outcome.reason, slow.turn)
    if ours != theirs:
        return f"{where}: kernel ended {ours}, engine {theirs}"
    if state_digest(final) != slow.digest():
        return f"{where}: final states differ"
    return None


PlayFromState = Callable[[Any, random.Random, Mapping[str, str], Mapping[str, random.Random]], Any]
"""A kernel's ``play_from_state(state, dice, bots, streams)``: its result (with
``actions``, ``winner``, ``reason``, ``turns``) and final state as ``State.to_json()``
gives it, or None if it declines (the arguments of ``Ruleset.play_from``)."""


def positions(
    scenario: Scenario, seed: int, bots: Mapping[str, str], every: int
) -> Iterator[tuple[Game, dict[str, Bot]]]:
    """Positions of the game of ``seed`` played by ``bots``: after every ``every``-th
    action (from the first), where no sealed choice is pending, the live game and its
    bots (their streams where they stand). Each is yielded before the game moves on, so
    a caller compares there and then (or copies)."""
    game = Game(scenario, seed)
    players = {
        side: make_bot(bots.get(side, "random"), bot_seed)
        for side, bot_seed in bot_seeds(scenario, seed).items()
    }
    count = 0
    while game.waiting_for():
        if count % every == 0 and not game.pending_sealed():
            yield game, players
        side = game.waiting_for()[0]
        game.apply(players[side].choose(game.seat(side), side), side)
        count += 1


def _stream(bot: Bot) -> random.Random:
    if not isinstance(bot, SeededBot):
        raise TypeError(f"{type(bot).__name__} has no seeded stream for a kernel to continue")
    return bot.stream


def continuation_difference(
    play_from_state: PlayFromState,
    game: Game,
    players: Mapping[str, Bot],
    bots: Mapping[str, str],
) -> str | None:
    """What differs between the kernel playing ``game`` on from where it stands and the
    engine doing so, or None. Neither ``game`` nor ``players`` is changed.

    The kernel gets copies of the game's dice generator and of each bot's stream; the
    engine plays a copy of the game with copies of the bots. Compared: every action
    from here on, the winner, the reason, the turn at the end and the final digest.
    """
    memo = {id(game.ruleset): game.ruleset, id(game.scenario): game.scenario}
    slow = copy.deepcopy(game, memo)
    slow_players = {side: copy.deepcopy(bot) for side, bot in players.items()}
    dice = copy.deepcopy(game.dice.generator)
    streams = {side: copy.deepcopy(_stream(bot)) for side, bot in players.items()}
    where = f"{game.scenario.id} seed {game.seed} after {len(game.actions)} actions"
    played = play_from_state(copy.deepcopy(game.state), dice, bots, streams)
    if played is None:
        return f"{where}: the kernel declined the position"
    fast, final = played
    start = len(slow.actions)
    play_on(slow, slow_players)
    return _compare(where, fast, final, slow, start)


__all__ = ["PlayFromState", "continuation_difference", "difference", "positions"]
