"""The planner's VSGMR scores (``Ruleset.plan``, vsgmr/plan.py): positions where it makes
the scenario's choice greedy does not, and a whole game of the main scenario."""

from __future__ import annotations

import math

from warbench.core.game import Game
from warbench.rulesets.vsgmr.actions import Move
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


def test_moving_first_the_planner_scores_moves_as_greedy(vs):
    """Early, level on points, red moving first: nobody has moved, so the planner's
    moves score as greedy's."""
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 90, distance=True),
        vs.fig("red", "C", "troop", (16, 4), 90, distance=True),
        vs.fig("blue", "B", "hero", (10, 20), 270, distance=True),
    ]
    game = vs.skip_to(vs.start(figures, first="red", rounds=5), "movement", "red")
    state, rules = game.state, game.ruleset
    actions = list(rules.legal_actions(state, "red"))
    assert any(isinstance(a, Move) for a in actions)
    assert rules.plan(state, "red", actions) == rules.evaluate(state, "red", actions)


def _moves_of(game, fid: str):
    state, rules = game.state, game.ruleset
    actions = list(rules.legal_actions(state, "red"))
    greedy = rules.evaluate(state, "red", actions)
    planned = rules.plan(state, "red", actions)
    return [
        (a, g, p)
        for a, g, p in zip(actions, greedy, planned, strict=True)
        if isinstance(a, Move) and a.figure == fid and a.path
    ]


def _gap(game, move: Move, fid: str) -> float:
    end = move.path[-1]
    return math.dist(end, game.state.figs[fid].geo.at) - 1.0  # two 1" bases


def test_moving_second_an_enemy_facing_away_threatens_nothing_this_round(vs):
    """Blue moved first and B faces away from red (II.2: it may not turn again this
    round). Greedy counts B's shot at every place in its range, as if it could still turn;
    the planner knows it cannot shoot behind its front arc, so every move toward it
    scores higher than greedy's."""
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 18), 90, distance=True),
    ]
    game = vs.skip_to(vs.start(figures, first="blue", rounds=5), "movement", "red")
    moves = _moves_of(game, "A")
    near = [(a, g, p) for a, g, p in moves if _gap(game, a, "B") <= 12.0]
    assert near
    for _, greedy, planned in near:
        assert planned > greedy + 0.05


def test_moving_second_a_place_in_the_sights_of_an_enemy_that_shoots_first_is_worth_less(vs):
    """Blue moved first and B faces red: B attacks first this round (II.3). From a place
    in B's range red's A could shoot B, but only if it survives B's shot, so the planner
    scores it below greedy."""
    figures = [
        vs.fig("red", "A", "troop", (10, 2), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 19), 270, distance=True),
    ]
    game = vs.skip_to(vs.start(figures, first="blue", rounds=5), "movement", "red")
    in_sights = [(g, p) for a, g, p in _moves_of(game, "A") if _gap(game, a, "B") <= 12.0]
    assert in_sights
    assert all(p < g - 0.1 for g, p in in_sights)


def test_the_first_turn_is_given_away_when_no_attack_can_reach_this_round(vs):
    """Red won the initiative. 32" apart, no attack can reach this round whoever moves
    first, so the planner lets blue move first and moves after it has seen blue's
    moves; 18" apart it takes the first turn, as greedy always does (its attacks come
    first)."""
    for blue_y, wanted in ((34, "first blue"), (20, "first red")):
        figures = [
            vs.fig("red", "A", "troop", (10, 2), 90, distance=True),
            vs.fig("blue", "B", "troop", (10, blue_y), 270, distance=True),
        ]
        game = vs.new_game(figures, [6, 1])
        state, rules = game.state, game.ruleset
        actions = list(rules.legal_actions(state, "red"))
        assert _best(rules.evaluate(state, "red", actions), actions) == "first red"
        assert _best(rules.plan(state, "red", actions), actions) == wanted


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
