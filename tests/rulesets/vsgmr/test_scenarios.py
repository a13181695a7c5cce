"""Scenario files: the three built-in battles, and clear errors for malformed files."""

from __future__ import annotations

import copy

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.errors import ScenarioError

BUILT_IN = ("vsgmr/street", "vsgmr/field", "vsgmr/relic")


@pytest.mark.parametrize("sid", BUILT_IN)
def test_built_in_scenarios_load_and_start(sid):
    """Every built-in scenario validates, starts, and asks for the initiative choice."""
    game = Game.start(sid, seed=3)
    assert game.decision is not None
    assert all(str(a).startswith("first ") for a in game.legal_actions())
    # II: 5 rounds, which a scenario may change: the relic needs 8 to be carried off
    # (test_relic_objective.py::test_the_fastest_line_carries_the_relic_off_within_the_rounds)
    assert game.scenario.turn_limit == (8 if sid == "vsgmr/relic" else 5)


def test_the_street_fight_has_buildings_and_cover(vs):
    """Issue: a street fight with buildings and cover."""
    setup = load_scenario("vsgmr/street").spec
    kinds = {f.kind for f in setup.features}
    assert {"building", "wall", "rubble"} <= kinds
    assert any(f.blocks_los == "beyond" for f in setup.features)
    assert any(f.half_move for f in setup.features)


def test_the_field_battle_has_cavalry_and_vehicles_with_riders(vs):
    """Issue: a cavalry-and-vehicles field battle; riders start on their mounts (II.2)."""
    setup = load_scenario("vsgmr/field").spec
    kinds = {p.profile.kind for p in setup.placements}
    assert {"cavalry", "vehicle", "troop", "hero"} <= kinds
    riding = {p.id: p.riding for p in setup.placements if p.riding}
    assert riding["T1d"] == "T1" and riding["L1r"] == "L1"
    lorry = next(p for p in setup.placements if p.id == "LY")
    assert lorry.profile.kind == "vehicle" and "LY" not in riding.values()


def test_the_three_player_scenario_has_an_objective_to_carry_off(vs):
    """Issue: a three-player scenario with an objective item to carry off the table."""
    scenario = load_scenario("vsgmr/relic")
    setup = scenario.spec
    assert len(scenario.sides) == 3
    assert setup.items[0].id == "relic" and setup.items[0].locked
    assert setup.victory.end_when_item_leaves
    assert setup.options.everyone_acts and setup.options.specific_skills


def _raw(sid="vsgmr/street"):
    return copy.deepcopy(dict(load_scenario(sid).raw))


def _error(raw):
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "bad.toml", "bad")
    return str(caught.value)


def test_unknown_profile_is_named(vs):
    raw = _raw()
    raw["figures"]["red"][0]["profile"] = "ninja"
    assert "bad.toml: figures.red[0].profile: unknown profile 'ninja'" in _error(raw)


def test_a_figure_off_the_table_is_refused(vs):
    raw = _raw()
    raw["figures"]["red"][0]["at"] = [35.8, 2]
    assert "figures.red[0].at: the base at (35.8, 2) is not wholly on the table" in _error(raw)


def test_a_figure_inside_a_building_is_refused(vs):
    raw = _raw()
    raw["figures"]["red"][0]["at"] = [6, 10]
    assert "overlaps impassable 'house1'" in _error(raw)


def test_overlapping_figures_are_refused(vs):
    raw = _raw()
    raw["figures"]["red"][1]["at"] = [18.5, 2]
    assert "figures.red[1].at: the base overlaps figure 'R1'" in _error(raw)


def test_duplicate_ids_are_refused_across_figures_and_features(vs):
    raw = _raw()
    raw["figures"]["red"][1]["id"] = "house1"
    assert "duplicate id 'house1'" in _error(raw)


def test_action_words_cannot_be_ids(vs):
    raw = _raw()
    raw["figures"]["red"][1]["id"] = "end"
    assert "'end' is a word of the action language" in _error(raw)


def test_a_rider_must_be_a_guy_on_its_own_sides_mount(vs):
    raw = _raw("vsgmr/field")
    raw["figures"]["grey"][1]["riding"] = "AC"
    assert "figures.grey[1].riding: 'AC' belongs to green" in _error(raw)
    raw = _raw("vsgmr/field")
    raw["figures"]["grey"][1]["riding"] = "G1"
    assert "is a troop, not cavalry or a vehicle" in _error(raw)


def test_misspelt_keys_and_bad_values_are_named(vs):
    raw = _raw()
    raw["options"] = {"everyone_act": True}
    assert "options.everyone_act: unknown field (check the spelling)" in _error(raw)
    raw = _raw()
    raw["features"][0]["blocks_los"] = "maybe"
    assert "features[0].blocks_los" in _error(raw)


def test_automatic_fire_needs_a_distance_attack(vs):
    raw = _raw()
    raw["profiles"]["bruiser"]["auto"] = True
    assert "profiles.bruiser.auto: automatic fire needs a distance attack" in _error(raw)


def test_a_task_needs_a_place_and_a_fitting_target(vs):
    raw = _raw()
    raw["tasks"][0].pop("at")
    assert "tasks[0]: give exactly one of 'feature' or 'at'" in _error(raw)
    raw = _raw("vsgmr/relic")
    raw["tasks"][0]["target"] = "nothing"
    assert "tasks[0].target: unlock_item needs an item id" in _error(raw)


def test_every_side_needs_a_figure(vs):
    raw = _raw()
    raw["figures"]["blue"] = []
    assert "figures.blue: every side needs at least one figure" in _error(raw)


def test_point_values_default_to_the_stand_in_scheme(vs):
    """Stand-in (data/points.toml): a type's base value plus its abilities, unless given."""
    setup = load_scenario("vsgmr/street").spec
    points = {p.id: p.profile.points for p in setup.placements}
    assert points["R1"] == 2 + 1 + 1  # hero, distance attack, light armour
    assert points["R4"] == 1 + 1 + 1  # troop, distance attack, automatic fire
    assert points["R5"] == 1 + 2  # troop, heavy armour


def test_figures_set_up_facing_the_middle_of_the_table_unless_told(vs):
    """II: set up facing toward the other player's figures (ruling: the table's middle,
    when the scenario gives no facing)."""
    figures = [vs.fig("red", "A", "troop", (18, 2)), vs.fig("blue", "B", "troop", (2, 18))]
    game = vs.new_game(figures, dice=[6, 1])
    assert vs.figure(game, "A").geo.facing == 90.0
    assert vs.figure(game, "B").geo.facing == 0.0
