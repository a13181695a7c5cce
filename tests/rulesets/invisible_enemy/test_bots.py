"""The greedy bot plays the barrage and movement rules, deciding from its seat (issue 25):
Type 2 markers kept for phase 4 (3.0), moves out of a marker's reach (3.0), a move that
ends facing the enemy (5.0 arcs), and no shot at a dead fungus tower (1.5 note 2)."""

from __future__ import annotations

import math
from typing import Any

from warbench.bots.greedy import GreedyBot
from warbench.geometry.table import heading, turn_angle
from warbench.rulesets.invisible_enemy import movement
from warbench.rulesets.invisible_enemy.actions import Barrage, Done, Fire, Move


def choose(game: Any, side: str) -> Any:
    """What the greedy bot plays for ``side``, from that side's seat."""
    return GreedyBot(3).choose(game.seat(side), side)


def drive(game: Any, step: str, side: str) -> None:
    """Pass and say done until ``side`` is asked in ``step``."""
    while not (game.state.step == step and side in game.decision.sides):
        mover = game.decision.sides[0]
        game.apply("pass" if game.state.step == "activate" else "done", mover)


def test_a_type2_marker_is_kept_through_phase_2_and_set_down_in_phase_4_3_0(ie: Any) -> None:
    """Blue holds one Type 2 marker (1 die, a 6) with red's lone K817 in sight: in phase 2
    it keeps it (red could still move out of its way); in phase 4, after movement, it
    sets it down on red."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (2, 2), 90)),
        ie.unit("red", "V1", ie.base("R1", "K817", (16, 16), 180)),
    ]
    game = ie.new_game(units, [1, 6, 1, 1], tail=True)
    assert game.state.step == "mark1" and game.state.networks["blue"].type2 == 1
    assert isinstance(choose(game, "blue"), Done)
    ie.act(game, "blue", "done", *ie.WIN["blue"])
    drive(game, "mark2", "blue")
    chosen = choose(game, "blue")
    assert isinstance(chosen, Barrage)
    assert math.dist(chosen.at, (16, 16)) <= 3.0


def marked_position(ie: Any) -> Any:
    """Red buys a Type 1 barrage (2 network dice against none) and sets it at 12.2,12, 2.2"
    east of blue's J90 (speed 5, range 10) facing north; red's K817 stands 18" east, out of
    range. Blue wins the initiative, passes its Control roll and moves B1."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (10, 12), 90)),
        ie.unit("red", "V1", ie.base("R1", "K817", (28, 12), 180)),
    ]
    game = ie.new_game(units, [4, 3], network=(0, 2), table=(30, 24))
    ie.act(game, "red", "buy type1", *ie.QUIET)
    ie.act(game, "red", "barrage 12.2,12", *ie.WIN["blue"])  # its last marker: phase 2 ends
    ie.act(game, "blue", "unit U1", 6)
    assert game.state.step == "unit"
    return game


def test_a_base_in_a_type1_markers_reach_moves_out_of_it_3_0(ie: Any) -> None:
    """Every move toward red ends within 3" of the marker; the bot moves out instead."""
    game = marked_position(ie)
    chosen = choose(game, "blue")
    assert isinstance(chosen, Move) and chosen.path
    assert math.dist(chosen.path[-1], (12.2, 12)) > 3.0
    ie.act(game, "blue", str(chosen))
    assert math.dist(ie.at(game, "B1"), (12.2, 12)) > 3.0


def test_a_move_ends_facing_the_enemy_5_0(ie: Any) -> None:
    """Leaving the marker's reach takes B1 west, away from red; it turns at the end to
    face red (east), out of range as red is: the arc is where it will fire from."""
    game = marked_position(ie)
    chosen = choose(game, "blue")
    assert isinstance(chosen, Move) and chosen.facing is not None
    ie.act(game, "blue", str(chosen))
    b1 = ie.the(game, "B1").geo
    assert abs(turn_angle(b1.facing, heading(b1.at, (28, 12)))) <= 22.5


def test_no_shot_alone_or_massed_goes_at_a_dead_tower_1_5_note_2(ie: Any) -> None:
    """Three L63s (C weapons: a massed battery, 5.3) have only a dead fungus tower in
    reach: the bot fires at nothing."""
    units = [
        ie.unit(
            "blue",
            "U1",
            ie.base("B1", "L63", (6, 10), 0),
            ie.base("B2", "L63", (6, 12), 0),
            ie.base("B3", "L63", (6, 14), 0),
        ),
        ie.unit("red", "V1", ie.base("R1", "K817", (22, 22), 180)),
    ]
    tower = ie.circle("T1", "fungus", (10, 12), 0.8, hull=6, live=False)
    game = ie.start(units, features=[tower], tail=True)
    drive(game, "fire_b", "blue")
    listed = game.seat("blue").legal_actions()
    assert not [a for a in listed if isinstance(a, Fire) and a.target == "T1"]
    assert isinstance(choose(game, "blue"), Done)


def breach_position(ie: Any) -> Any:
    """Blue breaks out east through a 2" band of chemical residue (3" an inch, traps on
    3+, 1.5) at x 10-12; its demolition engineer E1 stands at 9,12 facing east, its L35
    B1 at 6,16. Blue wins the initiative and E1's unit passes its Control roll."""
    units = [
        ie.unit("blue", "CE", ie.base("E1", "E7", (9, 12), 0), mission="demolition"),
        ie.unit("blue", "U1", ie.base("B1", "L35", (6, 16), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (22, 22), 180)),
    ]
    game = ie.start(
        units,
        features=[ie.box("chem", "chemical", 10, 0, 12, 24)],
        victory={"kind": "breach", "side": "blue", "edge": "east", "count": 1},
        tail=True,
    )
    ie.act(game, "blue", "unit CE", 6)
    return game


def test_a_demolition_engineer_ploughs_into_residue_it_rolls_no_trap_in_4_4(ie: Any) -> None:
    """E1 ploughs chemical residue as it moves and rolls for no trap there (4.4): the bot
    drives it into the band instead of fearing a trap."""
    game = breach_position(ie)
    chosen = choose(game, "blue")
    assert isinstance(chosen, Move) and chosen.path
    ie.act(game, "blue", str(chosen))
    assert ie.at(game, "E1")[0] > 10.0 and not ie.the(game, "E1").trapped


def test_a_breaching_base_heads_for_the_mouth_of_a_cleared_lane_4_4(ie: Any) -> None:
    """Once E1 has ploughed a lane at y 12, blue's L35 (at 6,16) has the lane's mouth
    among its goals and the bot moves it there rather than into the residue (a trapped
    base never breaks out)."""
    game = breach_position(ie)
    ie.act(game, "blue", "move E1 11.9,12")
    assert any(e.data.get("base") == "E1" for e in ie.events(game, "cleared"))
    drive(game, "activate", "blue")
    ie.act(game, "blue", "unit U1", 6)
    b1 = ie.the(game, "B1")
    mouths = [g for g in movement.goals(game.state, b1) if g[0] < 10.0 and abs(g[1] - 12) < 0.6]
    assert mouths
    chosen = choose(game, "blue")
    assert isinstance(chosen, Move) and chosen.path
    ie.act(game, "blue", str(chosen))
    assert not ie.the(game, "B1").trapped and ie.at(game, "B1")[0] < 10.0
