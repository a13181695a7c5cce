"""``info`` and ``goal`` for V.E.G. (a CGME world): ratings, wounds, MP, riders, a stack,
a building's SP, a hex with a hazard, refusals, and each built-in scenario's goal."""

from __future__ import annotations

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get
from warbench.errors import QuestionRefused


def info(game: Game, side: str | None, ref: str) -> list[str]:
    return game.ruleset.unit_info(game.view(side), ref)


def test_a_carrier_shows_its_ratings_value_and_riders() -> None:
    game = Game.start("veg/city-assault", seed=1)
    assert info(game, "garrison", "T1") == [
        "T1: Transport truck (truck), assault (Assault group)",
        "ATT x (may not attack), DEF 0, MOV 3; class vehicle, value 3",
        "at 0106 (clear, road)",
        "carries Aa, Ab, Ac",
        "MP left this movement phase: 3",
        "status: unhurt, has not moved or attacked",
    ]
    assert info(game, "assault", "aa")[3] == "rides in T1"


def test_a_stack_and_a_wounded_unit_with_its_current_ratings() -> None:
    game = Game.start("veg/city-assault", seed=1)
    game.state.units["Ga"].wounded = True
    game.state.units["Ga"].attacked = True
    lines = info(game, "assault", "Ga")
    assert lines[1] == (
        "ATT 0 (wounded; 1 printed), RNG 1, DEF 0 (wounded; 1 printed), "
        "MOV 1 (wounded; 2 printed); class infantry, value 5"
    )
    assert "stacked with Gb, Gc" in lines
    assert lines[-1] == "status: wounded (a second wound destroys it); attacked this turn"


def test_mp_left_is_shown_only_to_the_player_moving_in_its_movement_phase() -> None:
    game = Game.start("veg/tank-battle", seed=1)
    assert (game.state.phase_name, game.state.side) == ("move", "blue")
    game.state.units["BH"].mp = 2
    game.state.units["BH"].bonus = 1
    assert "MP left this movement phase: 2 (+1 road bonus)" in info(game, "red", "BH")
    assert not any(line.startswith("MP left") for line in info(game, "red", "RH"))


def test_a_building_and_its_hex() -> None:
    game = Game.start("veg/city-assault", seed=1)
    game.state.buildings["BUNKER"].sp = 14
    assert info(game, "assault", "bunker") == [
        "BUNKER: building of garrison (City garrison), DEF 6",
        "structural points: 14 of 20",
        "at 1206 (city, road)",
    ]
    assert info(game, "assault", "1206") == [
        "hex 1206: city",
        "road to 1106",
        "units: GL Light Tank (garrison)",
        "building BUNKER (garrison): DEF 6, 14 of 20 structural points",
    ]


def test_a_crater_hex_names_its_hazard() -> None:
    game = Game.start("veg/crater-field", seed=1)
    assert info(game, None, "0601") == [
        "hex 0601: crater",
        "hazard H(8 - DEF): attacks every unit entering or staying here",
        "units: none",
    ]


def test_a_hex_with_a_carrier_lists_its_riders() -> None:
    game = Game.start("veg/city-assault", seed=1)
    assert info(game, None, "0106")[-1] == (
        "units: T1 Transport truck (assault) carrying Aa, Ab, Ac"
    )


@pytest.mark.parametrize("ref", ["X9", "1513", "BUNKERS"])
def test_unknown_refs_are_refused(ref: str) -> None:
    game = Game.start("veg/city-assault", seed=1)
    with pytest.raises(QuestionRefused) as refused:
        info(game, "assault", ref)
    assert f"no unit or hex '{ref}' here" in str(refused.value)
    assert "BUNKER" in str(refused.value) and "or a hex (0101 to 1412)" in str(refused.value)


def goal(sid: str) -> list[str]:
    scenario = load_scenario(sid)
    return get(scenario.ruleset).goal(scenario)


def test_goal_of_city_assault() -> None:
    assert goal("veg/city-assault")[1:] == [
        "assault wins at once when it has destroyed BUNKER (a building at 1206: DEF 6, "
        "20 structural points).",
        "At the end of turn 10, garrison (City garrison) wins.",
        "A side with no unit left on the map loses at once.",
    ]


def test_goal_of_crater_field() -> None:
    assert goal("veg/crater-field")[1:] == [
        "raiders wins at the end of any of its player turns with 4 units within 1 hex of "
        "the east edge (columns 15-16); riders count.",
        "At the end of turn 8, blockers (Blocking force) wins.",
        "A side with no unit left on the map loses at once.",
    ]


def test_goal_of_tank_battle() -> None:
    lines = goal("veg/tank-battle")
    assert lines[0].startswith("Blue and red armour meet across a stream.")
    assert lines[1:] == [
        "At the end of turn 10, the side that destroyed more enemy value wins (the value of "
        "each unit: info UNIT); equal value destroyed is a draw.",
        "A side with no unit left on the map loses at once.",
    ]
