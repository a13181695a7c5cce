"""The CGME ruleset as registered: its rules plus the hooks that serve bots, odds and tools.

``rules.py`` is the rules alone and imports none of the modules that consume
them (odds, evaluation, pictures, the compiled playout); they are assembled
here, so each can import the rules without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warbench.core.actions import Action
from warbench.core.odds import OddsQuery
from warbench.core.ruleset import Piece, UnitKind
from warbench.rulesets.cgme.actions import Move
from warbench.rulesets.cgme.evaluate import evaluate, standing
from warbench.rulesets.cgme.odds import assess_action, queries
from warbench.rulesets.cgme.plan import plan
from warbench.rulesets.cgme.playout import play_from, playout
from warbench.rulesets.cgme.rules import CGMERules
from warbench.rulesets.cgme.state import State
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.kit.ruleset import Served, ServedHooks
from warbench.scenario.model import Scenario


class CGME(ServedHooks, RecastHooks, CGMERules):
    """CGME with everything the engine, bots and tools ask of a ruleset."""

    served = Served(evaluate, plan, standing, assess_action, playout, play_from)

    arena = "cgme/arena"
    forces_table = "forces"
    kind_key = "type"

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The world's unit types and the scenario's own, with their values."""
        return [UnitKind(t.key, t.name, float(t.value)) for t in scenario.spec.types.values()]

    # -- telling a person what they command and must do (info.py) --------------------
    def unit_info(self, view: Mapping[str, Any], ref: str) -> list[str]:
        from warbench.rulesets.cgme.data import load_world
        from warbench.rulesets.cgme.info import unit_info

        return unit_info(view, ref, load_world(self.world_package))

    def goal(self, scenario: Scenario) -> list[str]:
        from warbench.rulesets.cgme.info import goal

        return goal(scenario)

    def rules_in_force(self, scenario: Scenario) -> list[str]:
        """The scenario's options and the world's rulings (its ``data/rulings.toml``)."""
        from warbench.rulesets.kit.rulings import rules_in_force

        defaults = self.options_model().model_dump()
        return rules_in_force(self.world_package, scenario.options, defaults)

    # -- the hooks bots, odds, pictures and simulations call --------------------------
    def pieces(self, state: State) -> list[Piece] | None:
        return [
            Piece(u.id, u.side, u.type.name, float(u.type.value), u.pos is not None)
            for u in state.units.values()
        ]

    def action_cost(self, state: State, side: str, action: Action) -> str | None:
        """A move's cost in MP this leg (and what is left), from the rules' own reach."""
        if not isinstance(action, Move) or not action.units:
            return None
        unit = state.units.get(action.units[0])
        if unit is None or unit.pos is None:
            return None
        reach = self.reach(state, unit)
        end = reach.ends.get(state.setup.board.index.get(action.to, -1))
        if end is None:
            return None
        _, (_, regular, bonus, _) = end
        _, start_regular, start_bonus, _ = reach.start
        spent = start_regular + start_bonus - regular - bonus
        return f"{spent} MP ({regular + bonus} left)"

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        return queries(self.world_package)
