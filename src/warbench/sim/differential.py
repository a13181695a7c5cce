"""Holding a compiled playout kernel to the engine: the same game, action for action.

A kernel (MiniWars', CGME's) must play the very game the engine plays with the
same seeds (:mod:`warbench.core.playout`). :func:`difference` plays one seed
both ways and says what differs, or None: the differential tests of every
kernel ask it, so they all compare the same things the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from warbench.core.game import state_digest
from warbench.scenario.model import Scenario
from warbench.sim.runner import bot_seeds, play_game

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
    slow = play_game(scenario, seed, bots)
    expected = [(t.side, t.action) for t in slow.actions]
    if fast.actions != expected:
        k = next(
            (i for i, (a, b) in enumerate(zip(fast.actions, expected, strict=False)) if a != b),
            min(len(fast.actions), len(expected)),
        )
        shown = [(s, str(a)) for s, a in expected[max(0, k - 3) : k + 1]]
        got = [(s, str(a)) for s, a in fast.actions[max(0, k - 3) : k + 1]]
        return f"{scenario.id} seed {seed}: action {k} differs; Python {shown}, kernel {got}"
    outcome = slow.outcome
    if outcome is None:
        return f"{scenario.id} seed {seed}: the engine's game did not end"
    ours = (fast.winner, fast.reason, fast.turns)
    theirs = (outcome.winner, outcome.reason, slow.turn)
    if ours != theirs:
        return f"{scenario.id} seed {seed}: kernel ended {ours}, engine {theirs}"
    if state_digest(final) != slow.digest():
        return f"{scenario.id} seed {seed}: final states differ"
    return None


__all__ = ["difference"]
