"""``info`` and ``goal`` for MiniWars: a unit's factors and status, a hex, refusals, and
every built-in scenario's victory conditions in words (SAMPLE GAME, BREAK POINT, ruling 11)."""

from __future__ import annotations

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get
from warbench.errors import QuestionRefused


def info(game: Game, side: str | None, ref: str) -> list[str]:
    return game.ruleset.unit_info(game.view(side), ref)


def test_a_unit_shows_its_factors_cost_missile_chart_place_and_status() -> None:
    game = Game.start("miniwars/bridge", seed=1)
    assert info(game, "guards", "G1") == [
        "G1: Town Guardsmen (guardsmen), guards (Town guards)",
        "move 3, CS 2, morale + (above average), cost 68",
        "missile B: hits on 3+ at 1 hex, 4+ at 2, 5+ at 3, 6 at 4",
        "at 0504 (open, road)",
        "status: in good order",
    ]
    # ids in any case; a leader without missiles
    lines = info(game, "vanguard", "go")
    assert lines[1] == "move 3, CS 3, morale ! (leader), cost 24"
    assert lines[2] == "no missile weapon"


def test_status_reads_disrupted_fired_and_acted_from_the_view() -> None:
    game = Game.start("miniwars/bridge", seed=1)
    unit = game.state.units["A1"]
    unit.disrupted, unit.fired, unit.acted = True, True, True
    assert info(game, None, "A1")[-1] == (
        "status: disrupted; fired this turn; has moved or fought this phase"
    )


def test_a_hex_gives_terrain_hill_road_hexsides_and_units() -> None:
    game = Game.start("miniwars/bridge", seed=1)
    assert info(game, "guards", "0504") == [
        "hex 0504: open",
        "road to 0404, 0604",
        "hexsides: bridge toward 0603; bridge toward 0604",
        "units: G1 Town Guardsmen (guards)",
    ]
    assert info(game, "guards", "0204")[0] == "hex 0204: open, hill (level 1)"
    assert info(game, None, "0507") == [
        "hex 0507: marsh",
        "hexsides: river toward 0606; river toward 0607",
        "units: none",
    ]


@pytest.mark.parametrize("ref", ["ZZ", "1109", "9999", "", "G1;rm"])
def test_unknown_refs_are_refused_naming_what_may_be_asked(ref: str) -> None:
    game = Game.start("miniwars/bridge", seed=1)
    with pytest.raises(QuestionRefused) as refused:
        info(game, "guards", ref)
    text = str(refused.value)
    assert "ask about a unit (GO, G1, A1, T1, T2, S1" in text
    assert "or a hex (0101 to 1008)" in text


def goal(sid: str) -> list[str]:
    scenario = load_scenario(sid)
    return get(scenario.ruleset).goal(scenario)


def test_goal_of_the_bridge_says_the_guards_win_by_holding_out() -> None:
    lines = goal("miniwars/bridge")
    assert lines[0].startswith("A hobgoblin vanguard must force the bridge")
    assert lines[1:] == [
        "guards (Town guards) wins if both armies still stand at the end of turn 8.",
        "A side whose last unit is gone from the map loses at once; the other side wins "
        "(SAMPLE GAME).",
        "Break point: a side reduced to half its starting units or fewer has every unit left "
        "disrupted, once (guards: 5 units at the start, vanguard: 6).",
    ]


def test_goal_of_danville_is_the_last_army_with_the_units_safeguard() -> None:
    lines = goal("miniwars/danville")
    assert lines[0].startswith("Elements of the Baron de Rompot's horde raid")
    assert lines[1].startswith("A side whose last unit is gone from the map loses at once")
    assert "(danville: 9 units at the start, horde: 18)" in lines[2]
    assert lines[3] == (
        "If both armies still stand at the end of turn 50 (a safeguard, ruling 11), the side "
        "with more units on the board wins; equal numbers are a draw."
    )
