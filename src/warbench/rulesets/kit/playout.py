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

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, NamedTuple

from warbench.core.actions import Action
from warbench.core.playout import KernelTables, Playout
from warbench.core.ruleset import Ruleset
from warbench.scenario.model import Scenario

BOTS = {"random": 0, "greedy": 1}
"""The bots the kernels play (bots/random_bot.py, bots/greedy.py), by kernel number."""

Bots = Mapping[str, str]
Seeds = Mapping[str, int]
Streams = Mapping[str, random.Random]
Owner = str | Ruleset[Any] | None
"""The ruleset whose game it is, or its registered name (None: the state's own)."""
Played = tuple[Playout, Any]
"""A kernel's game and its final state (None: the game was over, nothing was played)."""
StateJson = Callable[[Any, Playout, Any], dict[str, Any]]
"""``(setup, result, final)`` to the final state as ``State.to_json()`` would give it."""


def load_kernel(name: str) -> ModuleType | None:
    """The compiled kernel module ``name``, or None without it (no C compiler at install
    time: the engine plays in Python)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def bot_kinds(sides: Sequence[str], bots: Bots) -> tuple[int, int] | None:
    """The kernel's numbers of the two sides' bots (a side not named plays ``random``),
    or None when there are not two sides or a bot is not one the kernel plays."""
    kinds = [BOTS.get(bots.get(side, "random"), -1) for side in sides]
    if -1 in kinds or len(kinds) != 2:
        return None
    return kinds[0], kinds[1]


def play(
    kernel: Any, capsule: Any, sides: Sequence[str], seed: int, seeds: Seeds, kinds: tuple[int, int]
) -> Any:
    """``kernel.play`` of the game of seed ``seed``: its dice ``random.Random(seed)`` (as
    :class:`~warbench.core.dice.Dice`) and each side's bot stream
    ``random.Random(seeds[side])`` (as :class:`~warbench.bots.base.SeededBot`)."""
    first, second = sides
    dice, one, two = (random.Random(n).random for n in (seed, seeds[first], seeds[second]))
    return kernel.play(capsule, dice, one, two, kinds[0], kinds[1])


def play_on(
    kernel: Any,
    capsule: Any,
    exported: tuple[Any, ...],
    dice: random.Random,
    streams: Streams,
    sides: Sequence[str],
    kinds: tuple[int, int],
) -> Any:
    """``kernel.play_from`` of the ``exported`` state with the game's dice generator and
    each side's bot stream, where they stand; None if the kernel refuses the state (its
    checks: the state does not hold together)."""
    first, second = sides
    one, two = streams[first].random, streams[second].random
    try:
        return kernel.play_from(capsule, *exported, dice.random, one, two, kinds[0], kinds[1])
    except ValueError:
        return None


def answer(
    played: Any,
    tables: KernelTables,
    sides: Sequence[str],
    decode: Callable[[int], tuple[str, Action]],
    reason: Callable[[int, int], str],
) -> Played:
    """A kernel's answer (codes, winner, reason code, turns, final state) as a Playout
    (``decode`` reads an action's code, ``reason`` the reason's code and the winner's
    index) and the final state."""
    codes, winner, code, turns, final = played
    actions = tables.decode(codes, decode)
    result = Playout(
        actions=actions,
        winner=None if winner < 0 else sides[winner],
        reason=reason(code, winner),
        turns=turns,
    )
    return result, final


def final_outcome(result: Playout, over: int, sides: Sequence[str], lost: Sequence[Any]) -> Any:
    """The outcome of a kernel's game that is ``over`` as ``State.to_json()`` writes it
    (each side scores what its enemy lost), else None."""
    if not over:
        return None
    first, second = sides
    scores = {first: float(lost[1]), second: float(lost[0])}
    return {"winner": result.winner, "reason": result.reason, "scores": scores}


def placed_json(placed: Any, hexes: Sequence[Any], at: int) -> dict[str, Any]:
    """What a state's ``to_json()`` writes first of a unit placed at set-up, at hex ``at``."""
    kind = placed.type
    where = hexes[at].label if at >= 0 else None
    return {"id": placed.id, "side": placed.side, "type": kind.key, "name": kind.name, "at": where}


class Entries(NamedTuple):
    """A kernel's entry points (see the module's docstring)."""

    playout: Callable[[Scenario, int, Bots, Seeds], Playout | None]
    playout_state: Callable[[Scenario, int, Bots, Seeds], tuple[Playout, dict[str, Any]] | None]
    play_from: Callable[..., Playout | None]
    play_from_state: Callable[..., tuple[Playout, dict[str, Any]] | None]


def entries(
    play_game: Callable[[Scenario, int, Bots, Seeds], Played | None],
    continuation: Callable[[Any, random.Random, Bots, Streams, Owner], Played | None],
    state_json: StateJson,
) -> Entries:
    """The entry points of a kernel whose game is ``play_game`` and continuation
    ``continuation``
    (each None where the kernel declines), the final state read by ``state_json``."""

    def playout(scenario: Scenario, seed: int, bots: Bots, bot_seeds: Seeds) -> Playout | None:
        played = play_game(scenario, seed, bots, bot_seeds)
        return None if played is None else played[0]

    def playout_state(
        scenario: Scenario, seed: int, bots: Bots, bot_seeds: Seeds
    ) -> tuple[Playout, dict[str, Any]] | None:
        played = play_game(scenario, seed, bots, bot_seeds)
        if played is None:
            return None
        result, final = played
        return result, state_json(scenario.spec, result, final)

    def play_from(
        state: Any, dice: random.Random, bots: Bots, streams: Streams, ruleset: Owner = None
    ) -> Playout | None:
        played = continuation(state, dice, bots, streams, ruleset)
        return None if played is None else played[0]

    def play_from_state(
        state: Any, dice: random.Random, bots: Bots, streams: Streams, ruleset: Owner = None
    ) -> tuple[Playout, dict[str, Any]] | None:
        played = continuation(state, dice, bots, streams, ruleset)
        if played is None:
            return None
        result, final = played
        if final is None:  # the game was already over: nothing was played
            return result, state.to_json()
        return result, state_json(state.setup, result, final)

    return Entries(playout, playout_state, play_from, play_from_state)
