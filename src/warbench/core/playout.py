"""A whole bot-vs-bot game played in one call, for simulations.

A ruleset may offer :meth:`~warbench.core.ruleset.Ruleset.playout`: given the
scenario, the game seed and the bots, it plays the game to its end in one go
(MiniWars does it in a compiled kernel) and returns what happened. It must be
the very game the engine would play action by action with the same seeds:
the same actions, hence the same dice, outcome and final state. Tests hold
each such ruleset to that by replaying the actions through a
:class:`~warbench.core.game.Game`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action

if TYPE_CHECKING:
    from warbench.scenario.model import Scenario


@dataclass(frozen=True, slots=True)
class Playout:
    """A finished game as a playout returns it."""

    actions: list[tuple[str, Action]]
    """(side, action) in the order they were taken."""
    winner: str | None
    reason: str
    turns: int


MAX_CODES = 200_000
"""Decoded action codes kept per scenario before the memo starts afresh."""


@dataclass(slots=True)
class KernelTables:
    """A scenario's tables in a compiled kernel, and the actions its codes stand for."""

    capsule: object
    """What the kernel's ``prepare`` made of the exported tables."""
    actions: dict[int, tuple[str, Action]] = field(default_factory=dict)
    """Action code -> (side, action), filled as codes come up (actions are immutable)."""

    def decode(
        self, codes: Iterable[int], decode: Callable[[int], tuple[str, Action]]
    ) -> list[tuple[str, Action]]:
        """The (side, action) of each code, ``decode`` asked once per distinct code."""
        known = self.actions
        if len(known) > MAX_CODES:
            known.clear()
        out: list[tuple[str, Action]] = []
        for code in codes:
            taken = known.get(code)
            if taken is None:
                taken = known[code] = decode(code)
            out.append(taken)
        return out


class TablesCache:
    """Kernel tables per scenario, made once: a kernel's export is slow, a game fast.

    Found first by the set-up object itself, then by the scenario's content
    (a scenario loaded again, as each ``simulate`` call does, reuses them),
    provided it was made for the same ``world`` (the data the set-up was built
    from, where a ruleset has several). ``None`` means the kernel declines the
    scenario, and is remembered too. Only the last few scenarios are kept.
    """

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._by_setup: dict[int, tuple[object, KernelTables | None]] = {}
        self._by_content: dict[str, tuple[object, KernelTables | None]] = {}

    def get(
        self,
        scenario: Scenario,
        make: Callable[[], KernelTables | None],
        world: object = None,
    ) -> KernelTables | None:
        setup = scenario.spec
        found = self._by_setup.get(id(setup))
        if found is not None and found[0] is setup:
            return found[1]
        key = scenario.ruleset + ":" + json.dumps(scenario.raw, sort_keys=True, default=str)
        kept = self._by_content.get(key)
        if kept is not None and kept[0] is world:
            tables = kept[1]
        else:
            tables = make()
            self._remember(self._by_content, key, (world, tables))
        self._remember(self._by_setup, id(setup), (setup, tables))
        return tables

    def for_setup(
        self, setup: object, make: Callable[[], KernelTables | None]
    ) -> KernelTables | None:
        """The tables of the set-up object ``setup`` (a live game's state holds its set-up,
        not its scenario): those :meth:`get` made for it, else made now and kept."""
        found = self._by_setup.get(id(setup))
        if found is not None and found[0] is setup:
            return found[1]
        tables = make()
        self._remember(self._by_setup, id(setup), (setup, tables))
        return tables

    def _remember(self, cache: dict[Any, Any], key: Any, value: Any) -> None:
        if len(cache) >= self._size:
            del cache[next(iter(cache))]
        cache[key] = value
