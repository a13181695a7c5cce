"""Invisible Enemy movement (4.0-4.6, 1.5 terrain and traps, the minefield stand-in)."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.core.game import Game
from warbench.rulesets.invisible_enemy import movement
from warbench.rulesets.invisible_enemy.actions import Move


def _one(ie: Any, *features: dict[str, Any], hits: int = 0, **kw: Any) -> Game:
    """Blue's U1 of two L35 (speed 6, radius 0.5) at (4,12) and (4,14), facing east;
    red's R1 far away; blue holds the initiative and U1 has passed its Control roll."""
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B2", "L35", (4, 14))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ],
        features=list(features),
        **kw,
    )
    if hits:
        ie.hit(game, "B1", hits)
    ie.act(game, "blue", "unit U1", 2)
    assert game.state.step == "unit"
    return game


def _cost(game: Game, text: str) -> float:
    action = game.parse(text)
    assert isinstance(action, Move)
    _, result = movement.plan(game.state, "blue", action)
    return round(result.cost, 2)


# -- 4.0 Control ------------------------------------------------------------------------
def test_control_at_100_percent_moves_on_2_to_6_4_0(ie: Any) -> None:
    game = _one(ie)
    control = ie.last(game, "control")
    assert control.data["passed"] and control.data["needs"] == 2 and control.data["die"] == 2


def test_control_fails_on_a_1_and_the_unit_may_not_move_but_red_goes_on_4_0(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    ie.act(game, "blue", "unit U1", 1)
    assert not ie.last(game, "control").data["passed"]
    assert game.state.step == "activate" and game.state.actor == "red"
    assert game.state.units["U1"].attempted_turn == 1
    # red tries its unit; blue has nothing left to try, so its turn never comes back
    ie.act(game, "red", "unit R1", 6)
    ie.act(game, "red", "move R1a 18,20")
    assert ie.at(game, "B1") == (4.0, 12.0)


def test_control_at_50_percent_needs_4_and_3_with_a_network_base_in_range_4_0(ie: Any) -> None:
    lone = [ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)))]
    red = [ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180))]
    game = ie.start([*lone, *red])
    game.state.networks["blue"].status = 50
    ie.act(game, "blue", "unit U1", 3)
    control = ie.last(game, "control")
    assert not control.data["passed"] and control.data["needs"] == 4
    # a network base 8" away (California: 9" support range) lowers it to 3+
    relay = ie.unit("blue", "N1", ie.base("NB", "N5", (12, 12)))
    game = ie.start([*lone, relay, *red])
    game.state.networks["blue"].status = 50
    ie.act(game, "blue", "unit U1", 3)
    control = ie.last(game, "control")
    assert control.data["passed"] and control.data["needs"] == 3 and control.data["network"]


def test_network_base_out_of_range_gives_no_help_4_0(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (2, 2))),
            ie.unit("blue", "N1", ie.base("NB", "N5", (20, 20))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 2), 180)),
        ]
    )
    game.state.networks["blue"].status = 50
    ie.act(game, "blue", "unit U1", 3)
    assert ie.last(game, "control").data["needs"] == 4


def test_automatic_move_marker_moves_without_a_roll_2_0_4_0(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    game.state.networks["blue"].status = 25
    game.state.units["U1"].auto_turn = 1
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "unit U1")
    assert game.state.step == "unit" and len(ie.events(game, "roll")) == rolls
    ie.act(game, "blue", "move B1 8,12")
    assert ie.at(game, "B1") == (8.0, 12.0)


def test_one_attempt_a_turn_and_pass_ends_the_sides_attempts_4_0(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
            ie.unit("blue", "U2", ie.base("B2", "L35", (4, 4))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
            ie.unit("red", "R2", ie.base("R2a", "K817", (20, 4), 180)),
        ]
    )
    ie.act(game, "blue", "unit U1", 2)
    ie.act(game, "blue", "done")
    assert game.state.actor == "red"
    ie.act(game, "red", "pass")
    assert game.state.actor == "blue"
    assert "already" in ie.refused(game, "unit U1", "blue")
    ie.act(game, "blue", "unit U2", 2)
    ie.act(game, "blue", "done")
    # red passed: it makes no more attempts, and blue has none left: movement is over
    assert game.state.step not in ("activate", "unit", "control")
    assert game.state.units["R2"].attempted_turn == 0


