"""The MiniWars ruleset as registered: its rules plus the hooks that serve bots, odds and tools.

``rules.py`` is the rules alone and imports none of the modules that consume
them (odds, evaluation, pictures, the compiled playout); they are assembled
here, so each can import the rules without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warbench.core.actions import Action
from warbench.core.odds import OddsQuery
from warbench.core.ruleset import Piece, UnitKind
from warbench.rulesets.kit.hooks import InfoHooks
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.kit.ruleset import Served, ServedHooks
from warbench.rulesets.miniwars.actions import Move
from warbench.rulesets.miniwars.annotate import annotate
from warbench.rulesets.miniwars.data import catalogue, unit_type
from warbench.rulesets.miniwars.evaluate import evaluate, standing
from warbench.rulesets.miniwars.odds import QUERIES, assess_action
from warbench.rulesets.miniwars.plan import plan
from warbench.rulesets.miniwars.playout import play_from, playout
from warbench.rulesets.miniwars.rules import MiniWarsRules
from warbench.rulesets.miniwars.state import State
from warbench.scenario.model import Scenario


class MiniWars(ServedHooks, InfoHooks, RecastHooks, MiniWarsRules):
    """MiniWars with everything the engine, bots and tools ask of a ruleset."""

    served = Served(evaluate, plan, standing, assess_action, playout, play_from)

    package = "warbench.rulesets.miniwars"
    """Where InfoHooks finds info.py and data/rulings.toml."""
    arena = "miniwars/arena"
    forces_table = "forces"
    kind_key = "type"

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The catalogue's types (Danville's, with their printed costs) and the scenario's own."""
        types = dict(catalogue())
        for key, row in (scenario.raw.get("unit_types") or {}).items():
            types[key] = unit_type(key, row)
        return [UnitKind(t.key, t.name, float(t.cost)) for t in types.values()]

    # -- the hooks bots, odds, pictures and simulations call --------------------------
    def pieces(self, state: State) -> list[Piece] | None:
        return [
            Piece(u.id, u.side, u.type.name, float(u.type.cost), u.on_board)
            for u in state.units.values()
        ]

    def action_cost(self, state: State, side: str, action: Action) -> str | None:
        """A move's cost in MP of the unit's allowance (from the same reach the rules use)."""
        if not isinstance(action, Move):
            return None
        unit = state.units.get(action.unit)
        if unit is None or unit.pos is None:
            return None
        half = self.reach(state, unit).get(action.to)
        if half is None:
            return None
        per = state.setup.board.charts.half_mp_per_mp
        spent = f"{half // per}" + ("½" if half % per else "")
        return f"{spent} of {unit.type.move} MP"

    def plans_against(
        self, state: State, side: str, piece: str, target: str
    ) -> list[dict[str, Any]]:
        """Melee against an adjacent enemy: the attack itself, and, for a unit that has
        not moved this phase, holding its hex first (ruling 21: melee comes right after a
        move, and a move to its own hex is one)."""
        unit, enemy = state.units.get(piece), state.units.get(target)
        if unit is None or enemy is None or unit.side != side or enemy.side == side:
            return []
        if unit.pos is None or enemy.pos is None or unit.pos.distance(enemy.pos) != 1:
            return []
        attack = f"attack {piece} {target}"
        plans = [{"label": f"attack {target}", "steps": [attack]}]
        if not unit.acted and state.setup.options.hold_and_melee:
            hold = f"move {piece} {unit.pos.label}"
            plans.append(
                {"label": f"hold {piece} here, then attack {target}", "steps": [hold, attack]}
            )
        return plans

    def initiative(self, state: State) -> str | None:
        return state.chooser  # who won the roll and chooses A or B

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        return QUERIES

    def annotations(
        self, state: State, events: Sequence[Any], side: str | None
    ) -> list[dict[str, Any]]:
        return annotate(state, events, side)
