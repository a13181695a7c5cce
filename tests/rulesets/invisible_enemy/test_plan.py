"""The planner's Invisible Enemy scores (``Ruleset.plan``, invisible_enemy/plan.py):
positions where it makes the scenario's choice greedy does not, and a whole game of the
main scenario."""

from __future__ import annotations

from tests.rulesets.table_plan_cases import (
    check_a_last_turn_lead_is_kept,
    check_the_planner_plays_to_the_end,
    first_moves_apart,
)

from warbench.rulesets.invisible_enemy.actions import Pass

SCENARIO = "invisible-enemy/company"


def test_a_lead_in_the_last_turn_is_kept_rather_than_risked():
    check_a_last_turn_lead_is_kept(SCENARIO, Pass)


def test_the_planner_plays_the_main_scenario_to_the_end():
    check_the_planner_plays_to_the_end(SCENARIO)


def test_a_move_into_enemy_reach_is_weighed_twice_as_heavily():
    """The first move where the two differ: greedy's best move walks a base further into
    the reach of enemy guns; the planner, counting that fire twice, takes a move that
    leaves it less exposed (the side that steps into reach first is shot first)."""
    from warbench.rulesets.invisible_enemy import movement
    from warbench.rulesets.invisible_enemy.actions import Move
    from warbench.rulesets.invisible_enemy.plan import _threat

    game, side, greedy, planned = first_moves_apart(SCENARIO, 5001, Move)
    rules = game.ruleset
    mine = rules.side_state(game.state, side) or game.state
    chosen, other = game.parse(planned), game.parse(greedy)
    assert isinstance(chosen, Move) and isinstance(other, Move)

    def exposure(action: Move) -> float:
        base, result = movement.plan(mine, side, action)
        return _threat(mine, base, result.end)

    assert exposure(chosen) < exposure(other)
