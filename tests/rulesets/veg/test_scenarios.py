"""The built-in V.E.G. scenarios, and malformed scenario files refused with a clear message."""

from __future__ import annotations

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.errors import ScenarioError

BUILT_IN = ("veg/tank-battle", "veg/city-assault", "veg/crater-field")


@pytest.mark.parametrize("scenario_id", BUILT_IN)
def test_built_in_scenarios_load_and_start(scenario_id):
    game = Game.start(scenario_id, seed=1)
    assert not game.is_over
    assert game.view(None)["map"]["columns"] > 0
    assert game.scenario.turn_limit is not None


def test_the_tank_battle_has_woods_a_stream_and_a_road():
    """Scenario 1: an open tank battle with woods and a stream."""
    setup = load_scenario("veg/tank-battle").spec
    terrain = set(setup.board.map.terrain.values())
    assert {"woods", "sand"} <= terrain
    assert set(setup.board.map.hexsides.values()) == {"stream"}
    assert setup.board.map.roads
    assert setup.options.attack_during_movement
    assert setup.at_turn_limit == "points"


def test_the_city_assault_has_infantry_transports_and_a_hardened_building():
    """Scenario 2: a city assault with infantry, transports and a hardened building."""
    setup = load_scenario("veg/city-assault").spec
    assert "city" in set(setup.board.map.terrain.values())
    kinds = {p.type.key for p in setup.units}
    assert {"truck", "hover_pc", "infantry", "ranger", "heavy_weapons"} <= kinds
    assert any(p.riding for p in setup.units)
    (bunker,) = setup.buildings
    assert bunker.dfn > 0 and bunker.sp > 1
    assert setup.objectives[0].kind == "destroy" and setup.objectives[0].targets == (bunker.id,)
    assert setup.options.move_or_shoot


def test_the_crater_field_makes_the_hazards_matter():
    """Scenario 3: a crater field crossing; every way east either enters craters or a lane."""
    setup = load_scenario("veg/crater-field").spec
    board = setup.board
    craters = sum(1 for h in board.hazard if h is not None)
    assert craters >= 40
    assert setup.objectives[0].kind == "reach" and setup.objectives[0].count == 4
    # The road east runs through craters: fast, but hazardous.
    road = board.map.road_hexes()
    assert any(board.hazard[board.index[h]] is not None for h in road)


def _raw(veg, **kw):
    return veg.scenario_dict([("red", "A", "gun", "0505"), ("blue", "E", "gun", "1010")], **kw)


@pytest.mark.parametrize(
    ("change", "path", "problem"),
    [
        (
            lambda r: r["forces"]["red"][0].update(type="tank9"),
            r"forces\.red\[0\]\.type",
            "unknown unit type 'tank9'",
        ),
        (
            lambda r: r.update(options={"stacking": 5}),
            "options.stacking",
            "unknown option .* options of veg: combined_attacks, stacking_limit",
        ),
        (
            lambda r: r.update(options={"stacking_limit": 0}),
            "options.stacking_limit",
            "greater than or equal to 1",
        ),
        (
            lambda r: r.update(options={"building_damage": "half"}),
            "options.building_damage",
            "'att' or 'margin'",
        ),
        (
            lambda r: r["forces"]["red"].append({"id": "I", "type": "infantry", "riding": "Z"}),
            r"forces\.red\[1\]\.riding",
            "no carrier 'Z'",
        ),
        (
            lambda r: r["forces"]["red"].append({"id": "I", "type": "gun", "riding": "A"}),
            r"forces\.red\[1\]\.riding",
            "cannot ride",
        ),
        (
            lambda r: r["forces"]["red"].append({"id": "a", "type": "gun", "at": "0101"}),
            r"forces\.red\[1\]\.id",
            "duplicate id 'a'",
        ),
        (
            lambda r: r["forces"]["red"][0].update(at="1111"),
            r"forces\.red\[0\]\.at",
            "off the 10x10 map",
        ),
        (lambda r: r["map"].update(terrain="lava"), "map.terrain", "unknown terrain 'lava'"),
        (
            lambda r: r.update(
                buildings=[{"id": "B", "side": "green", "at": "0101", "def": 2, "sp": 3}]
            ),
            r"buildings\[0\]\.side",
            "no side 'green'",
        ),
        (
            lambda r: r.update(victory={"objectives": [{"side": "red", "destroy": ["A"]}]}),
            r"victory\.objectives\[0\]\.destroy\[0\]",
            "not a unit or building of red's enemy",
        ),
        (
            lambda r: r.update(victory={"at_turn_limit": "green"}),
            "victory.at_turn_limit",
            "not points, draw or a side",
        ),
        (
            lambda r: r["forces"]["red"][0].update(count=30),
            r"forces\.red\[0\]\.count",
            "less than or equal to 26",
        ),
    ],
)
def test_malformed_scenario_names_file_field_and_problem(veg, change, path, problem):
    raw = _raw(veg)
    change(raw)
    with pytest.raises(ScenarioError, match=rf"^bad\.toml: {path}: .*{problem}"):
        scenario_from_dict(raw, "bad.toml", "bad")
