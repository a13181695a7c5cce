"""Loading scenarios: built-in ids or files; every problem a ScenarioError naming file and field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from warbench.core import registry
from warbench.core.loader import (
    builtin_scenarios,
    list_scenarios,
    load_scenario,
    scenario_from_dict,
)
from warbench.core.ruleset import RulesetInfo
from warbench.errors import ScenarioError, UnknownScenario, WarbenchError
from warbench.rulesets.miniwars import MiniWars
from warbench.scenario.errors import field_path
from warbench.scenario.files import parse_toml
from warbench.scenario.hexmap import HexMapSpec, build_hexmap

TERRAINS = ("open", "forest", "town")
FEATURES = ("river", "bridge")

SMALL = """\
ruleset = "miniwars"
title = "Small"
turn_limit = 3

[map]
columns = 6
rows = 6

[[sides]]
name = "red"

[[sides]]
name = "blue"

[forces]
red = [{ id = "G1", type = "guardsmen", at = "0202" }]
blue = [{ id = "W1", type = "wolfriders", at = "0505" }]
"""


def _small_raw() -> dict[str, Any]:
    return parse_toml(SMALL, "small.toml")


def _write(tmp_path: Path, text: str, name: str = "scenario.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# -- finding scenarios ---------------------------------------------------------------------


def test_builtin_scenarios_are_named_ruleset_slash_file() -> None:
    found = builtin_scenarios()
    assert {"miniwars/danville", "miniwars/bridge"} <= set(found)
    for scenario_id in found:
        ruleset, _, name = scenario_id.partition("/")
        assert registry.get(ruleset).info.name == ruleset
        assert name


def test_list_scenarios_gives_id_ruleset_and_title() -> None:
    infos = {info.id: info for info in list_scenarios()}
    assert infos["miniwars/danville"].ruleset == "miniwars"
    assert infos["miniwars/danville"].title == "The Danville Raid"
    assert set(infos) == set(builtin_scenarios())


def test_a_builtin_scenario_loads_by_id() -> None:
    scenario = load_scenario("miniwars/bridge")
    assert scenario.id == "miniwars/bridge"
    assert scenario.ruleset == "miniwars"
    assert scenario.sides == ("guards", "vanguard")
    assert scenario.turn_limit == 8


def test_a_scenario_file_loads_by_path_and_takes_its_id_from_the_name(tmp_path: Path) -> None:
    scenario = load_scenario(str(_write(tmp_path, SMALL, "skirmish.toml")))
    assert scenario.id == "skirmish"
    assert scenario.sides == ("red", "blue")
    assert scenario.raw == _small_raw()


def test_an_unknown_scenario_id_lists_the_builtin_ids() -> None:
    with pytest.raises(UnknownScenario, match="no scenario 'miniwars/nowhere'") as caught:
        load_scenario("miniwars/nowhere")
    for scenario_id in builtin_scenarios():
        assert scenario_id in str(caught.value)
    assert isinstance(caught.value, WarbenchError)


def test_a_folder_is_not_a_scenario_file(tmp_path: Path) -> None:
    with pytest.raises(UnknownScenario):
        load_scenario(str(tmp_path))


def test_a_file_that_is_not_utf8_text_is_a_scenario_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(ScenarioError, match="cannot read the file") as caught:
        load_scenario(str(path))
    assert caught.value.file == str(path)


def test_a_ruleset_from_a_top_level_module_adds_no_builtin_scenarios() -> None:
    info = RulesetInfo(name="plugin-test", title="plugin", version="1", geometry="hex")
    plugin = type("Plugin", (MiniWars,), {"info": info, "__module__": "plugin_ruleset"})()
    registry.all_rulesets()
    registry.register(plugin)
    try:
        found = builtin_scenarios()
    finally:
        registry._rulesets.pop("plugin-test", None)
        registry._aliases.pop("plugin-test", None)
    assert not any(sid.startswith("plugin-test/") for sid in found)


# -- TOML and the header ---------------------------------------------------------------------


def test_bad_toml_syntax_names_the_file_line_and_column(tmp_path: Path) -> None:
    path = _write(tmp_path, 'ruleset = "miniwars"\ntitle = \n')
    with pytest.raises(ScenarioError, match=r"bad TOML syntax: .*line 2, column 9") as caught:
        load_scenario(str(path))
    assert caught.value.file == str(path)
    assert str(caught.value).startswith(f"{path}: bad TOML syntax")


def test_bad_toml_in_a_later_line_names_that_line(tmp_path: Path) -> None:
    text = SMALL.replace("rows = 6", "rows = = 6")
    line = text.splitlines().index("rows = = 6") + 1
    with pytest.raises(ScenarioError, match=rf"line {line}, column \d+"):
        load_scenario(str(_write(tmp_path, text)))


def test_an_unknown_ruleset_names_the_field_and_the_known_rulesets(tmp_path: Path) -> None:
    path = _write(tmp_path, SMALL.replace('ruleset = "miniwars"', 'ruleset = "chess"'))
    with pytest.raises(ScenarioError) as caught:
        load_scenario(str(path))
    err = caught.value
    assert err.path == "ruleset"
    assert err.file == str(path)
    assert "unknown ruleset 'chess'" in err.problem
    for ruleset in registry.all_rulesets():
        assert ruleset.info.name in err.problem


@pytest.mark.parametrize("value", [None, 3, ["miniwars"]])
def test_a_missing_or_non_text_ruleset_names_the_field(value: Any) -> None:
    raw = _small_raw()
    if value is None:
        del raw["ruleset"]
    else:
        raw["ruleset"] = value
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "s.toml", "s")
    assert caught.value.path == "ruleset"
    wanted = "required field is missing" if value is None else "should be a ruleset name"
    assert wanted in caught.value.problem


def test_a_ruleset_alias_is_accepted_in_a_scenario() -> None:
    raw = _small_raw()
    raw["ruleset"] = "mw"
    assert scenario_from_dict(raw, "s.toml", "s").ruleset == "miniwars"


def test_schema_problems_are_listed_one_per_line_with_their_field_paths() -> None:
    raw = _small_raw()
    raw["map"]["columns"] = 0
    raw["colour"] = "red"
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "s.toml", "s")
    lines = str(caught.value).splitlines()
    assert len(lines) == 2
    assert all(line.startswith("s.toml: ") for line in lines)
    assert any("map.columns" in line for line in lines)
    assert any("colour: unknown field" in line for line in lines)


@pytest.mark.parametrize(
    ("loc", "path"),
    [
        (("forces", "horde", 2, "type"), "forces.horde[2].type"),
        (("map", "roads", 0, 3), "map.roads[0][3]"),
        (("title",), "title"),
        ((), ""),
    ],
)
def test_field_paths_read_like_toml(loc: tuple[Any, ...], path: str) -> None:
    assert field_path(loc) == path


# -- the [map] builder ------------------------------------------------------------------------


def _build(**spec: Any) -> Any:
    full = {"columns": 6, "rows": 6, **spec}
    return build_hexmap(HexMapSpec.model_validate(full), "m.toml", TERRAINS, FEATURES)


def test_a_valid_map_gets_its_terrain_elevation_hexsides_and_roads() -> None:
    hexmap = _build(
        hexes={"forest": ["0202", "0203"], "town": ["0404"]},
        elevation={"1": ["0303"]},
        hexsides=[{"feature": "river", "sides": ["0101/0102"]}],
        roads=[["0101", "0201", "0301"]],
    )
    grid = hexmap.grid
    assert hexmap.terrain_at(grid.parse("0203")) == "forest"
    assert hexmap.terrain_at(grid.parse("0505")) == "open"
    assert hexmap.elevation_at(grid.parse("0303")) == 1
    assert hexmap.feature_between(grid.parse("0102"), grid.parse("0101")) == "river"
    assert hexmap.road_between(grid.parse("0201"), grid.parse("0301"))


@pytest.mark.parametrize(
    ("spec", "path", "problem"),
    [
        ({"terrain": "lava"}, "map.terrain", "unknown terrain 'lava'; known: forest, open, town"),
        ({"hexes": {"lava": ["0101"]}}, "map.hexes.lava", "unknown terrain 'lava'"),
        ({"hexes": {"forest": ["0101", "0707"]}}, "map.hexes.forest[1]", "off the 6x6 map"),
        ({"hexes": {"forest": ["01x1"]}}, "map.hexes.forest[0]", "01x1"),
        (
            {"hexes": {"forest": ["0202"], "town": ["0303", "0202"]}},
            "map.hexes.town[1]",
            "hex 0202 is already forest",
        ),
        ({"elevation": {"high": ["0101"]}}, "map.elevation.high", "whole numbers"),
        ({"elevation": {"1": ["0909"]}}, "map.elevation.1[0]", "off the 6x6 map"),
        (
            {"hexsides": [{"feature": "lava", "sides": ["0101/0102"]}]},
            "map.hexsides[0].feature",
            "unknown hexside feature 'lava'",
        ),
        (
            {"hexsides": [{"feature": "river", "sides": ["0101/0102", "0101/0303"]}]},
            "map.hexsides[0].sides[1]",
            "not adjacent",
        ),
        (
            {"hexsides": [{"feature": "river", "sides": ["0101-0102"]}]},
            "map.hexsides[0].sides[0]",
            "is not a hexside",
        ),
        (
            {"hexsides": [{"feature": "river", "sides": ["0101/0701"]}]},
            "map.hexsides[0].sides[0]",
            "off the 6x6 map",
        ),
        (
            {
                "hexsides": [
                    {"feature": "river", "sides": ["0101/0102"]},
                    {"feature": "bridge", "sides": ["0102/0101"]},
                ]
            },
            "map.hexsides[1].sides[0]",
            "already has river",
        ),
        (
            {"roads": [["0101", "0201"], ["0101", "0201", "0401"]]},
            "map.roads[1][2]",
            "road jumps from 0201 to 0401",
        ),
        ({"roads": [["0101"]]}, "map.roads[0]", "at least two hexes"),
        ({"roads": [["0101", "0808"]]}, "map.roads[0][1]", "off the 6x6 map"),
    ],
)
def test_map_errors_name_the_field_path(spec: dict[str, Any], path: str, problem: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        _build(**spec)
    err = caught.value
    assert err.file == "m.toml"
    assert err.path == path
    assert problem in err.problem
    assert str(err).startswith(f"m.toml: {path}: ")


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda m: m["hexes"].update({"lava": ["0101"]}), "map.hexes.lava"),
        (lambda m: m["roads"].append(["0101", "0303"]), "map.roads[0][1]"),
        (lambda m: m["hexes"].update({"forest": ["0303"], "town": ["0303"]}), "map.hexes.town[0]"),
    ],
)
def test_map_errors_in_a_scenario_file_name_the_file_and_field(
    tmp_path: Path, change: Any, path: str
) -> None:
    raw = _small_raw()
    game_map = copy.deepcopy(raw["map"])
    game_map.setdefault("hexes", {})
    game_map.setdefault("roads", [])
    change(game_map)
    raw["map"] = game_map
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "small.toml", "small")
    assert caught.value.file == "small.toml"
    assert caught.value.path == path
