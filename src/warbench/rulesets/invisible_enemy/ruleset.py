"""Invisible Enemy as registered: its rules with the hooks the kit answers from the
package (``kit/table/served.py`` for evaluation, planner, odds and marks, seen by
eye), and its own answers: the models of a side's nation, the turns without action
points, contamination and lanes cleared, the pieces (a contaminated base is lost)
and the initiative of 4.6.
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.core.events import Event
from warbench.core.ruleset import REMOVALS, Piece, UnitKind
from warbench.rulesets.invisible_enemy.data import vehicles
from warbench.rulesets.invisible_enemy.rules import InvisibleEnemyRules
from warbench.rulesets.invisible_enemy.state import State
from warbench.rulesets.kit.hooks import TableHooks
from warbench.rulesets.kit.recasting import RecastHooks
from warbench.rulesets.kit.table.served import EyeServedHooks
from warbench.scenario.model import Scenario

CONTAMINATED = "a base contaminated (1 = yes: the mean is the share of games)"
LANES = "lanes cleared or ploughed by engineers"


class InvisibleEnemy(EyeServedHooks[State], TableHooks[State], RecastHooks, InvisibleEnemyRules):
    """Invisible Enemy with everything the engine, bots and tools ask of a ruleset."""

    arena = "invisible-enemy/company"
    forces_table = "units"
    kind_key = "model"
    nested_key = "bases"
    removal_kinds = REMOVALS | {"contaminated"}
    """A contaminated base is out of its side's hands for good (1.5 note 2)."""
    kill_causes = (
        "kinetic fire",
        "photon fire",
        "chemical fire",
        "direct fire",
        "blast",
        "self-destruct",
        "barrage",
        "minefield",
        "payload",
        "contamination",
    )
    """Direct fire by the weapon of the shooter credited (5.0-5.2; ``direct fire``: no
    shooter named), a self-destructing base's blast on others and on itself (6.0), an
    area weapon (3.0), a minefield or an engineer's payload (7.0, stand-ins), and fungus
    contamination (1.5 note 2)."""

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The models of the side's nation on the (stand-in) stats page, with their points."""
        nation = next(
            (s.get("nation") for s in scenario.raw.get("sides", ()) if s.get("name") == side),
            None,
        )
        return [
            UnitKind(key, m.title, float(m.points))
            for key, m in vehicles().models.items()
            if m.nation == nation
        ]

    def tallies(self, scenario: Scenario, events: Sequence[Event]) -> dict[str, float]:
        """Per side, the turns its network combat (2.0) gave it no action points, from
        the ``network`` events; whether any base was contaminated (1.5 note 2: 1 or 0, so
        the mean is the share of games); and the lanes engineers cleared or ploughed
        (7.0, 4.4: ``cleared`` events naming a base)."""
        out = {f"{side}: turns without action points": 0.0 for side in scenario.sides}
        contaminated = lanes = 0.0
        for event in events:
            if event.kind == "network":
                for side, points in dict(event.data.get("points", {})).items():
                    if points == 0:
                        out[f"{side}: turns without action points"] += 1.0
            elif event.kind == "contaminated":
                contaminated = 1.0
            elif event.kind == "cleared" and event.data.get("base") is not None:
                lanes += 1.0
        out[CONTAMINATED] = contaminated
        out[LANES] = lanes
        return out

    def pieces(self, state: State) -> list[Piece] | None:
        return [
            Piece(
                b.id,
                b.side,
                b.model.title,
                float(b.model.points),
                not b.destroyed and not b.contaminated,
            )
            for b in state.bases.values()
        ]

    def initiative(self, state: State) -> str | None:
        return state.initiative  # 4.6
