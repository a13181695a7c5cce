"""The planner's VSGMR scores (``Ruleset.plan``, vsgmr/plan.py): positions where it makes
the scenario's choice greedy does not, and a whole game of the main scenario."""

from __future__ import annotations

from warbench.core.game import Game
from warbench.sim.runner import play_game, score_for


def _best(scores: list[float], actions: list) -> str:
    return str(actions[max(range(len(scores)), key=scores.__getitem__)])


def test_the_weaker_shot_goes_first_where_the_stronger_has_elsewhere_to_shoot(vs):
    """Two figures can shoot X; only the hero can shoot Y too. Greedy shoots with the hero
    (its best odds); the planner opens on X with the troop, keeping the hero for X if
    it survives and for Y if not (Smith's order of the combination)."""
    figures = [
        vs.fig("red", "H", "hero", (10, 10), 90, distance=True),
        vs.fig("red", "W", "troop", (20, 10), 90, distance=True),
        vs.fig("blue", "X", "troop", (15, 16), 270),
        vs.fig("blue", "Y", "troop", (4, 16), 270),
    ]
    game = vs.skip_to(vs.start(figures), "distance", "red")
    state, rules = game.state, game.ruleset
    actions = list(rules.legal_actions(state, "red"))
    texts = [str(a) for a in actions]
    assert "shoot W X" in texts and "shoot H Y" in texts and "shoot W Y" not in texts
    greedy = _best(rules.evaluate(state, "red", actions), actions)
    planned = _best(rules.plan(state, "red", actions), actions)
    assert greedy.startswith("shoot H")
    assert planned == "shoot W X"


def test_a_lead_in_the_last_round_is_kept_rather_than_walked_into_fire(vs):
    """Last round, red ahead on points: greedy moves to attack; the planner ends its
    movement (every figure stays out of the enemy's reach, and the lead wins)."""
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 90, distance=True),
        vs.fig("blue", "B", "hero", (10, 26), 270, distance=True),
    ]
    game = vs.start(figures, rounds=1)
    game.state.scores = {"red": 4.0, "blue": 0.0}
    state, rules = game.state, game.ruleset
    actions = list(rules.legal_actions(state, "red"))
    greedy = _best(rules.evaluate(state, "red", actions), actions)
    planned = _best(rules.plan(state, "red", actions), actions)
    assert greedy.startswith("move")
    assert planned == "end"


def test_the_planner_plays_the_main_scenario_to_the_end():
    for seat, other in (("red", "blue"), ("blue", "red")):
        scenario = Game.start("vsgmr/street", seed=5).scenario
        game = play_game(scenario, 5, {seat: "planner", other: "greedy"})
        assert game.is_over
        assert score_for(game, seat) in (0.0, 0.5, 1.0)


def test_moves_keep_greedys_weights_whoever_attacks_first(vs):
    """Early, level on points: the planner scores moves as greedy does, whichever side
    attacks first this round (weighing the second attacker's exposure up and the first's
    down lost score against greedy in the tuning pairs)."""
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 90, distance=True),
        vs.fig("red", "C", "troop", (16, 4), 90, distance=True),
        vs.fig("blue", "B", "hero", (10, 20), 270, distance=True),
    ]
    for first in ("red", "blue"):
        game = vs.skip_to(vs.start(figures, first=first, rounds=5), "movement", "red")
        state, rules = game.state, game.ruleset
        assert state.order[0] == first
        actions = list(rules.legal_actions(state, "red"))
        assert any(str(a).startswith("move") for a in actions)
        assert rules.plan(state, "red", actions) == rules.evaluate(state, "red", actions)
