"""II: the round (initiative, movement, distance attacks, hand to hand, skill rolls), the end
of the game after 5 rounds or when a side is gone, the winner by points, and the optional
rule Everyone Acts."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction


def _duel(vs, **kw):
    """Two gunmen 10" apart facing each other, and a radio task beside red's."""
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 21), 270, distance=True),
    ]
    tasks = [{"id": "radio", "at": [11.5, 10], "reach": 1.0, "effect": "points", "points": 1}]
    return vs.start(figures, tasks=tasks, **kw)


def test_a_round_walks_the_steps_in_order(vs):
    """II: initiative, movement, distance attacks, hand to hand attacks, skill rolls."""
    game = _duel(vs)
    seen = []
    for _ in range(20):
        if game.state.round != 1:
            break
        phase = game.state.phase
        if not seen or seen[-1] != phase:
            seen.append(phase)
        game.dice.extend([6, 1])
        game.apply("end", vs.acting(game))
    assert seen == ["movement", "distance", "skill"]  # nobody touches: hand to hand passes
    assert game.state.round == 2
    titles = game.state.setup.rules.phases
    assert titles == ("initiative", "movement", "distance", "hand", "skill")


def test_each_step_goes_round_the_players_in_play_order(vs):
    """II steps 2-5: the first player does the step, then the next player, and so on."""
    game = _duel(vs, first="blue")
    assert vs.acting(game) == "blue"
    game.apply("end", "blue")
    assert vs.acting(game) == "red"
    game.apply("end", "red")
    assert game.state.phase == "distance"
    assert vs.acting(game) == "blue"


def test_a_player_may_do_nothing_in_a_step(vs):
    """II steps 2-5: a player moves "none, some or all" and attacks "if he wishes"."""
    game = _duel(vs)
    game.apply("end", "red")
    assert game.state.phase == "movement" and vs.acting(game) == "blue"


def test_a_step_with_nothing_to_do_passes_by_itself(vs):
    """II (ruling): a player who could do nothing in a step is passed over."""
    game = _duel(vs)
    vs.skip_to(game, "skill")
    assert any(e.kind == "pass" and e.data["side"] == "red" for e in game.events)
    assert vs.acting(game) == "red"  # red's A can reach the radio: asked


def test_actions_of_another_step_are_refused(vs):
    """II: each kind of action belongs to its own step of the round."""
    game = _duel(vs)
    with pytest.raises(IllegalAction, match="not an action of the movement"):
        game.apply("shoot A B", "red")
    with pytest.raises(IllegalAction):
        game.apply("first red", "red")


def test_the_game_ends_after_five_rounds(vs):
    """II: when 5 rounds are finished the game ends."""
    game = _duel(vs)
    for _ in range(4):
        vs.next_round(game)
    assert game.state.round == 5
    while not game.is_over:
        game.apply("end", vs.acting(game))
    assert game.outcome.reason.startswith("5 rounds finished")
    assert game.outcome.winner is None  # nothing destroyed: a draw
    assert game.legal_actions("red") == []


def test_the_game_ends_when_a_sides_figures_are_all_destroyed(vs):
    """II: the game is over once every figure on one side has been destroyed."""
    game = _duel(vs, dice=[5])  # A hits B (5+), no armour
    vs.skip_to(game, "distance")
    game.apply("shoot A B", "red")
    assert game.is_over
    assert game.outcome.winner == "red"
    assert "blue has no figure left" in game.outcome.reason
    assert game.outcome.scores == {"red": 2.0, "blue": 0.0}


def test_the_winner_destroyed_the_most_points_of_opponents_figures(vs):
    """II: the player who destroyed the most points of opponents' figures wins."""
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("red", "A2", "troop", (30, 30), 90),
        vs.fig("blue", "B", "hero", (10, 21), 270, points=7),
        vs.fig("blue", "B2", "troop", (30, 2), 90),
    ]
    game = vs.start(figures, dice=[5], rounds=1)
    vs.skip_to(game, "distance")
    game.apply("shoot A B", "red")
    while not game.is_over:
        game.apply("end", vs.acting(game))
    assert game.outcome.winner == "red"
    assert game.outcome.scores == {"red": 7.0, "blue": 0.0}


def test_with_three_players_each_scores_what_it_destroyed(vs):
    """II: "add all opponents' figures together": each player's own kills, of any opponent."""
    sides = ("red", "blue", "green")
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 21), 270),
        vs.fig("blue", "B2", "troop", (30, 30), 270),
        vs.fig("green", "C", "troop", (4, 30), 270),
    ]
    game = vs.start(figures, dice=[6], sides=sides, rounds=1)
    vs.skip_to(game, "distance")
    game.apply("shoot A B", "red")
    while not game.is_over:
        game.apply("end", vs.acting(game))
    assert game.outcome.scores == {"red": 1.0, "blue": 0.0, "green": 0.0}
    assert game.outcome.winner == "red"


# -- OPTIONAL RULE (Everyone Acts) ----------------------------------------------------------


def _crowd(vs, **kw):
    figures = [
        vs.fig("red", "A1", "troop", (4, 4), 90),
        vs.fig("red", "A2", "troop", (6, 4), 90),
        vs.fig("blue", "B1", "troop", (4, 30), 270),
        vs.fig("blue", "B2", "troop", (6, 30), 270),
    ]
    return vs.start(figures, options={"everyone_acts": True}, **kw)


def test_everyone_acts_players_move_one_figure_in_turn(vs):
    """II OPTIONAL RULE (Everyone Acts): the first player moves just one figure, then the next
    player moves one, and so on."""
    game = _crowd(vs)
    game.apply("move A1 4,6", "red")
    assert vs.acting(game) == "blue"
    game.apply("move B1 4,28", "blue")
    assert vs.acting(game) == "red"
    game.apply("move A2 6,6", "red")
    assert vs.acting(game) == "blue"


def test_everyone_acts_a_player_who_ends_is_done_and_the_others_carry_on(vs):
    """II OPTIONAL RULE (Everyone Acts), ruling: ``end`` finishes a player's part of the step;
    the others go on in turn until all are done."""
    game = _crowd(vs, dice=[6, 1])
    game.apply("end", "red")
    game.apply("move B1 4,28", "blue")
    assert vs.acting(game) == "blue"
    game.apply("move B2 6,28", "blue")
    assert game.state.phase != "movement"  # blue has nothing left to move: the step ends


def test_without_everyone_acts_a_player_moves_all_he_wishes_first(vs):
    """II step 2: without the option the first player moves none, some or all, then the next."""
    figures = [
        vs.fig("red", "A1", "troop", (4, 4), 90),
        vs.fig("red", "A2", "troop", (6, 4), 90),
        vs.fig("blue", "B1", "troop", (4, 30), 270),
    ]
    game = vs.start(figures, dice=[6, 1])
    game.apply("move A1 4,6", "red")
    assert vs.acting(game) == "red"
    game.apply("move A2 6,6", "red")
    assert vs.acting(game) == "blue"  # red has nothing left to move


def test_a_side_whose_last_figure_leaves_the_table_is_gone_too(vs):
    """II.2 + II (ruling): figures off the table cannot return, so a side with none left on
    it is gone and the game ends."""
    figures = [vs.fig("red", "A", "troop", (2, 10), 180), vs.fig("blue", "B", "troop", (30, 30))]
    game = vs.start(figures)
    game.apply("move A -1,10", "red")
    assert game.is_over
    assert "red has no figure left on the table" in game.outcome.reason
