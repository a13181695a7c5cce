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


def _best(scores: list[float], actions: list) -> object:
    return actions[max(range(len(scores)), key=scores.__getitem__)]


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


def test_a_gauntlet_runner_keeps_its_way_out_short():
    """mgv/gauntlet played on by greedy to the first blue move where the planner and greedy
    differ: the planner's move leaves the runner fewer inches to go (to the east edge,
    and the turn to face it, 4.0) than greedy's, which spends its move facing the
    hunters."""
    from warbench.bots.greedy import GreedyBot
    from warbench.core.game import Game
    from warbench.rulesets.mgv import movement
    from warbench.rulesets.mgv.actions import Move
    from warbench.rulesets.mgv.plan import to_go

    game = Game.start("mgv/gauntlet", seed=5000)
    rules = game.ruleset
    bots = {side: GreedyBot(5000) for side in game.scenario.sides}
    for _ in range(400):
        (side,) = game.waiting_for()[:1]
        actions = list(game.legal_actions(side))
        mine = rules.side_state(game.state, side) or game.state
        if side == "blue":
            greedy = _best(rules.evaluate(mine, side, actions), actions)
            planned = _best(rules.plan(mine, side, actions), actions)
            if greedy != planned and isinstance(greedy, Move) and isinstance(planned, Move):
                break
        game.apply(bots[side].choose(game.seat(side), side), side)
    else:
        raise AssertionError("the planner's runners never move otherwise than greedy's")
    table = mine.setup.table

    def left(action: Move) -> float:
        _, result = movement.plan(mine, side, action)
        return 0.0 if result.off_table else to_go(result.end, "east", table.width, table.height)

    assert left(planned) < left(greedy)
