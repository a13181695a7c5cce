"""The planner's MGV scores (``Ruleset.plan``, mgv/plan.py): positions where it makes
the scenario's choice greedy does not, and a whole game of the main scenario."""

from __future__ import annotations

from warbench.bots.greedy import GreedyBot
from warbench.core.game import Game
from warbench.rulesets.mgv.actions import End
from warbench.sim.runner import play_game, score_for

SCENARIO = "mgv/clear"


def _best(scores: list[float], actions: list) -> str:
    return str(actions[max(range(len(scores)), key=scores.__getitem__)])


def _moving(seed: int) -> tuple[Game, str]:
    """The main scenario played on by greedy to a decision where a side may hold back."""
    game = Game.start(SCENARIO, seed=seed)
    bots = {side: GreedyBot(seed) for side in game.scenario.sides}
    for _ in range(400):
        (side,) = game.waiting_for()[:1]
        actions = game.legal_actions(side)
        if any(isinstance(a, End) for a in actions) and len(actions) > 2:
            return game, side
        game.apply(bots[side].choose(game.seat(side), side), side)
    raise AssertionError("no decision to hold back")


def test_a_lead_in_the_last_turn_is_kept_rather_than_risked():
    """Last turn, one enemy base destroyed: greedy acts on; the planner holds back (the
    points already scored win when time is up)."""
    game, side = _moving(3)
    state = game.state
    state.turn = state.setup.turns
    enemy = next(b for b in state.bases.values() if b.side != side)
    enemy.destroyed = True
    rules = game.ruleset
    mine = rules.side_state(state, side) or state
    actions = list(game.legal_actions(side))
    greedy = _best(rules.evaluate(mine, side, actions), actions)
    planned = _best(rules.plan(mine, side, actions), actions)
    assert not isinstance(game.parse(greedy), End)
    assert isinstance(game.parse(planned), End)


def test_the_planner_plays_the_main_scenario_to_the_end():
    scenario = Game.start(SCENARIO, seed=5).scenario
    first, second = scenario.sides[0], scenario.sides[1]
    for seat, other in ((first, second), (second, first)):
        game = play_game(scenario, 5, {seat: "planner", other: "greedy"})
        assert game.is_over
        assert score_for(game, seat) in (0.0, 0.5, 1.0)


def test_a_move_is_weighed_by_the_enemy_fire_next_turn():
    """The first move where the two differ: the planner's place is one the enemy can
    shoot less next turn (its later-fire term weighed twice), where greedy's is nearer
    the enemy guns."""
    from warbench.rulesets.mgv import movement, position
    from warbench.rulesets.mgv.actions import Move

    game = Game.start(SCENARIO, seed=5001)
    bots = {side: GreedyBot(5001) for side in game.scenario.sides}
    rules = game.ruleset
    for _ in range(400):
        (side,) = game.waiting_for()[:1]
        actions = list(game.legal_actions(side))
        mine = rules.side_state(game.state, side) or game.state
        greedy = _best(rules.evaluate(mine, side, actions), actions)
        planned = _best(rules.plan(mine, side, actions), actions)
        if greedy != planned and all(isinstance(game.parse(a), Move) for a in (greedy, planned)):
            break
        game.apply(bots[side].choose(game.seat(side), side), side)
    else:
        raise AssertionError("the planner never differs from greedy")

    def cautious(text: str) -> float:
        """The place's worth counting only the enemy's fire (no hunting, no approach)."""
        base, result = movement.plan(mine, side, game.parse(text))
        moved = sum(leg.length for leg in result.legs)
        full = position.worth(mine, side, base, result.end, moved)
        bold = position.worth(mine, side, base, result.end, moved, exposed=0.0, caution=0.0)
        return full - bold

    assert cautious(planned) > cautious(greedy)
