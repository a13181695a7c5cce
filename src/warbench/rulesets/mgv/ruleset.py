"""The MGV ruleset as registered: its rules plus the hooks that serve bots, odds and tools.

``rules.py`` is the rules alone and imports none of the modules that consume
them (odds, evaluation, pictures); they are assembled here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from warbench.core.actions import Action
from warbench.core.events import Event
from warbench.core.odds import OddsQuery, OddsResult
from warbench.rulesets.mgv.annotate import annotate
from warbench.rulesets.mgv.evaluate import evaluate, sealed_strategy
from warbench.rulesets.mgv.explain import explain_action
from warbench.rulesets.mgv.odds import QUERIES
from warbench.rulesets.mgv.rules import MGVRules
from warbench.rulesets.mgv.state import State
from warbench.scenario.model import Scenario


class MGV(MGVRules):
    """MGV with everything the engine, bots and tools ask of a ruleset."""

    # -- telling a person what they command and must do (info.py) --------------------
    def unit_info(self, view: Mapping[str, Any], ref: str) -> list[str]:
        from warbench.rulesets.mgv.info import unit_info

        return unit_info(view, ref)

    def goal(self, scenario: Scenario) -> list[str]:
        from warbench.rulesets.mgv.info import goal

        return goal(scenario)

    def rules_in_force(self, scenario: Scenario) -> list[str]:
        """The scenario's options and the rulings (``data/rulings.toml``), one line each."""
        from warbench.rulesets.mgv.scenario import OptionsSpec
        from warbench.rulesets.rulings import rules_in_force

        defaults = OptionsSpec().model_dump()
        return rules_in_force("warbench.rulesets.mgv", scenario.options, defaults)

    # -- the table in a player's words (ask.py, parse.py) -------------------------------
    def action_reason(self, state: State, side: str, action: Action) -> str | None:
        from warbench.rulesets.mgv.ask import action_reason

        return action_reason(state, side, action)

    def measure(self, state: State, side: str, first: str, second: str) -> str:
        from warbench.rulesets.mgv.ask import measure

        return measure(state, side, first, second)

    @staticmethod
    def usage() -> Mapping[str, str]:
        """The raw forms, then the table phrases (``help`` at the prompt)."""
        from warbench.rulesets.mgv.actions import USAGE
        from warbench.rulesets.mgv.parse import PHRASES

        return {**USAGE, **PHRASES}

    def evaluate(self, state: State, side: str, actions: Sequence[Action]) -> list[float]:
        return evaluate(self, state, side, actions)

    def sealed_strategy(self, state: State, side: str, rng: random.Random) -> Action | None:
        return sealed_strategy(state, side, rng)

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        return QUERIES

    def action_odds(self, state: State, side: str, action: Action) -> str | None:
        return explain_action(state, side, action)

    def odds_result(self, state: State, side: str, action: Action) -> OddsResult | None:
        """The odds ``action_odds`` words, as exact fractions (the same computation)."""
        from warbench.rulesets.mgv.explain import action_result

        return action_result(state, side, action)

    def annotations(
        self, state: State, events: Sequence[Event], side: str | None
    ) -> list[dict[str, Any]]:
        return annotate(state, events, side)
