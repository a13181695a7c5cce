"""1.5 Set-up and 1.6 Turn Sequence through the engine: the X, Y and Z rolls, the F action,
the reset of the markers, the turn limit and each kind of victory (the introduction's
missions: clear the field, run the gauntlet, a surgical strike)."""

from __future__ import annotations

import pytest

from warbench.rulesets.mgv.actions import Phase


def _pair(mgv, blue="L35", red="L35"):
    """One base a side, 16" apart, facing each other, kinetic armed."""
    return [
        mgv.base("blue", "B1", blue, (4, 12), 0),
        mgv.base("red", "R1", red, (20, 12), 180),
    ]


def _pass_phase(mgv, game, side):
    """The side whose phase it is does nothing in it (no dice are needed)."""
    step = game.state.step
    if step == "choose":
        game.apply("phase move", side)
        step = game.state.step
    if step == "move":
        game.apply("end", side)
    elif step == "declare":
        game.apply("fire none", side)
    else:
        raise AssertionError(f"unexpected step {step}")


# -- 1.6: the X, Y and Z rolls -----------------------------------------------------------------
def test_1_6_x_roll_each_side_rolls_1d6_and_ties_are_rolled_again(mgv):
    game = mgv.new_game(_pair(mgv), dice=[3, 3, 2, 2, 5, 4])
    rolls = [(e.data["side"], e.data["dice"]) for e in mgv.events(game, "roll")]
    assert rolls == [
        ("blue", (3,)),
        ("red", (3,)),
        ("blue", (2,)),
        ("red", (2,)),
        ("blue", (5,)),
        ("red", (4,)),
    ]
    assert len(mgv.events(game, "tie")) == 2
    assert mgv.last(game, "initiative").data == {"side": "blue", "phase": "X"}
    assert game.waiting_for() == ("blue",)


def test_1_6_the_x_roll_winner_chooses_to_move_or_fire_with_all_its_bases(mgv):
    game = mgv.new_game(_pair(mgv), dice=[2, 5])
    assert game.waiting_for() == ("red",)
    assert list(game.legal_actions("red")) == [Phase("move"), Phase("fire")]
    assert game.refusal(Phase("move"), "blue") is not None  # the loser does not choose
    game.apply("phase fire", "red")
    assert mgv.phases(game) == [("X", "red", "fire")]
    assert game.state.step == "declare"


def test_1_6_y_roll_a_side_that_moved_in_x_must_fire_if_it_wins_y(mgv):
    game = mgv.start(_pair(mgv), "blue", "move", dice=[6, 1])
    game.apply("end", "blue")
    assert mgv.phases(game) == [("X", "blue", "move"), ("Y", "blue", "fire")]
    assert game.state.step == "declare"  # no choice was offered


def test_1_6_y_roll_a_side_that_fired_in_x_must_move_if_it_wins_y(mgv):
    game = mgv.start(_pair(mgv), "red", "fire", dice=[1, 6])
    game.apply("fire none", "red")
    assert mgv.phases(game) == [("X", "red", "fire"), ("Y", "red", "move")]
    assert game.state.step == "move"


def test_1_6_no_z_roll_when_one_side_won_x_and_y_the_other_chooses_which_comes_first(mgv):
    game = mgv.start(_pair(mgv), "blue", "move", dice=[6, 1])
    game.apply("end", "blue")
    game.apply("fire none", "blue")
    assert "no_z" in mgv.kinds(game)
    assert [e.data["phase"] for e in mgv.events(game, "initiative")] == ["X", "Y"]
    assert game.waiting_for() == ("red",)
    assert list(game.legal_actions("red")) == [Phase("move"), Phase("fire")]
    game.apply("phase fire", "red")
    game.apply("fire none", "red")
    assert mgv.phases(game)[2:] == [("Z", "red", "fire"), ("F", "red", "move")]


def test_1_6_no_z_roll_the_other_side_may_also_move_first(mgv):
    game = mgv.start(_pair(mgv), "red", "fire", dice=[1, 6])
    game.apply("fire none", "red")
    game.apply("end", "red")
    game.apply("phase move", "blue")
    game.apply("end", "blue")
    assert mgv.phases(game)[2:] == [("Z", "blue", "move"), ("F", "blue", "fire")]


