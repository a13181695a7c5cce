"""Victory: the army with the last unit on the board wins (SAMPLE GAME); the turn limit
and its [victory] at_turn_limit rule are our ruling (the text has no turn limit)."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction


def test_the_army_with_the_last_unit_on_the_board_wins(mw):
    """SAMPLE GAME: the winner has the last unit on the board; the game ends at once."""
    game = mw.started_game([("red", "R", "bowA", "0501"), ("blue", "T", "foot", "0502")], dice=[6])
    mw.disrupt(game, "T")
    game.apply("fire R T", "red")
    assert game.is_over
    assert game.outcome.winner == "red"
    assert game.outcome.reason == "last army on the board"
    assert game.legal_actions("red") == [] and game.legal_actions("blue") == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("end", "red")


def test_the_game_goes_on_while_both_armies_have_units(mw):
    """SAMPLE GAME: losing units is not losing the game."""
    game = mw.started_game(
        [
            ("red", "R", "bowA", "0501"),
            ("blue", "T", "foot", "0502"),
            ("blue", "U", "foot", "1010"),
        ],
        dice=[6],
    )
    mw.disrupt(game, "T")
    game.apply("fire R T", "red")
    assert not game.is_over


def _limit_game(mw, at_turn_limit=None, kill="dear", turn_limit=1, dice=(6,)):
    units = [
        ("red", "R", "bowA", "0501"),
        ("red", "RC", "dear", "0301"),
        ("blue", "T", kill, "0502"),
        ("blue", "U", "foot", "1010"),
    ]
    victory = {"at_turn_limit": at_turn_limit} if at_turn_limit else None
    game = mw.started_game(units, dice=list(dice), turn_limit=turn_limit, victory=victory)
    mw.disrupt(game, "T")
    return game


def _play_out(mw, game):
    for _ in range(20):
        if game.is_over:
            return game
        word = "pass" if game.state.step in ("attack", "advance") else "end"
        game.apply(word, mw.acting(game))
    raise AssertionError("the game did not end")


def test_at_the_turn_limit_more_enemy_cost_destroyed_wins_by_default(mw):
    """Ruling, [victory] at_turn_limit = "points" (default): the side that destroyed more
    enemy cost wins when the last turn ends."""
    game = _limit_game(mw)
    game.apply("fire R T", "red")
    assert not game.is_over
    _play_out(mw, game)
    assert game.state.turn == 1
    assert game.outcome.winner == "red"
    assert game.outcome.scores == {"red": 50.0, "blue": 0.0}


def test_at_the_turn_limit_equal_losses_are_a_draw(mw):
    """Ruling, at_turn_limit = "points": equal cost destroyed is a draw."""
    game = _limit_game(mw, dice=(1,))
    game.apply("fire R T", "red")  # misses
    _play_out(mw, game)
    assert game.outcome.winner is None
    assert "equal" in game.outcome.reason


def test_at_the_turn_limit_draw_rule_ignores_losses(mw):
    """Ruling, at_turn_limit = "draw": the game is drawn whatever was destroyed."""
    game = _limit_game(mw, "draw")
    game.apply("fire R T", "red")
    _play_out(mw, game)
    assert game.outcome.winner is None


def test_at_the_turn_limit_a_named_side_may_hold_and_win(mw):
    """Ruling, at_turn_limit = <side>: that side wins if the game reaches the limit."""
    game = _limit_game(mw, "blue")
    game.apply("fire R T", "red")
    _play_out(mw, game)
    assert game.outcome.winner == "blue"


def test_the_game_lasts_until_the_end_of_the_last_turn(mw):
    """Ruling: the turn limit ends the game after the Morale phase of the last turn."""
    game = _limit_game(mw, turn_limit=2)
    game.apply("fire R T", "red")
    mw.next_turn(game)
    assert game.state.turn == 2 and not game.is_over
    _play_out(mw, game)
    assert game.state.turn == 2
    assert game.outcome.winner == "red"
