"""The CGME stand-in core: what is known of it (RULES-NOTES.md, "V.E.G. on the CGME core")
and the documented stand-ins that fill the gaps (docs/rules/cgme.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction, ScenarioError
from warbench.rulesets.cgme.data import load_world

DUEL = [("red", "A", "tank", "0505"), ("blue", "T", "tank", "0507")]


def test_units_are_rated_att_rng_def_mov():
    """Known: every unit has ATT, RNG, DEF and MOV ratings."""
    tank = load_world("warbench.rulesets.cgme").units["tank"]
    assert (tank.att, tank.rng, tank.dfn, tank.mov) == (3, 2, 3, 3)
    assert tank.ratings() == "A3 R2 D3 M3"


def test_each_side_moves_then_attacks_in_the_order_listed(cg):
    """Known: a move-then-attack turn. Stand-in: sides in scenario order, hazards first."""
    far = [("red", "A", "tank", "0501"), ("blue", "T", "tank", "1010")]
    game = cg.new_game(far)
    while game.state.turn == 1:
        game.apply("end")
    phases = [(e.data["side"], e.data["phase"]) for e in cg.events(game, "phase")]
    # red's hazard phase came first and passed by itself (nothing to attack).
    assert phases == [
        ("red", "move"),
        ("red", "attack"),
        ("blue", "hazard"),
        ("blue", "move"),
        ("blue", "attack"),
        ("red", "hazard"),
        ("red", "move"),
    ]


def test_the_turn_sequence_is_data_the_engine_walks(cg):
    """Stand-in kept in data: a core whose player turn is attack-then-move is played so."""
    game = cg.new_game(DUEL, dice=[1, 6], core={"phases": ("attack", "move")})
    assert (game.state.side, game.state.phase_name) == ("red", "attack")
    game.apply("attack A T", "red")
    assert game.state.phase_name == "move"


def test_an_attack_beats_the_defence_by_the_margin_of_two(cg):
    """Known: an attack succeeds when its roll beats the defence roll by 2 or more."""
    results = {}
    for a, d in ((4, 2), (3, 2), (2, 2)):
        game = cg.new_game(DUEL, dice=[a, d])
        cg.skip_to(game, "red", "attack")
        game.apply("attack A T", "red")
        results[a - d] = cg.events(game, "attack")[-1].data["result"]
    assert results == {2: "destroy", 1: "wound", 0: "none"}


def test_the_margin_and_result_table_come_from_data(cg):
    """Stand-in kept in data: another margin and table change results with no code change."""
    table = ((1, "destroy"), (0, "wound"))
    game = cg.new_game(DUEL, dice=[5, 2], core={"margin": 3, "results": table})
    cg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    # Beats the defence by 3 = the margin: excess 0, a wound under this table.
    assert cg.events(game, "attack")[-1].data["result"] == "wound"


def test_one_die_each_for_attack_and_defence(cg):
    """Stand-in: the attack roll is ATT + 1d6 against DEF + 1d6 (the known "one or two d6")."""
    game = cg.new_game(DUEL, dice=[5, 1])
    cg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    rolls = [e for e in cg.events(game, "roll")]
    assert [len(e.data["dice"]) for e in rolls] == [1, 1]
    assert cg.events(game, "attack")[-1].data["difference"] == 4


def test_combined_attacks_are_allowed_by_default(cg):
    """Known: CGME games normally allow combined attacks."""
    units = [*DUEL, ("red", "B", "tank", "0506")]
    game = cg.new_game(units, dice=[1, 6])
    cg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    game.apply("join B", "red")
    game.apply("roll", "red")
    assert cg.events(game, "attack")[-1].data["att"] == 6


def test_a_wound_is_a_state_with_an_effect(cg):
    """Known: results include Wound. Stand-in: -1 ATT, DEF and MOV while wounded."""
    game = cg.new_game([*DUEL, ("blue", "X", "tank", "1010")], dice=[3, 2])
    cg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    unit = game.state.units["T"]
    assert unit.wounded
    rules = game.ruleset
    assert (rules.att(game.state, unit), rules.dfn(game.state, unit)) == (2, 2)
    cg.skip_to(game, "blue", "move")
    assert unit.mp == 2
    assert game.view(None)["units"][1]["wounded"] is True


def test_a_second_wound_destroys(cg):
    """Stand-in: a wounded unit that is wounded again is destroyed."""
    units = [*DUEL, ("red", "B", "gun", "0503")]
    game = cg.new_game(units, dice=[3, 2, 2, 3])
    cg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    game.apply("roll", "red")  # 3 + 3 against 3 + 2: short of the margin by one, a wound
    game.apply("attack B T", "red")  # 4 + 2 against (3 - 1) + 3: a wound again
    assert [e.data["result"] for e in cg.events(game, "attack")] == ["wound", "wound"]
    assert not cg.alive(game, "T")


def test_a_hazard_attacks_units_entering_or_staying_in_its_hex(cg):
    """Known: terrain hazards H<n> attack units entering or staying. Stand-in world: H3."""
    units = [("red", "A", "tank", "0505"), ("blue", "T", "trooper", "0510")]
    game = cg.new_game(units, hexes={"radiation": ["0506"]}, dice=[2, 1, 1, 6])
    game.apply("move A 0506", "red")
    entering = cg.events(game, "attack")[-1]
    assert entering.data["att"] == 3 and "H3" in entering.text and "enters" in entering.text
    assert game.state.units["A"].wounded  # 3 + 2 against 3 + 1: a wound
    cg.skip_to(game, "blue", "move")
    cg.skip_to(game, "red", "move")  # the next turn: staying costs another attack
    staying = cg.events(game, "attack")[-1]
    assert "stays in" in staying.text and staying.data["dfn"] == 2


def test_a_hazards_strength_is_fixed_in_the_core_world(cg):
    """Stand-in world: the radiation zone is H3 whatever the unit's DEF."""
    for kind in ("tank", "trooper"):
        game = cg.new_game(
            [("red", "A", kind, "0505"), ("blue", "T", "tank", "0510")],
            hexes={"radiation": ["0505"]},
            dice=[1, 6],
        )
        assert cg.events(game, "attack")[0].data["att"] == 3


