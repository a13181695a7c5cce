"""4.0 Movement through the engine: Figure 1, turning costs, straight legs, overlapping
friends, P hits and immobile bases, one move per base a phase; 1.4 terrain (half and
quarter speed, impassable features, trap rolls in the middle of a crossing); 4.0 Marker
Beacons."""

from __future__ import annotations

import math

import pytest

from warbench.rulesets.mgv.movement import plan


def _moved(mgv, game):
    """(inches travelled, inches of allowance spent) of the last move, from its event."""
    text = mgv.last(game, "move").text
    travelled = float(text.split(" moves ")[1].split('"')[0])
    spent = float(text.split("spent ")[1].split('"')[0])
    return travelled, spent


def _mover(mgv, model="L63", at=(4, 12), facing=0.0, **kw):
    """The moving base B1, a friend B9 parked out of the way (so the phase stays open),
    and a far enemy."""
    return [
        mgv.base("blue", "B1", model, at, facing, **kw),
        mgv.base("blue", "B9", "L35", (2, 22), 0),
        mgv.base("red", "R1", "L35", (22, 22), 180),
    ]


# -- Figure 1 ----------------------------------------------------------------------------------
def test_figure_1_whiptail_leaves_half_an_inch(mgv):
    """Figure 1: 2" forward, turn right <=45 degrees (1/2"), 4" forward, turn right >45 and
    <=90 degrees (1"): 7 1/2" of the 8" spent, 1/2" left."""
    game = mgv.start(_mover(mgv, "L63"))
    # 2" east; a right turn of 36.9 degrees (a 3-4-5 triangle) and 4"; a right turn of 53.1.
    game.apply("move B1 6,12 9.2,9.6 face 270", "blue")
    assert _moved(mgv, game) == (6.0, 7.5)
    assert mgv.at(game, "B1") == (9.2, 9.6)
    assert mgv.the(game, "B1").geo.facing == 270.0


@pytest.mark.parametrize(("last_leg", "fits"), [((9.2, 9.1), True), ((9.2, 9.0), False)])
def test_figure_1_whiptail_the_half_inch_left_is_all_there_is(mgv, last_leg, fits):
    """After Figure 1's move, a further 1/2" along the new facing fits exactly; 0.6" does not."""
    game = mgv.start(_mover(mgv, "L63"))
    text = f"move B1 6,12 9.2,9.6 {last_leg[0]},{last_leg[1]}"
    reason = game.refusal(game.parse(text), "blue")
    if fits:
        assert reason is None
        game.apply(text, "blue")
        assert _moved(mgv, game) == (6.5, 8.0)
    else:
        assert reason is not None
        assert 'costs 8.10" but only 8.00" is allowed' in reason


# -- turning costs -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("turn", "cost"),
    [
        (10, 0.5),
        (45, 0.5),
        (46, 1.0),
        (90, 1.0),
        (-90, 1.0),
        (91, 1.5),
        (135, 1.5),
        (136, 2.0),
        (180, 2.0),
    ],
)
def test_4_0_each_45_degrees_of_turn_or_part_of_it_costs_half_an_inch(mgv, turn, cost):
    """4.0: each 45 degrees (and each increment thereafter) costs 1/2"; 90 costs 1";
    a full 180-degree reversal costs 2". Checked by a leg in the new direction that uses
    the rest of the 8" exactly, and one 0.1" longer."""
    game = mgv.start(_mover(mgv, "L63", at=(12, 12)))
    rad = math.radians(turn)

    def leg(length):
        x, y = 12 + length * math.cos(rad), 12 + length * math.sin(rad)
        return game.parse(f"move B1 {x:.6f},{y:.6f}")

    assert game.refusal(leg(8 - cost - 0.001), "blue") is None
    assert 'only 8.00" is allowed' in (game.refusal(leg(8 - cost + 0.1), "blue") or "")


def test_4_0_a_turn_on_the_spot_costs_the_same_as_before_a_leg(mgv):
    game = mgv.start(_mover(mgv, "L63"))
    game.apply("move B1 face 180", "blue")
    assert _moved(mgv, game) == (0.0, 2.0)
    assert mgv.the(game, "B1").geo.facing == 180.0


