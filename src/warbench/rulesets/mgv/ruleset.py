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
from warbench.core.ruleset import Piece, UnitKind
from warbench.rulesets.kit.eye import told_action
from warbench.rulesets.kit.hooks import TableHooks
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.mgv.annotate import annotate, fire_arcs
from warbench.rulesets.mgv.data import rules, vehicles
from warbench.rulesets.mgv.evaluate import evaluate, sealed_strategy, standing
from warbench.rulesets.mgv.explain import explain_action
from warbench.rulesets.mgv.forms import choice_form
from warbench.rulesets.mgv.odds import QUERIES
from warbench.rulesets.mgv.plan import plan
from warbench.rulesets.mgv.rules import MGVRules
from warbench.rulesets.mgv.state import State
from warbench.rulesets.mgv.victory import scores
from warbench.rulesets.mgv.view import seen_state
from warbench.scenario.model import Scenario


class MGV(TableHooks[State], RecastHooks, MGVRules):
    """MGV with everything the engine, bots and tools ask of a ruleset."""

    package = "warbench.rulesets.mgv"
    """Where TableHooks finds info.py, ask.py, parse.py and data/rulings.toml."""
    arena = "mgv/clear"
    forces_table = "bases"
    kind_key = "model"
    kill_causes = ("kinetic", "photon", "missile", "feedback", "sudden death")
    """The weapon whose hits took out the heart (5.2; ``feedback``: a photon disaster's
    beam on its own firer, 5.3), or a sudden death roll (1.6)."""

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The vehicle models of the (stand-in) stats sheet with their points."""
        return [UnitKind(key, m.title, float(m.points)) for key, m in vehicles().models.items()]

    def evaluate(self, state: State, side: str, actions: Sequence[Action]) -> list[float]:
        return evaluate(self, state, side, actions)

    def plan(self, state: State, side: str, actions: Sequence[Action]) -> list[float]:
        return plan(self, state, side, actions)

    def standing(self, state: State) -> Mapping[str, float] | None:
        return standing(state)

    def tallies(self, scenario: Scenario, events: Sequence[Event]) -> dict[str, float]:
        """The hits placed on hulls (5.2), how many of them found no circle and were
        lost, and how many struck a base an earlier group of the same fire had
        destroyed (overkill, not the hull's doing), from the ``hits`` events."""
        placed = lost = wreck = 0
        for event in events:
            if event.kind == "hits":
                lost += int(event.data.get("lost", 0))
                wreck += int(event.data.get("wreck", 0))
                placed += len(event.data.get("circles", ()))
        return {
            "hits scored": float(placed + lost + wreck),
            "hits lost": float(lost),
            "hits on wrecks": float(wreck),
        }

    def pieces(self, state: State) -> list[Piece] | None:
        return [
            Piece(b.id, b.side, b.model.title, float(b.model.points), not b.destroyed)
            for b in state.bases.values()
        ]

    def initiative(self, state: State) -> str | None:
        return state.winners[0] if state.winners else None  # the turn's X roll

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

    def scores(self, state: State) -> dict[str, float]:
        """The points of enemy bases each side has destroyed (what the time limit weighs)."""
        return scores(state)

    def told_action(self, state: State, side: str, action: Action, viewer: str | None) -> str:
        """Another side's move is told by eye (5.3)."""
        return told_action(action, rules().data.eye, state.setup.options.measuring, side, viewer)

    def annotations(
        self, state: State, events: Sequence[Event], side: str | None
    ) -> list[dict[str, Any]]:
        return annotate(seen_state(state, side), events, side)

    def fire_arcs(self, state: State, side: str, piece: str) -> list[dict[str, Any]]:
        return fire_arcs(state, side, piece)

    def choice_form(self, state: State, side: str) -> dict[str, Any] | None:
        return choice_form(state, side)