def test_1_6_z_roll_when_x_and_y_had_different_winners_then_the_f_action(mgv):
    # X blue (moves), Y red (fires), Z blue: its fire; F: red's move, the one action left.
    game = mgv.start(_pair(mgv), "blue", "move", dice=[1, 6])
    game.apply("end", "blue")
    game.apply("phase fire", "red")
    mgv.give(game, 4, 4, 6, 2)  # a tied Z roll, then blue wins it
    game.apply("fire none", "red")
    assert [e.data["phase"] for e in mgv.events(game, "initiative")] == ["X", "Y", "Z"]
    assert mgv.phases(game)[2] == ("Z", "blue", "fire")
    game.apply("fire none", "blue")
    assert mgv.phases(game) == [
        ("X", "blue", "move"),
        ("Y", "red", "fire"),
        ("Z", "blue", "fire"),
        ("F", "red", "move"),
    ]
    assert game.waiting_for() == ("red",)


@pytest.mark.parametrize(
    "winners",
    [
        ("blue", "blue", None),
        ("red", "red", None),
        ("blue", "red", "blue"),
        ("blue", "red", "red"),
        ("red", "blue", "red"),
    ],
)
def test_1_6_no_side_moves_twice_or_fires_twice_in_a_turn(mgv, winners):
    x, y, z = winners
    dice = [*mgv.WIN[x], *mgv.WIN[y], *(mgv.WIN[z] if z else ()), *mgv.WIN["blue"]]
    game = mgv.new_game(_pair(mgv), dice=dice)
    for _ in range(4):
        _pass_phase(mgv, game, game.waiting_for()[0])
    done = mgv.phases(game)
    assert [p for p, _, _ in done] == ["X", "Y", "Z", "F"]
    for side in mgv.SIDES:
        assert sorted(k for _, s, k in done if s == side) == ["fire", "move"]
    assert game.state.turn == 2


def test_1_6_reset_removes_white_and_yellow_markers_and_black_stays(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (4, 4), 37),
        mgv.base("red", "R1", "L35", (16, 12), 180),
    ]
    chem = mgv.box("chem", "chemical", 14, 11, 15, 13)
    game = mgv.start(bases, "red", "move", dice=[4, 3], features=[chem])
    mgv.act(game, "red", "move R1 12.5,12", 6, 1)  # trapped halfway (7 on 2D6), Y: blue
    assert mgv.at(game, "R1") == (14.5, 12.0)
    game.apply("phase move", "blue")
    game.apply("move B1 10,12 beacon R1", "blue")
    mgv.act(game, "blue", "end", 6, 1)  # Z: blue fires
    mgv.act(game, "blue", "fire B2>R1", 1, 1)  # 2 on 2D6: no hit at this range
    assert "fired (yellow)" in mgv.status(game, "B2")
    assert {"immobile (black)", "beacon (white)"} <= set(mgv.status(game, "R1"))
    assert mgv.phases(game)[-1] == ("F", "red", "fire")
    mgv.act(game, "red", "fire none", 6, 1)
    assert "reset" in mgv.kinds(game)
    assert game.state.turn == 2
    assert mgv.status(game, "B2") == []
    assert mgv.status(game, "R1") == ["immobile (black)"]
    assert mgv.the(game, "R1").immobile


def test_1_6_the_turn_after_the_reset_starts_with_a_new_x_roll(mgv):
    game = mgv.new_game(_pair(mgv), dice=[6, 1, 6, 1, 2, 5])
    for _ in range(4):
        _pass_phase(mgv, game, game.waiting_for()[0])
    assert game.state.turn == 2
    assert mgv.last(game, "initiative").data == {"side": "red", "phase": "X"}
    assert game.waiting_for() == ("red",)


# -- the turn limit and the missions -----------------------------------------------------------
def test_turn_limit_a_clear_the_field_game_with_nothing_destroyed_is_a_draw(mgv):
    game = mgv.new_game(_pair(mgv), dice=[6, 1, 6, 1], turns=1)
    for _ in range(4):
        _pass_phase(mgv, game, game.waiting_for()[0])
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.winner is None
    assert "time is up" in game.outcome.reason


