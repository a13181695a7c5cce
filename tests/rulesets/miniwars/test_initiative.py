"""INITIATIVE: each side rolls a die; the higher chooses to be player A or B.

Red is listed first, so red's die is rolled first, then blue's.
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

UNITS = [("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")]


def test_each_side_rolls_one_die_in_the_order_the_sides_are_listed(mw):
    """INITIATIVE / DICE: one six-sided die per player."""
    game = mw.new_game(UNITS, [2, 5])
    rolls = mw.events(game, "roll")
    assert [(e.data["side"], e.data["dice"]) for e in rolls] == [("red", (2,)), ("blue", (5,))]
    assert game.state.rolls == {"red": 2, "blue": 5}


@pytest.mark.parametrize(("dice", "chooser"), [((6, 1), "red"), ((2, 5), "blue")])
def test_higher_roll_chooses_a_or_b(mw, dice, chooser):
    """INITIATIVE: the player with the higher roll chooses to be "A" or "B"."""
    game = mw.new_game(UNITS, dice)
    other = "blue" if chooser == "red" else "red"
    assert game.state.step == "choose"
    assert [str(a) for a in game.legal_actions(chooser)] == ["choose A", "choose B"]
    assert game.legal_actions(other) == []


@pytest.mark.parametrize("role", ["A", "B"])
def test_the_winner_may_take_either_role(mw, role):
    """INITIATIVE: the choice is the winner's; the loser takes the other role."""
    game = mw.new_game(UNITS, [6, 1])
    game.apply(f"choose {role}", "red")
    other = "B" if role == "A" else "A"
    assert game.state.roles == {role: "red", other: "blue"}


def test_the_loser_cannot_choose(mw):
    """INITIATIVE: only the player who won the roll chooses."""
    game = mw.new_game(UNITS, [6, 1])
    with pytest.raises(IllegalAction):
        game.apply("choose A", "blue")


def test_tie_gives_the_choice_to_the_loser_of_the_previous_roll(mw):
    """INITIATIVE: a tied roll lets the loser of the last initiative roll choose."""
    game = mw.new_game(UNITS, [6, 1])
    game.apply("choose A", "red")
    mw.next_turn(game, (4, 4), choose=None)
    assert game.state.chooser == "blue"


def test_ties_after_a_tie_alternate(mw):
    """INITIATIVE (ruling): the side that did not get the choice on a tie counts as the
    loser of that roll, so a second tie goes back to the other side."""
    game = mw.new_game(UNITS, [6, 1])
    game.apply("choose A", "red")
    mw.next_turn(game, (4, 4))  # blue lost turn 1: blue chooses
    mw.next_turn(game, (3, 3), choose=None)
    assert game.state.chooser == "red"


def test_tie_follows_the_most_recent_loser(mw):
    """INITIATIVE: it is the previous roll's loser, not the first one's, who chooses."""
    game = mw.new_game(UNITS, [6, 1])
    game.apply("choose A", "red")
    mw.next_turn(game, (1, 6))  # red loses turn 2
    mw.next_turn(game, (5, 5), choose=None)
    assert game.state.chooser == "red"


def test_first_turn_tie_is_rolled_again(mw):
    """INITIATIVE (ruling, option first_initiative_tie = reroll, the default): on turn 1
    nobody has lost a roll yet, so a tie is rolled again."""
    game = mw.new_game(UNITS, [3, 3, 2, 2, 2, 4])
    assert game.state.chooser == "blue"
    assert game.state.rolls == {"red": 2, "blue": 4}
    assert len([e for e in mw.events(game, "initiative") if "roll again" in e.text]) == 2


def test_first_turn_tie_may_go_to_the_first_side_listed(mw):
    """INITIATIVE (option first_initiative_tie = first_side): no re-roll; the first side
    listed in the scenario chooses."""
    game = mw.new_game(UNITS, [3, 3], options={"first_initiative_tie": "first_side"})
    assert game.state.chooser == "red"


def test_missile_fire_markers_are_removed_at_the_end_of_the_initiative_phase(mw):
    """INITIATIVE: at the end of the phase all missile fire markers come off."""
    units = [("red", "R", "bowA", "0501"), ("blue", "B", "foot", "0503")]
    game = mw.new_game(units, [6, 1, 1])
    game.apply("choose A", "red")
    game.apply("fire R B", "red")  # a 1: misses
    assert game.state.units["R"].fired is True
    mw.next_turn(game, (6, 1), choose=None)
    assert game.state.step == "choose"
    assert game.state.units["R"].fired is True  # still on during the phase ...
    game.apply("choose A", "red")
    assert game.state.units["R"].fired is False  # ... and off at its end
    assert "fire R B" in [str(a) for a in game.legal_actions("red")]
