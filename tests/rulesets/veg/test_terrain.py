"""Terrain Effects (V.E.G.): the terrain table by movement class, streams, craters.

Columns: infantry; wheeled and tracked units ("vehicle"); hovercraft ("hover").
"""

from __future__ import annotations

import pytest

from warbench.core.loader import scenario_from_dict
from warbench.errors import ScenarioError
from warbench.geometry.hexgrid import Hex

# What entering each terrain costs (None: may not enter), per class, as the table says.
COSTS = {
    "clear": {"infantry": 1, "vehicle": 1, "hover": 1},
    "open_water": {"infantry": 2, "vehicle": None, "hover": 1},
    "woods": {"infantry": 1, "vehicle": 2, "hover": None},
    "bog": {"infantry": 1, "vehicle": None, "hover": 2},
    "city": {"infantry": 1, "vehicle": 2, "hover": 2},  # hover: ruling, borrows the vehicles'
    "sand": {"infantry": 1, "vehicle": 2, "hover": 1},
    "crater": {"infantry": 1, "vehicle": 1, "hover": 1},
}
DEF_MODS = {
    "clear": {"infantry": 0, "vehicle": 0, "hover": 0},
    "open_water": {"infantry": -2, "hover": 0},
    "woods": {"infantry": 2, "vehicle": 0},
    "bog": {"infantry": 2, "hover": 0},
    "city": {"infantry": 4, "vehicle": 2, "hover": 2},
    "sand": {"infantry": 0, "vehicle": 0, "hover": 0},
}
MOVERS = {"infantry": "walker", "vehicle": "gun6", "hover": "hover"}


@pytest.mark.parametrize("terrain", sorted(COSTS))
@pytest.mark.parametrize("cls", ["infantry", "vehicle", "hover"])
def test_terrain_table_movement_cost_per_class(veg, terrain, cls):
    """Terrain Effects: "# MP" costs that many MP to enter; 1 unless noted; some may not enter."""
    game = veg.new_game(
        [("red", "U", MOVERS[cls], "0505"), ("blue", "E", "gun", "0101")],
        hexes={terrain: ["0506"]} if terrain != "clear" else None,
    )
    mov = game.state.units["U"].mp
    expected = COSTS[terrain][cls]
    found = veg.reach(game, "U").get("0506")
    assert found == (None if expected is None else mov - expected)


@pytest.mark.parametrize(("terrain", "cls"), [(t, c) for t, row in DEF_MODS.items() for c in row])
def test_terrain_table_def_modifier_per_class(veg, terrain, cls):
    """Terrain Effects: "# DEF" modifies the DEF of a unit standing in the hex."""
    game = veg.new_game(
        [("red", "U", MOVERS[cls], "0505"), ("blue", "E", "gun", "0101")],
        hexes={terrain: ["0505"]} if terrain != "clear" else None,
    )
    state = game.state
    _base, mods = game.ruleset.defence(state, state.units["U"])
    assert sum(v for v, _ in mods) == DEF_MODS[terrain][cls]


def test_open_water_costs_infantry_two_and_lowers_its_def(veg):
    """Terrain Effects, Open water: infantry 2 MP, -2 DEF; wheeled and tracked may not enter."""
    game = veg.new_game(
        [("red", "I", "infantry", "0505"), ("blue", "T", "gun", "0503")],
        hexes={"open_water": ["0505", "0506"]},
    )
    assert veg.reach(game, "I")["0506"] == 0
    assert game.ruleset.defence(game.state, game.state.units["I"])[1] == [(-2, "in open_water")]


@pytest.mark.parametrize(("cls", "extra"), [("infantry", 0), ("vehicle", 1), ("hover", 0)])
def test_a_stream_lies_on_hexsides_and_costs_vehicles_two_to_cross(veg, cls, extra):
    """Terrain Effects, Stream: infantry no effect; wheeled/tracked 2 MP; hovercraft 1 MP."""
    game = veg.new_game(
        [("red", "U", MOVERS[cls], "0505"), ("blue", "E", "gun", "0101")],
        hexsides={"stream": ["0505/0506"]},
    )
    mov = game.state.units["U"].mp
    assert veg.reach(game, "U")["0506"] == mov - 1 - extra
    assert veg.reach(game, "U")["0504"] == mov - 1  # no stream that way