def test_a_unit_of_another_side_or_base_of_another_unit_is_refused_4_0(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B3", "L35", (4, 14))),
            ie.unit("blue", "U2", ie.base("B2", "L35", (4, 4))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    assert "not yours" in ie.refused(game, "unit R1", "blue")
    ie.act(game, "blue", "unit U1", 2)
    assert "moving unit" in ie.refused(game, "move B2 6,4", "blue")
    ie.act(game, "blue", "move B1 6,12")
    assert "already moved" in ie.refused(game, "move B1 7,12", "blue")


# -- 4.2, 4.4 costs ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("facing", "cost"), [(44, 0.0), (45, 1.0), (90, 1.0), (91, 2.0), (180, 2.0), (316, 0.0)]
)
def test_turning_bands_4_2(ie: Any, facing: float, cost: float) -> None:
    game = _one(ie)
    assert _cost(game, f"move B1 face {facing}") == cost


def test_reverse_costs_2_an_inch_4_4(ie: Any) -> None:
    game = _one(ie)
    # backing 2" west keeping the facing east: 4", cheaper than two about-faces
    assert _cost(game, "move B1 2,12 face 0") == 4.0


def test_forward_diagonal_costs_2_an_inch_4_4(ie: Any) -> None:
    game = _one(ie)
    assert _cost(game, "move B1 5,11 face 0") == round(2 * 2**0.5, 2)


def test_sideways_costs_3_an_inch_4_4(ie: Any) -> None:
    game = _one(ie)
    # half an inch to the side: 1.5", cheaper than turning 90 and back (2.5")
    assert _cost(game, "move B1 4,11.5 face 0") == 1.5
    rules = movement.move_rules(False)
    assert rules.direction_cost is not None and rules.direction_cost(90.0) == 3.0


def test_no_backward_diagonal_the_base_turns_instead_4_4(ie: Any) -> None:
    game = _one(ie)
    rules = movement.move_rules(False)
    assert rules.direction_cost is not None and rules.direction_cost(135.0) is None
    # 1.41" back-diagonal: turn 135 (2"), go, turn back (2")
    assert _cost(game, "move B1 3,11 face 0") == round(4 + 2**0.5, 2)


def test_two_thirds_damaged_pays_2_an_inch_4_4(ie: Any) -> None:
    game = _one(ie, hits=4)
    assert game.state.bases["B1"].damage == "2/3"
    assert _cost(game, "move B1 6,12") == 4.0
    assert "only 6.00" in ie.refused(game, "move B1 8,12", "blue")


def test_terrain_costs_per_inch_crossed_1_5(ie: Any) -> None:
    game = _one(ie, ie.box("M1", "mold", 6, 10, 8, 13))
    # 2" to the mold at 1, then 2" through it at 2
    assert _cost(game, "move B1 8,12") == 6.0
    assert "only 6.00" in ie.refused(game, "move B1 8.5,12", "blue")


def test_steep_hold_costs_2_and_vertical_hold_3_an_inch_4_4(ie: Any) -> None:
    steep = _one(ie, ie.box("S1", "steep", 6, 10, 8, 13))
    assert _cost(steep, "move B1 7,12") == 4.0  # 2" at 1, then 1" at 2
    vertical = _one(ie, ie.box("V1", "vertical", 6, 10, 8, 13))
    assert _cost(vertical, "move B1 7,12") == 5.0  # 2" at 1, then 1" at 3


def test_a_gap_up_to_1_inch_costs_2_and_a_wider_one_cannot_be_crossed_4_4(ie: Any) -> None:
    gap = _one(ie, ie.line("G1", "gap", (6, 9), (6, 15)))
    assert _cost(gap, "move B1 8,12") == 6.0  # 4" of travel and 2" for the gap
    ie.act(gap, "blue", "move B1 8,12")
    assert ie.at(gap, "B1") == (8.0, 12.0)
    chasm = _one(ie, ie.line("G2", "chasm", (6, 9), (6, 15)))
    assert ie.refused(chasm, "move B1 8,12", "blue")


def test_no_cost_above_3_an_inch_4_4(ie: Any) -> None:
    game = _one(ie, ie.box("C1", "chemical", 5, 10, 7, 13), hits=4)
    # 2/3 damaged (2) in chemical residue (3): 3 an inch, not more
    assert _cost(game, "move B1 6,12") == 5.0  # 1" at 2, then 1" at 3
    assert _cost(game, "move B1 3,12 face 0") == 2.0  # reverse, damaged: 2 an inch


def test_impassable_terrain_is_refused_1_5(ie: Any) -> None:
    game = _one(ie, ie.circle("S1", "salt", (7, 12), 0.8))
    assert "impassable" in ie.refused(game, "move B1 9,12", "blue")


# -- 1.5 traps -----------------------------------------------------------------------------
def test_trap_roll_at_or_above_the_number_stops_the_base_in_the_crossing_1_5(ie: Any) -> None:
    # mold: 2" an inch, trapped on 5+; the roll is taken in the middle of the crossing
    game = _one(ie, ie.box("M1", "mold", 6, 11, 7, 13))
    ie.act(game, "blue", "move B1 8,12", 5)
    b1 = ie.the(game, "B1")
    assert b1.trapped and ie.at(game, "B1") == (6.5, 12.0)
    assert "trapped in M1" in ie.last(game, "trapped").text
    assert ie.last(game, "move").data["path"] == [[4.0, 12.0], [6.5, 12.0]]


def test_a_trapped_move_reports_the_allowance_it_spent_not_the_plan_1_5_4_4(ie: Any) -> None:
    # planned: 2" open, 1" of mold at 2, 1" open = 5; trapped halfway into the mold it has
    # spent 2 + 0.5" at 2 = 3 (issue 25: the event said 5)
    game = _one(ie, ie.box("M1", "mold", 6, 11, 7, 13))
    ie.act(game, "blue", "move B1 8,12", 5)
    assert ie.the(game, "B1").trapped
    assert 'moves 2.5" (allowance' in ie.last(game, "move").text
    assert 'spent 3.0")' in ie.last(game, "move").text
    game = _one(ie, ie.box("M1", "mold", 6, 11, 7, 13))
    ie.act(game, "blue", "move B1 8,12", 4)  # not trapped: the whole plan
    assert 'spent 5.0")' in ie.last(game, "move").text


def test_trap_roll_below_the_number_passes_1_5(ie: Any) -> None:
    game = _one(ie, ie.box("M1", "mold", 6, 11, 7, 13))
    ie.act(game, "blue", "move B1 8,12", 4)
    assert not ie.the(game, "B1").trapped and ie.at(game, "B1") == (8.0, 12.0)


@pytest.mark.parametrize(("die", "trapped"), [(1, True), (2, False), (6, False)])
def test_ice_traps_on_a_1_only_1_5_ruling_17(ie: Any, die: int, trapped: bool) -> None:
    """Ice's trap entry is "1": read as trapped on a roll of 1, not on 1 or more (which
    would trap every base that crossed it)."""
    game = _one(ie, ie.box("I1", "ice", 6, 11, 6.5, 13))
    ie.act(game, "blue", "move B1 8,12", die)
    assert ie.the(game, "B1").trapped is trapped
    if not trapped:
        assert ie.at(game, "B1") == (8.0, 12.0)


def test_a_trapped_base_may_not_move_1_5(ie: Any) -> None:
    game = _one(ie)
    ie.the(game, "B1").trapped = True
    game.state.touched()
    assert "trapped" in ie.refused(game, "move B1 6,12", "blue")


# -- 1.5 minefield stand-in (ruling 18) -----------------------------------------------------
def test_minefield_strikes_like_a_barrage_stand_in_1_5(ie: Any) -> None:
    # L35 defence 3: destroyed on 11 or more (3.0 Area Weapons, 8 + DEF), no flank modifier
    game = _one(ie, ie.box("F1", "minefield", 6, 11, 7, 13))
    ie.act(game, "blue", "move B1 9,12", 5, 5)
    assert ie.the(game, "B1").active and ie.last(game, "mine_miss")
    game = _one(ie, ie.box("F1", "minefield", 6, 11, 7, 13))
    ie.act(game, "blue", "move B1 9,12", 5, 6)
    assert ie.the(game, "B1").destroyed
    assert "F1" in ie.last(game, "destroyed").text


# -- 4.5 intervals and stranding ---------------------------------------------------------------
def test_a_move_may_not_stretch_the_unit_past_its_interval_4_5(ie: Any) -> None:
    # California: tech 9, 9" interval; B1 would end 9.2" from B2
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B2", "L35", (4, 20))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    ie.act(game, "blue", "unit U1", 2)
    reason = ie.refused(game, "move B1 4,10.7", "blue")
    # equal halves: the first-listed B1 stays in network, so B2 would be the one cut off
    assert "strand B2" in reason and '9"' in reason and "4.5" in reason
    ie.act(game, "blue", "move B1 4,11.5")


def test_the_larger_part_stays_in_network_the_smaller_is_stranded_4_5(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit(
                "blue",
                "U1",
                ie.base("B1", "L35", (2, 2)),
                ie.base("B2", "L35", (14, 2)),
                ie.base("B3", "L35", (14, 4)),
            ),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    state = game.state
    assert movement.stranded(state, state.bases["B1"])
    assert not movement.stranded(state, state.bases["B2"])
    ie.act(game, "blue", "unit U1", 2)
    assert "stranded" in ie.refused(game, "move B1 4,2", "blue")
    assert "stranded" in ie.refused(game, "move B1 face 90", "blue")  # nor turn
    # B2 moving back within 9" of B1 brings it back into network
    ie.act(game, "blue", "move B2 10,2")
    assert not movement.stranded(state, state.bases["B1"])


def test_equal_halves_the_first_listed_base_stays_in_network_4_5(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (2, 2)), ie.base("B2", "L35", (20, 2))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    state = game.state
    assert not movement.stranded(state, state.bases["B1"])
    assert movement.stranded(state, state.bases["B2"])


def test_a_network_base_in_range_keeps_a_cut_off_base_in_network_4_5(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (2, 2)), ie.base("B2", "L35", (20, 2))),
            ie.unit("blue", "N1", ie.base("NB", "N5", (20, 8))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    assert not movement.stranded(game.state, game.state.bases["B2"])


def test_a_unit_with_only_stranded_or_trapped_bases_cannot_try_4_0_4_5(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (2, 2)), ie.base("B2", "L35", (20, 2))),
            ie.unit("blue", "U2", ie.base("B3", "L35", (2, 20))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180)),
        ]
    )
    ie.the(game, "B1").trapped = True
    game.state.touched()
    assert movement.attemptable(game.state, "blue") == ["U2"]
    assert "nothing that can move" in ie.refused(game, "unit U1", "blue")