def test_4_0_straight_legs_only_a_base_turns_to_face_each_leg_no_drifting(mgv):
    """4.0: no drifting right or left: a leg to the side first turns the base (1" for 90
    degrees), and the base ends facing where it went."""
    game = mgv.start(_mover(mgv, "L63"))
    game.apply("move B1 4,16", "blue")
    assert _moved(mgv, game) == (4.0, 5.0)
    assert mgv.the(game, "B1").geo.facing == 90.0


def test_4_0_backing_up_is_a_180_degree_turn(mgv):
    game = mgv.start(_mover(mgv, "L63", at=(12, 12)))
    assert mgv.refused(game, "move B1 5.9,12").startswith('the move costs 8.10"')
    game.apply("move B1 6,12", "blue")
    assert _moved(mgv, game) == (6.0, 8.0)


# -- bases in the way --------------------------------------------------------------------------
def test_4_0_friendly_bases_may_overlap_in_passing(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (6, 12), 0),
        mgv.base("red", "R1", "L35", (22, 22), 180),
    ]
    game = mgv.start(bases)
    game.apply("move B1 10,12", "blue")
    assert mgv.at(game, "B1") == (10.0, 12.0)


def test_4_0_friendly_bases_may_not_end_overlapping(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (6, 12), 0),
        mgv.base("red", "R1", "L35", (22, 22), 180),
    ]
    game = mgv.start(bases)
    assert "on top of figure 'B2'" in mgv.refused(game, "move B1 6.5,12")
    assert game.refusal(game.parse("move B1 7,12"), "blue") is None  # touching is not overlapping


def test_4_0_enemy_bases_may_not_be_passed_through(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B9", "L35", (2, 22), 0),
        mgv.base("red", "R1", "L35", (6, 12), 180),
    ]
    game = mgv.start(bases)
    assert "R1" in mgv.refused(game, "move B1 10,12")


# -- P hits and immobile bases -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "marks", "allowance"),
    [
        ("L63", {}, 8.0),
        ("L63", {"s1": "S", "s2": "S", "c1": "P"}, 7.0),
        ("L63", {"s1": "S", "s2": "S", "s3": "S", "c1": "P", "c2": "P"}, 6.0),
        ("L63", {"s6": "P"}, 7.0),  # an S hit from the rear counts as a P hit (5.2)
        ("J90", {"s1": "S", "s2": "S", "s3": "S", "c1": "P", "c2": "P"}, 7.0),  # 1/2" each
    ],
)
def test_4_0_each_p_hit_costs_an_inch_of_movement_and_a_j90_half_an_inch(
    mgv, model, marks, allowance
):
    game = mgv.start(_mover(mgv, model, at=(4, 12)))
    mgv.damage(game, "B1", marks)
    assert mgv.the(game, "B1").speed == allowance
    assert game.refusal(game.parse(f"move B1 {4 + allowance},12"), "blue") is None
    reason = mgv.refused(game, f"move B1 {4 + allowance + 0.1},12")
    assert f'only {allowance:.2f}" is allowed' in reason


def test_4_0_a_base_whose_speed_track_is_used_up_is_immobile(mgv):
    game = mgv.start(_mover(mgv, "L35"))
    mgv.damage(game, "B1", {f"s{i}": "P" for i in range(1, 9)})  # eight P hits
    assert mgv.the(game, "B1").speed == 0.0
    assert "B1 is immobile: out of speed (P hits)" in mgv.refused(game, "move B1 5,12")
    assert "immobile (black)" in mgv.status(game, "B1")