def test_crossing_a_stream_into_costly_terrain_adds_the_crossing(veg):
    """Stream (ruling): the crossing costs 1 MP beyond the hex entered (woods: 2 + 1)."""
    game = veg.new_game(
        [("red", "U", "gun6", "0505"), ("blue", "E", "gun", "0101")],
        hexsides={"stream": ["0505/0506"]},
        hexes={"woods": ["0506"]},
    )
    assert veg.reach(game, "U")["0506"] == 6 - 3


@pytest.mark.parametrize(
    ("crossing", "kind", "into", "cost"),
    [
        ("beyond_step", "gun6", "clear", 2),
        ("beyond_step", "gun6", "woods", 3),
        ("beyond_step", "hover", "clear", 1),
        ("beyond_step", "infantry", "clear", 1),
        ("additive", "gun6", "clear", 3),
        ("additive", "gun6", "woods", 4),
        ("additive", "hover", "clear", 2),
        ("additive", "hover", "bog", 3),
        ("additive", "infantry", "clear", 1),
    ],
)
def test_the_stream_crossing_cost_is_read_by_the_option(veg, crossing, kind, into, cost):
    """Stream (ruling 10): by default "N MP to cross" is the step's cost into clear, so
    the hovercraft's 1 MP adds nothing; option hexside_crossing = "additive" pays N on
    top of the hex entered (vehicles 2, hovercraft 1, infantry "no effect": 0)."""
    units = [("red", "U", kind, "0505"), ("blue", "E", "gun", "0101")]
    board = veg.new_game(units).state.setup.board
    inside = board.index[Hex.from_label("0506")]
    ring = [board.label(j) for j, _, _ in board.steps["infantry"][inside]]
    game = veg.new_game(  # a stream all round 0506: no way in without crossing it
        units,
        hexsides={"stream": [f"{h}/0506" for h in ring]},
        hexes={into: ["0506"]} if into != "clear" else None,
        options={"hexside_crossing": crossing},
    )
    mov = game.state.units["U"].mp
    assert veg.reach(game, "U")["0506"] == mov - cost


def test_a_road_over_a_stream_crosses_it_freely_under_the_additive_reading_too(veg):
    """Roads, ruling 12: along a road the hexside is ignored, whatever the crossing option."""
    game = veg.new_game(
        [("red", "U", "hover", "0505"), ("blue", "E", "gun", "0101")],
        hexsides={"stream": ["0505/0506"]},
        roads=[["0505", "0506"]],
        options={"hexside_crossing": "additive"},
    )
    assert veg.reach(game, "U")["0506"] == game.state.units["U"].mp - 1


@pytest.mark.parametrize(
    ("reading", "cost", "dfn"), [("borrow", 2, 2), ("no_effect", 1, 0), ("no_entry", None, None)]
)
def test_the_city_row_has_no_hovercraft_entry_and_an_option_decides(veg, reading, cost, dfn):
    """Terrain Effects, City: the text leaves hovercraft blank (option unstated_terrain)."""
    game = veg.new_game(
        [("red", "H", "hover", "0505"), ("blue", "E", "gun", "0101")],
        hexes={"city": ["0506"]},
        options={"unstated_terrain": reading},
    )
    found = veg.reach(game, "H").get("0506")
    assert found == (None if cost is None else 6 - cost)
    board = game.state.setup.board
    if dfn is not None:
        assert board.dfn_mod["hover"][board.index[Hex.from_label("0506")]] == dfn


