"""UNITS: Move (``*`` = cavalry), Combat Strength (with a missile letter), Morale, Cost."""

from __future__ import annotations

import pytest

from warbench.core.loader import load_scenario
from warbench.rulesets.miniwars.data import catalogue

# The Sample Game's unit list, as RULES-NOTES reads the garbled lines
# ("Mor smile" is "=", the Town Guardsmen are CS 2 [B]).
TEXT_UNITS = {
    "mayor": (5, True, 4, "", "!", 43),
    "guard_officers": (3, False, 3, "", "!", 24),
    "guardsmen": (3, False, 2, "B", "+", 68),
    "militia": (3, False, 1, "", "=", 9),
    "hobgoblin_leader": (5, True, 4, "C", "!", 105),
    "hobgoblin_sergeant": (3, False, 3, "D", "!", 64),
    "wolfriders": (6, True, 3, "", "=", 24),
    "mercenaries": (3, False, 3, "", "-", 14),
    "goblin_infantry": (2, False, 1, "", "-", 6),
}


@pytest.mark.parametrize("key", sorted(TEXT_UNITS))
def test_catalogue_units_have_the_texts_factors(key):
    """UNITS / SAMPLE GAME: Move, cavalry asterisk, CS, missile code, Morale and Cost."""
    unit = catalogue()[key]
    assert (unit.move, unit.cavalry, unit.cs, unit.missile, unit.morale, unit.cost) == TEXT_UNITS[
        key
    ]


def test_catalogue_holds_exactly_the_sample_games_units():
    """SAMPLE GAME: nine unit types, no more."""
    assert set(catalogue()) == set(TEXT_UNITS)


def test_an_asterisk_after_move_makes_cavalry(mw):
    """UNITS: a Move with ``*`` is cavalry, which moves as cavalry on the terrain chart
    (the Mayor may not enter a forest; the Guard Officers may)."""
    assert catalogue()["mayor"].move_class == "cavalry"
    assert catalogue()["guard_officers"].move_class == "infantry"
    game = mw.started_game(
        [
            ("red", "M", "mayor", "0505"),
            ("red", "O", "guard_officers", "0305"),
            ("blue", "E", "foot", "1010"),
        ],
        hexes={"forest": ["0506", "0306"]},
    )
    assert "0506" not in mw.reach_mp(game, "M")
    assert "0306" in mw.reach_mp(game, "O")


def test_a_letter_after_combat_strength_gives_a_ranged_attack(mw):
    """UNITS: "4 [A]": the letter means the unit may make ranged (missile) attacks."""
    game = mw.started_game(
        [
            ("red", "S", "hobgoblin_sergeant", "0501"),
            ("red", "M", "mercenaries", "0601"),
            ("blue", "T", "foot", "0502"),
        ]
    )
    state = game.state
    assert game.ruleset.fire_problem(state, state.units["S"], state.units["T"]) is None
    assert "no missile weapon" in game.ruleset.fire_problem(
        state, state.units["M"], state.units["T"]
    )


def test_an_exclamation_mark_makes_a_leader(mw):
    """UNITS: "!" marks a leader (leaders rally, MORALE)."""
    leaders = {k for k, u in catalogue().items() if u.is_leader}
    assert leaders == {"mayor", "guard_officers", "hobgoblin_leader", "hobgoblin_sergeant"}


def test_cost_does_not_affect_play(mw):
    """UNITS: cost balances scenarios and has no effect on the game itself."""
    game = mw.started_game(
        [
            ("red", "A", "foot", "0505"),
            ("blue", "C", "cheap", "0506"),
            ("blue", "D", "dear", "0604"),
        ]
    )
    state, rules = game.state, game.ruleset
    a = state.units["A"]
    assert rules.melee_situation(state, a, state.units["C"]) == rules.melee_situation(
        state, a, state.units["D"]
    )
    assert state.units["C"].type.cost != state.units["D"].type.cost


def test_a_scenario_may_add_unit_types_beside_the_catalogue(mw):
    """UNITS: units are factors; a scenario may define its own (the bridge's archers)."""
    setup = load_scenario("miniwars/bridge").spec
    archers = next(p.type for p in setup.units if p.id == "A1")
    assert (archers.move, archers.cs, archers.missile, archers.morale) == (3, 1, "A", "=")
