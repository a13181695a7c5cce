"""2.0 Network Command and 1.6 phase 7 in play: network combat, purchases, Type 2, the reset."""

from __future__ import annotations

from typing import Any

TEXT_A = (6, 6, 5, 4, 4, 3, 1, 1)
TEXT_B = (6, 5, 5, 5, 3, 2, 2)
"""The dice of the 2.0 worked example: A with eight, B with seven."""


def forces(ie: Any) -> list[Any]:
    return [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("blue", "U2", ie.base("B2", "J90", (4, 6))),
        ie.unit("red", "V1", ie.base("R1", "K817", (20, 12), 180)),
    ]


def opened(ie: Any, dice: tuple[int, ...] = (), **kw: Any) -> Any:
    """A game whose network combat is the text's example (blue 4 points, red 2)."""
    return ie.new_game(forces(ie), [*TEXT_A, *TEXT_B, *dice], network=(8, 7), **kw)


def test_the_worked_example_of_2_0_gives_a_4_points_and_b_2(ie: Any) -> None:
    game = opened(ie)
    state = game.state
    assert (state.networks["blue"].points, state.networks["red"].points) == (4, 2)
    assert "blue 4 action points, red 2" in ie.last(game, "network").text
    # 2.0: the side with more points declares its purchases first
    assert state.step == "buy" and game.decision.sides == ("blue",)


def test_disqualified_dice_stay_in_the_pool(ie: Any) -> None:
    game = opened(ie)
    assert game.state.networks["blue"].dice == 8
    assert game.state.networks["red"].dice == 7


def test_purchases_take_effect_and_cost_their_points(ie: Any) -> None:
    game = opened(ie)
    ie.act(game, "blue", "buy auto=U1 type1")
    state = game.state
    assert state.units["U1"].auto_turn == 1
    assert state.networks["blue"].type1 == 1
    assert state.networks["blue"].spent == 3
    assert game.decision.sides == ("red",)
    ie.act(game, "red", "buy deflect", *ie.QUIET)
    assert state.networks["red"].deflections == 1
    # 2.0 c): the Type 2 acquisition follows the purchases; then phase 2 for blue's Type 1
    assert ie.events(game, "type2")
    assert state.step == "mark1" and game.decision.sides == ("blue",)


def test_a_purchase_beyond_the_points_is_refused_and_changes_nothing(ie: Any) -> None:
    game = opened(ie)
    before = game.state.to_json()
    assert "costs 5 action points; you have 4" in ie.refused(game, "buy suppress50", "blue")
    assert "automatic move marker" in ie.refused(game, "buy auto=U1 auto=U1", "blue")
    assert "is not one of your units" in ie.refused(game, "buy auto=V1", "blue")
    assert game.state.to_json() == before


def test_suppression_lowers_the_enemy_status_and_stops_at_25_percent(ie: Any) -> None:
    game = ie.new_game(forces(ie), [6] * 12 + [1] * 3, network=(12, 3))
    # blue: twelve 6s; red's three 1s: three pairs lost by red, nine blue dice unopposed
    assert game.state.networks["blue"].points == 12
    ie.act(game, "blue", "buy suppress75 suppress25", *ie.QUIET, *ie.WIN["blue"])
    assert game.state.networks["red"].status == 25
    assert "network status 25%" in ie.last(game, "purchase").text


def test_an_enemy_network_die_is_lost_for_the_game_not_this_turn(ie: Any) -> None:
    game = opened(ie)
    ie.act(game, "blue", "buy die")
    assert game.state.networks["red"].dice == 6
    assert game.state.networks["red"].points == 2  # 2.0: this turn's points stand


def test_unspent_points_are_lost(ie: Any) -> None:
    game = opened(ie)
    ie.act(game, "blue", "buy none")
    ie.act(game, "red", "buy none", *ie.QUIET, *ie.WIN["blue"])
    assert "the rest is lost" in ie.last(game, "purchase").text
    assert game.state.step != "buy"


def test_type2_acquisition_one_marker_per_six(ie: Any) -> None:
    # blue rolls 3 dice: 6 5 6 -> two markers; red 1 die: a 5 -> none
    game = ie.new_game(forces(ie), [3, 6, 5, 6, 1, 5, *ie.WIN["blue"]])
    assert game.state.networks["blue"].type2 == 2
    assert game.state.networks["red"].type2 == 0


def test_vector_superiority_takes_fives_too(ie: Any) -> None:
    sides = [
        {"name": "blue", "nation": "california", "network_dice": 0, "vector_superiority": True},
        {"name": "red", "nation": "australia", "network_dice": 0},
    ]
    game = ie.new_game(forces(ie), [3, 6, 5, 6, 1, 5, *ie.WIN["blue"]], sides=sides)
    assert game.state.networks["blue"].type2 == 3
    assert game.state.networks["red"].type2 == 0


def test_type2_markers_are_kept_across_turns_type1_are_not(ie: Any) -> None:
    game = opened(ie)
    ie.act(game, "blue", "buy type1 type1")
    # red buys nothing; Type 2: blue gets one marker (1 die, a 6), red none
    ie.act(game, "red", "buy none", 1, 6, 1, 1)
    state = game.state
    assert state.step == "mark1" and state.networks["blue"].type1 == 2
    # blue places one Type 1 and keeps the rest back; the unplaced Type 1 is lost at initiative
    ie.act(game, "blue", "barrage 20,12")
    ie.act(game, "blue", "done", *ie.WIN["blue"])
    assert state.networks["blue"].type1 == 0
    assert "loses 1 unplaced Type 1" in ie.last(game, "lost").text
    assert state.networks["blue"].type2 == 1


def test_the_reset_restores_status_and_costs_each_side_a_die(ie: Any) -> None:
    game = ie.new_game(forces(ie), [6] * 12 + [1] * 3, network=(12, 3), tail=True)
    ie.act(game, "blue", "buy suppress75", *ie.QUIET, *ie.WIN["blue"])
    state = game.state
    assert state.networks["red"].status == 25
    while state.turn == 1 and game.decision is not None:
        side = game.decision.sides[0]
        ie.act(game, side, "done" if state.step != "activate" else "pass")
    assert state.turn == 2
    assert ie.events(game, "reset")
    assert state.networks["red"].dice == 2 and state.networks["blue"].dice == 11
    assert state.networks["red"].status == 100 or state.step == "buy"


def test_on_equal_points_both_sides_write_their_purchases_sealed(ie: Any) -> None:
    """2.0 orders purchases by the larger total; on equal points neither is larger, so both
    write at once (ruling 5): neither sees the other's before its own is in."""
    # blue 6 3 against red 5 4: 6 beats 5, 4 beats 3: one point each
    game = ie.new_game(forces(ie), [6, 3, 5, 4], network=(2, 2))
    assert game.state.networks["blue"].points == game.state.networks["red"].points == 1
    assert game.decision.kind.value == "sealed" and set(game.decision.sides) == {"blue", "red"}
    game.apply("buy auto=U1", "blue")
    assert "auto" not in ie.texts(game) and game.state.units["U1"].auto_turn == 0
    assert "my_sealed_choice" not in game.view("red")
    ie.act(game, "red", "buy auto=V1", *ie.QUIET, *ie.WIN["blue"])
    assert game.state.units["U1"].auto_turn == 1 and game.state.units["V1"].auto_turn == 1
    assert len(ie.events(game, "purchase")) == 2
