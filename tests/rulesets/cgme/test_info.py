"""``info`` and ``goal`` on the bare CGME core (its stand-in world): the skirmish."""

from __future__ import annotations

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get


def test_a_unit_of_the_skirmish_and_its_stack() -> None:
    game = Game.start("cgme/skirmish", seed=2)
    assert game.ruleset.unit_info(game.view("red"), "BIa") == [
        "BIa: Troopers (trooper), blue (Blue battle group)",
        "ATT 1, RNG 1, DEF 2, MOV 2; class foot, value 6",
        "at 0205 (clear)",
        "stacked with BIb, BIc",
        "MP left this movement phase: 2",
        "status: unhurt, has not moved or attacked",
    ]
    assert game.ruleset.unit_info(game.view(None), "0605") == ["hex 0605: ruins", "units: none"]


def test_goal_of_the_skirmish_is_value_destroyed_after_turn_8() -> None:
    scenario = load_scenario("cgme/skirmish")
    assert get("cgme").goal(scenario) == [
        "Two battle groups race for a ruined village between a lake and a radiation zone. "
        "After 8 turns the side that destroyed more enemy value wins.",
        "At the end of turn 8, the side that destroyed more enemy value wins (the value of "
        "each unit: info UNIT); equal value destroyed is a draw.",
        "A side with no unit left on the map loses at once.",
    ]
