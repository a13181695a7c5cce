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


def test_a_kill_that_ends_the_game_for_another_side_is_left_alone(vs):
    """Three sides: blue's hero X is its last figure, so killing it ends the game (II),
    won on points. Green leads 5 to 0: greedy shoots X (the better prize), which would
    hand green the game; the planner shoots green's Y. With red ahead 5 to 0 the same
    kill wins the game, and the planner takes it."""
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("red", "B", "troop", (30, 4), 270, distance=True),
        vs.fig("blue", "X", "hero", (8, 18), 270),
        vs.fig("green", "Y", "troop", (14, 18), 270),
        vs.fig("green", "Z", "troop", (20, 30), 270),
    ]
    sides = ("red", "blue", "green")
    for leader, wanted in (("green", "shoot A Y"), ("red", "shoot A X")):
        game = vs.skip_to(vs.start(figures, sides=sides), "distance", "red")
        game.state.scores = {"red": 0.0, "blue": 0.0, "green": 0.0, leader: 5.0}
        state, rules = game.state, game.ruleset
        actions = list(rules.legal_actions(state, "red"))
        texts = [str(a) for a in actions]
        assert "shoot A X" in texts and "shoot A Y" in texts
        assert _best(rules.evaluate(state, "red", actions), actions) == "shoot A X"
        assert _best(rules.plan(state, "red", actions), actions) == wanted


def test_a_figure_carrying_an_item_is_the_target(vs):
    """Blue's hero C and troop D are both in red's sights; D carries the relic (6 points,
    scored if carried off). Greedy shoots the hero (the better prize by points); the
    planner shoots the carrier (the relic drops where it falls)."""
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("red", "B", "troop", (30, 4), 270, distance=True),
        vs.fig("blue", "C", "hero", (8, 18), 270),
        vs.fig("blue", "D", "troop", (13, 18), 270),
    ]
    items = [{"id": "relic", "at": [13, 18], "points": 6}]
    game = vs.skip_to(vs.start(figures, items=items), "distance", "red")
    state, rules = game.state, game.ruleset
    relic = state.items["relic"]
    relic.carrier, relic.at = "D", None
    state.figs["D"].items = ["relic"]
    state.changed()
    actions = list(rules.legal_actions(state, "red"))
    texts = [str(a) for a in actions]
    assert "shoot A C" in texts and "shoot A D" in texts
    assert _best(rules.evaluate(state, "red", actions), actions) == "shoot A C"
    assert _best(rules.plan(state, "red", actions), actions) == "shoot A D"
