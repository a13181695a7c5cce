"""The built-in scenario files (SAMPLE GAME: Danville; our own: Hold the Bridge), and
how a malformed scenario file is reported: file, field path and problem."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.errors import ScenarioError
from warbench.geometry.hexgrid import Hex

TOWN = ("0405", "0406", "0505", "0506")


def _danville_text() -> str:
    folder = resources.files("warbench.rulesets.miniwars") / "scenarios"
    return (folder / "danville.toml").read_text("utf-8")


@pytest.mark.parametrize("ref", ["miniwars/danville", "miniwars/bridge"])
def test_built_in_scenarios_load_and_start(ref):
    """Both built-in scenarios validate and start a game."""
    scenario = load_scenario(ref)
    game = Game(scenario, seed=1)
    assert game.decision is not None
    assert len(scenario.sides) == 2


def test_danville_forces_are_the_texts_nine_and_eighteen_units():
    """SAMPLE GAME: nine defenders and eighteen raiders, by type as listed."""
    setup = load_scenario("miniwars/danville").spec
    by_side = {
        side: Counter(p.type.key for p in setup.units if p.side == side) for side in setup.sides
    }
    assert by_side["danville"] == {"mayor": 1, "guard_officers": 1, "guardsmen": 3, "militia": 4}
    assert by_side["horde"] == {
        "hobgoblin_leader": 1,
        "hobgoblin_sergeant": 2,
        "wolfriders": 4,
        "mercenaries": 4,
        "goblin_infantry": 7,
    }
    assert sum(by_side["danville"].values()) == 9
    assert sum(by_side["horde"].values()) == 18


def test_danville_costs_total_307_and_427():
    """SAMPLE GAME: the defenders cost 307 in all, the horde 427."""
    setup = load_scenario("miniwars/danville").spec
    totals = Counter()
    for p in setup.units:
        totals[p.side] += p.type.cost
    assert totals == {"danville": 307, "horde": 427}


def test_danville_defenders_set_up_within_three_hexes_of_the_town():
    """SAMPLE GAME: the Danville units begin within three hexes of the town."""
    setup = load_scenario("miniwars/danville").spec
    town = [Hex.from_label(h) for h in TOWN]
    assert all(setup.board.map.terrain_at(h) == "town" for h in town)
    for p in setup.units:
        if p.side == "danville":
            assert min(p.at.distance(t) for t in town) <= 3, p.id


def test_danville_invaders_set_up_within_two_hexes_of_the_opposite_edge():
    """SAMPLE GAME: the invaders deploy within two hexes of the map edge opposite the
    town (east); the edge column counts as 0, so columns 14-16 of 16."""
    setup = load_scenario("miniwars/danville").spec
    columns = setup.board.map.grid.columns
    town_columns = {Hex.from_label(h).to_offset()[0] for h in TOWN}
    assert max(town_columns) < columns / 2  # the town is on the west side
    for p in setup.units:
        if p.side == "horde":
            assert columns - p.at.to_offset()[0] <= 2, p.id


def test_danville_deployment_zones_are_checked_by_the_loader():
    """SAMPLE GAME: the set-up rules are data ([[sides]] deploy) the loader enforces."""
    zones = load_scenario("miniwars/danville").spec.deploy_zones
    assert Hex.from_label("1309") not in zones["horde"]
    assert Hex.from_label("1409") in zones["horde"]
    assert Hex.from_label("0807") in zones["danville"]  # 3 from 0506
    assert Hex.from_label("0808") not in zones["danville"]  # 4


def test_bridge_scenario_respects_its_own_deployment():
    """Hold the Bridge: guards within 2 of the bridgehead 0504, vanguard within 1 of the
    east edge, the guards holding at the turn limit."""
    scenario = load_scenario("miniwars/bridge")
    setup = scenario.spec
    for p in setup.units:
        if p.side == "guards":
            assert p.at.distance(Hex.from_label("0504")) <= 2, p.id
        else:
            assert p.at.to_offset()[0] >= 9, p.id
    assert setup.at_turn_limit == "guards"
    assert scenario.turn_limit == 8


# -- malformed files ------------------------------------------------------------------


def _load_edited(tmp_path: Path, old: str, new: str) -> ScenarioError:
    text = _danville_text()
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(str(path))
    err = info.value
    assert err.file == str(path)
    assert str(path) in str(err)
    return err


@pytest.mark.parametrize(
    ("old", "new", "path", "problem"),
    [
        (
            'type = "militia", at = "0304"',
            'type = "orc", at = "0304"',
            "forces.danville[8].type",
            "unknown unit type 'orc'",
        ),
        (
            'type = "militia", at = "0304"',
            'type = "militia", at = "2004"',
            "forces.danville[8].at",
            "off the 16x12 map",
        ),
        (
            'type = "militia", at = "0304"',
            'type = "militia", at = "0601"',
            "forces.danville[8].at",
            "infantry cannot stand in lake",
        ),
        (
            'type = "mayor", at = "0606"',
            'type = "mayor", at = "0208"',
            "forces.danville[0].at",
            "cavalry cannot stand in forest",
        ),
        (
            'type = "goblin_infantry", at = "1609"',
            'type = "goblin_infantry", at = "0606"',
            "forces.horde[17].at",
            "two units of opposing sides in hex 0606",
        ),
        ('id = "M4"', 'id = "M1"', "forces.horde[10].id", "duplicate unit id 'M1'"),
        (
            'type = "goblin_infantry", at = "1609"',
            'type = "goblin_infantry", at = "1309"',
            "forces.horde[17].at",
            "outside horde's deployment zone",
        ),
        (
            "[victory]",
            '[options]\nfired_units = "sometimes"\n\n[victory]',
            "options.fired_units",
            "'no_melee', 'free' or 'hold'",
        ),
        ("turn_limit = 50", "turn_limt = 50", "turn_limt", "unknown field"),
        (
            'at_turn_limit = "units"',
            'at_turn_limit = "nobody"',
            "victory.at_turn_limit",
            "'nobody' is not points, draw or a side (danville, horde), or units",
        ),
    ],
    ids=[
        "unknown-unit-type",
        "hex-off-the-map",
        "infantry-on-lake",
        "cavalry-in-forest",
        "opposing-units-one-hex",
        "duplicate-id",
        "outside-deployment",
        "unknown-option-value",
        "unknown-field",
        "unknown-turn-limit-rule",
    ],
)
def test_malformed_scenario_names_file_field_and_problem(tmp_path, old, new, path, problem):
    """Scenario files: a bad file raises ScenarioError naming the file, field and problem."""
    err = _load_edited(tmp_path, old, new)
    assert err.path == path
    assert problem in err.problem


def test_duplicate_ids_differing_only_in_case_are_refused(tmp_path):
    """Scenario files: actions match unit ids without case, so ``m1`` clashes with ``M1``."""
    err = _load_edited(tmp_path, 'id = "M4"', 'id = "m1"')
    assert "duplicate unit id" in err.problem


def test_two_units_of_one_side_in_a_hex_are_refused(tmp_path):
    """Ruling: one unit per hex (movement may not end on a friend, so nor may set-up)."""
    err = _load_edited(tmp_path, 'type = "militia", at = "0304"', 'type = "militia", at = "0405"')
    assert err.path == "forces.danville[8].at"
    assert "two units in hex 0405" in err.problem


def test_bad_toml_syntax_names_the_line(tmp_path):
    """Scenario files: a TOML syntax error gives the file and the line number."""
    text = _danville_text()
    line = text.splitlines().index("turn_limit = 50") + 1
    err = _load_edited(tmp_path, "turn_limit = 50", "turn_limit = = 50")
    assert "bad TOML syntax" in err.problem
    assert f"line {line}" in err.problem