def test_4_0_a_side_with_no_base_able_to_move_passes_its_movement_phase(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.new_game(bases, dice=[6, 1, 1, 6])
    mgv.damage(game, "B1", {f"s{i}": "P" for i in range(1, 9)})
    game.apply("phase move", "blue")
    assert mgv.last(game, "pass").text == "blue has no base able to move"
    assert game.waiting_for() == ("red",)  # the Y roll came at once


def test_4_0_each_base_moves_at_most_once_a_phase(mgv):
    game = mgv.start(_mover(mgv, "L63"))
    game.apply("move B1 6,12", "blue")
    assert "B1 has already moved this phase" in mgv.refused(game, "move B1 7,12")
    assert game.refusal(game.parse("move B9 3,22"), "blue") is None


def test_4_0_the_movement_phase_ends_when_every_base_has_moved(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, dice=[1, 6])
    game.apply("move B1 6,12", "blue")
    assert mgv.last(game, "initiative").data == {"side": "red", "phase": "Y"}


# -- 1.4 terrain -------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["rough", "sand", "small_insect"])
def test_1_4_half_speed_terrain_costs_two_inches_an_inch(mgv, kind):
    """1.4: rough surface, sand and small dead insects are 1/2 speed: 2" of it costs 4"."""
    game = mgv.start(_mover(mgv, "L35"), features=[mgv.box("t", kind, 6, 10, 8, 14)])
    assert 'only 8.00"' in mgv.refused(game, "move B1 10.1,12")
    if kind == "rough":
        mgv.give(game, 1, 1)  # the trap roll (12 traps in rough surface)
    game.apply("move B1 10,12", "blue")
    assert _moved(mgv, game) == (6.0, 8.0)


@pytest.mark.parametrize("kind", ["oil", "chemical", "large_insect"])
def test_1_4_quarter_speed_terrain_costs_four_inches_an_inch(mgv, kind):
    """1.4: oil residue, chemical residue and large dead insects are 1/4 speed."""
    game = mgv.start(_mover(mgv, "L35"), features=[mgv.box("t", kind, 6, 10, 7, 14)])
    assert 'only 8.00"' in mgv.refused(game, "move B1 9.1,12")
    if kind != "large_insect":
        mgv.give(game, 1, 1)  # the trap roll, not a trapping total
    game.apply("move B1 9,12", "blue")
    assert _moved(mgv, game) == (5.0, 8.0)


def test_1_4_slime_costs_nothing_extra(mgv):
    game = mgv.start(
        _mover(mgv, "L35"), dice=[1, 1], features=[mgv.box("t", "slime", 6, 10, 8, 14)]
    )
    game.apply("move B1 12,12", "blue")
    assert _moved(mgv, game) == (8.0, 8.0)


@pytest.mark.parametrize("kind", ["fungus", "rock", "shrapnel"])
def test_1_4_fungus_towers_rock_and_shrapnel_are_impassable(mgv, kind):
    feature = (
        mgv.circle("t", kind, (8, 12), 1.0)
        if kind == "fungus"
        else mgv.box("t", kind, 7, 11, 8, 13)
    )
    game = mgv.start(_mover(mgv, "L35"), features=[feature])
    reason = mgv.refused(game, "move B1 11,12")
    assert "impassable" in reason and "'t'" in reason
    assert game.refusal(game.parse("move B1 6,14 10,14"), "blue") is None  # round it


@pytest.mark.parametrize(
    ("kind", "free", "trapped"),
    [("rough", 11, 12), ("slime", 10, 11), ("oil", 8, 9), ("chemical", 6, 7)],
)
@pytest.mark.parametrize("trap", [False, True])
def test_1_4_trap_roll_on_2d6_in_the_middle_of_the_crossing(mgv, kind, free, trapped, trap):
    """1.4: crossing a feature with a trap roll rolls 2D6 in the middle of the crossing;
    on the chart's numbers the base is trapped there and immobilised (black marker)."""
    total = trapped if trap else free
    dice = (6, total - 6) if total > 6 else (total - 1, 1)
    game = mgv.start(_mover(mgv, "L35"), dice=dice, features=[mgv.box("t", kind, 6, 10, 7, 14)])
    game.apply("move B1 8,12", "blue")
    roll = mgv.last(game, "roll")
    assert roll.data["purpose"] == "trap roll in t (1.4)"
    assert sum(roll.data["dice"]) == total
    b = mgv.the(game, "B1")
    if trap:
        assert mgv.at(game, "B1") == (6.5, 12.0)  # the middle of the crossing
        assert b.trapped and b.immobile
        assert "trapped" in mgv.kinds(game)
        assert "immobile (black)" in mgv.status(game, "B1")
        assert _moved(mgv, game)[0] == 2.5
    else:
        assert mgv.at(game, "B1") == (8.0, 12.0)
        assert not b.trapped


def test_1_4_a_trapped_base_stays_immobile_in_later_turns(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (4, 4), 0),
        mgv.base("red", "R1", "L35", (22, 22), 180),
    ]
    chem = mgv.box("t", "chemical", 6, 10, 7, 14)
    game = mgv.start(bases, dice=[6, 6], features=[chem])
    game.apply("move B1 8,12", "blue")
    assert mgv.the(game, "B1").trapped
    mgv.act(game, "blue", "move B2 6,4", 1, 6)  # every movable base has moved: Y, red
    game.apply("phase move", "red")
    # Z: blue, with nothing in its arcs; F: red, the same; the reset; turn 2, X: blue
    mgv.act(game, "red", "end", 6, 1, 6, 1)
    assert game.state.turn == 2
    game.apply("phase move", "blue")
    assert "B1 is immobile: trapped" in mgv.refused(game, "move B1 6.5,13")
    assert "immobile (black)" in mgv.status(game, "B1")


