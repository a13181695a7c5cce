"""Cases the open tables' planner tests share (MGV, Invisible Enemy): the best of a set
of scores, a decision where a side may hold back, a last-turn lead kept, and whole games
of the main scenario with the planner in either seat."""

from __future__ import annotations

from collections.abc import Sequence

from warbench.bots.greedy import GreedyBot
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.sim.runner import play_game, score_for


def best(scores: Sequence[float], actions: Sequence[Action]) -> str:
    """The text of the best-scored action."""
    return str(actions[max(range(len(scores)), key=scores.__getitem__)])


def holding_decision(scenario: str, seed: int, hold: type[Action]) -> tuple[Game, str]:
    """``scenario`` played on by greedy to a decision where a side may hold back (``hold``
    is among its actions, with at least two others)."""
    game = Game.start(scenario, seed=seed)
    bots = {side: GreedyBot(seed) for side in game.scenario.sides}
    for _ in range(400):
        (side,) = game.waiting_for()[:1]
        actions = game.legal_actions(side)
        if any(isinstance(a, hold) for a in actions) and len(actions) > 2:
            return game, side
        game.apply(bots[side].choose(game.seat(side), side), side)
    raise AssertionError("no decision to hold back")


def check_a_last_turn_lead_is_kept(scenario: str, hold: type[Action]) -> None:
    """Last turn, one enemy base destroyed: greedy acts on; the planner holds back (the
    points already scored win when time is up). Both read only the side's own state."""
    game, side = holding_decision(scenario, 3, hold)
    state = game.state
    state.turn = state.setup.turns
    enemy = next(b for b in state.bases.values() if b.side != side)
    enemy.destroyed = True
    rules = game.ruleset
    mine = rules.side_state(state, side) or state
    actions = list(game.legal_actions(side))
    greedy = best(rules.evaluate(mine, side, actions), actions)
    planned = best(rules.plan(mine, side, actions), actions)
    assert not isinstance(game.parse(greedy), hold)
    assert isinstance(game.parse(planned), hold)


def check_the_planner_plays_to_the_end(scenario_id: str) -> None:
    scenario = Game.start(scenario_id, seed=5).scenario
    first, second = scenario.sides[0], scenario.sides[1]
    for seat, other in ((first, second), (second, first)):
        game = play_game(scenario, 5, {seat: "planner", other: "greedy"})
        assert game.is_over
        assert score_for(game, seat) in (0.0, 0.5, 1.0)


def first_moves_apart(scenario: str, seed: int, move: type[Action]) -> tuple[Game, str, str, str]:
    """``scenario`` played on by greedy to the first decision where greedy's best and the
    planner's best (each from the side's own state) are two different moves: the game,
    the side, greedy's move and the planner's, as text."""
    game = Game.start(scenario, seed=seed)
    bots = {side: GreedyBot(seed) for side in game.scenario.sides}
    rules = game.ruleset
    for _ in range(400):
        (side,) = game.waiting_for()[:1]
        actions = list(game.legal_actions(side))
        mine = rules.side_state(game.state, side) or game.state
        greedy = best(rules.evaluate(mine, side, actions), actions)
        planned = best(rules.plan(mine, side, actions), actions)
        if greedy != planned and all(isinstance(game.parse(a), move) for a in (greedy, planned)):
            return game, side, greedy, planned
        game.apply(bots[side].choose(game.seat(side), side), side)
    raise AssertionError("the planner never differs from greedy")