def _missile_kill(mgv, game):
    """Blue's L35 missile kills R1 (an L35 with s1 and c1 marked): six heart hits, one heart."""
    mgv.damage(game, "R1", {"s1": "S", "c1": "P"})
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/0/6", "blue")
    mgv.give(game, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1)  # six heart scores, no surface block
    game.apply("block 1=4/0/0", "red")


def test_victory_clear_the_field_destroying_the_last_enemy_base_wins_at_once(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "fire", turns=3)
    _missile_kill(mgv, game)
    assert mgv.the(game, "R1").destroyed
    assert game.is_over
    assert game.outcome.winner == "blue"
    assert "cleared the field" in game.outcome.reason
    assert game.outcome.scores == {"blue": 10.0, "red": 0.0}


def test_victory_strike_destroying_the_named_base_wins_for_the_striker(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
        mgv.base("red", "R2", "L35", (20, 4), 180),
    ]
    victory = {"kind": "strike", "side": "blue", "target": "R1"}
    game = mgv.start(bases, "blue", "fire", victory=victory)
    _missile_kill(mgv, game)
    assert game.is_over
    assert game.outcome.winner == "blue"
    assert "strike succeeds" in game.outcome.reason


def test_victory_strike_fails_when_time_is_up(mgv):
    victory = {"kind": "strike", "side": "blue", "target": "R1"}
    game = mgv.new_game(_pair(mgv), dice=[6, 1, 6, 1], turns=1, victory=victory)
    for _ in range(4):
        _pass_phase(mgv, game, game.waiting_for()[0])
    assert game.outcome.winner == "red"
    assert "red held" in game.outcome.reason


def test_victory_strike_fails_when_the_strike_force_is_destroyed(mgv):
    victory = {"kind": "strike", "side": "blue", "target": "R2"}
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180, main="missile"),
        mgv.base("red", "R2", "L35", (20, 4), 180),
    ]
    game = mgv.start(bases, "red", "fire", victory=victory)
    mgv.damage(game, "B1", {"s1": "S", "c1": "P"})
    game.apply("fire R1>B1", "red")
    game.apply("split 1=0/0/6", "red")
    mgv.give(game, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1)
    game.apply("block 1=4/0/0", "blue")
    assert mgv.the(game, "B1").destroyed
    assert game.outcome.winner == "red"
    assert "strike force is destroyed" in game.outcome.reason


def test_victory_gauntlet_a_runner_leaving_by_the_exit_edge_wins(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (20, 12), 0),
        mgv.base("red", "R1", "L35", (4, 4), 90),
    ]
    victory = {"kind": "gauntlet", "side": "blue", "edge": "east", "count": 1}
    game = mgv.start(bases, "blue", "move", victory=victory)
    game.apply("move B1 24.5,12", "blue")
    assert mgv.the(game, "B1").exited
    assert "exited" in mgv.kinds(game)
    assert game.outcome.winner == "blue"
    assert "ran the gauntlet" in game.outcome.reason


def test_victory_gauntlet_runners_may_leave_only_by_the_exit_edge(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (20, 12), 0),
        mgv.base("blue", "B2", "L35", (4, 20), 90),
        mgv.base("red", "R1", "L35", (12, 4), 0),
    ]
    victory = {"kind": "gauntlet", "side": "blue", "edge": "east", "count": 1}
    game = mgv.start(bases, "blue", "move", victory=victory)
    assert "may not leave the table except by the east edge" in mgv.refused(game, "move B2 4,24.5")
    mgv.act(game, "blue", "end", 1, 6)  # Y: red, whose hunters may not leave at all
    game.apply("phase move", "red")
    assert "off the table" in mgv.refused(game, "move R1 12,-0.6 face 270")


def test_victory_gauntlet_fails_when_the_runners_are_held_at_the_turn_limit(mgv):
    victory = {"kind": "gauntlet", "side": "blue", "edge": "east", "count": 1}
    game = mgv.new_game(_pair(mgv), dice=[6, 1, 6, 1], turns=1, victory=victory)
    for _ in range(4):
        _pass_phase(mgv, game, game.waiting_for()[0])
    assert game.outcome.winner == "red"


