"""Victory: the side that keeps the final unit on the map wins (SAMPLE GAME); the turn
limit and its [victory] at_turn_limit rule are our ruling (the text has no turn limit)."""

from __future__ import annotations

import pytest

from warbench.core.loader import load_scenario, scenario_from_dict
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


@pytest.mark.parametrize("rule", [None, "units"])
def test_at_the_turn_limit_more_units_on_the_board_wins_by_default(mw, rule):
    """Ruling 11, [victory] at_turn_limit = "units" (default): the text's winner is the
    last army on the board (SAMPLE GAME), so at the limit the side with more units
    left on the board wins, whatever their cost."""
    game = _limit_game(mw, rule, kill="cheap")
    game.apply("fire R T", "red")  # a disrupted T is hit again: removed
    assert not game.is_over
    _play_out(mw, game)
    assert game.state.turn == 1
    assert game.outcome.winner == "red"  # 2 units against 1
    assert game.outcome.reason == "turn limit: more units on the board"
    assert game.outcome.scores == {"red": 5.0, "blue": 0.0}


@pytest.mark.parametrize(("rule", "winner"), [("units", "blue"), ("points", "red")])
def test_at_the_turn_limit_units_and_points_can_disagree(mw, rule, winner):
    """Ruling 11: red destroys blue's costly T (50) and loses nothing, yet blue keeps
    three units on the board to red's two. "units" (default) gives blue the game, as
    the army more likely to be the last on the board; "points" gives it to red."""
    units = [
        ("red", "R", "bowA", "0501"),
        ("red", "RC", "cheap", "0301"),
        ("blue", "T", "dear", "0502"),
        ("blue", "U", "foot", "1010"),
        ("blue", "V", "foot", "1009"),
        ("blue", "W", "foot", "1008"),
    ]
    game = mw.started_game(units, dice=[6], turn_limit=1, victory={"at_turn_limit": rule})
    mw.disrupt(game, "T")
    game.apply("fire R T", "red")  # hit on a disrupted unit: removed
    assert game.state.lost_cost == {"red": 0, "blue": 50}
    _play_out(mw, game)
    assert game.outcome.winner == winner
    assert game.outcome.scores == {"red": 50.0, "blue": 0.0}


def test_at_the_turn_limit_equal_units_on_the_board_are_a_draw(mw):
    """Ruling 11, "units": as many units on each side is a draw."""
    game = _limit_game(mw, dice=(1,))
    game.apply("fire R T", "red")  # misses: two against two
    _play_out(mw, game)
    assert game.outcome.winner is None
    assert game.outcome.reason == "turn limit: equal units on the board"


def test_at_the_turn_limit_points_option_more_enemy_cost_destroyed_wins(mw):
    """Option at_turn_limit = "points" (ruling 11's earlier default): the side that
    destroyed more enemy cost wins when the last turn ends."""
    game = _limit_game(mw, "points")
    game.apply("fire R T", "red")
    assert not game.is_over
    _play_out(mw, game)
    assert game.state.turn == 1
    assert game.outcome.winner == "red"
    assert game.outcome.scores == {"red": 50.0, "blue": 0.0}


def test_at_the_turn_limit_points_option_equal_losses_are_a_draw(mw):
    """Option at_turn_limit = "points": equal cost destroyed is a draw."""
    game = _limit_game(mw, "points", dice=(1,))
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


def test_the_turn_limit_is_a_safeguard_of_fifty_turns_by_default(mw):
    """Ruling 11: the text has no turn limit; a scenario that sets none gets 50 turns
    and the "units" reading (Danville too), so the limit rarely decides a game."""
    raw = mw.scenario_dict([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")])
    del raw["turn_limit"]
    raw.pop("victory", None)
    setup = scenario_from_dict(raw, "test", "test").spec
    assert (setup.turn_limit, setup.at_turn_limit) == (50, "units")
    danville = load_scenario("miniwars/danville").spec
    assert (danville.turn_limit, danville.at_turn_limit) == (50, "units")
