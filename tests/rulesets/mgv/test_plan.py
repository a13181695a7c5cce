"""The planner's MGV scores (``Ruleset.plan``, mgv/plan.py): positions where it makes
the scenario's choice greedy does not, and a whole game of the main scenario."""

from __future__ import annotations

from tests.rulesets.table_plan_cases import (
    check_a_last_turn_lead_is_kept,
    check_the_planner_plays_to_the_end,
    first_moves_apart,
)

from warbench.rulesets.mgv.actions import End

SCENARIO = "mgv/clear"


def test_a_lead_in_the_last_turn_is_kept_rather_than_risked():
    check_a_last_turn_lead_is_kept(SCENARIO, End)


def test_the_planner_plays_the_main_scenario_to_the_end():
    check_the_planner_plays_to_the_end(SCENARIO)


def test_a_move_is_weighed_by_the_enemy_fire_next_turn():
    """The first move where the two differ: the planner's place is one the enemy can
    shoot less next turn (its later-fire term weighed twice), where greedy's is nearer
    the enemy guns."""
    from warbench.rulesets.mgv import movement, position
    from warbench.rulesets.mgv.actions import Move

    game, side, greedy, planned = first_moves_apart(SCENARIO, 5001, Move)
    rules = game.ruleset
    mine = rules.side_state(game.state, side) or game.state

    def cautious(text: str) -> float:
        """The place's worth counting only the enemy's fire (no hunting, no approach)."""
        base, result = movement.plan(mine, side, game.parse(text))
        moved = sum(leg.length for leg in result.legs)
        full = position.worth(mine, side, base, result.end, moved)
        bold = position.worth(mine, side, base, result.end, moved, exposed=0.0, caution=0.0)
        return full - bold

    assert cautious(planned) > cautious(greedy)