def test_victory_gauntlet_fails_at_once_when_too_few_runners_can_still_move(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 90),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    chem = mgv.box("chem", "chemical", 3, 13, 5, 14)
    victory = {"kind": "gauntlet", "side": "blue", "edge": "east", "count": 1}
    game = mgv.start(bases, "blue", "move", dice=[6, 6], features=[chem], victory=victory)
    game.apply("move B1 4,15", "blue")  # trapped in the chemical residue
    assert mgv.the(game, "B1").trapped
    assert game.is_over
    assert game.outcome.winner == "red"
    assert "can no longer be run" in game.outcome.reason


# -- 1.5 set-up --------------------------------------------------------------------------------
def _open(mgv):
    return [
        mgv.base("blue", "B1", "L63", (4, 12), 0, main=None, open_mounts=True),
        mgv.base("red", "R1", "L35", (20, 12), 180, main=None, open_mounts=True),
    ]


def test_1_5_open_mounts_are_armed_by_a_sealed_choice_of_both_sides(mgv):
    game = mgv.new_game(_open(mgv), dice=[6, 1])
    assert game.decision.kind.value == "sealed"
    assert game.waiting_for() == ("blue", "red")
    game.apply("arm B1=photon B1.secondary=missile", "blue")
    assert game.waiting_for() == ("red",)
    red_view = game.view("red")
    assert "my_sealed_choice" not in red_view
    assert next(b for b in red_view["bases"] if b["id"] == "B1")["weapons"] == {
        "main": None,
        "secondary": None,
    }
    assert "photon" not in mgv.texts(game)
    assert game.view("blue")["my_sealed_choice"] == "arm B1=photon B1.secondary=missile"
    game.apply("arm R1=kinetic", "red")
    assert mgv.the(game, "B1").mounts["main"].weapon == "photon"
    assert mgv.the(game, "B1").mounts["secondary"].weapon == "missile"
    assert mgv.the(game, "R1").mounts["main"].weapon == "kinetic"
    assert "armed" in mgv.kinds(game)
    assert mgv.last(game, "initiative").data["phase"] == "X"


def test_1_5_the_two_bases_of_one_model_may_be_armed_differently(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main=None),
        mgv.base("blue", "B2", "L35", (4, 8), 0, main=None),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.new_game(bases, dice=[6, 1])
    assert game.waiting_for() == ("blue",)  # red has nothing open: only blue is asked
    game.apply("arm B1=photon B2=kinetic", "blue")
    assert mgv.the(game, "B1").mounts["main"].weapon == "photon"
    assert mgv.the(game, "B2").mounts["main"].weapon == "kinetic"


def test_1_5_a_weapon_the_scenario_fixes_may_not_be_chosen(mgv):
    bases = [
        mgv.base("blue", "B1", "L63", (4, 12), 0, main="kinetic", secondary=None, open_mounts=True),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.new_game(bases, dice=[6, 1])
    reason = mgv.refused(game, "arm B1=photon B1.secondary=photon", "blue")
    assert "the scenario fixes the weapon of B1 main" in reason
    game.apply("arm B1.secondary=photon", "blue")
    assert mgv.the(game, "B1").mounts["main"].weapon == "kinetic"


def test_1_5_every_open_mount_must_be_given_a_weapon(mgv):
    game = mgv.new_game(_open(mgv), dice=[6, 1])
    assert "B1 secondary is missing" in mgv.refused(game, "arm B1=photon", "blue")
    assert "is not one of your bases" in mgv.refused(game, "arm R1=photon", "blue")
    assert "has no secondary mount" in mgv.refused(game, "arm R1=photon R1.secondary=photon", "red")


def test_1_5_no_set_up_choice_when_the_scenario_fixes_every_weapon(mgv):
    game = mgv.new_game(_pair(mgv), dice=[6, 1])
    assert "armed" not in mgv.kinds(game)
    assert game.decision.kind.value == "choose"
