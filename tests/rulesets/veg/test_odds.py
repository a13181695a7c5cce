"""Exact odds: ``warbench odds veg attack`` and the same functions the rules roll with.

Every pair of dice is played through the real game and the share of each
result compared with the query's fractions (Combat, Spillover, Infantry,
Terrain Effects).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from warbench.cli.main import main
from warbench.core import registry
from warbench.errors import OddsError

KEYS = ["att", "def", "spillover", "range0_infantry", "terrain", "road"]


def _query(ruleset="veg"):
    return registry.get(ruleset).odds_queries()["attack"]


def test_the_attack_query_has_the_issues_keys_and_outcomes():
    """odds veg attack: keys att, def, spillover, range0_infantry, terrain, road;
    destroy/wound/none."""
    query = _query()
    assert [k.name for k in query.keys] == KEYS
    assert list(query([]).outcomes) == ["destroy", "wound", "none"]


def test_equal_att_and_def_destroy_on_beating_the_defence_by_one():
    """Combat: ATT 3 against DEF 3 destroys when the attack die beats the defence die."""
    result = _query()(["att=3", "def=3"]).outcomes
    assert result == {
        "destroy": Fraction(15, 36),
        "wound": Fraction(6, 36),
        "none": Fraction(15, 36),
    }


def test_the_core_needs_two_more():
    """odds cgme attack: the core's margin of 2 (stand-in dice and table)."""
    result = _query("cgme")(["att=3", "def=3"]).outcomes
    assert result["destroy"] == Fraction(10, 36) and result["wound"] == Fraction(5, 36)


def test_the_query_help_gives_each_row_of_the_result_table_once():
    """odds help: V.E.G. destroys at 1 or more and wounds at exactly 0; the core (margin 2)
    destroys at 2 or more and wounds at exactly 1."""
    assert "attack minus defence: 1+ destroy, 0 wound, else none" in _query().help
    assert "attack minus defence: 2+ destroy, 1 wound, else none" in _query("cgme").help


def test_the_crater_stand_in_destroys_a_def_1_unit_every_time():
    """Craters (stand-in, cgme.md): H(8 - DEF) rolled against DEF + 1d6 uses DEF twice; a
    DEF 1 unit meets ATT 7 against DEF 1 and is destroyed on all 36 rolls."""
    result = _query()(["att=7", "def=1", "terrain=crater"]).outcomes
    assert result == {"destroy": Fraction(1), "wound": Fraction(0), "none": Fraction(0)}


def test_spillover_range_zero_and_terrain_change_att_and_def():
    """Spillover -3 ATT; infantry at range 0 +1 ATT; terrain modifies DEF by class."""
    query = _query()
    base = query(["att=6", "def=2"]).outcomes
    assert query(["att=9", "def=2", "spillover=true"]).outcomes == base
    assert query(["att=5", "def=2", "range0_infantry=1"]).outcomes == base
    assert query(["att=4", "def=2", "range0_infantry=2"]).outcomes == base
    assert query(["att=10", "def=2", "terrain=city/infantry"]).outcomes == base
    assert query(["att=8", "def=2", "terrain=city/vehicle"]).outcomes == base
    assert query(["att=4", "def=2", "terrain=open_water/infantry"]).outcomes == base


def test_terrain_choices_name_the_class_where_it_matters():
    """odds: terrains treating classes alike are one choice; others one per class."""
    choices = next(k for k in _query().keys if k.name == "terrain").choices
    assert {"clear", "sand", "crater", "woods/infantry", "woods/vehicle", "city/hover"} <= set(
        choices
    )
    assert "woods" not in choices and "woods/hover" not in choices  # hovercraft may not enter


def test_the_core_refuses_v_e_g_keys_it_does_not_have():
    """odds cgme attack: spillover and the range-0 bonus are V.E.G. rules."""
    with pytest.raises(OddsError, match="cgme has no spillover"):
        _query("cgme")(["spillover=true"])
    with pytest.raises(OddsError, match="range-0"):
        _query("cgme")(["range0_infantry=1"])


