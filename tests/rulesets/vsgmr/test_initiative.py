"""II.1 Initiative: every player rolls a die, the highest names who takes the first turn,
ties are rolled again, and play passes to the starting player's left."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

THREE = ("red", "blue", "green")


def _figs(vs, sides=("red", "blue")):
    return [vs.fig(s, f"{s[0].upper()}1", "troop", (4 + 10 * i, 4)) for i, s in enumerate(sides)]


def test_each_player_rolls_one_die_and_the_highest_chooses(vs):
    """II.1: one die per player; the highest roll chooses who goes first."""
    game = vs.new_game(_figs(vs), dice=[2, 5])
    rolls = [e for e in game.events if e.kind == "roll"]
    assert [(e.data["side"], e.data["dice"]) for e in rolls] == [("red", (2,)), ("blue", (5,))]
    assert game.waiting_for() == ("blue",)
    assert game.state.chooser == "blue"


def test_the_winner_may_name_any_player_to_start(vs):
    """II.1: the winner chooses which player takes the first turn (itself or another)."""
    game = vs.new_game(_figs(vs), dice=[6, 1])
    assert [str(a) for a in game.legal_actions("red")] == ["first red", "first blue"]
    game.apply("first blue", "red")
    assert game.state.order == ("blue", "red")
    assert game.state.phase == "movement"
    assert game.waiting_for() == ("blue",)


def test_only_the_winner_chooses(vs):
    """II.1: the loser cannot choose."""
    game = vs.new_game(_figs(vs), dice=[6, 1])
    with pytest.raises(IllegalAction):
        game.apply("first blue", "blue")


def test_ties_are_rolled_again(vs):
    """II.1: reroll ties."""
    game = vs.new_game(_figs(vs), dice=[4, 4, 3, 5])
    assert [e.data["dice"][0] for e in game.events if e.kind == "roll"] == [4, 4, 3, 5]
    assert game.state.chooser == "blue"


def test_only_the_players_tied_for_highest_roll_again(vs):
    """II.1 (ruling): with three players, a lower roll is out; the tied highest reroll."""
    game = vs.new_game(_figs(vs, THREE), dice=[5, 2, 5, 1, 3], sides=THREE)
    rolls = [(e.data["side"], e.data["dice"][0]) for e in game.events if e.kind == "roll"]
    assert rolls == [("red", 5), ("blue", 2), ("green", 5), ("red", 1), ("green", 3)]
    assert game.state.chooser == "green"


def test_play_passes_to_the_starting_players_left(vs):
    """II.1: the person to the starting player's left goes next, and so on around the table.

    Ruling: sides are listed in seating order, so "to the left" is the next one listed.
    """
    game = vs.new_game(_figs(vs, THREE), dice=[6, 1, 1, 6, 1, 1], sides=THREE)
    game.apply("first blue", "red")
    assert game.state.order == ("blue", "green", "red")
    order = []
    for _ in range(3):
        side = vs.acting(game)
        order.append(side)
        game.apply("end", side)
    assert order == ["blue", "green", "red"]
    assert game.state.round == 2  # nothing else to do: the next round's initiative


def test_initiative_is_rolled_again_every_round(vs):
    """II step 6: when the round ends, initiative is rolled again."""
    game = vs.start(_figs(vs))
    vs.next_round(game, rolls=[1, 6], first=None)
    assert game.state.round == 2
    assert game.state.chooser == "blue"
    game.apply("first red", "blue")
    assert vs.acting(game) == "red"
