"""SEQUENCE OF PLAY and UNIT ACTIONS: the six steps of a turn, in order.

1) Initiative 2) A missile fire 3) B missile fire 4) B movement/combat
5) A movement/combat 6) morale.
"""

from __future__ import annotations

import pytest

from warbench.core.dice import ScriptedDice
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction


def _phases(game) -> list[tuple[str, str | None]]:
    return [(e.data["phase"], e.data["side"]) for e in game.events if e.kind == "phase"]


def test_a_turn_runs_the_six_steps_in_order(mw):
    """SEQUENCE OF PLAY: initiative, A fires, B fires, B moves, A moves, morale."""
    units = [
        ("red", "R", "bowA", "0501"),
        ("red", "L", "chief", "0301"),
        ("blue", "B", "bowA", "0504"),
    ]
    # Blue wins the initiative and chooses B: red is A.
    game = mw.new_game(units, [1, 6, 1, 1, 6, 1])
    game.apply("choose B", "blue")
    mw.disrupt(game, "L")  # so that red has a rally to try
    assert (game.state.phase_name, mw.acting(game)) == ("missile_a", "red")
    game.apply("fire R B", "red")  # R was red's only shot: the phase ends by itself
    assert (game.state.phase_name, mw.acting(game)) == ("missile_b", "blue")
    game.apply("fire B R", "blue")
    assert (game.state.phase_name, mw.acting(game)) == ("move_b", "blue")
    game.apply("end", "blue")
    assert (game.state.phase_name, mw.acting(game)) == ("move_a", "red")
    game.apply("end", "red")
    assert (game.state.phase_name, mw.acting(game)) == ("morale", "red")
    game.apply("end", "red")
    assert game.state.turn == 2
    assert game.state.phase_name == "initiative"
    assert _phases(game) == [
        ("missile_a", "red"),
        ("missile_b", "blue"),
        ("move_b", "blue"),
        ("move_a", "red"),
        ("morale", "red"),
        ("initiative", None),
    ]


def test_the_phase_list_is_data_the_engine_walks(mw):
    """SEQUENCE OF PLAY: the six phases, in the text's order, from data/rules.toml."""
    game = mw.started_game([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")])
    phases = game.state.setup.board.charts.phases
    assert phases == ("initiative", "missile_a", "missile_b", "move_b", "move_a", "morale")


def test_a_phase_with_nothing_to_do_is_skipped(mw):
    """SEQUENCE OF PLAY (ruling): a phase in which no action is possible passes by itself
    (no missile units: straight from the initiative to B's movement)."""
    game = mw.started_game([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")])
    assert game.state.phase_name == "move_b"
    assert [p for p, _ in _phases(game)] == ["missile_a", "missile_b", "move_b"]


def test_morale_without_a_possible_rally_is_skipped_into_the_next_turn(mw):
    """SEQUENCE OF PLAY: no disrupted unit, no rally: the next turn's initiative follows."""
    game = mw.started_game(
        [("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")], dice=[3, 4]
    )
    mw.skip_to(game, "move_a")
    game.apply("end", "red")
    assert game.state.turn == 2
    assert game.state.step == "choose"
    assert game.state.chooser == "blue"


def test_movement_phases_always_ask_even_if_a_side_has_no_move(mw):
    """SEQUENCE OF PLAY: a Movement/Combat phase is a decision (``end`` is always legal)."""
    game = mw.started_game([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")])
    assert [str(a) for a in game.legal_actions("blue")][-1] == "end"


def test_player_b_moves_before_player_a(mw):
    """SEQUENCE OF PLAY: B's Movement/Combat (step 4) comes before A's (step 5)."""
    game = mw.started_game([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")])
    with pytest.raises(IllegalAction):
        game.apply("move R 0102", "red")
    game.apply("move B 1009", "blue")
    game.apply("end", "blue")
    game.apply("move R 0102", "red")
    assert game.state.phase_name == "move_a"


def test_the_three_unit_actions_are_fire_move_and_melee(mw):
    """UNIT ACTIONS: missile fire, movement and melee combat (plus the choices around them)."""
    usage = mw.started_game(
        [("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")]
    ).ruleset.usage()
    assert {"fire", "move", "attack"} <= set(usage)


def test_all_dice_are_six_sided(mw):
    """DICE: every die is a d6 (a scripted 7 does not fit)."""
    with pytest.raises(ValueError, match="d6"):
        mw.new_game([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")], [7, 1])
    raw = mw.scenario_dict([("red", "R", "foot", "0101"), ("blue", "B", "foot", "1010")])
    game = Game(scenario_from_dict(raw, "test", "test"), seed=11)
    assert all(1 <= d <= 6 for e in mw.events(game, "roll") for d in e.data["dice"])
    assert not isinstance(game.dice, ScriptedDice)