# -- breach exits -------------------------------------------------------------------------------
def test_the_breach_side_leaves_only_by_its_edge(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (22, 12)), ie.base("B2", "L35", (21, 20))),
            ie.unit("red", "R1", ie.base("R1a", "K817", (4, 20), 180)),
        ],
        victory={"kind": "breach", "side": "blue", "edge": "east", "count": 2},
    )
    ie.act(game, "blue", "unit U1", 2)
    assert "except by the east edge" in ie.refused(game, "move B2 21,25", "blue")
    ie.act(game, "blue", "move B1 25,12")
    assert ie.the(game, "B1").exited and game.state.exited == ["B1"]


# -- bots ---------------------------------------------------------------------------------------
def test_every_move_candidate_is_legal(ie: Any) -> None:
    game = _one(ie, ie.box("M1", "mold", 6, 11, 8, 13))
    moves = [a for a in game.legal_actions("blue") if isinstance(a, Move)]
    assert moves
    ie.give(game, *([6] * 2 * len(moves)))  # the trap rolls a move through the mold makes
    for action in moves:
        assert game.refusal(action, "blue") is None, action
    goal = movement.goals(game.state, game.state.bases["B1"])[0]
    assert goal == (4.0, 14.0)
    assert 0 < movement.reach(game.state, game.state.bases["B1"], (20.0, 12.0)) <= 6.0


