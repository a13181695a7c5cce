"""5.0 Direct Fire, 5.1 Modifiers, 5.2 Missile Fire, 5.2 Applying Damage and 1.6 sudden
death through the engine, with scripted dice; 1.4 cover and sight (hugging, Y&N).

The usual table: blue's B1 at (4, 12) facing east, red's R1 at (20, 12) facing west,
16" apart (beyond the stand-in close range bands of kinetic fire). An L35 (attack 3)
firing kinetic at an L35 (defence 2) uses column +1 of the kinetic table, so 2D6 of 3
scores nothing there and one hit in column +2 (one modifier point more)."""

from __future__ import annotations

import math

import pytest
from tests.cli.test_mgv_play import BLUE_ARM, RED_ARM

from warbench.rulesets.mgv import combat
from warbench.rulesets.mgv.actions import Mark
from warbench.rulesets.mgv.fire import dice_counts


def _pair(mgv, blue="kinetic", red="kinetic", red_at=(20, 12), blue_model="L35", **extra):
    return [
        mgv.base("blue", "B1", blue_model, (4, 12), 0, main=blue),
        mgv.base("red", "R1", "L35", red_at, 180, main=red, **extra),
    ]


def _start(mgv, bases, first="blue", kind="fire", dice=(), **kw):
    """A game where ``first`` won the X roll and chose ``kind``; after the scripted
    ``dice``, blue wins every roll (6 to 1; 2D6 rolls then total 7)."""
    return mgv.start(bases, first, kind, dice, tail=True, **kw)


MISSILE_1 = {"attack": 1, "weapon": "missile"}
"""What a hits event says of whose hits they are: attack 1's missile hits."""


def fire_dice(game):
    return dice_counts(game.state)


def _attack(mgv, game, number=1):
    return next(e for e in mgv.events(game, "attack") if e.data["attack"] == number)


def _polar(origin, bearing, distance):
    rad = math.radians(bearing)
    return (
        round(origin[0] + distance * math.cos(rad), 4),
        round(origin[1] + distance * math.sin(rad), 4),
    )


# -- 5.0 arcs of fire and sight ----------------------------------------------------------------
@pytest.mark.parametrize("weapon", ["kinetic", "photon"])
def test_5_0_kinetic_and_photon_fire_within_30_degrees_of_the_centreline(mgv, weapon):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main=weapon),
        mgv.base("red", "R1", "L35", _polar((4, 12), 29, 8), 180),
        mgv.base("red", "R2", "L35", _polar((4, 12), -31, 9), 180),
    ]
    game = _start(mgv, bases, kind="fire")
    if weapon == "photon":
        game.apply("range B1>R1=8", "blue")
    reason = mgv.refused(game, "fire B1>R2", "blue")
    assert reason == "B1 cannot fire at R2: R2 is outside the 60-degree arc (5.0)"
    assert game.refusal(game.parse("fire B1>R1"), "blue") is None


def _with_r2(mgv, bases):
    """A second red base in plain sight (so blue's fire phase is not passed)."""
    return [*bases, mgv.base("red", "R2", "L35", (20, 4), 180)]


@pytest.mark.parametrize("weapon", ["kinetic", "photon"])
def test_5_0_kinetic_and_photon_need_a_line_of_sight_from_the_centre_post(mgv, weapon):
    rock = mgv.box("rock", "rock", 11, 11, 12, 13)
    game = _start(mgv, _with_r2(mgv, _pair(mgv, blue=weapon)), kind="fire", features=[rock])
    if weapon == "photon":
        game.apply("range B1>R1=16", "blue")
    assert game.state.step == "declare"
    assert "no line of sight to R1 (5.0)" in mgv.refused(game, "fire B1>R1", "blue")


def test_5_0_a_side_with_no_target_in_sight_passes_its_fire_phase(mgv):
    rock = mgv.box("rock", "rock", 11, 11, 12, 13)
    game = _start(mgv, _pair(mgv), kind="fire", features=[rock])
    assert mgv.last(game, "pass").text == "blue has no mount able to fire"


def test_5_0_missile_fires_up_to_30_degrees_off_line_at_the_off_line_penalty(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", _polar((4, 12), 45, 10), 180),
        mgv.base("red", "R2", "L35", _polar((4, 12), -61, 9), 180),
    ]
    game = _start(mgv, bases, kind="fire")
    reason = mgv.refused(game, "fire B1>R2", "blue")
    assert reason == "B1 cannot fire at R2: R2 is outside the missile's 120-degree arc (5.0)"
    game.apply("fire B1>R1", "blue")
    assert mgv.last(game, "declare").text.endswith("off-line")
    # attack 3, off-line -1: 2 dice a point, 4 dice
    assert "attack 1 has 4 dice to split, not 6" in mgv.refused(game, "split 1=6/0/0", "blue")