def test_a_unit_may_not_start_in_terrain_it_may_not_enter(veg):
    """Terrain Effects: a scenario placing a tank in a bog is refused, naming the field."""
    raw = veg.scenario_dict(
        [("red", "T", "gun", "0505"), ("blue", "E", "gun", "0101")], hexes={"bog": ["0505"]}
    )
    with pytest.raises(
        ScenarioError, match=r"forces\.red\[0\]\.at: gun \(vehicle\) cannot stand in bog"
    ):
        scenario_from_dict(raw, "test.toml", "test")


# -- craters ------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "dfn", "strength"), [("infantry", 1, 7), ("medium_tank", 4, 4)])
def test_craters_are_hazards_of_eight_minus_def(veg, kind, dfn, strength):
    """Terrain Effects, Craters: H(8 minus DEF): H7 for a DEF 1 unit, H4 for a DEF 4 unit."""
    game = veg.new_game(
        [("red", "U", kind, "0505"), ("blue", "E", "gun", "0101")],
        hexes={"crater": ["0506"]},
        dice=[1, 6],
    )
    game.apply("move U 0506", "red")
    attack = veg.last(game, "attack")
    assert attack.data["att"] == strength and attack.data["dfn"] == dfn
    assert "H(8 - DEF)" in attack.text


def test_a_crater_uses_the_wounded_units_current_def(veg):
    """Craters (ruling 14): H(8 - DEF) takes the unit's current DEF; a wounded Medium
    Tank (DEF 4 - 1) meets H5, and rolls against DEF 3."""
    game = veg.new_game(
        [
            {"side": "red", "id": "U", "type": "medium_tank", "at": "0505", "wounded": True},
            ("blue", "E", "gun", "0101"),
        ],
        hexes={"crater": ["0506"]},
        dice=[1, 6],
    )
    game.apply("move U 0506", "red")
    attack = veg.last(game, "attack")
    assert (attack.data["att"], attack.data["dfn"]) == (5, 3)
    assert "ATT 5 against DEF 4 -1 (wounded) = 3" in attack.text


def test_a_hazard_attacks_a_unit_entering_its_hex(veg):
    """Core hazards: a hazard hex attacks units entering it, as they enter."""
    game = veg.new_game(
        [("red", "U", "infantry", "0505"), ("blue", "E", "gun", "0101")],
        hexes={"crater": ["0506"]},
        dice=[6, 1],
    )
    game.apply("move U 0506", "red")
    assert not veg.alive(game, "U")


def test_a_hazard_attacks_units_staying_in_its_hex(veg):
    """Core hazards: at the start of its player turn a unit staying in a hazard hex is attacked."""
    game = veg.new_game(
        [("red", "U", "heavy_tank", "0505"), ("blue", "E", "gun", "0101")],
        hexes={"crater": ["0505"]},
        dice=[1, 6],
    )
    assert len(veg.events(game, "attack")) == 1  # red's first hazard phase
    assert "stays in" in veg.last(game, "attack").text


def test_a_unit_destroyed_by_a_hazard_goes_no_further(veg):
    """Core hazards: a unit destroyed entering a crater ends its move there."""
    game = veg.new_game(
        [("red", "U", "gun", "0501"), ("blue", "E", "gun", "0101")],
        hexes={
            "crater": ["0502", "0503", "0504"],
            "open_water": ["0401", "0402", "0403", "0601", "0602", "0603"],
        },
        dice=[6, 1],
    )
    game.apply("move U 0504", "red")
    assert not veg.alive(game, "U")
    assert veg.last(game, "destroyed").data["at"] == "0502"


def test_the_path_chosen_enters_the_fewest_hazards(veg):
    """Movement (ruling): of the ways to a hex the engine takes the one with fewest hazards."""
    game = veg.new_game(
        [("red", "U", "walker", "0505"), ("blue", "E", "gun", "0101")],
        hexes={"crater": ["0506"]},
    )
    state = game.state
    board = state.setup.board
    dest = board.index[Hex.from_label("0507")]
    reach = game.ruleset.reach(state, state.units["U"])
    assert reach.ends[dest][0] == 0
    assert [board.label(i) for i in reach.path(dest)][1] != "0506"