def test_a_base_of_another_unit_of_its_formation_keeps_it_in_contact_4_5(ie: Any) -> None:
    """4.5: stranded until bases of its "unit/formation" come within the interval: a
    formation-mate of another unit counts; a unit of no named formation, or of another
    formation, does not."""

    def game_with(formation_of_u2: str) -> Any:
        u1 = ie.unit(
            "blue",
            "U1",
            ie.base("B1", "L35", (2, 2)),
            ie.base("B2", "L35", (14, 2)),
            ie.base("B3", "L35", (14, 4)),
        )
        u2 = ie.unit("blue", "U2", ie.base("B4", "L35", (2, 8)))
        u1[1]["formation"] = "1st clip"
        if formation_of_u2:
            u2[1]["formation"] = formation_of_u2
        return ie.start([u1, u2, ie.unit("red", "R1", ie.base("R1a", "K817", (20, 20), 180))])

    state = game_with("1st clip").state  # B4 is 6" from B1, within California's 9"
    assert not movement.stranded(state, state.bases["B1"])
    for other in ("2nd clip", ""):
        state = game_with(other).state
        assert movement.stranded(state, state.bases["B1"])


# -- the move language (issue 25): relative steps, legs held at a facing ------------------------
def test_turn_40_then_reverse_1_costs_2_not_5_4_2_4_4(ie: Any) -> None:
    """A turn under 45 degrees is free (4.2) and 1" of reverse costs 2" (4.4): 2". The old
    path form could not say it: the spot 1" behind, then face 40, was a back-diagonal
    (refused), so the base turned 140 (2"), went 1" and about-faced (2"): 5"."""
    game = _one(ie)
    action = game.parse("move B1 turn left 40 reverse 1")
    assert isinstance(action, Move) and action.facings == (40.0,)
    end = action.path[0]
    assert _cost(game, str(action)) == 2.0
    assert _cost(game, f"move B1 {end[0]},{end[1]} face 40") == 5.0
    ie.act(game, "blue", str(action))
    assert ie.the(game, "B1").geo.facing == 40.0


