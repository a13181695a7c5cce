"""The glue around a ruleset's compiled playout kernel (``_playout.c``), written once.

A kernel plays a whole game (``play``) or plays on from a live state
(``play_from``) and answers with what happened and its final state. A ruleset's
``playout.py`` exports its tables and decodes the answer; the kit gives the bots
a kernel plays, the call that hands it the game's generators, and the four
entry points the ruleset and the differential tests call (:func:`entries`):

- ``playout(scenario, seed, bots, bot_seeds)``: the game, or None where the
  kernel declines it (not built, a bot it does not play, data it does not do);
- ``playout_state(...)``: that and the kernel's final state as
  ``State.to_json()`` would give it (its digest must equal the Python game's);
- ``play_from(state, dice, bots, streams, ruleset=None)``: the game played on
  from ``state`` with the caller's generators, advanced in place;
- ``play_from_state(...)``: that and the final state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from warbench.core.playout import Playout
from warbench.core.ruleset import Ruleset
from warbench.scenario.model import Scenario

BOTS = {"random": 0, "greedy": 1}
"""The bots the kernels play (bots/random_bot.py, bots/greedy.py), by kernel number."""

Played = tuple[Playout, Any]
"""A kernel's game and its final state (None: the game was over, nothing was played)."""
StateJson = Callable[[Any, Playout, Any], dict[str, Any]]
"""``(setup, result, final)`` to the final state as ``State.to_json()`` would give it."""


def bot_kinds(sides: Sequence[str], bots: Mapping[str, str]) -> tuple[int, int] | None:
    """The kernel's numbers of the two sides' bots (a side not named plays ``random``),
    or None when there are not two sides or a bot is not one the kernel plays."""
    kinds = [BOTS.get(bots.get(side, "random"), -1) for side in sides]
    if -1 in kinds or len(kinds) != 2:
        return None
    return kinds[0], kinds[1]


def play(
    kernel: Any,
    capsule: Any,
    sides: Sequence[str],
    seed: int,
    bot_seeds: Mapping[str, int],
    kinds: tuple[int, int],
) -> Any:
    """``kernel.play`` of the game of seed ``seed``: its dice ``random.Random(seed)`` (as
    :class:`~warbench.core.dice.Dice`) and each side's bot stream
    ``random.Random(bot_seed)`` (as :class:`~warbench.bots.base.SeededBot`)."""
    first, second = sides
    return kernel.play(
        capsule,
        random.Random(seed).random,
        random.Random(bot_seeds[first]).random,
        random.Random(bot_seeds[second]).random,
        kinds[0],
        kinds[1],
    )


class Entries(NamedTuple):
    """A kernel's entry points (see the module's docstring)."""

    playout: Callable[[Scenario, int, Mapping[str, str], Mapping[str, int]], Playout | None]
    playout_state: Callable[
        [Scenario, int, Mapping[str, str], Mapping[str, int]],
        tuple[Playout, dict[str, Any]] | None,
    ]
    play_from: Callable[..., Playout | None]
    play_from_state: Callable[..., tuple[Playout, dict[str, Any]] | None]


def entries(
    play_game: Callable[[Scenario, int, Mapping[str, str], Mapping[str, int]], Played | None],
    play_on: Callable[
        [Any, random.Random, Mapping[str, str], Mapping[str, random.Random], Any],
        Played | None,
    ],
    state_json: StateJson,
) -> Entries:
    """The entry points of a kernel whose game is ``play_game`` and continuation ``play_on``
    (each None where the kernel declines), the final state read by ``state_json``."""

    def playout(
        scenario: Scenario, seed: int, bots: Mapping[str, str], bot_seeds: Mapping[str, int]
    ) -> Playout | None:
        played = play_game(scenario, seed, bots, bot_seeds)
        return None if played is None else played[0]

    def playout_state(
        scenario: Scenario, seed: int, bots: Mapping[str, str], bot_seeds: Mapping[str, int]
    ) -> tuple[Playout, dict[str, Any]] | None:
        played = play_game(scenario, seed, bots, bot_seeds)
        if played is None:
            return None
        result, final = played
        return result, state_json(scenario.spec, result, final)

    def play_from(
        state: Any,
        dice: random.Random,
        bots: Mapping[str, str],
        streams: Mapping[str, random.Random],
        ruleset: str | Ruleset[Any] | None = None,
    ) -> Playout | None:
        played = play_on(state, dice, bots, streams, ruleset)
        return None if played is None else played[0]

    def play_from_state(
        state: Any,
        dice: random.Random,
        bots: Mapping[str, str],
        streams: Mapping[str, random.Random],
        ruleset: str | Ruleset[Any] | None = None,
    ) -> tuple[Playout, dict[str, Any]] | None:
        played = play_on(state, dice, bots, streams, ruleset)
        if played is None:
            return None
        result, final = played
        if final is None:  # the game was already over: nothing was played
            return result, state.to_json()
        return result, state_json(state.setup, result, final)

    return Entries(playout, playout_state, play_from, play_from_state)
