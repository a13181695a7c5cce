"""The hooks a ruleset serves from the modules that consume its rules, named once.

A ruleset's ``rules.py`` is the rules alone; its evaluation, planner, odds and
compiled playout import the rules, and ``ruleset.py`` assembles them. The
assembly is the same everywhere: each hook hands the question to one function of
one module. A ruleset class mixes in :class:`ServedHooks` before its rules class
and sets :attr:`ServedHooks.served` to its functions (a :class:`Served`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from warbench.core.actions import Action
from warbench.core.odds import OddsResult
from warbench.core.playout import Playout
from warbench.core.ruleset import RulesetInfo
from warbench.rulesets.kit.odds import Explained
from warbench.scenario.model import Scenario

Bots = Mapping[str, str]
Streams = Mapping[str, random.Random]
Scored = Callable[[Any, Any, str, Sequence[Action]], list[float]]
"""``(ruleset, state, side, actions)`` to a value per action."""


def hex_ruleset(name: str, title: str, *aliases: str) -> RulesetInfo:
    """What a hex ruleset tells up front: two sides, open information, version 1."""
    return RulesetInfo(name, title, "1", "hex", aliases)


@dataclass(frozen=True, slots=True)
class Served:
    """The functions that answer a ruleset's hooks, in the order of :class:`ServedHooks`."""

    evaluate: Scored
    plan: Scored
    standing: Callable[[Any], Mapping[str, float] | None]
    assess: Callable[[Any, Any, str, Action], Explained | None]
    """``(ruleset, state, side, action)`` to the action's odds in words and as data."""
    playout: Callable[[Scenario, int, Bots, Mapping[str, int]], Playout | None]
    play_from: Callable[..., Playout | None]
    """``(state, dice, bots, streams, ruleset=...)``, the ruleset being the caller."""


class ServedHooks:
    """Evaluation, planning, odds and the compiled playout, from :attr:`served`."""

    served: ClassVar[Served]

    def evaluate(self, state: Any, side: str, actions: Sequence[Action]) -> list[float]:
        return self.served.evaluate(self, state, side, actions)

    def plan(self, state: Any, side: str, actions: Sequence[Action]) -> list[float]:
        """evaluate's material played for the scenario (``plan.py``: the planner bot's)."""
        return self.served.plan(self, state, side, actions)

    def standing(self, state: Any) -> Mapping[str, float] | None:
        return self.served.standing(state)

    def action_odds(self, state: Any, side: str, action: Action) -> str | None:
        explained = self.served.assess(self, state, side, action)
        return None if explained is None else explained[0]

    def odds_result(self, state: Any, side: str, action: Action) -> OddsResult | None:
        """The odds ``action_odds`` words, as exact fractions (the same computation)."""
        explained = self.served.assess(self, state, side, action)
        return None if explained is None else explained[1]

    def playout(
        self, scenario: Scenario, seed: int, bots: Bots, bot_seeds: Mapping[str, int]
    ) -> Playout | None:
        """The whole game in the compiled kernel (``_playout.c``), when it is built."""
        return self.served.playout(scenario, seed, bots, bot_seeds)

    def play_from(
        self, state: Any, dice: random.Random, bots: Bots, streams: Streams
    ) -> Playout | None:
        """The game played on from ``state`` in the compiled kernel, when it is built and
        plays this ruleset, scenario and bots (``playout.play_from``); else None."""
        return self.served.play_from(state, dice, bots, streams, ruleset=self)