def _trap_rolls(mgv, game):
    return [e.data["purpose"] for e in mgv.events(game, "roll") if "trap" in e.data["purpose"]]


def test_1_4_one_crossing_of_a_trap_feature_is_one_trap_roll_even_where_features_overlap(mgv):
    features = [
        mgv.box("chem", "chemical", 6, 10, 7, 14),
        mgv.box("strip", "rough", 6.4, 10, 6.6, 14),
    ]
    game = mgv.start(_mover(mgv, "L35"), dice=[1] * 8, features=features)
    game.apply("move B1 8,12", "blue")
    assert sorted(_trap_rolls(mgv, game)) == ["trap roll in chem (1.4)", "trap roll in strip (1.4)"]


def test_1_4_one_crossing_in_several_legs_is_one_trap_roll(mgv):
    game = mgv.start(
        _mover(mgv, "L35"), dice=[1] * 6, features=[mgv.box("slime", "slime", 6, 10, 8, 14)]
    )
    game.apply("move B1 7,12 7,13 9,13", "blue")  # in at x=6, a turn inside, out at x=8
    assert _trap_rolls(mgv, game) == ["trap roll in slime (1.4)"]


def test_1_4_a_trapped_base_does_not_end_on_top_of_a_friend_it_was_passing(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (6.5, 12), 0),  # standing in the residue
        mgv.base("red", "R1", "L35", (22, 22), 180),
    ]
    chem = mgv.box("chem", "chemical", 6, 10, 7, 14)
    game = mgv.start(bases, dice=[6, 6], features=[chem])
    game.apply("move B1 9,12", "blue")  # through B2 and the residue; trapped on 12
    assert mgv.the(game, "B1").trapped
    b1, b2 = mgv.the(game, "B1").geo, mgv.the(game, "B2").geo
    assert math.dist(b1.at, b2.at) >= 1.0 - 1e-9  # two 1" bases do not overlap


def test_1_4_no_trap_roll_outside_trap_terrain(mgv):
    game = mgv.start(_mover(mgv, "L35"), features=[mgv.box("t", "sand", 6, 10, 7, 14)])
    game.apply("move B1 8,12", "blue")
    assert not [e for e in mgv.events(game, "roll") if "trap" in e.data["purpose"]]


# -- 4.0 Marker Beacons ------------------------------------------------------------------------
def _beacon_table(mgv, model="L35", enemy_at=(8, 16)):
    return [
        mgv.base("blue", "B1", model, (4, 12), 0),
        mgv.base("blue", "B9", "L35", (2, 22), 0),
        mgv.base("red", "R1", "L35", enemy_at, 180),
    ]


