"""Roads (V.E.G., Terrain Effects): clear-terrain cost along the road, combat bonuses kept
and penalties ignored, the road bonus (+1 MOV per 3 full MP on the road), the truck.

The road here runs straight down column 05 (0501 .. 0510).
"""

from __future__ import annotations

import pytest

from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction, ScenarioError
from warbench.geometry.hexgrid import Hex

ROAD = [[f"05{r:02d}" for r in range(1, 11)]]
ENEMY = ("blue", "E", "gun", "0101")


def game_on_road(veg, kind, at="0501", **kw):
    return veg.new_game([("red", "U", kind, at), ENEMY], roads=ROAD, **kw)


def test_along_a_road_a_hex_costs_what_clear_terrain_costs(veg):
    """Roads: entering a hex along the road costs the Clear cost, whatever the terrain."""
    game = game_on_road(veg, "gun", hexes={"woods": ["0502", "0503", "0601"]})
    reach = veg.reach(game, "U")
    assert reach["0503"] == 1  # two woods hexes along the road: 1 MP each
    assert reach["0601"] == 1  # the same woods off the road: 2 MP


def test_a_road_opens_terrain_the_unit_may_not_otherwise_enter(veg):
    """Roads: the underlying terrain is ignored for movement (a tank crosses a bog by road)."""
    game = game_on_road(veg, "gun", hexes={"bog": ["0502", "0503"]})
    assert veg.reach(game, "U")["0503"] == 1
    assert "0502" in veg.reach(game, "U")


def test_a_road_hex_entered_off_the_road_costs_its_terrain(veg):
    """Roads: only a step along the road gets the road's cost."""
    game = veg.new_game([("red", "U", "gun", "0401"), ENEMY], roads=ROAD, hexes={"woods": ["0502"]})
    assert veg.reach(game, "U")["0502"] == 3 - 2  # from 0401 into the woods of road hex 0502


def test_a_road_over_a_stream_crosses_it_freely(veg):
    """Roads (ruling): along the road the stream on the hexside costs nothing extra."""
    game = game_on_road(veg, "gun", hexsides={"stream": ["0501/0502"]})
    assert veg.reach(game, "U")["0502"] == 2


def test_a_road_keeps_the_terrains_combat_bonus(veg):
    """Roads: combat bonuses are as per the underlying terrain (woods: +2 DEF to infantry)."""
    game = game_on_road(veg, "infantry", hexes={"woods": ["0501"]})
    assert game.ruleset.defence(game.state, game.state.units["U"])[1] == [(2, "in woods")]


def test_a_road_ignores_the_terrains_combat_penalty(veg):
    """Roads: combat penalties of the underlying terrain may be ignored (open water's -2 DEF)."""
    game = game_on_road(veg, "infantry", hexes={"open_water": ["0501"]})
    assert game.ruleset.defence(game.state, game.state.units["U"])[1] == []


# -- ruling 12 ---------------------------------------------------------------------------


def test_two_roads_side_by_side_give_no_road_step_between_them(veg):
    """Roads, ruling 12: a step counts as along a road only between two hexes the same road
    links; from a road hex into the hex of another road beside it the terrain is paid."""
    roads = [["0501", "0502", "0503"], ["0601", "0602", "0603"]]  # columns 05 and 06
    game = veg.new_game(
        [("red", "U", "gun", "0502"), ENEMY], roads=roads, hexes={"woods": ["0602", "0603"]}
    )
    board = game.state.setup.board
    here, there = Hex.from_label("0502"), Hex.from_label("0602")
    assert board.on_road[board.index[here]] and board.on_road[board.index[there]]
    assert board.step_cost(here, there, "vehicle") == (2, False)  # woods: 2 MP, no road step
    assert veg.reach(game, "U")["0602"] == 3 - 2


def test_a_road_hexs_penalty_is_ignored_for_a_unit_that_came_off_the_road(veg):
    """Roads, ruling 12: "penalties may be ignored" holds for any unit standing in a road
    hex, however it got there (here an infantry squad walks into open water beside the
    road, then onto the road hex of open water: its DEF has no -2)."""
    water = ["0502", "0402"]
    game = veg.new_game(
        [("red", "U", "infantry", "0401"), ENEMY], roads=ROAD, hexes={"open_water": water}
    )
    game.apply("move U 0402", "red")  # open water off the road: -2 DEF
    assert game.ruleset.defence(game.state, game.state.units["U"])[1] == [(-2, "in open_water")]
    game = veg.new_game(
        [("red", "U", "infantry", "0402"), ENEMY], roads=ROAD, hexes={"open_water": water}
    )
    game.apply("move U 0502", "red")  # into the road hex of open water, off the road
    assert veg.where(game, "U") == "0502"
    assert game.ruleset.defence(game.state, game.state.units["U"])[1] == []


