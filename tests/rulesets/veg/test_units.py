"""Sample Units (V.E.G.): the catalogue, user-defined units, and the unit notes not
covered elsewhere (the mobile howitzer's move-or-shoot option, the howitzer's MOV 0)."""

from __future__ import annotations

import pytest

from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction, ScenarioError
from warbench.rulesets.cgme.data import load_world

# The table of the text: ATT / RNG / DEF / MOV (None: ATT x; the table gives no RNG then).
TABLE = {
    "light_tank": ("Light Tank", 2, 2, 2, 3),
    "medium_tank": ("Medium Tank", 3, 2, 4, 3),
    "heavy_tank": ("Heavy Tank", 5, 3, 5, 3),
    "missile_tank": ("Missile Tank", 4, 4, 2, 2),
    "hovercraft": ("Hovercraft", 2, 2, 2, 5),
    "hover_pc": ("Hover-PC", None, 0, 1, 4),
    "truck": ("Transport truck", None, 0, 0, 3),
    "infantry": ("Infantry, Standard", 1, 1, 1, 2),
    "heavy_weapons": ("Infantry, Hvy Weapons", 3, 3, 1, 2),
    "ranger": ("Infantry, Ranger", 2, 2, 2, 3),
    "howitzer": ("Howitzer", 5, 8, 1, 0),
    "mobile_howitzer": ("Mobile Howitzer", 4, 6, 1, 1),
}


def test_the_catalogue_is_the_sample_units_table():
    """Sample Units: every unit of the table with its ATT/RNG/DEF/MOV, and nothing else."""
    units = load_world("warbench.rulesets.veg").units
    assert set(units) == set(TABLE)
    for key, (name, att, rng, dfn, mov) in TABLE.items():
        t = units[key]
        assert (t.name, t.att, t.rng, t.dfn, t.mov) == (name, att, rng, dfn, mov), key


def test_the_catalogue_keeps_the_unit_notes():
    """Sample Units, notes: Hover-PC 2 squads and riders attack; truck 3 squads, roads only,
    no road bonus; Ranger a third of a squad; Hvy Weapons count as standard."""
    units = load_world("warbench.rulesets.veg").units
    assert (units["hover_pc"].capacity, units["hover_pc"].riders_attack) == (6, True)
    truck = units["truck"]
    assert (truck.capacity, truck.road_only, truck.road_bonus) == (9, True, False)
    assert units["ranger"].parts == 1
    assert units["heavy_weapons"].parts == units["infantry"].parts == 3
    assert units["mobile_howitzer"].move_or_shoot


def test_ratings_print_as_the_table_does():
    """Sample Units: ratings read A3 R2 D4 M3, and Ax D1 M4 for ATT x."""
    units = load_world("warbench.rulesets.veg").units
    assert units["medium_tank"].ratings() == "A3 R2 D4 M3"
    assert units["hover_pc"].ratings() == "Ax D1 M4"


def test_players_may_define_their_own_units_in_a_scenario(veg):
    """Sample Units: players will come up with their own units ([unit_types] of a scenario)."""
    mine = {
        "walker_mech": {
            "name": "Walker",
            "att": 4,
            "rng": 1,
            "def": 3,
            "mov": 2,
            "class": "infantry",
            "value": 30,
        }
    }
    game = veg.new_game(
        [("red", "W", "walker_mech", "0505"), ("blue", "E", "gun", "1010")], unit_types=mine
    )
    unit = game.state.units["W"]
    assert unit.type.ratings() == "A4 R1 D3 M2" and unit.type.value == 30


def test_a_user_defined_unit_gets_a_clear_error_for_a_bad_rating(veg):
    """Scenario files: a malformed unit type names the file, field and problem."""
    mine = {"bad": {"att": 3, "def": 2, "mov": 2, "class": "wheels"}}
    raw = veg.scenario_dict(
        [("red", "W", "bad", "0505"), ("blue", "E", "gun", "1010")], unit_types=mine
    )
    with pytest.raises(
        ScenarioError, match=r"unit_types\.bad\.class: unknown movement class 'wheels'"
    ):
        scenario_from_dict(raw, "test.toml", "test")


