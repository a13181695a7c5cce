"""The VSGMR ruleset as registered: VSGMRRules with the hooks served from its modules
(``kit/table/served.py``), and what VSGMR answers its own way: the scenario's
profiles as unit kinds, figures as pieces, who acts first, and the odds of an
attack (``odds.py``, which needs the ruleset).
"""

from __future__ import annotations

from warbench.core.actions import Action
from warbench.core.odds import OddsResult
from warbench.core.ruleset import Piece, UnitKind
from warbench.rulesets.kit.hooks import TableHooks
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.kit.table.served import TableServedHooks
from warbench.rulesets.vsgmr.odds import explain_action
from warbench.rulesets.vsgmr.rules import VSGMRRules
from warbench.rulesets.vsgmr.state import State
from warbench.scenario.model import Scenario


class VSGMR(TableServedHooks[State], TableHooks[State], RecastHooks, VSGMRRules):
    """VSGMR with everything the engine, bots and tools ask of a ruleset."""

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

    def action_odds(self, state: State, side: str, action: Action) -> str | None:
        return explain_action(self, state, side, action)

    def odds_result(self, state: State, side: str, action: Action) -> OddsResult | None:
        """The odds ``action_odds`` words, as exact fractions (the same computation)."""
        from warbench.rulesets.vsgmr.odds import action_result

        return action_result(self, state, side, action)
