"""The CGME planner (``plan.py``, V.E.G.'s too): positions where it plays the scenario
where greedy plays material, and whole games of every CGME and V.E.G. scenario."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import warbench.rulesets.cgme
import warbench.rulesets.veg  # noqa: F401  (registers the rulesets)
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.sim.runner import play_game


def _game(
    units: Sequence[tuple[str, str, str, str]],
    victory: Mapping[str, Any] | None = None,
    turn_limit: int = 10,
) -> Game:
    forces: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    for side, uid, kind, at in units:
        forces[side].append({"id": uid, "type": kind, "at": at})
    raw: dict[str, Any] = {
        "ruleset": "cgme",
        "title": "test",
        "turn_limit": turn_limit,
        "map": {"columns": 10, "rows": 10, "terrain": "clear"},
        "sides": [{"name": "red"}, {"name": "blue"}],
        "forces": forces,
    }
    if victory:
        raw["victory"] = dict(victory)
    return Game(scenario_from_dict(raw, "test", "test"), 1)


def _best(game: Game, side: str, how: str) -> str:
    actions = game.legal_actions(side)
    scores = getattr(game.ruleset, how)(game.state, side, actions)
    best: Action = actions[max(range(len(actions)), key=scores.__getitem__)]
    return str(best)


UNITS = [
    ("red", "RT1", "tank", "0505"),
    ("red", "RT2", "tank", "0506"),
    ("red", "RG", "gun", "0305"),
    ("blue", "BT", "tank", "0705"),
    ("blue", "BG", "gun", "0301"),
    ("blue", "BS", "scout", "0909"),
]


def test_the_planner_opens_the_combined_attack_that_kills() -> None:
    # Red's gun could shoot blue's gun alone (greedy's best single attack), or open
    # on blue's tank, which both red tanks can join: together they likely destroy it.
    game = _game(UNITS)
    game.apply(game.legal_actions("red")[-1], "red")  # end of red's movement
    assert _best(game, "red", "evaluate") == "attack RG BG"
    assert _best(game, "red", "plan") == "attack RG BT"
    game.apply(game.ruleset.parse_action(game.state, "attack RG BT"), "red")
    assert _best(game, "red", "plan").startswith("join RT")
    game.apply(game.ruleset.parse_action(game.state, _best(game, "red", "plan")), "red")
    assert _best(game, "red", "plan").startswith("join RT")


def _scores(game: Game, side: str, how: str) -> dict[str, float]:
    actions = game.legal_actions(side)
    scores = getattr(game.ruleset, how)(game.state, side, actions)
    return {str(a): s for a, s in zip(actions, scores, strict=True)}


def _last_turn(red_lost: int, blue_lost: int) -> Game:
    # Red's tank (rng 2, mov 3) could step to 0404 and shoot blue's scout at 0605,
    # but two blue tanks (rng 2, mov 3) could then reach it together. Red moves first
    # on the last turn of a game on points: blue still plays after it.
    game = _game(
        [
            ("red", "RT", "tank", "0105"),
            ("blue", "BS", "scout", "0605"),
            ("blue", "BT1", "tank", "0904"),
            ("blue", "BT2", "tank", "0906"),
        ],
        {"at_turn_limit": "points"},
    )
    game.state.turn = game.state.setup.turn_limit
    game.state.lost["red"] = red_lost
    game.state.lost["blue"] = blue_lost
    return game


def test_ahead_on_points_on_the_last_turn_the_planner_holds_back() -> None:
    ahead = _last_turn(0, 8)  # red has destroyed a scout's worth more
    assert _best(ahead, "red", "evaluate") == "move RT 0404"  # greedy goes for the scout
    plan = _scores(ahead, "red", "plan")
    assert plan["move RT 0404"] < plan["end"] == max(plan.values())
    # Behind by a tank, the same move is its one chance to catch up: it goes.
    behind = _scores(_last_turn(11, 0), "red", "plan")
    assert behind["move RT 0404"] == max(behind.values()) > behind["end"]


@pytest.mark.parametrize(
    "scenario_id",
    [
        "cgme/skirmish",
        "cgme/arena",
        "veg/tank-battle",
        "veg/city-assault",
        "veg/crater-field",
        "veg/arena",
    ],
)
def test_the_planner_plays_whole_games(scenario_id: str) -> None:
    scenario = load_scenario(scenario_id)
    first, second = scenario.sides[0], scenario.sides[1]
    for bots in ({first: "planner", second: "greedy"}, {first: "greedy", second: "planner"}):
        game = play_game(scenario, 7, bots)
        assert game.outcome is not None
