"""Unit Stacking (V.E.G., Basic Rules Extensions); Rangers and Hvy Weapons (Special Unit Notes).

The text says "up to 6 units may stack" once and 5 twice: "the 5-unit-per-
hex limit" and its only example (no unit may move into a hex already holding
5 enemy units). Ruling 1: 5 by default (the data's ``[stacking] limit``), option
``stacking_limit = 6``; the text's own "stacking rules may be ignored" is
``stacking_limit = "off"``.
"""

from __future__ import annotations

import pytest

from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction, ScenarioError


def _stack(side, prefix, n, at, kind="gun"):
    return [(side, f"{prefix}{i}", kind, at) for i in range(n)]


def test_the_stacking_limit_is_five_by_default(veg):
    """Unit Stacking: "the 5-unit-per-hex limit" (ruling 1: the default, in the data)."""
    units = [
        *_stack("red", "S", 4, "0505"),
        ("red", "M", "gun", "0504"),
        ("red", "N", "gun", "0503"),
    ]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")])
    assert game.state.setup.world.stacking_limit == 5
    game.apply("move M 0505", "red")  # the fifth
    assert len(game.state.stacks[game.state.units["M"].pos]) == 5
    assert "0505" not in veg.reach(game, "N")
    with pytest.raises(IllegalAction, match="cannot reach 0505"):
        game.apply("move N 0505", "red")


def test_up_to_six_units_may_stack_under_the_option(veg):
    """Unit Stacking: option stacking_limit = 6 lets six units share a hex."""
    units = [
        *_stack("red", "S", 5, "0505"),
        ("red", "M", "gun", "0504"),
        ("red", "N", "gun", "0503"),
    ]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")], options={"stacking_limit": 6})
    game.apply("move M 0505", "red")  # the sixth
    assert len(game.state.stacks[game.state.units["M"].pos]) == 6
    assert "0505" not in veg.reach(game, "N")
    with pytest.raises(IllegalAction, match="cannot reach 0505"):
        game.apply("move N 0505", "red")


def test_the_stacking_limit_may_be_set_to_five_explicitly(veg):
    """Unit Stacking: the option stacking_limit = 5 is the default reading, spelt out."""
    units = [
        *_stack("red", "S", 4, "0505"),
        ("red", "M", "gun", "0504"),
        ("red", "N", "gun", "0503"),
    ]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")], options={"stacking_limit": 5})
    game.apply("move M 0505", "red")
    assert "0505" not in veg.reach(game, "N")


def test_stacking_may_be_ignored_altogether(veg):
    """Unit Stacking: by agreement the players may drop stacking entirely (option "off")."""
    units = [*_stack("red", "S", 9, "0505"), ("red", "M", "gun", "0504")]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")], options={"stacking_limit": "off"})
    game.apply("move M 0505", "red")
    assert len(game.state.stacks[game.state.units["M"].pos]) == 10


def test_units_may_move_freely_into_a_hex_holding_enemy_units(veg):
    """Unit Stacking: units may move into a hex containing enemy units."""
    game = veg.new_game([("red", "M", "gun", "0503"), ("blue", "E", "gun", "0505")])
    game.apply("move M 0505", "red")
    assert veg.where(game, "M") == veg.where(game, "E") == "0505"


def test_a_hex_packed_with_enemy_units_may_not_be_entered(veg):
    """Unit Stacking, the text's example: a hex already holding 5 enemy units is closed
    to a mover (the default); four leave room for one more."""
    units = [("red", "M", "gun", "0503"), *_stack("blue", "E", 5, "0505")]
    game = veg.new_game(units)
    assert "0505" not in veg.reach(game, "M")
    with pytest.raises(IllegalAction, match="cannot reach 0505"):
        game.apply("move M 0505", "red")
    game = veg.new_game([("red", "M", "gun", "0503"), *_stack("blue", "E", 4, "0505")])
    assert "0505" in veg.reach(game, "M")
    game = veg.new_game(units, options={"stacking_limit": 6})  # limit 6: one more fits
    assert "0505" in veg.reach(game, "M")