def test_5_0_missile_fires_round_an_obstacle_always_at_the_off_line_penalty(mgv):
    rock = mgv.box("rock", "rock", 11, 11, 12, 13)
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire", features=[rock])
    game.apply("fire B1>R1", "blue")
    assert mgv.last(game, "declare").text.endswith("off-line")
    game.apply("split 1=4/0/0", "blue")
    mgv.give(game, *[1] * 8)
    game.apply("block 1=4/0/0", "red")
    assert (
        "missile fired off-line (beyond 30 degrees of the centreline): -1"
        in _attack(mgv, game).text
    )


def test_5_0_missile_in_the_main_arc_with_sight_has_no_penalty(mgv):
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire")
    game.apply("fire B1>R1", "blue")
    assert not mgv.last(game, "declare").text.endswith("off-line")
    assert game.refusal(game.parse("split 1=6/0/0"), "blue") is None


def test_5_0_a_base_with_nothing_in_its_arcs_passes_its_fire_phase(mgv):
    game = mgv.new_game(_pair(mgv, red_at=(4, 20)), dice=[6, 1, 6, 1])
    game.apply("phase fire", "blue")
    assert mgv.last(game, "pass").text == "blue has no mount able to fire"


def test_5_0_each_mount_fires_once_a_phase(mgv):
    bases = [
        mgv.base("blue", "B1", "L63", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
        mgv.base("red", "R2", "L35", (20, 14), 180),
    ]
    game = _start(mgv, bases, kind="fire")
    assert "fires only once a phase" in mgv.refused(game, "fire B1>R1 B1>R2", "blue")
    assert game.refusal(game.parse("fire B1>R1 B1.secondary>R2"), "blue") is None


# -- 1.4 cover and sight -----------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "classes"), [("rock", 1), ("shrapnel", 2), ("fungus", 1)])
def test_1_4_cover_hugging_a_vertical_face_gives_its_cover_class(mgv, kind, classes):
    """Rock x1, shrapnel x2, fungus tower x1, for a target touching the feature on the
    shooter's side (the feature beside the line of fire, not across it)."""
    feature = mgv.box("f", kind, 17, 12.5, 20, 14)  # its lower face touches R1's base
    game = _start(mgv, _pair(mgv), kind="fire", dice=[1, 2], features=[feature])
    game.apply("fire B1>R1", "blue")
    text = _attack(mgv, game).text
    assert f"cover class x{classes}: -{classes}" in text
    assert _attack(mgv, game).data["hits"] == 0


def test_1_4_cover_not_from_a_feature_behind_the_target(mgv):
    feature = mgv.box("f", "shrapnel", 20, 12.5, 23, 14)  # touching, but on the far side
    game = _start(mgv, _pair(mgv), kind="fire", dice=[1, 2], features=[feature])
    game.apply("fire B1>R1", "blue")
    assert "cover" not in _attack(mgv, game).text


def test_1_4_cover_not_when_the_target_only_stands_near_the_feature(mgv):
    feature = mgv.box("f", "rock", 17, 12.7, 20, 14)  # 0.2" from R1's base
    game = _start(mgv, _pair(mgv), kind="fire", dice=[1, 2], features=[feature])
    game.apply("fire B1>R1", "blue")
    assert "cover" not in _attack(mgv, game).text


@pytest.mark.parametrize("kind", ["sand", "large_insect"])
def test_1_4_y_and_n_cover_right_behind_and_fire_through_it(mgv, kind):
    """Y&N: a base touching the feature is covered (x1) and may be fired on through it."""
    feature = mgv.box("f", kind, 17, 10, 19.5, 14)
    game = _start(mgv, _pair(mgv), kind="fire", dice=[1, 2], features=[feature])
    game.apply("fire B1>R1", "blue")
    assert "cover class x1: -1" in _attack(mgv, game).text


@pytest.mark.parametrize("kind", ["sand", "large_insect"])
def test_1_4_y_and_n_blocks_sight_to_a_base_beyond_it(mgv, kind):
    feature = mgv.box("f", kind, 17, 10, 19, 14)  # R1's base is 0.5" beyond its face
    game = _start(mgv, _with_r2(mgv, _pair(mgv)), kind="fire", features=[feature])
    assert game.state.step == "declare"
    assert "no line of sight to R1" in mgv.refused(game, "fire B1>R1", "blue")


def test_1_4_y_and_n_a_base_right_behind_it_fires_out_across_it(mgv):
    sand = mgv.box("f", "sand", 4.5, 10, 7, 14)  # touching B1's base, between B1 and R1
    game = _start(mgv, _pair(mgv), kind="fire", dice=[1, 2], features=[sand])
    game.apply("fire B1>R1", "blue")
    assert "cover" not in _attack(mgv, game).text


def test_1_4_fungus_towers_block_sight_through_them(mgv):
    tower = mgv.circle("tower", "fungus", (12, 12), 1.0)
    game = _start(mgv, _with_r2(mgv, _pair(mgv)), kind="fire", features=[tower])
    assert "no line of sight to R1" in mgv.refused(game, "fire B1>R1", "blue")


# -- 5.1 Modifiers -----------------------------------------------------------------------------
def test_5_1_target_fired_last_phase_plus_1(mgv):
    game = _start(mgv, _pair(mgv), "red", "fire", dice=[1, 1, *mgv.WIN["blue"]])
    game.apply("fire R1>B1", "red")  # 2 on 2D6: no hit
    game.apply("phase fire", "blue")
    mgv.act(game, "blue", "fire B1>R1", 1, 2)
    attack = mgv.events(game, "attack")[-1]
    assert "target fired: +1" in attack.text
    assert attack.data["hits"] == 1  # column +2: 3 on 2D6 is a hit


def test_5_1_target_fired_last_phase_counts_across_the_turn_boundary(mgv):
    """The F action of turn 1 is the phase just before the X phase of turn 2."""
    game = _start(mgv, _pair(mgv), "blue", "move", dice=[*mgv.WIN["blue"]])
    game.apply("end", "blue")  # Y: blue fires
    game.apply("fire none", "blue")  # no Z roll: red chooses
    game.apply("phase move", "red")
    game.apply("end", "red")  # F: red fires
    mgv.act(game, "red", "fire R1>B1", 1, 1, *mgv.WIN["blue"])  # no hit; turn 2, X: blue
    assert game.state.turn == 2
    game.apply("phase fire", "blue")
    mgv.act(game, "blue", "fire B1>R1", 1, 2)
    attack = mgv.events(game, "attack")[-1]
    assert "target fired: +1" in attack.text
    assert attack.data["hits"] == 1


def test_5_1_target_that_fired_two_phases_ago_gives_nothing(mgv):
    game = _start(mgv, _pair(mgv), "red", "fire", dice=[1, 1, *mgv.WIN["red"]])
    game.apply("fire R1>B1", "red")
    game.apply("end", "red")  # Y: red's move (nothing moves); no Z roll: blue chooses
    game.apply("phase fire", "blue")
    mgv.act(game, "blue", "fire B1>R1", 1, 2)
    attack = mgv.events(game, "attack")[-1]
    assert "target fired" not in attack.text
    assert attack.data["hits"] == 0


@pytest.mark.parametrize(("to", "bonus"), [(18.0, True), (18.1, False), (16.0, True)])
def test_5_1_target_moved_2_inches_or_more_last_phase_plus_1(mgv, to, bonus):
    """2" or more: +1; 1.9" gives nothing."""
    game = _start(mgv, _pair(mgv), "red", "move", dice=mgv.WIN["blue"])
    game.apply(f"move R1 {to},12", "red")
    game.apply("phase fire", "blue")
    mgv.act(game, "blue", "fire B1>R1", 1, 2)
    attack = mgv.events(game, "attack")[-1]
    assert ('moved 2" or more last phase: +1' in attack.text) is bonus
    assert attack.data["hits"] == (1 if bonus else 0)


def test_5_1_turning_on_the_spot_is_not_moving(mgv):
    game = _start(mgv, _pair(mgv), "red", "move", dice=mgv.WIN["blue"])
    game.apply("move R1 face 0", "red")  # 2" of allowance spent, nothing travelled
    game.apply("phase fire", "blue")
    mgv.act(game, "blue", "fire B1>R1", 1, 2)
    assert "moved" not in mgv.events(game, "attack")[-1].text


def test_5_1_cover_subtracts_from_the_attack_value_of_every_weapon(mgv):
    shrapnel = mgv.box("f", "shrapnel", 17, 12.5, 20, 14)
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = _start(mgv, bases, kind="fire", features=[shrapnel])
    game.apply("fire B1>R1", "blue")
    # attack 3, cover x2: 1 point, 2 dice
    assert "attack 1 has 2 dice to split, not 6" in mgv.refused(game, "split 1=6/0/0", "blue")


@pytest.mark.parametrize(
    ("guess", "penalty", "hits"),
    [(16.0, 0, 10), (16.5, 0, 10), (15.5, 0, 10), (16.75, -1, 8), (17.75, -3, 4), (14.25, -3, 4)],
)
def test_5_1_each_full_half_inch_of_ranging_error_is_minus_1(mgv, guess, penalty, hits):
    """5.1 Modifiers: 1 3/4" out is -3, not -4; a guess within 1/2" has no penalty. A J90
    photon (attack 5) at 16": 12 on 2D6 scores 10 hits at value 5, 8 at 4, 4 at 2."""
    bases = [
        mgv.base("blue", "B1", "J90", (4, 12), 0, main="photon", secondary="kinetic"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = _start(mgv, bases, kind="fire", dice=[6, 6])
    game.apply(f"range B1>R1={guess}", "blue")
    game.apply("fire B1>R1", "blue")
    attack = _attack(mgv, game)
    assert attack.data["hits"] == hits
    assert attack.data["error"] == abs(guess - 16.0)
    if penalty:
        assert f'ranging error {abs(guess - 16.0):g}": {penalty}' in attack.text
    else:
        assert "ranging error" in attack.text and '": +0' in attack.text


def _screen_table(mgv, screener="L35"):
    return [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
        mgv.base("red", "R2", screener, (20, 16), 180, main="missile", secondary="missile"),
    ]


def test_5_1_interception_each_3_points_screening_the_attack_is_minus_1(mgv):
    game = _start(mgv, _screen_table(mgv), kind="fire")
    game.apply("fire B1>R1", "blue")
    assert game.waiting_for() == ("red",)
    assert game.state.step == "screen"
    mgv.act(game, "red", "screen R2>1", 1, 2)
    assert "R2 screens attack 1 (3 interception points)" in mgv.texts(game)
    attack = _attack(mgv, game)
    assert "3 interception points: -1" in attack.text
    assert attack.data["hits"] == 0  # column 0: 3 on 2D6 scores nothing


def test_5_1_interception_fewer_than_3_points_give_nothing(mgv):
    game = _start(mgv, _screen_table(mgv, "L63"), kind="fire")
    game.apply("fire B1>R1", "blue")
    mgv.act(game, "red", "screen R2.secondary>1", 1, 2)  # an L63 secondary: 2 points
    attack = _attack(mgv, game)
    assert "2 interception points: +0" in attack.text
    assert attack.data["hits"] == 0


def test_5_1_interception_a_screen_counts_as_that_weapons_fire_for_the_turn(mgv):
    game = _start(mgv, _screen_table(mgv), kind="fire")
    game.apply("fire B1>R1", "blue")
    mgv.act(game, "red", "screen R2>1", 1, 2, *mgv.WIN["red"])
    assert "fired (yellow)" in mgv.status(game, "R2")
    game.apply("phase fire", "red")
    reason = mgv.refused(game, "fire R2>B1", "red")
    assert "R2 main has already fired this turn" in reason
    game.apply("fire R1>B1", "red")  # 7 on 2D6 (the dice after the script): 2 hits
    game.apply("mark auto", "blue")
    # Z: blue moves; F: red moves; the reset; turn 2: X blue moves, Y blue fires, red chooses
    game.apply("end", "blue")
    game.apply("end", "red")
    assert game.state.turn == 2
    game.apply("phase move", "blue")
    game.apply("end", "blue")
    game.apply("fire none", "blue")
    game.apply("phase fire", "red")
    assert game.refusal(game.parse("fire R2>B1"), "red") is None  # its weapon is ready again


def test_5_1_interception_only_unfired_missile_mounts_screen(mgv):
    game = _start(mgv, _screen_table(mgv), kind="fire")
    game.apply("fire B1>R1", "blue")
    assert "R1 main is not a missile mount able to screen now" in mgv.refused(
        game, "screen R1>1", "red"
    )
    assert "there is no attack 2" in mgv.refused(game, "screen R2>2", "red")


def test_5_1_interception_no_screen_step_without_a_missile_mount_to_screen(mgv):
    game = _start(mgv, _pair(mgv), kind="fire", dice=[1, 2])
    game.apply("fire B1>R1", "blue")
    assert "screen" not in mgv.kinds(game)
    assert mgv.events(game, "attack")


# -- 5.2 Missile Fire --------------------------------------------------------------------------
def test_5_2_missile_splits_are_a_sealed_round_of_both_sides(mgv):
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire")
    game.apply("fire B1>R1", "blue")
    assert game.decision.kind.value == "sealed"
    assert game.waiting_for() == ("blue", "red")
    game.apply("split 1=1/2/3", "blue")
    assert game.waiting_for() == ("red",)
    assert "my_sealed_choice" not in game.view("red")
    assert "1/2/3" not in mgv.texts(game)
    assert game.view("blue")["my_sealed_choice"] == "split 1=1/2/3"
    mgv.give(game, *[1] * 6, *[1] * 4)
    game.apply("block 1=4/0/0", "red")
    revealed = mgv.last(game, "splits")
    assert revealed.data == {"splits": {"1": [1, 2, 3]}, "blocks": {"1": [4, 0, 0]}}


def test_5_2_missile_dice_counts_are_enforced(mgv):
    """Stand-in allotment: 2 dice a point of attack (L35: 6) and 2 block dice a point of
    defence (L35: 4)."""
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire")
    game.apply("fire B1>R1", "blue")
    assert "attack 1 has 6 dice to split, not 5" in mgv.refused(game, "split 1=3/1/1", "blue")
    assert "attack 1 has 4 dice to split, not 6" in mgv.refused(game, "block 1=2/2/2", "red")
    assert "you defend: write block" in mgv.refused(game, "split 1=4/0/0", "red")
    assert "you attack: write split" in mgv.refused(game, "block 1=6/0/0", "blue")
    assert "attack 2 is not a missile attack" in mgv.refused(game, "split 1=6/0/0 2=1/0/0", "blue")
    assert "1 is missing" in mgv.refused(game, "split none", "blue")


def test_5_2_missile_hits_per_colour_are_the_score_less_the_blocks(mgv):
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire")
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=2/2/2", "blue")
    # attacker: surface 4,5 (2), core 6,1 (1), heart 4,4 (2); blocks: surface 4,1 (1),
    # core 5 (1), heart 1 (0)
    mgv.give(game, 4, 5, 6, 1, 4, 4, 4, 1, 5, 1)
    game.apply("block 1=2/1/1", "red")
    assert _attack(mgv, game).data["layers"] == [1, 0, 2]
    purposes = [e.data["purpose"] for e in mgv.events(game, "roll")][-6:]
    assert purposes == [
        "attack 1: missile attack, surface",
        "attack 1: missile attack, core",
        "attack 1: missile attack, heart",
        "attack 1: missile blocks, surface",
        "attack 1: missile blocks, core",
        "attack 1: missile blocks, heart",
    ]


def test_5_2_missile_totals_score_and_block_by_default(mgv):
    """5.2, ruling 18: the attacker's pip total of each colour is the hits there, less
    the defender's pip total of that colour; an L35's 3-rated mount throws 2 dice
    (one per 2 points, part points up) against the L35's 2 block dice (one, and one
    more per 2 points of defence)."""
    bases = _pair(mgv, blue="missile")
    game = _start(mgv, bases, kind="fire", options={"missile_scoring": "totals"})
    game.apply("fire B1>R1", "blue")
    assert fire_dice(game) == "attack 1 (B1 at R1): 2 dice against 2 block dice"
    game.apply("split 1=1/1/0", "blue")
    mgv.give(game, 5, 4, 2, 6)  # attacker: surface 5, core 4; defender: surface 2, heart 6
    game.apply("block 1=1/0/1", "red")
    assert _attack(mgv, game).data["layers"] == [3, 4, 0]


def test_5_2_missile_successes_count_dice_as_an_option(mgv):
    """Ruling 18's option: each die of 4+ scores or blocks one, 2 dice a point."""
    bases = _pair(mgv, blue="missile")
    game = _start(mgv, bases, kind="fire", options={"missile_scoring": "successes"})
    game.apply("fire B1>R1", "blue")
    assert fire_dice(game) == "attack 1 (B1 at R1): 6 dice against 4 block dice"


def test_5_2_missile_block_dice_fall_as_surface_damage_lowers_the_defence(mgv):
    """Stand-in: 2 block dice a point of the current defence; an L35 (defence 2) loses a
    point for every 4 marked surface circles, never below 1 (5.2 Applying Damage)."""
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire")
    mgv.damage(game, "R1", {"s1": "S", "s2": "S", "s3": "S", "s4": "S"})
    game.apply("fire B1>R1", "blue")
    assert "attack 1 has 2 dice to split, not 4" in mgv.refused(game, "block 1=4/0/0", "red")


def _wing(mgv, weapon="missile", wing="w"):
    return [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main=weapon, wing=wing),
        mgv.base("blue", "B2", "L35", (4, 14), 0, main=weapon, wing=wing),
        mgv.base("blue", "B3", "L35", (4, 8), 0, main="missile"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]


def test_5_2_combining_fire_a_wing_pair_combines_its_missile_dice(mgv):
    game = _start(mgv, _wing(mgv), kind="fire")
    game.apply("fire B1+B2>R1", "blue")
    assert mgv.last(game, "declare").data["shooters"] == ["B1", "B2"]
    assert "attack 1 has 12 dice to split, not 6" in mgv.refused(game, "split 1=6/0/0", "blue")
    assert mgv.the(game, "B2").mounts["main"].spent_turn == 1  # both mounts have fired


def test_5_2_combining_fire_only_the_two_bases_of_a_wing(mgv):
    game = _start(mgv, _wing(mgv), kind="fire")
    assert "B1 and B3 are not a wing pair (1.3)" in mgv.refused(game, "fire B1+B3>R1", "blue")


def test_5_2_combining_fire_only_missile_mounts_combine(mgv):
    game = _start(mgv, _wing(mgv, weapon="kinetic"), kind="fire")
    reason = mgv.refused(game, "fire B1+B2>R1", "blue")
    assert "only missile mounts of a wing combine fire (5.2)" in reason


@pytest.mark.parametrize(("rule", "marked"), [("a", []), ("b", ["c2", "c3"])])
def test_5_2_missile_core_rule_chosen_before_the_game_governs_the_placement(mgv, rule, marked):
    """R1 has s1 and c1 marked. (a) core marks must balance surface losses: no room for
    another core mark; (b) core hits eat round beneath intact surface: c2 and c3."""
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire", options={"core_rule": rule})
    mgv.damage(game, "R1", {"s1": "S", "c1": "P"})
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/6/0", "blue")
    mgv.give(game, *[6] * 6, 1, 1, 1, 1)
    game.apply("block 1=4/0/0", "red")
    hits = mgv.last(game, "hits")
    assert hits.data == {"base": "R1", "circles": marked, "lost": 6 - len(marked)} | MISSILE_1
    assert f"({6 - len(marked)} hit(s) find no circle and are lost)" in hits.text


# -- 5.2 Applying Damage -----------------------------------------------------------------------
def _three_hits(mgv, **kw):
    """B1 scores 3 kinetic hits on R1 (12 on 2D6 in column +1) from straight ahead."""
    game = _start(mgv, _pair(mgv, **kw), kind="fire", dice=[6, 6])
    game.apply("fire B1>R1", "blue")
    assert _attack(mgv, game).data["hits"] == 3
    return game


def test_5_2_applying_damage_the_targets_owner_places_the_hits(mgv):
    game = _three_hits(mgv)
    assert game.waiting_for() == ("red",)
    assert "on R1" in game.decision.prompt and "5.2" in game.decision.prompt
    assert Mark((), auto=True) in game.legal_actions("red")
    game.apply("mark s1 s2 s8", "red")
    assert mgv.the(game, "R1").log.to_json() == {"s1": "S", "s2": "S", "s8": "S"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("mark s1 c1", "c1 may not be marked while 7 surface circles are unmarked"),
        ("mark s1 s2 s5", "s5 is on the far side from the attacker"),
        ("mark s1 s2 s3 s8", "4 circles named for 3 hits"),
        ("mark s1 s2", "3 hits could be placed but only 2 were"),
        ("mark s1 s1 s2", "s1 is named twice"),
        ("mark s1 s2 s9", "s9 is not a circle of this hull"),
    ],
)
def test_5_2_applying_damage_placements_are_refused_with_the_rules_reason(mgv, text, reason):
    game = _three_hits(mgv)
    assert reason in mgv.refused(game, text, "red")


def test_5_2_applying_damage_mark_auto_places_by_the_default(mgv):
    game = _three_hits(mgv)
    game.apply("mark auto", "red")
    assert len(mgv.the(game, "R1").log) == 3
    assert mgv.last(game, "hits").data["base"] == "R1"


def test_5_2_applying_damage_a_group_with_one_legal_placement_is_placed_for_the_owner(mgv):
    """Every surface circle but s1 (dead ahead) is marked, and the core circle facing
    the attacker too: two kinetic hits can go only on s1 and the heart (the other
    core circles are on the far side; the heart needs no second core mark, since
    none is left facing the attacker, ruling 17)."""
    game = _start(mgv, _pair(mgv), kind="fire", dice=[4, 4])
    mgv.damage(game, "R1", {**{f"s{i}": "S" for i in range(2, 9)}, "c1": "P", "h1": "B"})
    assert mgv.the(game, "R1").defence == 1
    game.apply("fire B1>R1", "blue")
    assert _attack(mgv, game).data["hits"] == 2
    assert mgv.last(game, "hits").data == {"base": "R1", "circles": ["s1", "h2"], "lost": 0} | {
        "attack": 1,
        "weapon": "kinetic",
    }
    assert game.state.step != "place"


def test_5_2_applying_damage_hits_with_no_legal_circle_are_lost(mgv):
    """Missile heart hits need a marked core circle to adjoin: on a fresh hull, lost."""
    game = _start(mgv, _pair(mgv, blue="missile"), kind="fire")
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/0/6", "blue")
    mgv.give(game, *[6] * 6, 1, 1, 1, 1)
    game.apply("block 1=4/0/0", "red")
    hits = mgv.last(game, "hits")
    assert hits.data == {"base": "R1", "circles": [], "lost": 6} | MISSILE_1
    assert "6 hit(s) find no circle and are lost" in hits.text
    assert not mgv.the(game, "R1").destroyed


def test_5_2_applying_damage_a_base_whose_heart_is_all_marked_is_destroyed(mgv):
    bases = [*_pair(mgv, blue="missile"), mgv.base("red", "R2", "L35", (20, 4), 180)]
    game = _start(mgv, bases, kind="fire")
    mgv.damage(game, "R1", {"s1": "S", "c1": "P", "h2": "B"})
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/0/6", "blue")
    mgv.give(game, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # one heart hit
    game.apply("block 1=4/0/0", "red")
    assert mgv.last(game, "hits").data == {"base": "R1", "circles": ["h1"], "lost": 0} | MISSILE_1
    assert mgv.last(game, "destroyed").text == "R1 is destroyed: its heart is gone"
    assert mgv.the(game, "R1").destroyed
    assert "R1" not in [f["id"] for f in game.view("blue")["figures"]]
    assert not game.is_over  # R2 fights on


def test_5_2_applying_damage_a_two_circle_heart_needs_both_marked(mgv):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "K817", (20, 12), 180),
    ]
    game = _start(mgv, bases, kind="fire")
    mgv.damage(game, "R1", {"s1": "S", "s7": "S", "c1": "P", "c3": "P"})
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/0/6", "blue")
    mgv.give(game, 4, 1, 1, 1, 1, 1, *[1] * 8)  # one heart hit
    game.apply("block 1=8/0/0", "red")
    assert game.refusal(game.parse("mark h1"), "red") is None  # either heart circle
    mgv.act(game, "red", "mark h2", 1, 1)  # (a sudden-death roll of 2 follows)
    assert mgv.the(game, "R1").log.b_hits == 1
    assert not mgv.the(game, "R1").destroyed


def test_5_2_applying_damage_s_hits_from_the_rear_arc_count_as_p_hits(mgv):
    bases = [
        mgv.base("blue", "B1", "L63", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 0),  # facing away from B1
    ]
    game = _start(mgv, bases, kind="fire", dice=[6, 6])
    game.apply("fire B1>R1", "blue")
    game.apply("mark auto", "red")
    log = mgv.the(game, "R1").log
    assert log.p_hits == len(log) == 3
    assert mgv.the(game, "R1").speed == 5.0


# -- 1.6 sudden death --------------------------------------------------------------------------
def _b_hit_target(mgv, dice):
    """A J90 (kinetic 5) fires at a K817 (defence 4) with a B hit already: column +1."""
    bases = [
        mgv.base("blue", "B1", "J90", (4, 12), 0),
        mgv.base("red", "R1", "K817", (20, 12), 180),
        mgv.base("red", "R2", "K817", (20, 4), 180),
    ]
    game = _start(mgv, bases, kind="fire", dice=dice)
    mgv.damage(game, "R1", {"s1": "S", "s2": "S", "s12": "S", "c1": "P", "c5": "P", "h1": "B"})
    return game


@pytest.mark.parametrize(("roll", "dies"), [((5, 5), True), ((4, 5), False)])
def test_1_6_sudden_death_a_base_with_a_b_hit_that_took_damage_rolls_at_the_phase_end(
    mgv, roll, dies
):
    """Stand-in: 2D6, destroyed on 10+ with one B hit."""
    game = _b_hit_target(mgv, [2, 2])  # 4 on 2D6: one hit in column +1
    game.apply("fire B1>R1", "blue")
    assert _attack(mgv, game).data["hits"] == 1
    mgv.act(game, "red", "mark auto", *roll)
    death = next(e for e in mgv.events(game, "roll") if "sudden" in e.data["purpose"])
    assert death.data["purpose"] == "R1: sudden death, 1 B hit(s) (1.6)"
    assert death.data["side"] == "red"
    assert mgv.the(game, "R1").destroyed is dies
    if dies:
        assert mgv.last(game, "destroyed").text == "R1 is destroyed: sudden death (1.6)"


def test_1_6_sudden_death_no_roll_in_a_phase_without_damage(mgv):
    game = _b_hit_target(mgv, [1, 1])  # no hit
    game.apply("fire B1>R1", "blue")
    assert _attack(mgv, game).data["hits"] == 0
    assert not [e for e in mgv.events(game, "roll") if "sudden death" in e.data["purpose"]]
    assert not mgv.the(game, "R1").destroyed


def test_1_6_sudden_death_only_for_the_base_that_took_damage(mgv):
    game = _b_hit_target(mgv, [2, 2])
    mgv.damage(game, "R2", {"s1": "S", "c1": "P", "h1": "B"})
    game.apply("fire B1>R1", "blue")
    mgv.act(game, "red", "mark auto", 1, 1)
    purposes = [e.data["purpose"] for e in mgv.events(game, "roll")]
    assert [p for p in purposes if "sudden death" in p] == ["R1: sudden death, 1 B hit(s) (1.6)"]


def test_1_6_sudden_death_chances_follow_the_stand_in_table(mgv):
    assert combat.sudden_death_threshold(1) == 10
    assert combat.sudden_death_threshold(2) == 8
    assert combat.sudden_death_threshold(3) == 6


def test_a_missile_shot_of_no_dice_is_not_listed(mgv):
    """An L12's two attack points, off-line (-1) at a target in cover (-1), throw no dice
    (5.2): still legal to type, but no plan, so neither ``list`` nor a bot offers it."""
    at = _polar((4, 12), 45, 10)
    bases = [
        mgv.base("blue", "B1", "L12", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", at, 180),
    ]
    rock = mgv.box("rock1", "rock", at[0] + 0.5, at[1] - 1, at[0] + 2, at[1] + 1)
    game = _start(mgv, bases, kind="fire", features=[rock])
    assert [str(a) for a in game.legal_actions("blue")] == ["fire none"]
    assert game.refusal(game.parse("fire B1>R1"), "blue") is None


def test_a_wing_pairs_missiles_are_offered_combined():
    """5.2: the two bases of a wing may combine their missile dice (``B2+B3>R3``); ``list``
    and the bots offer it beside each plan, and every such plan is legal."""
    from warbench.core.game import Game

    game = Game.start("mgv/clear", 0)
    game.apply(BLUE_ARM, "blue")
    game.apply(RED_ARM, "red")
    game.apply("phase fire", "blue")
    game.apply("range none", "blue")
    listed = [a for a in game.legal_actions("blue") if "B2+B3>" in str(a)]
    assert listed
    for action in listed:
        assert game.refusal(action, "blue") is None, action


@pytest.mark.parametrize("reading", ["base", "attack"])
def test_5_1_a_screen_defends_its_base_against_every_attack_on_it(mgv, reading):
    """5.1: interception points are spent "in defence of a friendly MGV base": a screen
    written against attack 1 defends R1 against attack 2 too (ruling 16); option
    screen = "attack": attack 1 only."""
    bases = [*_screen_table(mgv), mgv.base("blue", "B2", "L35", (4, 10), 0)]
    game = _start(mgv, bases, kind="fire", options={"screen": reading})
    game.apply("fire B1>R1 B2>R1", "blue")
    mgv.act(game, "red", "screen R2>1", 1, 2, 1, 2)
    second = _attack(mgv, game, 2)
    assert ("3 interception points: -1" in second.text) is (reading == "base")
    assert "3 interception points: -1" in _attack(mgv, game, 1).text


@pytest.mark.parametrize(("reading", "counts"), [("across_turns", True), ("within_turn", False)])
def test_5_1_last_phase_across_the_turn_boundary_or_within_it(mgv, reading, counts):
    """Ruling 13: in X the last phase is the F of the turn before (R1 moved 3" there);
    option last_phase = "within_turn": X has no last phase."""
    from warbench.rulesets.mgv import fire
    from warbench.rulesets.mgv.actions import FireOrder

    game = _start(mgv, _pair(mgv), "blue", "fire", options={"last_phase": reading})
    state = game.state
    state.phase, state.phase_no = 0, 5  # turn 2, X
    r1 = state.bases["R1"]
    r1.moved_phase, r1.moved_distance = 4, 3.0  # turn 1, F
    order = FireOrder(((("B1",), "main", "R1"),))
    (attack,) = fire.check_declare(state, "blue", order, None, guesses=False)
    assert fire.modifiers(state, attack).target_moved is counts


def test_5_2_hits_on_a_base_an_earlier_group_destroyed_strike_the_wreck(mgv):
    """Two attacks declared at one base (5.0 declares, then rolls): once the first has
    destroyed it, the second's hits strike the wreck: nothing to mark, no hit lost to
    the hull's rules, and the balance tally counts them apart."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("blue", "B2", "L35", (4, 14), 0),
        mgv.base("red", "R1", "L35", (20, 13), 180),
        mgv.base("red", "R2", "L35", (20, 4), 180),
    ]
    game = _start(mgv, bases, kind="fire", dice=[4, 4, 4, 4])
    everything = {**{f"s{i}": "S" for i in range(1, 9)}, "c1": "P", "c2": "P", "c3": "P"}
    mgv.damage(game, "R1", {**everything, "h2": "B"})
    game.apply("fire B1>R1 B2>R1", "blue")
    hits = mgv.events(game, "hits")
    assert hits[-2].data["circles"] == ["h1"] and mgv.the(game, "R1").destroyed
    assert hits[-1].data == {"base": "R1", "circles": [], "lost": 0, "wreck": 2} | {
        "attack": 2,
        "weapon": "kinetic",
    }
    assert "already destroyed: 2 hit(s) strike the wreck" in hits[-1].text
    tallies = game.ruleset.tallies(game.scenario, game.events)
    # the first group's second hit found no circle once h1 was gone: it struck the wreck too
    assert hits[-2].data["wreck"] == 1 and "1 more hit(s) strike the wreck" in hits[-2].text
    assert tallies["hits on wrecks"] == 3.0 and tallies["hits lost"] == 0.0