def test_a_road_does_not_shelter_from_a_craters_hazard(veg):
    """Roads, ruling 12: a road through a crater makes the move cheap, but the crater is still
    there: a unit entering it along the road undergoes its H(8 - DEF) attack (a DEF 1 squad:
    H7 against DEF 1, destroyed even on the best defence roll, 1 against 6)."""
    game = game_on_road(veg, "infantry", hexes={"crater": ["0502"]}, dice=[1, 6])
    assert veg.reach(game, "U")["0502"] == 2 - 1  # the road's cost
    game.apply("move U 0502", "red")
    (event,) = veg.events(game, "attack")
    assert event.data["cause"] == "hazard" and event.data["att"] == 7
    assert not veg.alive(game, "U")


def test_road_bonus_worked_example_mov_3(veg):
    """Roads, the example: a MOV 3 unit spending all of it along the road gets a bonus hex."""
    game = game_on_road(veg, "medium_tank")
    reach = veg.reach(game, "U")
    assert reach["0504"] == 1  # the 3rd MP along the road earned the bonus point
    assert reach["0505"] == 0
    assert "0506" not in reach
    game = veg.new_game(
        [("red", "U", "medium_tank", "0501"), ("red", "V", "gun", "0901"), ENEMY], roads=ROAD
    )
    game.apply("move U 0504", "red")
    assert "road bonus +1; 1 left" in veg.last(game, "move").text
    game.apply("move U 0505", "red")  # the additional hex
    assert veg.where(game, "U") == "0505"


def test_road_bonus_points_do_not_count_toward_the_next_bonus(veg):
    """Roads: MOV 5 along the road for 3 hexes then 2 (+1 bonus) more gets no second bonus."""
    game = game_on_road(veg, "gun5")
    reach = veg.reach(game, "U")
    assert reach["0507"] == 0  # 5 MP + 1 bonus = 6 hexes
    assert "0508" not in reach


def test_every_three_full_mp_on_the_road_earn_one_bonus(veg):
    """Roads: +1 MOV for each 3 full MP: 6 MP along the road earn two."""
    reach = veg.reach(game_on_road(veg, "gun6"), "U")
    assert reach["0509"] == 0 and "0510" not in reach


def test_the_bonus_may_be_spent_off_the_road(veg):
    """Roads: the bonus MP may be used off the road as well."""
    game = game_on_road(veg, "medium_tank")
    start = Hex.from_label("0501")
    road = {h for chain in ROAD for h in chain}
    far = [
        h
        for h, mp in veg.reach(game, "U").items()
        if h not in road and Hex.from_label(h).distance(start) == 4
    ]
    assert far  # one step off the road after three along it
    assert all(veg.reach(game, "U")[h] == 0 for h in far)


def test_the_bonus_is_earned_over_several_legs(veg):
    """Roads: the MP spent along the road add up over a phase's legs."""
    game = veg.new_game(
        [("red", "U", "medium_tank", "0501"), ("red", "V", "gun", "0901"), ENEMY], roads=ROAD
    )
    for label in ("0502", "0503", "0504"):
        game.apply(f"move U {label}", "red")
    unit = game.state.units["U"]
    assert (unit.mp, unit.bonus) == (0, 1)
    game.apply("move U 0505", "red")
    assert veg.where(game, "U") == "0505"


def test_an_unused_bonus_is_lost_at_the_end_of_the_movement_phase(veg):
    """Roads: a bonus left unused when the movement phase ends is gone."""
    game = veg.new_game(
        [("red", "U", "medium_tank", "0501"), ("red", "V", "gun", "0901"), ENEMY], roads=ROAD
    )
    game.apply("move U 0504", "red")
    assert game.state.units["U"].bonus == 1
    game.apply("end", "red")
    assert game.state.units["U"].bonus == 0
    veg.skip_to(game, "blue", "move")
    veg.skip_to(game, "red", "move")
    assert (game.state.units["U"].mp, game.state.units["U"].bonus) == (3, 0)


def test_the_transport_truck_travels_only_on_roads(veg):
    """Sample Units, Transport truck: may only travel on roads."""
    game = game_on_road(veg, "truck")
    assert set(veg.reach(game, "U")) <= set(ROAD[0])
    game = veg.new_game(
        [("red", "U", "truck", "0501"), ("red", "V", "gun", "0901"), ENEMY], roads=ROAD
    )
    with pytest.raises(IllegalAction, match="cannot reach 0601"):
        game.apply("move U 0601", "red")


def test_the_transport_truck_gets_no_road_bonus(veg):
    """Sample Units, Transport truck: gets no special road bonus."""
    reach = veg.reach(game_on_road(veg, "truck"), "U")
    assert reach["0504"] == 0 and "0505" not in reach


def test_the_truck_must_start_on_a_road(veg):
    """Sample Units, Transport truck: a scenario may not place it off the roads."""
    raw = veg.scenario_dict([("red", "U", "truck", "0601"), ENEMY], roads=ROAD)
    with pytest.raises(ScenarioError, match=r"forces\.red\[0\]\.at: .*only travel on roads"):
        scenario_from_dict(raw, "test.toml", "test")
