"""Invisible Enemy fungus towers and contamination (1.5 chart note 2)."""

from __future__ import annotations

from typing import Any

from warbench.core.dice import ScriptedDice
from warbench.core.game import Game, Resolution
from warbench.rulesets.invisible_enemy import fungus

RED = ("red", {"id": "R1", "bases": [{"id": "R1a", "model": "K817", "at": [20, 2], "facing": 180}]})


def _tower(ie: Any, live: bool = True, at: tuple[float, float] = (12, 12)) -> dict[str, Any]:
    return ie.circle("T1", "fungus", at, 0.5, hull=6, live=live)


def _game(ie: Any, *features: dict[str, Any], units: Any = None) -> Game:
    units = units or [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B2", "L35", (4, 14)))
    ]
    game = ie.start([*units, RED], features=list(features))
    ie.act(game, "blue", "unit U1", 2)
    return game


def test_coming_within_3_inches_of_a_live_tower_contaminates_on_4_and_stops(ie: Any) -> None:
    game = _game(ie, _tower(ie))
    # the centre comes within 3" of the tower's centre at x = 9
    ie.act(game, "blue", "move B1 10,12", 4)
    b1 = ie.the(game, "B1")
    assert b1.contaminated == 1 and ie.at(game, "B1") == (9.0, 12.0)
    assert ie.last(game, "contaminated").data["source"] == "T1"


def test_a_roll_below_4_leaves_the_base_clean_1_5_note_2(ie: Any) -> None:
    game = _game(ie, _tower(ie))
    ie.act(game, "blue", "move B1 10,12", 3)
    assert not ie.the(game, "B1").contaminated and ie.at(game, "B1") == (10.0, 12.0)


def test_no_roll_for_a_dead_tower_or_from_inside_reach_1_5_note_2(ie: Any) -> None:
    game = _game(ie, _tower(ie, live=False))
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "move B1 10,12")
    assert len(ie.events(game, "roll")) == rolls
    game = _game(ie, _tower(ie, at=(6, 12)))  # B1 starts 2" from it
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "move B1 4,10")
    assert len(ie.events(game, "roll")) == rolls


def test_a_vector_contaminates_a_base_that_comes_within_1_inch_once_a_turn(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B2", "L35", (4, 14))),
        ie.unit("blue", "Z", ie.base("Z1", "L35", (10, 12))),
    ]
    game = ie.start([*units, RED])
    state = game.state
    state.turn = 2  # Z1 was infected in turn 1: a vector now
    state.bases["Z1"].contaminated = 1
    state.units["U1"].attempted_turn = 0
    ie.act(game, "blue", "unit U1", 2)
    # within 1" edge to edge: centres 2" apart (radii 0.5 + 0.5), at x = 8
    ie.act(game, "blue", "move B1 8.5,12", 3)
    assert not ie.the(game, "B1").contaminated and ("B1", "Z1") in state.exposed
    assert ie.last(game, "clean").data["source"] == "Z1"


def test_zombies_hunt_the_nearest_base_then_contact_rolls(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("blue", "Z", ie.base("Z1", "L35", (11, 12), 180)),
    ]
    game = ie.start([*units, RED])
    state = game.state
    state.turn = 2
    state.bases["Z1"].contaminated = 1
    res = Resolution(ScriptedDice([4]))
    fungus.zombies_move(state, res)
    z1 = state.bases["Z1"]
    # straight at B1 (5.1" to go, speed 6): it stops 0.9" short, edge to edge
    assert round(z1.geo.x, 2) == round(4 + 1.0 + 0.9, 2) and z1.geo.y == 12.0
    assert state.bases["B1"].contaminated == 2
    assert [e.kind for e in res.events].count("hunt") == 1


def test_a_contaminated_unit_cannot_try_to_move_1_5_note_2(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
            ie.unit("blue", "U2", ie.base("B2", "L35", (4, 4))),
            RED,
        ]
    )
    game.state.bases["B1"].contaminated = 1
    assert "U1" not in fungus.vectors(game.state) and "nothing" in ie.refused(
        game, "unit U1", "blue"
    )


def test_a_tower_dies_at_a_third_and_is_removed_at_full_hull_1_5_note_2(ie: Any) -> None:
    game = _game(ie, _tower(ie))
    state = game.state
    res = Resolution(ScriptedDice([]))
    fungus.damage_tower(state, "T1", 1, res)
    assert state.towers["T1"].live
    fungus.damage_tower(state, "T1", 1, res)
    assert not state.towers["T1"].live and not state.terrain.feature("T1").destroyed
    fungus.damage_tower(state, "T1", 4, res)
    assert state.terrain.feature("T1").destroyed
    assert [e.kind for e in res.events] == ["tower_killed", "tower_destroyed"]


def test_start_turn_forgets_exposures(ie: Any) -> None:
    game = _game(ie)
    game.state.exposed.append(("B1", "Z1"))
    fungus.start_turn(game.state, Resolution(ScriptedDice([])))
    assert game.state.exposed == []