def test_held_legs_cost_by_their_angle_off_the_facing_4_4(ie: Any) -> None:
    game = _one(ie)
    assert _cost(game, "move B1 4,11.5@0") == 1.5  # sideways, 3 an inch
    assert _cost(game, "move B1 forward 1 back 1") == 3.0  # 1 forward, 1 reverse at 2
    assert "do not allow" in ie.refused(game, "move B1 3,11@0", "blue")  # back-diagonal


def test_toward_a_point_is_clipped_to_the_allowance_4_4(ie: Any) -> None:
    """``toward X,Y``: straight at the point, as far as the 6" pay (through mold at 2)."""
    game = _one(ie, ie.box("M1", "mold", 6, 10, 8, 13))
    action = game.parse("move B1 toward 20,12")
    assert action.path == ((8.0, 12.0),)  # 2" at 1, then the 2" of mold at 2: 6"
    assert _cost(game, str(action)) == 6.0


# -- the driven-move memo (speed) ----------------------------------------------------------
@pytest.mark.parametrize("scenario_id", ["invisible-enemy/company", "invisible-enemy/breach"])
def test_a_remembered_drive_is_the_one_worked_out_afresh_on_every_state(scenario_id: str) -> None:
    """``_drive`` answers from its memo, kept per layout and shared by every state with
    the same key (the true state, a side's seen copy): for every move a greedy game lists,
    on the true state and on the moving side's seen state, the answer is the one
    ``_drive_now`` works out from that state's own scene."""
    from warbench.bots import make_bot
    from warbench.rulesets.invisible_enemy.view import seen_state

    game = Game.start(scenario_id, 3)
    bots = {side: make_bot("greedy", i) for i, side in enumerate(game.scenario.sides)}
    checked = 0
    for _ in range(120):
        waiting = game.waiting_for()
        if not waiting:
            break
        side = waiting[0]
        for action in game.legal_actions(side):
            if not isinstance(action, Move):
                continue
            for state in (game.state, seen_state(game.state, side)):
                base = state.bases[action.base]
                towed = movement._tow(state, base)
                ignore = [towed.id] if towed else []
                got = movement._drive(state, base, action, ignore)
                scene = movement._scene_for(state, base)
                rules_ = movement._rules_for(state, base)
                assert got == movement._drive_now(scene, base, action, rules_, ignore)
                checked += 1
        game.apply(bots[side].choose(game.seat(side), side), side)
    assert checked > 100


def test_a_figure_near_a_move_is_part_of_its_memo_key_and_a_far_one_is_not(ie: Any) -> None:
    """A figure whose base could touch the mover's anywhere along the path is in the key
    (where it stands decides the answer); one farther off than both bounding radii and
    the margin is not (it can touch nothing)."""
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
            ie.unit(
                "red",
                "R1",
                ie.base("R1a", "K817", (8, 13), 180),
                ie.base("R1b", "K817", (20, 20), 180),
            ),
        ]
    )
    state = game.state
    mover = state.bases["B1"].geo
    near = movement._in_reach(state.scene(), mover, ((10.0, 12.0),))
    assert [f.id for f in near] == ["R1a"]
    assert movement._in_reach(state.scene(), mover, ()) == ()


def test_the_lanes_a_breaching_base_looks_for_follow_the_table_as_it_stands() -> None:
    """The cleared lanes are kept per layout: a cut through a minefield gives a new
    layout and its lane at once (never the uncut table's none), and the kept answer is
    the one worked out afresh."""
    import shapely

    state = Game.start("invisible-enemy/breach", 1).state
    assert movement._lanes(state.setup.terrain, state.terrain) == []
    mines = state.terrain.feature("mines1")
    x0, y0, x1, y1 = mines.geometry.bounds
    mid = (y0 + y1) / 2.0
    state.cut(shapely.box(x0 - 1.0, mid - 1.0, x1 + 1.0, mid + 1.0), ["mines1"], 0.01)
    lanes = movement._lanes(state.setup.terrain, state.terrain)
    assert len(lanes) == 1
    movement._LANES.clear()
    assert movement._lanes(state.setup.terrain, state.terrain) == lanes
