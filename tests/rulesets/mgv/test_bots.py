"""The greedy bot's MGV play (issue 25): it marks beacons before its side's missile fire,
moves to bring its arcs to bear and to close to the kinetic bands, runs for the exit edge,
goes for a strike target and combines a wing's missiles. Each is decided from the bot's
own seat (``game.seat(side)``), in a constructed position."""

from __future__ import annotations

import math

from warbench.bots import make_bot
from warbench.core.actions import END
from warbench.geometry.table import in_arc
from warbench.rulesets.mgv import fire
from warbench.rulesets.mgv.actions import FireOrder, Move
from warbench.rulesets.mgv.data import rules


def _choose(game, side="blue", seed=1):
    return make_bot("greedy", seed).choose(game.seat(side), side)


def _move_phase(game, side="blue"):
    """Play the bot's moves until the movement phase ends; the moves it made."""
    made = []
    while game.state.step == "move" and game.state.actor == side:
        action = _choose(game, side)
        game.apply(action, side)
        made.append(action)
    return made


def test_4_0_the_bot_marks_a_beacon_before_its_missile_fire(mgv):
    """4.0 Marker Beacons: +1 to friendly missile fire on the base for the rest of the
    turn. Blue moves before it fires, its L35s carry missiles and R1 is in reach: the
    mover marks it."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile", wing="w"),
        mgv.base("blue", "B2", "L35", (4, 9), 0, main="missile", wing="w"),
        mgv.base("red", "R1", "L63", (12, 11), 180),
    ]
    game = mgv.start(bases, "blue", "move", tail=True)
    action = _choose(game)
    assert isinstance(action, Move) and action.beacon == "R1"
    game.apply(action, "blue")
    assert mgv.the(game, "R1").beacon_turn == game.state.turn


def test_4_0_no_beacon_once_the_side_has_fired_this_turn(mgv):
    """4.0: "if you have already fired this turn, marker beacons are a waste of time":
    after its fire phase, the side's moves offer no beacon and the bot marks nothing."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L63", (12, 11), 180),
    ]
    game = mgv.start(bases, "blue", "fire", dice=mgv.WIN["blue"], tail=True)
    game.apply("fire none", "blue")
    assert game.state.step == "move" and game.state.actor == "blue"
    moves = [a for a in game.legal_actions("blue") if isinstance(a, Move)]
    assert moves and all(m.beacon is None for m in moves)
    chosen = _choose(game)
    assert not (isinstance(chosen, Move) and chosen.beacon)


def test_4_0_the_bot_turns_to_bring_an_enemy_out_of_its_arc_under_fire(mgv):
    """5.0 Arcs of fire: R1 stands beside B1, outside its 60-degree arc. With its fire
    still to come, B1 does not sit still: it ends with R1 in its arc."""
    bases = [
        mgv.base("blue", "B1", "L63", (12, 12), 0),
        mgv.base("red", "R1", "L35", (12, 18), 0),
    ]
    game = mgv.start(bases, "blue", "move", tail=True)
    assert not fire.targets(game.state, mgv.the(game, "B1"), "kinetic")
    action = _choose(game)
    assert isinstance(action, Move) and action != Move("B1", (), 0.0)
    game.apply(action, "blue")
    assert [t.id for t in fire.targets(game.state, mgv.the(game, "B1"), "kinetic")] == ["R1"]


def test_4_0_the_bot_leaves_an_enemy_arc_it_cannot_answer(mgv):
    """B1 has already fired this turn and R1, which has moved, still fires at it: B1
    gets out of R1's arc rather than wait there."""
    bases = [
        mgv.base("blue", "B1", "L35", (12, 12), 90),
        mgv.base("red", "R1", "L63", (4, 12), 0),
    ]
    game = mgv.start(bases, "red", "move", tail=True)
    game.apply("end", "red")  # red has moved (and will fire this turn)
    mgv.give(game, *mgv.WIN["blue"])
    mgv.give(game, *mgv.WIN["blue"])  # Z: blue moves; red's fire is left for the F action
    game.apply("phase fire", "blue")  # R1 is outside B1's arc: nothing to fire
    assert game.state.step == "move" and game.state.actor == "blue"
    half = rules().data.arc_half_angle
    assert in_arc(mgv.the(game, "R1").geo, mgv.the(game, "B1").geo, half)
    game.apply(_choose(game), "blue")
    assert not in_arc(mgv.the(game, "R1").geo, mgv.the(game, "B1").geo, half)


def test_4_0_the_bot_closes_to_the_kinetic_bands(mgv):
    """Kinetic fire is best close (data/combat.toml [kinetic.range]): an L63 18" from a
    lighter L35 closes in to short range or nearer before its fire."""
    bases = [
        mgv.base("blue", "B1", "L63", (2, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "move", tail=True)
    game.apply(_choose(game), "blue")
    assert math.dist(mgv.at(game, "B1"), mgv.at(game, "R1")) <= 12.0


def test_4_0_a_gauntlet_runner_makes_for_the_exit_edge(mgv):
    """A runner with the hunter behind it makes for the east edge, all its allowance."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 90),
        mgv.base("red", "R1", "L35", (1, 2), 90),
    ]
    victory = {"kind": "gauntlet", "side": "blue", "edge": "east", "count": 1}
    game = mgv.start(bases, "blue", "move", tail=True, victory=victory)
    game.apply(_choose(game), "blue")
    assert mgv.at(game, "B1")[0] >= 10.0  # 8" allowance less the turn


def test_4_0_a_strike_group_goes_for_its_named_target(mgv):
    bases = [
        mgv.base("blue", "B1", "L63", (4, 4), 90),
        mgv.base("red", "R1", "L35", (20, 20), 225),
        mgv.base("red", "R2", "L35", (4, 20), 270),
    ]
    victory = {"kind": "strike", "side": "blue", "target": "R1"}
    game = mgv.start(bases, "blue", "move", tail=True, victory=victory)
    before = math.dist(mgv.at(game, "B1"), mgv.at(game, "R1"))
    game.apply(_choose(game), "blue")
    assert math.dist(mgv.at(game, "B1"), mgv.at(game, "R1")) <= before - 4.0


def test_4_0_ending_the_phase_never_beats_staying_put(mgv):
    """'end' leaves every base still to move where it is: the bot weighs each base's own
    moves (staying put among them) first, so both bases here get to move."""
    bases = [
        mgv.base("blue", "B1", "L63", (2, 6), 0),
        mgv.base("blue", "B2", "L63", (2, 18), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "move", tail=True)
    stay = Move("B1", (), 0.0)
    scores = game.ruleset.evaluate(game.state, "blue", [stay, END])
    assert scores[0] > scores[1]
    made = _move_phase(game)
    assert {a.base for a in made if isinstance(a, Move)} == {"B1", "B2"}


def test_5_2_the_bot_combines_a_wings_missiles(mgv):
    """5.2 Combining Fire: a wing pair's missile dice in one attack (double firepower)."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile", wing="w"),
        mgv.base("blue", "B2", "L35", (4, 14), 0, main="missile", wing="w"),
        mgv.base("red", "R1", "L63", (12, 13), 180),
    ]
    game = mgv.start(bases, "blue", "fire", tail=True)
    action = _choose(game)
    assert isinstance(action, FireOrder)
    assert (("B1", "B2"), "main", "R1") in action.attacks
