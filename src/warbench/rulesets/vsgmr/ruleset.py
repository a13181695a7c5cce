"""The VSGMR ruleset as registered: its rules plus the hooks that serve bots, odds and tools.

``rules.py`` is the rules alone and imports none of the modules that consume
them (odds, evaluation, pictures); they are assembled here, so each can import
the rules without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warbench.core.actions import Action
from warbench.core.events import Event
from warbench.core.odds import OddsQuery, OddsResult
from warbench.core.ruleset import Piece, UnitKind
from warbench.rulesets.kit.hooks import TableHooks
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.vsgmr.annotate import annotate, fire_arcs
from warbench.rulesets.vsgmr.evaluate import evaluate, standing
from warbench.rulesets.vsgmr.odds import QUERIES, explain_action
from warbench.rulesets.vsgmr.plan import plan
from warbench.rulesets.vsgmr.rules import VSGMRRules
from warbench.rulesets.vsgmr.state import State
from warbench.scenario.model import Scenario


class VSGMR(TableHooks[State], RecastHooks, VSGMRRules):
    """VSGMR with everything the engine, bots and tools ask of a ruleset."""

    package = "warbench.rulesets.vsgmr"
    """Where TableHooks finds info.py, ask.py, parse.py and data/rulings.toml."""
    arena = "vsgmr/street"
    forces_table = "figures"
    kind_key = "profile"

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The scenario's profiles with their (stand-in) points."""
        return [
            UnitKind(p.key, p.name or p.key, float(p.points))
            for p in scenario.spec.profiles.values()
        ]

    # -- the hooks bots, odds and pictures call ---------------------------------------
    def evaluate(self, state: State, side: str, actions: Sequence[Action]) -> list[float]:
        return evaluate(self, state, side, actions)

    def plan(self, state: State, side: str, actions: Sequence[Action]) -> list[float]:
        return plan(self, state, side, actions)

    def standing(self, state: State) -> Mapping[str, float] | None:
        return standing(state)

    def pieces(self, state: State) -> list[Piece] | None:
        return [
            Piece(
                f.id,
                f.side,
                f.profile.name or f.profile.key,
                float(f.profile.points),
                f.active or f.where == "left",
            )
            for f in state.figs.values()
        ]

    def initiative(self, state: State) -> str | None:
        return state.order[0] if state.order else None  # the side named to act first

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        return QUERIES

    def action_odds(self, state: State, side: str, action: Action) -> str | None:
        return explain_action(self, state, side, action)

    def odds_result(self, state: State, side: str, action: Action) -> OddsResult | None:
        """The odds ``action_odds`` words, as exact fractions (the same computation)."""
        from warbench.rulesets.vsgmr.odds import action_result

        return action_result(self, state, side, action)

    def annotations(
        self, state: State, events: Sequence[Event], side: str | None
    ) -> list[dict[str, Any]]:
        return annotate(state, events, side)

    def fire_arcs(self, state: State, side: str, piece: str) -> list[dict[str, Any]]:
        return fire_arcs(state, side, piece)