def test_the_howitzer_never_moves(veg):
    """Sample Units, Howitzer: MOV 0."""
    game = veg.new_game(
        [
            ("red", "Z", "howitzer", "0505"),
            ("red", "G", "gun", "0101"),
            ("blue", "E", "gun", "1010"),
        ]
    )
    assert not any(a.startswith("move Z") for a in veg.legal(game))


MH = [
    ("red", "H", "mobile_howitzer", "0501"),
    ("red", "G", "gun", "0901"),
    ("blue", "E", "gun", "0507"),
    ("blue", "F", "gun", "0903"),
]


def test_without_the_option_the_mobile_howitzer_moves_and_fires(veg):
    """Sample Units, Mobile Howitzer: move-or-shoot is an optional rule."""
    game = veg.new_game(MH, dice=[1, 6])
    game.apply("move H 0502", "red")
    veg.skip_to(game, "red", "attack")
    game.apply("attack H E", "red")
    assert game.state.units["H"].attacked


def test_under_move_or_shoot_a_mobile_howitzer_that_moved_may_not_fire(veg):
    """Sample Units, Mobile Howitzer (optional rule): in one turn it moves or fires, never both."""
    game = veg.new_game(MH, options={"move_or_shoot": True})
    game.apply("move H 0502", "red")
    veg.skip_to(game, "red", "attack")
    assert not any(a.startswith("attack H") for a in veg.legal(game))
    with pytest.raises(IllegalAction, match="has moved this turn and may not fire"):
        game.apply("attack H E", "red")


def test_under_move_or_shoot_a_mobile_howitzer_that_fired_may_not_move(veg):
    """Mobile Howitzer option with attacks during movement: having fired, it stays put."""
    game = veg.new_game(
        MH, dice=[1, 6], options={"move_or_shoot": True, "attack_during_movement": True}
    )
    game.apply("attack H E", "red")
    assert not any(a.startswith("move H") for a in veg.legal(game))
    with pytest.raises(IllegalAction, match="has fired this turn and may not move"):
        game.apply("move H 0502", "red")


def test_the_option_binds_only_units_with_the_note(veg):
    """Mobile Howitzer option: other units still move and fire in one turn."""
    game = veg.new_game(MH, dice=[1, 6], options={"move_or_shoot": True})
    game.apply("move G 0902", "red")
    veg.skip_to(game, "red", "attack")
    assert "attack G F" in veg.legal(game)


GUN_WAGON = {
    "gun_wagon": {
        "att": 3,
        "rng": 3,
        "def": 2,
        "mov": 3,
        "class": "vehicle",
        "capacity": 1,
        "move_or_shoot": True,
    }
}


@pytest.mark.parametrize("loads", [True, False])
def test_under_move_or_shoot_loading_counts_as_moving(veg, loads):
    """Move-or-shoot (ruling 17): "moved" is spending any MP, so a carrier with the note
    (a user-defined gun wagon) that took a squad aboard may not fire that turn."""
    units = [
        ("red", "W", "gun_wagon", "0505"),
        ("red", "I", "infantry", "0505"),
        ("blue", "E", "gun", "0507"),
        ("red", "G", "gun", "0901"),
        ("blue", "F", "gun", "0903"),
    ]
    game = veg.new_game(units, unit_types=GUN_WAGON, options={"move_or_shoot": True})
    if loads:
        game.apply("load W I", "red")
    veg.skip_to(game, "red", "attack")
    assert ("attack W E" in veg.legal(game)) is not loads
    if loads:
        with pytest.raises(IllegalAction, match="W has moved this turn and may not fire"):
            game.apply("attack W E", "red")