def test_4_0_beacons_only_a_model_able_to_fire_marker_beacons_may(mgv):
    game = mgv.start(_beacon_table(mgv, "L63"))
    assert "cannot fire marker beacons" in mgv.refused(game, "move B1 12,12 beacon R1")


def test_4_0_beacons_mark_an_enemy_within_5_inches_at_any_time_during_the_move(mgv):
    """R1 is 5.7" from both ends of the move but 4" from its middle."""
    game = mgv.start(_beacon_table(mgv))
    game.apply("move B1 12,12 beacon R1", "blue")
    assert mgv.last(game, "beacon").data == {"base": "B1", "target": "R1"}
    assert mgv.the(game, "R1").beacon_turn == 1
    assert "beacon (white)" in mgv.status(game, "R1")


def test_4_0_beacons_a_base_turning_on_the_spot_marks_from_where_it_stands(mgv):
    """A move of no legs (a turn) is still "during its movement": R1 is 4.2" away."""
    game = mgv.start(_beacon_table(mgv, enemy_at=(7, 15)))
    game.apply("move B1 face 90 beacon R1", "blue")
    assert mgv.the(game, "R1").beacon_turn == 1


def test_4_0_beacons_refused_when_the_enemy_is_never_within_5_inches(mgv):
    game = mgv.start(_beacon_table(mgv, enemy_at=(14, 16)))
    reason = mgv.refused(game, "move B1 10,12 beacon R1")
    assert 'R1 is never within 5" during this move (4.0)' in reason
    assert game.refusal(game.parse("move B1 12,12 beacon R1"), "blue") is None


def test_4_0_beacons_mark_only_enemy_bases(mgv):
    game = mgv.start(_beacon_table(mgv))
    assert "B9 is not an enemy base" in mgv.refused(game, "move B1 5,12 beacon B9")


def test_4_0_beacons_a_base_trapped_before_it_came_within_5_inches_marks_nothing(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B9", "L35", (2, 22), 0),
        mgv.base("red", "R1", "L35", (12, 15), 180),
    ]
    chem = mgv.box("chem", "chemical", 5, 11, 6, 13)
    game = mgv.start(bases, dice=[4, 4], features=[chem])
    game.apply("move B1 9,12 beacon R1", "blue")  # 4.2" from R1 at its end, if it got there
    assert mgv.the(game, "B1").trapped
    assert mgv.at(game, "B1") == (5.5, 12.0)  # 7.2" from R1: never within 5"
    assert mgv.the(game, "R1").beacon_turn == 0


