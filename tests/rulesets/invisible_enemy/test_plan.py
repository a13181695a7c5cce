"""The planner's Invisible Enemy scores (``Ruleset.plan``, invisible_enemy/plan.py):
positions where it makes the scenario's choice greedy does not, and a whole game of the
main scenario."""

from __future__ import annotations

from warbench.bots.greedy import GreedyBot
from warbench.core.game import Game
from warbench.rulesets.invisible_enemy.actions import Pass
from warbench.sim.runner import play_game, score_for

SCENARIO = "invisible-enemy/company"


def _best(scores: list[float], actions: list) -> str:
    return str(actions[max(range(len(scores)), key=scores.__getitem__)])


def _moving(seed: int) -> tuple[Game, str]:
    """The main scenario played on by greedy to a decision where a side may hold back."""
    game = Game.start(SCENARIO, seed=seed)
    bots = {side: GreedyBot(seed) for side in game.scenario.sides}
    for _ in range(400):
        (side,) = game.waiting_for()[:1]
        actions = game.legal_actions(side)
        if any(isinstance(a, Pass) for a in actions) and len(actions) > 2:
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
    assert not isinstance(game.parse(greedy), Pass)
    assert isinstance(game.parse(planned), Pass)


def test_the_planner_plays_the_main_scenario_to_the_end():
    scenario = Game.start(SCENARIO, seed=5).scenario
    first, second = scenario.sides[0], scenario.sides[1]
    for seat, other in ((first, second), (second, first)):
        game = play_game(scenario, 5, {seat: "planner", other: "greedy"})
        assert game.is_over
        assert score_for(game, seat) in (0.0, 0.5, 1.0)


def test_a_move_into_enemy_reach_is_weighed_twice_as_heavily():
    """The first move where the two differ: greedy's best move walks a base further into
    the reach of enemy guns; the planner, counting that fire twice, takes a move that
    leaves it less exposed (the side that steps into reach first is shot first)."""
    from warbench.rulesets.invisible_enemy import movement
    from warbench.rulesets.invisible_enemy.actions import Move
    from warbench.rulesets.invisible_enemy.plan import _threat

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
    chosen, other = game.parse(planned), game.parse(greedy)
    assert isinstance(chosen, Move) and isinstance(other, Move)

    def exposure(action: Move) -> float:
        base, result = movement.plan(mine, side, action)
        return _threat(mine, base, result.end)

    assert exposure(chosen) < exposure(other)