def test_what_a_hazard_rolls_against_is_data(cg):
    """Stand-in kept in data (core [hazard] defence): a hazard's attack is rolled against
    the unit's DEF + 1d6 like any attack, or against the defence die alone."""
    units = [("red", "A", "tank", "0505"), ("blue", "T", "tank", "0510")]
    outcomes = {}
    for defence in ("def", "dice"):
        game = cg.new_game(
            units, hexes={"radiation": ["0506"]}, dice=[3, 2], core={"hazard_defence": defence}
        )
        explained = game.ruleset.action_odds(game.state, "red", game.parse("move A 0506"))
        game.apply("move A 0506", "red")
        attack = cg.events(game, "attack")[-1]
        outcomes[defence] = (attack.data["dfn"], attack.data["result"])
        assert f"(ATT 3 against DEF {attack.data['dfn']})" in explained
    # H3 + 3 against 3 + 2 falls one short of the margin (a wound); against 0 + 2 it destroys.
    assert outcomes == {"def": (3, "wound"), "dice": (0, "destroy")}


def test_the_bare_core_has_no_stacking_limit_and_no_spillover(cg):
    """Stand-in: stacking and spillover are game-world rules (V.E.G. has them)."""
    units = [
        (side, f"{side[0]}{i}", "trooper", "0505") for side in ("red", "blue") for i in range(5)
    ]
    game = cg.new_game(units, dice=[1, 6])
    cg.skip_to(game, "red", "attack")
    game.apply("attack r0 b0", "red")
    while game.state.attack is not None:
        game.apply("roll", "red")
    assert len(cg.events(game, "attack")) == 1


def test_a_side_with_no_units_left_loses(cg):
    """Stand-in victory: a side whose last unit is destroyed loses at once."""
    game = cg.new_game(DUEL, dice=[6, 1])
    cg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert game.is_over and game.outcome.winner == "red"


def test_at_the_turn_limit_more_value_destroyed_wins(cg):
    """Stand-in victory: at the turn limit the side that destroyed more value wins."""
    units = [*DUEL, ("blue", "S", "scout", "0506")]
    game = cg.new_game(units, dice=[6, 1], turn_limit=1)
    cg.skip_to(game, "red", "attack")
    game.apply("attack A S", "red")
    cg.skip_to(game, "blue", "attack")
    game.apply("end", "blue")
    assert game.is_over and game.outcome.winner == "red"
    assert game.outcome.scores == {"red": 8.0, "blue": 0.0}


def test_a_core_scenario_may_not_use_world_options(cg):
    """Scenario files: options a world adds (V.E.G.'s) are unknown to the bare core."""
    raw = cg.scenario_dict(DUEL, options={"stacking_limit": 5})
    with pytest.raises(ScenarioError, match=r"options\.stacking_limit: unknown option"):
        scenario_from_dict(raw, "test.toml", "test")


def test_the_core_has_no_transport(cg):
    """Stand-in: transport is a game-world rule."""
    game = cg.new_game([*DUEL, ("red", "B", "trooper", "0505")])
    with pytest.raises(IllegalAction, match="cgme has no transport"):
        game.apply("load A B", "red")


def test_the_skirmish_scenario_plays_to_its_end():
    game = Game.start("cgme/skirmish", seed=2)
    from warbench.bots import make_bot

    bots = {s: make_bot("greedy", i) for i, s in enumerate(game.scenario.sides)}
    while not game.is_over:
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game, side), side)
    assert game.outcome is not None and game.turn <= 8


def test_core_odds_are_the_count_over_all_rolls(cg):
    """Exact odds of the core: the query agrees with the game over all 36 rolls."""
    counts = dict.fromkeys(("destroy", "wound", "none"), 0)
    for a in range(1, 7):
        for d in range(1, 7):
            game = cg.new_game(DUEL, dice=[a, d], hexes={"rough": ["0507"]})
            cg.skip_to(game, "red", "attack")
            game.apply("attack A T", "red")
            counts[cg.events(game, "attack")[-1].data["result"]] += 1
    query = registry.get("cgme").odds_queries()["attack"]
    expected = query(["att=3", "def=3", "terrain=rough/vehicle"]).outcomes
    assert {k: Fraction(v, 36) for k, v in counts.items()} == dict(expected)