def test_the_odds_command_prints_the_exact_distribution(capsys):
    """The CLI: warbench odds veg attack att=5 def=4 --json."""
    assert main(["odds", "veg", "attack", "att=5", "def=4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["outcomes"]) == {"destroy", "wound", "none"}
    assert sum(Fraction(v) for v in data["exact"].values()) == 1


SITUATIONS = [
    # (attacker type, attacker hex, defender type, defender hex, terrain, the query's keys)
    ("gun", "0505", "gun", "0507", {}, ["att=3", "def=3"]),
    (
        "heavy_tank",
        "0505",
        "infantry",
        "0507",
        {"woods": ["0507"]},
        ["att=5", "def=1", "terrain=woods/infantry"],
    ),
    ("infantry", "0507", "gun", "0507", {}, ["att=1", "def=3", "range0_infantry=1"]),
    (
        "gun",
        "0505",
        "infantry",
        "0507",
        {"city": ["0507"]},
        ["att=3", "def=1", "terrain=city/infantry"],
    ),
]


@pytest.mark.parametrize(("att_type", "att_at", "def_type", "def_at", "hexes", "keys"), SITUATIONS)
def test_the_odds_equal_the_count_over_all_36_rolls(
    veg, att_type, att_at, def_type, def_at, hexes, keys
):
    """The query's fractions are the share of each result over every pair of dice."""
    counts = dict.fromkeys(("destroy", "wound", "none"), 0)
    for a in range(1, 7):
        for d in range(1, 7):
            units = [("red", "A", att_type, att_at), ("blue", "T", def_type, def_at)]
            game = veg.new_game(units, dice=[a, d, 1, 6], hexes=hexes)
            veg.skip_to(game, "red", "attack")
            game.apply("attack A T", "red")
            counts[veg.events(game, "attack")[0].data["result"]] += 1
    expected = _query()(keys).outcomes
    assert {k: Fraction(v, 36) for k, v in counts.items()} == dict(expected)


def test_range0_infantry_counts_the_squads_as_the_engine_does(veg):
    """Infantry, ruling 6: each squad at range 0 adds +1, so two squads (ATT 1 + 1) attack
    at 4: against DEF 1 the query with range0_infantry=2 gives 5/6, as every pair of dice
    played through the game does (the query's old true/false gave one +1: 13/18)."""
    counts = dict.fromkeys(("destroy", "wound", "none"), 0)
    for a in range(1, 7):
        for d in range(1, 7):
            units = [
                {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 2},
                ("blue", "T", "infantry", "0505"),
            ]
            game = veg.new_game(units, dice=[a, d] + [6, 1] * 2)
            veg.skip_to(game, "red", "attack")
            game.apply("attack Ia T", "red")
            game.apply("join Ib", "red")
            game.apply("roll", "red")
            counts[veg.events(game, "attack")[0].data["result"]] += 1
    expected = _query()(["att=2", "def=1", "range0_infantry=2"]).outcomes
    assert expected["destroy"] == Fraction(5, 6)
    assert {k: Fraction(v, 36) for k, v in counts.items()} == dict(expected)
    with pytest.raises(OddsError, match="0 or more"):
        _query()(["range0_infantry=-1"])


def test_a_road_hex_drops_the_terrains_def_penalty_but_keeps_its_bonus():
    """Roads: combat penalties of the terrain under a road are ignored, bonuses kept
    (open water: infantry -2 DEF, city: infantry +4); road=true asks for that hex."""
    query = _query()
    clear = query(["att=3", "def=1"]).outcomes
    assert query(["att=3", "def=1", "terrain=open_water/infantry", "road=true"]).outcomes == clear
    assert query(["att=3", "def=1", "terrain=open_water/infantry"]).outcomes != clear
    city = query(["att=3", "def=1", "terrain=city/infantry"]).outcomes
    assert query(["att=3", "def=1", "terrain=city/infantry", "road=true"]).outcomes == city


def test_a_defender_in_a_crater_shows_the_craters_own_attack_beside():
    """Craters: H(8 - DEF); with terrain=crater the attack query also gives the crater's
    attack on the defender (H7 against DEF 1: destroyed on all 36 rolls; H4 against a
    DEF 4 unit: 4 + d6 against 4 + d6, destroy 15/36, wound 6/36)."""
    result = _query()(["att=3", "def=1", "terrain=crater"])
    assert result.extra == {"crater H(8 - DEF) destroy": 1, "crater H(8 - DEF) wound": 0}
    assert _query()(["att=3", "def=1"]).extra == {}
    hazard = registry.get("veg").odds_queries()["hazard"]
    assert hazard(["def=4"]).outcomes == {
        "destroy": Fraction(15, 36),
        "wound": Fraction(6, 36),
        "none": Fraction(15, 36),
    }
    assert hazard(["def=1"]).outcomes["destroy"] == 1


def test_the_hazard_query_says_a_carriers_riders_die_with_it():
    """Transporting: riders are destroyed with their carrier; a Hover-PC (DEF 1) carrying
    two squads into a crater meets H7 and dies on every roll, and its riders with it."""
    hazard = registry.get("veg").odds_queries()["hazard"]
    result = hazard(["def=1", "riders=2"])
    assert result.extra == {"its 2 riders destroyed with it": 1}
    assert hazard(["def=4"]).extra == {}
    core = registry.get("cgme").odds_queries()["hazard"]  # the stand-in world's radiation H3
    assert core(["def=2", "riders=1"]).extra == {"its 1 rider destroyed with it": Fraction(5, 12)}


def test_the_play_prompt_says_a_carriers_riders_die_in_the_crater_with_it(veg):
    """odds ACTION in play: a carrier moving into a crater names its riders, destroyed with
    it (ruling 14: riders are cargo)."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "riding": "P", "count": 2},
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units, hexes={"crater": ["0506"]})
    text = game.ruleset.action_odds(game.state, "red", game.parse("move P 0506"))
    assert "P enters H(8 - DEF) at 0506 (ATT 7 against DEF 1): destroy 100.0%" in text
    assert "its riders Ia, Ib are destroyed with it: 100.0%" in text


def test_spillover_odds_equal_the_count_over_all_36_rolls(veg):
    """Spillover: the spillover attack's results match ``spillover=true``."""
    counts = dict.fromkeys(("destroy", "wound", "none"), 0)
    for a in range(1, 7):
        for d in range(1, 7):
            units = [
                ("red", "A", "heavy_tank", "0505"),
                ("blue", "T", "gun", "0507"),
                ("blue", "U", "light_tank", "0507"),
            ]
            game = veg.new_game(units, dice=[1, 6, a, d])
            veg.skip_to(game, "red", "attack")
            game.apply("attack A T", "red")
            counts[veg.events(game, "attack")[1].data["result"]] += 1
    expected = _query()(["att=5", "def=2", "spillover=true"]).outcomes
    assert {k: Fraction(v, 36) for k, v in counts.items()} == dict(expected)


def test_the_play_prompt_explains_an_attack_with_its_spillover(veg):
    """odds ACTION in play: the attack's chances, then each spillover attack's."""
    units = [
        ("red", "A", "gun", "0505"),
        ("blue", "T", "gun", "0507"),
        ("blue", "U", "gun", "0507"),
    ]
    game = veg.new_game(units)
    veg.skip_to(game, "red", "attack")
    text = game.ruleset.action_odds(game.state, "red", game.parse("attack A T"))
    assert "ATT 3" in text and "destroy 41.7% (5/12)" in text
    assert "spillover on U (blue), ATT 0 against DEF 3" in text
