"""Buildings (V.E.G., Misc. Rules and Options): DEF and structural points, a hit removes
SP equal to the attacker's ATT (half for a Wound, rounded down), gone at 0 SP; the
margin-damage option."""

from __future__ import annotations

import pytest

from warbench.core.loader import scenario_from_dict
from warbench.errors import ScenarioError

BUNKER = [{"id": "B", "side": "blue", "at": "0507", "def": 4, "sp": 10}]
ATTACKERS = [
    ("red", "A", "gun", "0505"),
    ("red", "C", "gun", "0504"),
    ("blue", "E", "gun", "1010"),
]


def test_a_successful_attack_does_damage_equal_to_its_att(veg):
    """Buildings: a hit takes off as many SP as the attack's ATT."""
    game = veg.new_game(ATTACKERS, buildings=BUNKER, dice=[4, 2])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    game.apply("join C", "red")
    game.apply("roll", "red")  # ATT 6 + 4 against DEF 4 + 2: success
    assert game.state.buildings["B"].sp == 10 - 6
    assert veg.last(game, "attack").data["damage"] == 6


def test_an_attack_on_a_building_reads_base_modifiers_and_total(veg):
    """Narration: a wounded attacker's ATT is shown as 3 -1 (wounded) = 2, the total once."""
    units = [
        {"side": "red", "id": "A", "type": "gun", "at": "0505", "wounded": True},
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units, buildings=BUNKER, dice=[6, 1])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    attack = veg.last(game, "attack")
    assert "A attack B: ATT 3 -1 (A wounded) = 2 against DEF 4, beats it by 3" in attack.text
    assert attack.data["damage"] == 2


def test_a_wound_does_half_the_damage_rounded_down(veg):
    """Buildings: a Wound takes off half of that, rounded down."""
    game = veg.new_game(ATTACKERS, buildings=BUNKER, dice=[1, 2])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    game.apply("roll", "red")  # 3 + 1 against 4 + 2: short by 2, nothing
    assert game.state.buildings["B"].sp == 10
    game = veg.new_game(ATTACKERS, buildings=BUNKER, dice=[3, 2])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    game.apply("roll", "red")  # 3 + 3 against 4 + 2: a tie wounds, 3 // 2 = 1 SP
    assert game.state.buildings["B"].sp == 9


def test_a_structure_at_zero_sp_is_destroyed(veg):
    """Buildings: a structure brought down to 0 SP is destroyed."""
    bunker = [{"id": "B", "side": "blue", "at": "0507", "def": 4, "sp": 5, "value": 20}]
    game = veg.new_game(ATTACKERS, buildings=bunker, dice=[6, 1])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    game.apply("join C", "red")
    game.apply("roll", "red")
    building = game.state.buildings["B"]
    assert building.sp == 0 and not building.standing
    assert veg.last(game, "destroyed").data["unit"] == "B"
    assert game.state.lost["blue"] == 20
    assert not any("B" in a for a in veg.legal(game))


def test_damage_may_be_the_margin_of_the_rolls_under_the_option(veg):
    """Buildings, optional rule: damage equal to the difference of attack and defence rolls."""
    game = veg.new_game(
        ATTACKERS, buildings=BUNKER, dice=[6, 1], options={"building_damage": "margin"}
    )
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    game.apply("roll", "red")  # 3 + 6 against 4 + 1: wins by 4, 4 SP
    assert game.state.buildings["B"].sp == 6


def test_under_the_margin_option_a_wound_does_no_damage(veg):
    """Buildings, optional rule (ruling 15): damage is what the attack roll won by; a
    V.E.G. Wound is a tie (won by 0), so half of it, rounded down, is 0 SP. The same roll
    under the standard rule does half the ATT."""
    for damage, left in (("margin", 10), ("att", 9)):
        game = veg.new_game(
            ATTACKERS, buildings=BUNKER, dice=[3, 2], options={"building_damage": damage}
        )
        veg.skip_to(game, "red", "attack")
        game.apply("attack A B", "red")
        game.apply("roll", "red")  # 3 + 3 against 4 + 2: a tie, a Wound
        (event,) = veg.events(game, "attack")
        assert event.data["result"] == "wound" and event.data["difference"] == 0
        assert game.state.buildings["B"].sp == left


def test_destroying_an_objective_building_wins(veg):
    """Victory objectives (stand-in): destroying the listed building wins at once."""
    bunker = [{"id": "B", "side": "blue", "at": "0507", "def": 4, "sp": 3}]
    game = veg.new_game(
        ATTACKERS,
        buildings=bunker,
        dice=[6, 1],
        victory={"at_turn_limit": "blue", "objectives": [{"side": "red", "destroy": ["B"]}]},
    )
    veg.skip_to(game, "red", "attack")
    game.apply("attack A B", "red")
    game.apply("roll", "red")
    assert game.is_over and game.outcome.winner == "red"
    assert game.outcome.reason == "red destroyed its objective"


def test_an_attack_on_a_building_has_no_spillover_and_no_range_zero_bonus(veg):
    """Buildings (ruling): a building is not a unit; no spillover, no infantry range-0 bonus."""
    units = [("red", "I", "infantry", "0507"), ("blue", "E", "gun", "0507")]
    game = veg.new_game(units, buildings=BUNKER, dice=[1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack I B", "red")
    attacks = veg.events(game, "attack")
    assert len(attacks) == 1 and attacks[0].data["att"] == 1


def test_buildings_are_only_for_worlds_that_have_them(veg):
    """Scenario files: the bare cgme core has no buildings."""
    raw = veg.scenario_dict(
        [("red", "A", "tank", "0505"), ("blue", "E", "tank", "1010")], ruleset="cgme"
    )
    raw["buildings"] = BUNKER
    with pytest.raises(ScenarioError, match="buildings: cgme has no buildings"):
        scenario_from_dict(raw, "test.toml", "test")
