"""II.2 Movement: Move Units, rough terrain, barriers, moving through figures, facing at the
end of a move, leaving the table, and riders and drivers of cavalry and vehicles."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

FAR = ("blue", {"id": "Z", "type": "troop", "at": [34, 34], "facing": 270})
SPARE = ("red", {"id": "S", "type": "troop", "at": [30, 4], "facing": 90})
"""A second red figure, so red still has something to move (else its turn passes)."""


def _one(vs, kind="troop", at=(10, 10), facing=90.0, extra=(), **kw):
    figures = [vs.fig("red", "A", kind, at, facing), FAR, *extra]
    return vs.start(figures, **kw)


# -- Move Units --------------------------------------------------------------------------


def test_a_guy_moves_up_to_one_move_unit_of_six_inches(vs):
    """II.2 Guy: 1 Move Unit, 6 inches."""
    game = _one(vs)
    with pytest.raises(IllegalAction, match=r'costs 6\.10" but only 6\.00"'):
        game.apply("move A 10,16.1", "red")
    game.apply("move A 10,16", "red")
    assert vs.at(game, "A") == (10, 16)


@pytest.mark.parametrize(("kind", "inches"), [("cavalry", 9.0), ("vehicle", 12.0)])
def test_cavalry_move_nine_inches_and_vehicles_twelve(vs, kind, inches):
    """II.2: cavalry 1 1/2 Move Units (9"), vehicles 2 Move Units (12") (with a rider)."""
    rider = vs.fig("red", "D", "troop", None, riding="A")
    game = _one(vs, kind=kind, at=(10, 5), extra=[rider])
    with pytest.raises(IllegalAction, match="costs"):
        game.apply(f"move A 10,{5 + inches + 0.05}", "red")
    game.apply(f"move A 10,{5 + inches}", "red")
    assert vs.at(game, "A") == (10, 5 + inches)


def test_a_move_may_twist_and_turn_and_counts_every_leg(vs):
    """II.2: a move may bend and turn; every part of the path is measured
    (ruling: along the centre of the base)."""
    game = _one(vs)
    with pytest.raises(IllegalAction, match=r"costs 9\.00"):
        game.apply("move A 10,13 13,13 13,10", "red")
    game.apply("move A 10,12 12,12 12,14", "red")
    assert vs.at(game, "A") == (12, 14)
    assert vs.last(game, "move").data["cost"] == pytest.approx(6.0)


def test_each_figure_moves_only_once_a_round(vs):
    """II.2: a figure moves only once a round; no further moving or turning until next turn."""
    game = _one(vs, extra=[vs.fig("red", "A2", "troop", (20, 10), 90)])
    game.apply("move A 10,12", "red")
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply("move A 10,13", "red")
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply("move A face 0", "red")


def test_a_figure_may_face_any_direction_at_the_end_of_its_move(vs):
    """II.2: once done moving, a figure can be rotated to face any direction."""
    game = _one(vs, extra=[vs.fig("red", "A2", "troop", (20, 10), 90)])
    game.apply("move A 10,14 face 225", "red")
    assert vs.figure(game, "A").geo.facing == 225
    game.apply("move A2 face 10.5", "red")  # turning on the spot is its move
    assert vs.figure(game, "A2").geo.facing == 10.5
    assert vs.figure(game, "A2").moved


def test_without_a_facing_a_figure_faces_the_way_it_went(vs):
    """II.2 (ruling): a move that names no facing leaves the figure facing its last leg."""
    game = _one(vs)
    game.apply("move A 14,10", "red")
    assert vs.figure(game, "A").geo.facing == 0


def test_unused_movement_is_not_kept(vs):
    """II.2: each round a figure moves up to its full movement, no more."""
    game = _one(vs, dice=[6, 1])
    game.apply("move A 10,11", "red")
    vs.next_round(game)
    with pytest.raises(IllegalAction, match="costs"):
        game.apply("move A 10,17.5", "red")
    game.apply("move A 10,17", "red")


# -- rough terrain and barriers ----------------------------------------------------------------


ROUGH = {
    "id": "woods",
    "kind": "woods",
    "shape": "polygon",
    "points": [[8, 8], [12, 8], [12, 14], [8, 14]],
    "rough": True,
}


def test_a_figure_in_rough_terrain_moves_only_a_half_move_unit(vs):
    """II.2 Rough Terrain: in rough terrain a figure moves at most a Half Move Unit (3")."""
    game = _one(vs, features=[ROUGH])
    with pytest.raises(IllegalAction, match="Half Move Unit"):
        game.apply("move A 10,13.2", "red")
    game.apply("move A 10,13", "red")
    assert vs.last(game, "move").data["half"] is True


def test_half_move_lasts_until_the_figure_is_completely_outside(vs):
    """II.2: the half move applies until a turn that starts wholly clear of the terrain: a base
    overlapping the edge is still in it; one wholly outside moves in full."""
    game = _one(vs, at=(10, 14.3), features=[ROUGH], dice=[6, 1])
    with pytest.raises(IllegalAction, match="Half Move Unit"):
        game.apply("move A 10,18.4", "red")
    game.apply("move A 10,17.3", "red")
    vs.next_round(game)
    game.apply("move A 10,23.3", "red")  # wholly outside now: 6"


def test_entering_rough_terrain_limits_the_move_to_a_half_move_unit(vs):
    """II.2 (ruling, option rough = "any", the default): a move during which the base is
    in rough terrain at any moment is a half move."""
    game = _one(vs, at=(10, 3), features=[ROUGH])
    with pytest.raises(IllegalAction, match="Half Move Unit"):
        game.apply("move A 10,9", "red")
    game.apply("move A 10,6", "red")  # 3": the base now touches the woods


def test_with_option_start_only_the_starting_place_counts(vs):
    """II.2 (ruling, option rough = "start"): only a figure that starts in rough terrain
    is slowed; one entering it moves in full this round."""
    game = _one(vs, at=(10, 3), features=[ROUGH], options={"rough": "start"})
    game.apply("move A 10,9", "red")
    assert vs.last(game, "move").data["half"] is False


def test_hills_are_rough_terrain_when_the_scenario_says_so(vs):
    """II.2: moving up or down a hill is rough terrain (scenario: rough = true on the hill)."""
    hill = {**ROUGH, "id": "hill", "kind": "hill"}
    game = _one(vs, features=[hill])
    with pytest.raises(IllegalAction, match="Half Move Unit"):
        game.apply("move A 10,14", "red")


def test_water_is_rough_except_for_boats_and_fish_men(vs):
    """II.2 Rough Terrain: water is rough terrain unless the figure is a ship, boat or fish
    man (scenario: ``water = true`` on the feature, ``aquatic = true`` on the figure)."""
    lake = {**ROUGH, "id": "lake", "kind": "water", "rough": False, "water": True}
    game = _one(vs, features=[lake], extra=[vs.fig("red", "F", "troop", (10, 4), 90, aquatic=True)])
    with pytest.raises(IllegalAction, match="Half Move Unit"):
        game.apply("move A 10,14", "red")
    game.apply("move F 11,9.5", "red")  # 5.6": a fish man swims in at full speed
    assert vs.last(game, "move").data["half"] is False
    game.apply("move A 10,13", "red")


def test_a_figure_cannot_move_through_a_barrier(vs):
    """II.2: walls, fences and similar barriers stop a figure from passing."""
    fence = {
        "id": "fence",
        "kind": "fence",
        "shape": "polyline",
        "points": [[5, 12], [15, 12]],
        "barrier": True,
    }
    game = _one(vs, features=[fence])
    with pytest.raises(IllegalAction, match="barrier"):
        game.apply("move A 10,14", "red")
    game.apply("move A 10,11.4", "red")  # up to it is fine


def test_a_figure_cannot_enter_impassable_terrain(vs):
    """II.2 (scenario): solid features (impassable = true, a building's walls) cannot be entered."""
    house = vs.box("house", 8, 12, 12, 14, impassable=True, blocks_los="yes")
    game = _one(vs, features=[house])
    with pytest.raises(IllegalAction, match="impassable"):
        game.apply("move A 10,15", "red")


# -- figures in the way --------------------------------------------------------------------


def test_a_figure_may_move_through_any_other_figure(vs):
    """II.2: while moving, a figure may pass through other figures."""
    friend = vs.fig("red", "F", "troop", (10, 12), 90)
    enemy = ("blue", {"id": "E", "type": "troop", "at": [10, 14], "facing": 270})
    game = _one(vs, extra=[friend, enemy])
    game.apply("move A 10,16", "red")
    assert vs.at(game, "A") == (10, 16)


def test_a_move_may_not_end_on_another_figure(vs):
    """II.2 (ruling): figures pass through each other but never end on top of one."""
    friend = vs.fig("red", "F", "troop", (10, 12), 90)
    game = _one(vs, extra=[friend])
    with pytest.raises(IllegalAction, match="on top of figure 'F'"):
        game.apply("move A 10,12.5", "red")
    game.apply("move A 10,11", "red")  # bases touching is fine


# -- the table edge ------------------------------------------------------------------------


def test_a_figure_that_moves_off_the_table_is_gone_for_good(vs):
    """II.2: once off the table edge, a figure is out for good."""
    game = _one(vs, at=(2, 20), facing=180, dice=[6, 1], extra=[SPARE])
    game.apply("move A -1,20", "red")
    assert vs.figure(game, "A").where == "left"
    assert "leaves the table by the west edge" in vs.last(game, "left").text
    vs.next_round(game)
    with pytest.raises(IllegalAction, match="no longer on the table"):
        game.apply("move A 2,20", "red")


def test_a_base_may_not_hang_over_the_edge(vs):
    """II.2 (ruling): a move ends wholly on the table, or with the centre off it (gone)."""
    game = _one(vs, at=(2, 20), facing=180)
    with pytest.raises(IllegalAction, match="over the table edge"):
        game.apply("move A 0.2,20", "red")


def test_a_move_off_the_table_ends_there(vs):
    """II.2: a figure that has left the table cannot come back in the same move."""
    game = _one(vs, at=(2, 20), facing=180)
    with pytest.raises(IllegalAction, match="leg 1 takes the base off the table"):
        game.apply("move A -1,20 0,21", "red")
    turned = _one(vs, at=(2, 20), facing=90)  # the same, turning first: a turn is not a leg
    with pytest.raises(IllegalAction, match="leg 1 takes the base off the table"):
        turned.apply("move A -1,20 0,21", "red")


def test_a_refused_move_names_the_players_own_leg(vs):
    """II.2: a refusal says which of the points typed went wrong; turning on the way (free
    in VSGMR) is not a leg of its own."""
    house = vs.box("house", 8, 12, 12, 14, impassable=True, blocks_los="yes")
    game = _one(vs, facing=0.0, features=[house])  # facing east: it turns north first
    with pytest.raises(IllegalAction, match="leg 1 runs into terrain 'house'"):
        game.apply("move A 10,15", "red")
    with pytest.raises(IllegalAction, match=r'3\.00" into leg 2,'):
        game.apply("move A 13,10 13,17", "red")
    with pytest.raises(IllegalAction, match=r"into leg 3,"):
        game.apply("move A 10,10 13,10 13,17", "red")  # the first point is where it stands


# -- cavalry, vehicles and their riders ----------------------------------------------------------


@pytest.mark.parametrize("kind", ["cavalry", "vehicle"])
def test_cavalry_and_vehicles_cannot_move_without_a_rider_or_driver(vs, kind):
    """II.2: a horse (vehicle) only moves when it has a rider (driver)."""
    game = _one(vs, kind=kind, extra=[SPARE])
    with pytest.raises(IllegalAction, match="no rider or driver"):
        game.apply("move A 10,12", "red")
    with pytest.raises(IllegalAction, match="no rider or driver"):
        game.apply("move A face 0", "red")


def _stable(vs, **kw):
    horse = vs.fig("red", "H", "cavalry", (10, 10), 90)
    guy = vs.fig("red", "G", "troop", (10, 5), 90)
    return vs.start([horse, guy, FAR], **kw)


def test_moving_onto_a_cavalry_figure_is_all_a_guy_needs_to_ride_it(vs):
    """II.2: a guy mounts a horse or vehicle simply by moving onto it."""
    game = _stable(vs)
    game.apply("move G 10,10", "red")
    guy, horse = vs.figure(game, "G"), vs.figure(game, "H")
    assert guy.where == "mounted" and guy.mount == "H" and horse.rider == "G"
    assert "mounts H" in vs.last(game, "move").text


def test_the_rider_moves_along_with_its_mount(vs):
    """II.2: a rider is carried with its horse or vehicle (ruling: a mount may move
    in the round its rider got on)."""
    game = _stable(vs)
    game.apply("move G 10,10", "red")
    game.apply("move H 10,19 face 0", "red")
    assert vs.at(game, "G") == (10, 19)
    assert vs.figure(game, "G").geo.facing == 0


def test_a_guy_mounts_only_with_its_centre_on_the_mount(vs):
    """II.2 (ruling): "onto" the figure means the guy's centre ends on the mount's base."""
    game = _stable(vs)
    with pytest.raises(IllegalAction, match="centre on its base"):
        game.apply("move G 10,8.6", "red")


def test_only_ones_own_riderless_mount_can_be_ridden(vs):
    """II.2 (ruling): a guy rides only its own side's cavalry or vehicles, one rider each."""
    enemy_horse = ("blue", {"id": "EH", "type": "cavalry", "at": [14, 6], "facing": 90})
    own_horse = vs.fig("red", "H", "cavalry", (6, 6), 90)
    rider = vs.fig("red", "R", "troop", None, riding="H")
    game = vs.start([vs.fig("red", "G", "troop", (10, 5), 90), enemy_horse, own_horse, rider])
    with pytest.raises(IllegalAction, match=r"on top of figure 'EH'.*rides only its own side's"):
        game.apply("move G 14,6", "red")
    with pytest.raises(IllegalAction, match=r"on top of figure 'H'.*H already carries R"):
        game.apply("move G 6,6", "red")


def test_a_rider_does_not_move_or_attack_on_its_own(vs):
    """II.2: while mounted, a rider neither moves nor attacks by itself."""
    horse = vs.fig("red", "H", "cavalry", (10, 10), 90, distance=True)
    rider = vs.fig("red", "R", "troop", None, riding="H", distance=True)
    enemy = ("blue", {"id": "E", "type": "troop", "at": [10, 15], "facing": 270})
    game = vs.start([horse, rider, enemy])
    with pytest.raises(IllegalAction, match="does not move on its own"):
        game.apply("move R face 0", "red")
    game.apply("end", "red")
    game.apply("end", "blue")
    vs.skip_to(game, "distance", "red")
    with pytest.raises(IllegalAction, match="does not attack on its own"):
        game.apply("shoot R E", "red")


def test_a_rider_dismounts_by_moving_away(vs):
    """II.2: a guy can simply move away from its cavalry or vehicle to be a guy again."""
    horse = vs.fig("red", "H", "cavalry", (10, 10), 90)
    rider = vs.fig("red", "R", "troop", None, riding="H")
    game = vs.start([horse, rider, FAR, SPARE])
    with pytest.raises(IllegalAction, match=r"on top of figure 'H'.*end the move clear of"):
        game.apply("move R 10,10.5", "red")  # still on the horse
    game.apply("move R 12,12", "red")
    assert vs.figure(game, "R").where == "table"
    assert vs.figure(game, "H").rider is None
    with pytest.raises(IllegalAction, match="no rider"):
        game.apply("move H 10,14", "red")


def test_a_rider_carried_this_round_cannot_also_dismount(vs):
    """II.2 (ruling): each figure moves once a round; being carried is the rider's move."""
    horse = vs.fig("red", "H", "cavalry", (10, 10), 90)
    rider = vs.fig("red", "R", "troop", None, riding="H")
    game = vs.start([horse, rider, FAR, SPARE])
    game.apply("move H 10,15", "red")
    with pytest.raises(IllegalAction, match="carried by H"):
        game.apply("move R 12,15", "red")


def test_scenario_riders_start_on_their_mounts(vs):
    """II.2: a scenario may start a guy riding (``riding = "H"``); it sits on its mount."""
    horse = vs.fig("red", "H", "cavalry", (10, 10), 45)
    rider = vs.fig("red", "R", "troop", None, riding="H")
    game = vs.start([horse, rider, FAR])
    assert vs.figure(game, "R").where == "mounted"
    assert vs.at(game, "R") == (10, 10)


def test_a_long_base_flush_with_an_edge_may_turn_away_or_drive_off(vs):
    """II.2 (ruling 9): a figure may change direction at any time, and may move off the
    table; a cavalry base lying along the west edge swings round as it goes (the base is
    checked where it stops, not while it turns)."""
    rider = ("red", {"id": "R", "type": "troop", "riding": "A"})
    game = _one(vs, "cavalry", at=(0.5, 20), facing=90, extra=[rider, SPARE])
    game.apply("move A 6,20", "red")  # straight away from the edge
    assert vs.at(game, "A") == (6, 20)
    off = _one(vs, "cavalry", at=(0.5, 20), facing=90, extra=[rider, SPARE], dice=[6, 1])
    off.apply("move A -1.5,20", "red")  # over the edge it lies along
    assert vs.figure(off, "A").where == "left"
    turn = _one(vs, "cavalry", at=(0.5, 20), facing=90, extra=[rider, SPARE])
    with pytest.raises(IllegalAction, match="over the table edge"):
        turn.apply("move A face 0", "red")  # turned on the spot it would hang over


# -- the move language (issue 25): relative steps, legs held at a facing ------------------------


def test_turn_then_back_up_costs_only_the_inches_walked(vs):
    """II.2: a figure may change direction at any time (turning is free) and every part
    of the path is measured: turn right 40, then 1" backwards keeping that facing, 1"."""
    game = _one(vs)
    action = game.parse("move A turn right 40 reverse 1")
    assert str(action) == "move A 9.3572,9.234@50"
    game.apply(action, "red")
    assert vs.last(game, "move").data["cost"] == pytest.approx(1.0, abs=1e-3)
    assert vs.figure(game, "A").geo.facing == 50.0
    assert vs.at(game, "A") == (9.3572, 9.234)


def test_toward_a_point_stops_where_the_move_unit_runs_out(vs):
    """II.2: a guy's 6" Move Unit; ``toward`` a point 20" away goes 6" of the way."""
    game = _one(vs)
    assert str(game.parse("move A toward 10,30")) == "move A 10,16"
    assert str(game.parse("move A forward 1 toward 10,30")) == "move A 10,11@90 10,16"
    assert str(game.parse("move A toward 10,12")) == "move A 10,12"