def test_4_0_beacons_give_friendly_missile_fire_plus_1_for_the_rest_of_the_turn_only(mgv):
    """4.0: +1 to friendly missile units firing on the marked base this turn (2 dice more
    for an L35: 2 dice a point, a stand-in); not to kinetic fire; gone after the reset."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (4, 14), 0, main="missile"),
        mgv.base("blue", "B3", "L35", (2, 16), 0),
        mgv.base("red", "R1", "L35", (13, 15), 180),
    ]
    game = mgv.start(bases, dice=[6, 1])
    game.apply("move B1 10,12 beacon R1", "blue")
    game.apply("end", "blue")  # Y: blue again: its fire phase
    game.apply("fire B3>R1 B2>R1", "blue")
    assert "attack 2 has 8 dice to split, not 6" in mgv.refused(game, "split 2=6/0/0", "blue")
    game.apply("split 2=8/0/0", "blue")
    mgv.give(game, 1, 1, *[1] * 8, *[1] * 4)  # kinetic 2; missile 8 dice; 4 blocks
    game.apply("block 2=4/0/0", "red")
    kinetic = next(e for e in mgv.events(game, "attack") if e.data["attack"] == 1)
    assert "marked by a beacon: ignored for this weapon" in kinetic.text
    missile = next(e for e in mgv.events(game, "attack") if e.data["attack"] == 2)
    assert "marked by a beacon: +1" in missile.text
    # no Z roll: red moves and fires, then the reset; turn 2, blue fires again
    game.apply("phase move", "red")
    game.apply("end", "red")
    mgv.act(game, "red", "fire none", 1, 6)
    assert game.state.turn == 2
    assert "beacon (white)" not in mgv.status(game, "R1")
    game.apply("phase fire", "red")
    mgv.act(game, "red", "fire none", 6, 1)
    game.apply("phase fire", "blue")
    game.apply("fire B2>R1", "blue")
    assert "attack 1 has 6 dice to split, not 8" in mgv.refused(game, "split 1=8/0/0", "blue")


def test_4_0_beacons_do_not_help_photon_fire(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (2, 16), 0, main="photon"),
        mgv.base("red", "R1", "L35", (13, 15), 180),
    ]
    game = mgv.start(bases, dice=[6, 1])
    game.apply("move B1 10,12 beacon R1", "blue")
    game.apply("end", "blue")  # Y: blue again: its fire phase
    game.apply("range B2>R1=11", "blue")
    mgv.act(game, "blue", "fire B2>R1", 1, 1)
    attack = mgv.last(game, "attack")
    assert "marked by a beacon: ignored for this weapon" in attack.text


# -- the move language (issue 25): relative steps, legs held at a facing ------------------------
def test_4_0_figure_1_written_in_relative_steps_spends_the_same_7_and_a_half_inches(mgv):
    """Figure 1 as a player says it: 2" forward, turn right (<=45: 1/2"), 4" forward, turn
    right (<=90: 1"): 7 1/2" of 8"."""
    game = mgv.start(_mover(mgv, "L63"))
    action = game.parse("move B1 forward 2 turn right 45 forward 4 turn right 90")
    assert str(action) == "move B1 6,12@0 8.8284,9.1716@315 face 225"
    game.apply(action, "blue")
    assert _moved(mgv, game) == (6.0, 7.5)


def test_4_0_turn_40_then_back_straight_up_1_costs_half_an_inch_and_the_inch(mgv):
    """A turn of 40 degrees (<=45: 1/2") then 1" straight back keeping the facing (ruling 20:
    4.0 forbids only drifting to the side): 1 1/2". The old path form read the same spot as
    turn to face it (140 degrees: 2"), 1", about-face (2"): 5"."""
    game = mgv.start(_mover(mgv, "L63", at=(12, 12)))
    action = game.parse("move B1 turn left 40 reverse 1")
    (end,) = action.path
    assert action.facings == (40.0,) and action.facing is None
    assert math.dist(end, (12 - math.cos(math.radians(40)), 12 - math.sin(math.radians(40)))) < 1e-4
    old = game.parse(f"move B1 {end[0]},{end[1]} face 40")
    assert round(plan(game.state, "blue", old)[1].cost, 2) == 5.0
    assert round(plan(game.state, "blue", action)[1].cost, 2) == 1.5
    game.apply(action, "blue")
    assert _moved(mgv, game) == (1.0, 1.5)
    assert mgv.the(game, "B1").geo.facing == 40.0


def test_4_0_a_leg_held_at_a_facing_may_not_drift_to_the_side(mgv):
    """4.0: no drifting to the right or left: a held leg off the facing's line is refused."""
    game = mgv.start(_mover(mgv, "L63", at=(12, 12)))
    assert "off the facing" in mgv.refused(game, "move B1 12,13@0")
    assert mgv.refused(game, "move B1 12,13@90 11,13@90").startswith("leg 2 moves 90")


def test_4_0_toward_a_point_goes_as_far_as_the_allowance_pays(mgv):
    """``toward X,Y`` after a turn: the turn to face it (90: 1") comes off the 8"."""
    game = mgv.start(_mover(mgv, "L63", at=(4, 4)))
    action = game.parse("move B1 toward 4,20")
    assert action.path == ((4.0, 11.0),)  # 1" for the turn, 7" of the 16"
    near = game.parse("move B1 toward 4,6")
    assert near.path == ((4.0, 6.0),)  # within reach: the very point
    game.apply(action, "blue")
    assert _moved(mgv, game) == (7.0, 8.0)
