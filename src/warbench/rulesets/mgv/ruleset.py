"""The MGV ruleset as registered: MGVRules with the hooks the kit answers from its
package (questions, recasting, and the served hooks of a game seen by eye,
``kit/table/served.py``: evaluation, planner, odds, marks), and what only MGV
answers here: the vehicle models a calibration may field, the hits tallied per
game, the pieces a balance run counts, the X roll's winner and the arming form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warbench.core.events import Event
from warbench.core.ruleset import Piece, UnitKind
from warbench.rulesets.kit.hooks import TableHooks
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.kit.table.served import EyeServedHooks
from warbench.rulesets.mgv.data import vehicles
from warbench.rulesets.mgv.forms import choice_form
from warbench.rulesets.mgv.rules import MGVRules
from warbench.rulesets.mgv.state import State
from warbench.scenario.model import Scenario


class MGV(EyeServedHooks[State], TableHooks[State], RecastHooks, MGVRules):
    """MGV with everything the engine, bots and tools ask of a ruleset."""

    arena = "mgv/clear"
    forces_table = "bases"
    kind_key = "model"
    kill_causes = ("kinetic", "photon", "missile", "feedback", "sudden death")
    """The weapon whose hits took out the heart (5.2; ``feedback``: a photon disaster's
    beam on its own firer, 5.3), or a sudden death roll (1.6)."""

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The vehicle models of the (stand-in) stats sheet with their points."""
        return [UnitKind(key, m.title, float(m.points)) for key, m in vehicles().models.items()]

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

    def choice_form(self, state: State, side: str) -> dict[str, Any] | None:
        return choice_form(state, side)