def test_a_full_hex_may_not_be_passed_through_either(veg):
    """Unit Stacking (ruling): "may not be entered" holds for hexes passed through too."""
    water = {"open_water": ["0403", "0603", "0404", "0604"]}  # 0504 is the only way south
    full = veg.new_game([("red", "M", "gun", "0503"), *_stack("blue", "E", 5, "0504")], hexes=water)
    assert "0505" not in veg.reach(full, "M")
    room = veg.new_game([("red", "M", "gun", "0503"), *_stack("blue", "E", 4, "0504")], hexes=water)
    assert veg.reach(room, "M")["0505"] == 1


def test_a_full_hex_blocks_the_search_that_counts_road_bonus_and_hazards_too(veg):
    """Unit Stacking (ruling): the same holds where a road bonus or a hazard is within
    reach, when the leg is found by the full search rather than the least-cost one."""
    water = {"open_water": ["0403", "0603", "0404", "0604"]}
    road = [["0501", "0502", "0503"]]  # MOV 3 along it may earn a bonus point
    for full, expected in ((5, None), (4, 1)):
        game = veg.new_game(
            [("red", "M", "gun", "0503"), *_stack("blue", "E", full, "0504")],
            hexes=water,
            roads=road,
        )
        state = game.state
        reach = game.ruleset.reach(state, state.units["M"])
        assert reach.prev is not None  # the full search (movement.search), not the C kernel
        assert veg.reach(game, "M").get("0505") == expected
        assert ("0504" in veg.reach(game, "M")) is (full == 4)


def test_both_sides_units_count_toward_the_limit(veg):
    """Unit Stacking (ruling): the limit counts every unit in the hex, whichever side."""
    units = [
        *_stack("red", "S", 3, "0505"),
        *_stack("blue", "E", 2, "0505"),
        ("red", "M", "gun", "0504"),
    ]
    game = veg.new_game(units)
    assert "0505" not in veg.reach(game, "M")


def test_infantry_squads_count_as_normal_units(veg):
    """Unit Stacking: each infantry squad counts as one ordinary unit toward the limit."""
    units = [
        {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 4},
        ("red", "J", "infantry", "0504"),
        ("red", "K", "infantry", "0503"),
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units)
    game.apply("move J 0505", "red")
    assert "0505" not in veg.reach(game, "K")


def test_a_ranger_counts_a_third_of_a_squad_for_stacking(veg):
    """Special Unit Notes, Ranger: a third of an infantry squad for stacking."""
    units = [
        *_stack("red", "S", 4, "0505"),
        {"side": "red", "id": "R", "type": "ranger", "at": "0504", "count": 4},
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units)
    for uid in ("Ra", "Rb", "Rc"):  # 4 units + 3 thirds = 5 units
        game.apply(f"move {uid} 0505", "red")
    assert "0505" not in veg.reach(game, "Rd")


def test_heavy_weapons_count_as_standard_infantry_for_stacking(veg):
    """Special Unit Notes, Hvy Weapons: they count as standard infantry for stacking."""
    units = [
        *_stack("red", "S", 4, "0505"),
        ("red", "W", "heavy_weapons", "0504"),
        ("red", "X", "heavy_weapons", "0503"),
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units)
    game.apply("move W 0505", "red")
    assert "0505" not in veg.reach(game, "X")


def test_a_scenario_may_not_overstack_a_hex_at_set_up(veg):
    """Unit Stacking: the limit holds at set-up; the file error names the field."""
    raw = veg.scenario_dict([*_stack("red", "S", 6, "0505"), ("blue", "E", "gun", "1010")])
    with pytest.raises(ScenarioError, match=r"forces\.red\[5\]\.at: hex 0505 holds more than 5"):
        scenario_from_dict(raw, "test.toml", "test")


def test_a_stack_moving_together_needs_room_for_all_of_it(veg):
    """Unit Stacking: a stack moves into a hex only if the whole stack fits there."""
    units = [*_stack("red", "S", 2, "0503"), *_stack("blue", "E", 4, "0505")]
    game = veg.new_game(units)
    assert "move S0+S1 0505" not in veg.legal(game)
    assert "move S0 0505" in veg.legal(game)
    with pytest.raises(IllegalAction, match="no room for all of S0\\+S1"):
        game.apply("move S0+S1 0505", "red")
