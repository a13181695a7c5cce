"""The ``[options]`` of a V.E.G. scenario: the optional rules and the two-reading rulings.

==========================  =====================================================
``stacking_limit``          5 (default, the data's ``[stacking] limit``: "the
                            5-unit-per-hex limit" and its example), 6 (the
                            "up to 6 units may stack" of the first line), any
                            other number, or "off" (the text's "stacking rules
                            may be ignored")
``attack_during_movement``  the optional rule Attacks During Movement (off)
``building_damage``         "att" (damage equal to the ATT score) or "margin"
                            (the optional rule: the difference of the rolls; a
                            Wound, a tie, then does 0 SP: ruling 15)
``move_or_shoot``           the mobile howitzer's optional rule (off)
``spillover_hits``          "all" (default: "any unit" in the hex, friends and
                            the units firing too), "not_attackers" (all but the
                            units making the attack) or "enemies" (ruling 2)
``unstated_terrain``        the blank city entry for hovercraft: "borrow" the
                            wheeled/tracked entry (default), "no_effect", "no_entry"
``hexside_crossing``        a stream's "N MP to cross": "beyond_step" (default,
                            ruling 10: the step costs the hex entered plus what
                            N exceeds a plain step, so the hovercraft's 1 adds
                            nothing) or "additive" (the hex entered plus N)
``combined_attacks``        the core's combined attacks (on)
==========================  =====================================================
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Literal

from pydantic import Field

from warbench.rulesets.cgme.data import Crossing, SpilloverHits, Unstated, World
from warbench.rulesets.cgme.scenario import DEFAULT_OPTIONS, CoreOptionsSpec, Options


class VegOptionsSpec(CoreOptionsSpec):
    """Options a V.E.G. scenario may set."""

    stacking_limit: Annotated[int, Field(ge=1, le=20)] | Literal["off"] | None = None
    """None: the world's ``[stacking] limit`` (V.E.G.: 5)."""
    attack_during_movement: bool = DEFAULT_OPTIONS.attack_during_movement
    building_damage: Literal["att", "margin"] = DEFAULT_OPTIONS.building_damage
    move_or_shoot: bool = DEFAULT_OPTIONS.move_or_shoot
    spillover_hits: SpilloverHits = DEFAULT_OPTIONS.spillover_hits
    unstated_terrain: Unstated = DEFAULT_OPTIONS.unstated_terrain
    hexside_crossing: Crossing = DEFAULT_OPTIONS.hexside_crossing

    def options(self, world: World) -> Options:
        return replace(
            super().options(world),
            stacking_limit=(
                world.stacking_limit
                if self.stacking_limit is None
                else None
                if self.stacking_limit == "off"
                else self.stacking_limit
            ),
            attack_during_movement=self.attack_during_movement,
            building_damage=self.building_damage,
            move_or_shoot=self.move_or_shoot,
            spillover_hits=self.spillover_hits,
            unstated_terrain=self.unstated_terrain,
            hexside_crossing=self.hexside_crossing,
        )
