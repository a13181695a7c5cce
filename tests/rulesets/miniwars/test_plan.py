"""The MiniWars planner (``plan.py``): positions where it plays the scenario where greedy
plays material, and whole games of every MiniWars scenario."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

import warbench.rulesets.miniwars  # noqa: F401  (registers the ruleset)
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.loader import load_scenario
from warbench.rulesets.miniwars.actions import End, Move
from warbench.rulesets.miniwars.state import State
from warbench.sim.runner import play_game

RULES = registry.get("miniwars")


def _position(
    scenario_id: str, placed: Mapping[str, str], side: str, phase: str, turn: int = 1
) -> State:
    """The scenario's units at ``placed`` (the others off the board), ``side`` to move."""
    state: State = RULES.initial_state(load_scenario(scenario_id))
    grid = state.setup.board.map.grid
    for unit in state.units.values():
        unit.pos = grid.parse(placed[unit.id]) if unit.id in placed else None
    state.occupant = {u.pos: u for u in state.units.values() if u.pos is not None}
    state.turn = turn
    state.phase = state.setup.board.charts.phases.index(phase)
    state.roles = {"B": side, "A": state.enemy_of(side)}
    state.step = "select"
    state.caches.clear()
    return state


def _best(scores: Sequence[float], actions: Sequence[Action]) -> Action:
    return actions[max(range(len(scores)), key=scores.__getitem__)]


HORDE_AWAY = {
    **{f"B{i}": f"16{i:02d}" for i in range(1, 8)},
    **{f"M{i}": f"15{i:02d}" for i in range(1, 5)},
    **{f"W{i}": f"15{i + 4:02d}" for i in range(1, 5)},
    "S1": "1509",
    "S2": "1510",
}


def _melee(followers: Mapping[str, str]) -> State:
    """Danville: G1 has moved next to the horde's leader and may attack it; the
    friends in ``followers`` have not moved yet."""
    placed = {"G1": "0505", "HL": "0605", **HORDE_AWAY, **followers}
    state = _position("miniwars/danville", placed, "danville", "move_b")
    state.units["G1"].acted = True
    for uid in ("GO", "MG", "G2", "G3", "T1", "T2", "T3", "T4"):
        state.units[uid].acted = uid not in followers
    state.step, state.active = "attack", "G1"
    return state


def test_a_melee_friends_can_follow_is_opened_where_greedy_declines_it() -> None:
    # Alone, G1 (CS 2) against the leader (CS 4) risks more than it may gain: greedy and
    # the planner pass. With the mayor and the officers able to close in after it, the
    # leader may fall to the combination: the planner opens it, greedy still passes.
    alone = _melee({})
    actions = RULES.legal_actions(alone, "danville")
    assert [str(a) for a in actions] == ["attack G1 HL", "pass"]
    assert str(_best(RULES.evaluate(alone, "danville", actions), actions)) == "pass"
    assert str(_best(RULES.plan(alone, "danville", actions), actions)) == "pass"
    with_friends = _melee({"GO": "0404", "MG": "0306"})
    actions = RULES.legal_actions(with_friends, "danville")
    assert str(_best(RULES.evaluate(with_friends, "danville", actions), actions)) == "pass"
    assert str(_best(RULES.plan(with_friends, "danville", actions), actions)) == "attack G1 HL"


BRIDGE = {
    "GO": "0404",
    "G1": "0504",
    "A1": "0304",
    "T1": "0503",
    "T2": "0505",
    "S1": "0804",
    "W1": "0703",
    "W2": "0705",
    "M1": "0803",
    "M2": "0805",
    "M3": "0904",
}


def test_the_guards_hold_where_greedy_closes_in() -> None:
    # Hold the Bridge: the guards win if any of them still stand at the turn limit.
    # Greedy's material score draws a guard toward the vanguard; the planner keeps
    # every guard out of the reach its losses would cost.
    state = _position("miniwars/bridge", BRIDGE, "guards", "move_b", turn=3)
    actions = RULES.legal_actions(state, "guards")
    greedy = _best(RULES.evaluate(state, "guards", actions), actions)
    planner = _best(RULES.plan(state, "guards", actions), actions)
    assert isinstance(greedy, Move)
    enemy_at = [u.pos for u in state.side_units("vanguard") if u.pos is not None]

    def nearest(unit: str, where: str) -> int:
        h = state.setup.board.map.grid.parse(where)
        return min(h.distance(e) for e in enemy_at)

    assert nearest(greedy.unit, greedy.to.label) < nearest(greedy.unit, BRIDGE[greedy.unit])
    if isinstance(planner, Move):
        assert nearest(planner.unit, planner.to.label) >= nearest(
            planner.unit, BRIDGE[planner.unit]
        )
    else:
        assert isinstance(planner, End)


def test_the_vanguard_presses_harder_as_its_turns_run_out() -> None:
    # The vanguard must wipe the guards out by turn 8: the same step toward them is
    # worth more to it on turn 7 than on turn 1.
    placed = {**BRIDGE, "W1": "0903", "W2": "0905", "M1": "1003", "M2": "1005", "S1": "1004"}
    move = Move("M3", load_scenario("miniwars/bridge").spec.board.map.grid.parse("0804"))
    scores = []
    for turn in (1, 7):
        state = _position("miniwars/bridge", placed, "vanguard", "move_b", turn=turn)
        scores.append(RULES.plan(state, "vanguard", [move])[0])
    assert 0 < scores[0] < scores[1]


@pytest.mark.parametrize("scenario_id", ["miniwars/bridge", "miniwars/danville", "miniwars/arena"])
def test_the_planner_plays_whole_games(scenario_id: str) -> None:
    scenario = load_scenario(scenario_id)
    first, second = scenario.sides[0], scenario.sides[1]
    for bots in ({first: "planner", second: "greedy"}, {first: "greedy", second: "planner"}):
        game = play_game(scenario, 7, bots)
        assert game.outcome is not None
