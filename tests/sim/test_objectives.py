"""Every built-in scenario's objective stays reachable, and the greedy bots reach it (issue 12).

A scenario's objective is read from its own file (``[victory]``, items and tasks)
and judged on the whole state as each ruleset writes it (``Ruleset.state_json``),
after every action of random and greedy games:

- never stuck: the objective is achieved, still achievable as the pieces stand,
  or failed by the losses of the side that pursues it (the normal way to fail),
  never closed by anything else while the game goes on. A relic is carried off,
  carried by a figure on the table, or lies on the table unlocked or with a way
  to unlock it left (its sealing feature standing: ruling 13 of VSGMR frees it
  when the shrine falls); a gauntlet or breach has enough bases through or able
  to run, or the shortfall is bases destroyed (not stuck on the table); a
  strike's target is destroyed or on the table; a building to destroy is on the
  map, standing or down; a side that must reach an edge starts with enough
  units. Elimination, points and turn-limit victories cannot get stuck.
- every game ends with a valid outcome (a winner among the sides, or a draw),
  and nothing is left to decide;
- over greedy games, each objective that a side must achieve (relic, radio,
  gauntlet, strike, breach, bunker, crater crossing) is achieved at least once.

The games are few and seeded (random: 3 a scenario; greedy: until the objective
is met, at most a handful), so the whole file runs in well under a minute.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.scenario.model import Scenario
from warbench.sim.runner import MAX_ACTIONS, bot_seeds, game_seed

SCENARIOS = sorted(builtin_scenarios())
RANDOM_GAMES = 3

Json = dict[str, Any]
Check = Callable[[Scenario, Json], str | None]
"""Why the objective can no longer be achieved, or None while it is open (or met)."""
Met = Callable[[Scenario, Json, Game], bool]


# -- VSGMR: items to carry off and tasks for skill rolls ---------------------------------------


def _task_done(task: Mapping[str, Any], done: list[str]) -> bool:
    return task["id"] in done or any(d.startswith(f"{task['id']}:") for d in done)


def _vsgmr_open(scenario: Scenario, js: Json) -> str | None:
    raw = scenario.raw
    figs = {f["id"]: f for f in js["figures_state"]}
    destroyed = set(js["destroyed_features"])
    tasks = raw.get("tasks", [])
    width, height = raw["table"]["width"], raw["table"]["height"]
    for item in js["items"]:
        if item["gone"]:
            continue
        if item["carrier"] is not None:
            if figs[item["carrier"]]["where"] not in ("table", "mounted"):
                return f"{item['id']} is carried by {item['carrier']}, which is not on the table"
            continue
        x, y = item["at"]
        if not (0 <= x <= width and 0 <= y <= height):
            return f"{item['id']} lies off the table at {item['at']}"
        if not item["locked"]:
            continue
        keys = [
            t
            for t in tasks
            if t.get("effect") == "unlock_item"
            and t.get("target") == item["id"]
            and not _task_done(t, js["tasks_done"])
            and t.get("feature") not in destroyed
        ]
        if not keys:
            return f"{item['id']} is locked and nothing is left that could unlock it"
    for task in tasks:
        closed = task.get("feature") in destroyed and not _task_done(task, js["tasks_done"])
        if task.get("effect") == "points" and closed:
            return f"task {task['id']}: its feature {task['feature']} is destroyed"
    return None


def _vsgmr_met(scenario: Scenario, js: Json, game: Game) -> bool:
    scored = any(item["scored_by"] is not None for item in js["items"])
    points = [t for t in scenario.raw.get("tasks", []) if t.get("effect") == "points"]
    return scored or any(_task_done(t, js["tasks_done"]) for t in points)


def _vsgmr_has(scenario: Scenario) -> bool:
    raw = scenario.raw
    return any(i.get("points") for i in raw.get("items", [])) or any(
        t.get("effect") == "points" for t in raw.get("tasks", [])
    )


# -- MGV and Invisible Enemy: run the gauntlet or break through, a surgical strike -----------


def _bases_open(scenario: Scenario, js: Json) -> str | None:
    victory = scenario.raw.get("victory", {})
    kind = victory.get("kind")
    bases = js["bases"]
    if kind in ("gauntlet", "breach") and js["outcome"] is None:
        runner, count = victory["side"], victory["count"]
        mine = [b for b in bases if b["side"] == runner]
        through = sum(1 for b in mine if b["exited"])
        able = sum(1 for b in mine if not (b["exited"] or b["destroyed"] or b["trapped"]))
        lost = sum(1 for b in mine if b["destroyed"])
        if through + able < count and through + able + lost >= count:
            return None  # failed by losses
        if through + able < count:
            return f"{runner}: {through} through and {able} able to run, {count} needed"
    if kind == "strike":
        target = next(b for b in bases if b["id"] == victory["target"])
        if target["exited"] and not target["destroyed"]:
            return f"the strike's target {target['id']} has left the table"
    return None


def _bases_met(scenario: Scenario, js: Json, game: Game) -> bool:
    victory = scenario.raw.get("victory", {})
    kind = victory.get("kind")
    if kind in ("gauntlet", "breach"):
        through = sum(1 for b in js["bases"] if b["side"] == victory["side"] and b["exited"])
        return through >= victory["count"]
    if kind == "strike":
        return any(b["id"] == victory["target"] and b["destroyed"] for b in js["bases"])
    return False


def _bases_has(scenario: Scenario) -> bool:
    return scenario.raw.get("victory", {}).get("kind") in ("gauntlet", "breach", "strike")


# -- V.E.G. and CGME worlds: destroy a building, reach an edge --------------------------------


def _on_board(unit: Mapping[str, Any]) -> bool:
    return unit.get("at") is not None or unit.get("carrier") is not None


def _hex_open(scenario: Scenario, js: Json) -> str | None:
    buildings = {b["id"]: b for b in js.get("buildings", [])}
    units = {u["id"]: u for u in js.get("units", [])}
    for objective in scenario.raw.get("victory", {}).get("objectives", []):
        for target in objective.get("destroy", []):
            if target not in buildings and target not in units:
                return f"the objective {target} is not on the map"
        if "reach" in objective:
            # Fewer units than needed is failure by losses, which is allowed; more
            # units on the board than the side has would be a bookkeeping error.
            side, count = objective["side"], objective.get("count", 1)
            mine = [u for u in units.values() if u["side"] == side]
            if len(mine) < count:
                return f"{side} has {len(mine)} unit(s) in all, {count} must reach the edge"
    return None


def _hex_met(scenario: Scenario, js: Json, game: Game) -> bool:
    buildings = {b["id"]: b for b in js.get("buildings", [])}
    units = {u["id"]: u for u in js.get("units", [])}
    for objective in scenario.raw.get("victory", {}).get("objectives", []):
        targets = objective.get("destroy", [])
        if targets and all(
            (t in buildings and not buildings[t]["standing"])
            or (t in units and not _on_board(units[t]))
            for t in targets
        ):
            return True
        outcome = game.outcome
        won = outcome is not None and outcome.winner == objective["side"]
        if "reach" in objective and won and outcome is not None and "objective" in outcome.reason:
            return True
    return False


def _hex_has(scenario: Scenario) -> bool:
    return bool(scenario.raw.get("victory", {}).get("objectives"))


# -- MiniWars: last army, or holding to the turn limit (nothing on the map to reach) ------------


def _none_open(scenario: Scenario, js: Json) -> str | None:
    return None


def _none_met(scenario: Scenario, js: Json, game: Game) -> bool:
    return False


def _none_has(scenario: Scenario) -> bool:
    return False


JUDGES: dict[str, tuple[Check, Met, Callable[[Scenario], bool]]] = {
    "vsgmr": (_vsgmr_open, _vsgmr_met, _vsgmr_has),
    "mgv": (_bases_open, _bases_met, _bases_has),
    "invisible-enemy": (_bases_open, _bases_met, _bases_has),
    "veg": (_hex_open, _hex_met, _hex_has),
    "cgme": (_hex_open, _hex_met, _hex_has),
    "miniwars": (_none_open, _none_met, _none_has),
}


def _judges(scenario: Scenario) -> tuple[Check, Met, Callable[[Scenario], bool]]:
    assert scenario.ruleset in JUDGES, f"no objective check for ruleset {scenario.ruleset}"
    return JUDGES[scenario.ruleset]


def _state(game: Game) -> Json:
    found: Json = json.loads(json.dumps(game.ruleset.state_json(game.state)))
    return found


def _play(scenario: Scenario, seed: int, bot: str) -> tuple[Game, bool]:
    """One game of ``bot`` on every side; the objective is judged after every action.

    Returns the game and whether the objective was met at some point."""
    is_open, met, _ = _judges(scenario)
    game = Game(scenario, seed)
    players = {side: make_bot(bot, s) for side, s in bot_seeds(scenario, seed).items()}
    achieved = False
    for n in range(MAX_ACTIONS):
        js = _state(game)
        problem = is_open(scenario, js)
        assert problem is None, f"{scenario.id} seed {seed} ({bot}), after {n} actions: {problem}"
        achieved = achieved or met(scenario, js, game)
        waiting = game.waiting_for()
        if not waiting:
            break
        side = waiting[0]
        game.apply(players[side].choose(game.seat(side), side), side)
    _assert_valid_end(game)
    return game, achieved


def _assert_valid_end(game: Game) -> None:
    assert game.is_over and not game.waiting_for()
    outcome = game.outcome
    assert outcome is not None
    sides = set(game.scenario.sides)
    assert outcome.winner is None or outcome.winner in sides
    assert outcome.reason.strip()
    assert set(outcome.scores) <= sides


# -- the checks -----------------------------------------------------------------------------


@pytest.mark.parametrize("sid", SCENARIOS)
def test_random_games_keep_the_objective_open_and_end_properly(sid: str) -> None:
    scenario = load_scenario(sid)
    for i in range(RANDOM_GAMES):
        _play(scenario, game_seed(12, i, "objectives"), "random")


GREEDY_TRIES = {"veg/crater-field": 30}
"""Greedy games tried before giving up: 12 (the crater crossing is rarer: 30)."""


def _has_objective(sid: str) -> bool:
    scenario = load_scenario(sid)
    return _judges(scenario)[2](scenario)


@pytest.mark.parametrize("sid", [s for s in SCENARIOS if _has_objective(s)])
def test_greedy_bots_achieve_the_objective(sid: str) -> None:
    """The greedy bots pursue the objective: some game of a few achieves it."""
    scenario = load_scenario(sid)
    for i in range(GREEDY_TRIES.get(sid, 12)):
        _, achieved = _play(scenario, game_seed(12, i, "greedy-objectives"), "greedy")
        if achieved:
            return
    pytest.fail(f"no greedy game of {sid} achieved its objective")


def test_every_scenario_with_an_objective_is_judged() -> None:
    """The scenarios with something to carry off, do, run, strike, destroy or reach are
    the ones whose greedy games must achieve it (a new one joins by its file alone)."""
    assert {s for s in SCENARIOS if _has_objective(s)} == {
        "invisible-enemy/breach",
        "mgv/gauntlet",
        "mgv/strike",
        "veg/city-assault",
        "veg/crater-field",
        "vsgmr/relic",
        "vsgmr/street",
    }


# -- the check itself sees a closed objective ------------------------------------------------


def test_a_sealed_relic_whose_shrine_is_gone_is_reported_closed() -> None:
    """Without ruling 13's rubble, a destroyed shrine would leave the relic locked for good:
    the check names it (this is how 7 of 30 random games ended up before)."""
    scenario = load_scenario("vsgmr/relic")
    js = _state(Game(scenario, 1))
    assert _vsgmr_open(scenario, js) is None
    js["destroyed_features"] = ["shrine"]
    assert _vsgmr_open(scenario, js) == "relic is locked and nothing is left that could unlock it"
    js["items"][0]["locked"] = False
    assert _vsgmr_open(scenario, js) is None


def test_a_gauntlet_whose_runners_are_stuck_is_reported_closed() -> None:
    """Bases stuck on the table (trapped) while the game goes on close a gauntlet
    without anyone winning it; bases destroyed are the runner's failure."""
    scenario = load_scenario("mgv/gauntlet")
    js = _state(Game(scenario, 1))
    assert _bases_open(scenario, js) is None
    runners = [b for b in js["bases"] if b["side"] == "blue"]
    for base in runners[1:]:
        base["trapped"] = True
    assert _bases_open(scenario, js) == "blue: 0 through and 1 able to run, 2 needed"
    for base in runners[1:]:
        base["destroyed"] = True  # destroyed, not stuck: failed by losses
    assert _bases_open(scenario, js) is None


def test_random_relic_games_where_the_shrine_falls_keep_the_relic_reachable() -> None:
    """Random play destroys the shrine in about one game in four (7 of 30 before the
    fix left the relic sealed for good): play until it happens, judging every action."""
    scenario = load_scenario("vsgmr/relic")
    for i in range(30):
        game, _ = _play(scenario, game_seed(12, i, "shrine"), "random")
        if "shrine" in _state(game)["destroyed_features"]:
            freed = [e for e in game.events if e.kind == "task" and e.data.get("feature")]
            assert freed or "seal" in _state(game)["tasks_done"]
            return
    pytest.fail("no random game destroyed the shrine")
