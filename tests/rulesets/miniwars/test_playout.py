"""Playouts: random games that check the rules, and the compiled kernel against Python.

First, random playouts of the built-in scenarios that check the rules from the
event log. Conformance, not a single rule: whatever legal actions are taken,
the results must keep to the text (one unit per hex, terrain, ranges, melee
adjacency, break point once, markers off after the initiative).

Then the differential tests of :mod:`warbench.rulesets.miniwars.playout`: the
compiled kernel must play the very game the Python rules and bots play with the
same seeds (``sim.runner.play_game``), on both built-in scenarios, on variants
with each scenario option changed, and on a crowded map made to fight at once.
Same actions in the same order, same winner, reason and turns, and the same
final-state digest.
"""

from __future__ import annotations

import copy
import random
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game, state_digest
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.miniwars import playout as kernel
from warbench.rulesets.miniwars.board import MOVE_CLASSES
from warbench.scenario.model import Scenario
from warbench.sim.differential import difference
from warbench.sim.runner import bot_seeds

MAX_ACTIONS = 3000


def _check_state(game: Game) -> None:
    state = game.state
    board = state.setup.board
    on_board = [u for u in state.units.values() if u.pos is not None]
    assert {u.pos: u.id for u in on_board} == {h: u.id for h, u in state.occupant.items()}
    assert len({u.pos for u in on_board}) == len(on_board)  # one unit per hex
    for u in on_board:
        road = u.pos in board.map.road_hexes()
        assert road or board.terrain_allows(u.pos, u.type.move_class), (u.id, u.pos.label)
    if state.outcome is None:
        for side in state.setup.sides:  # BREAK POINT: at half the starting units
            at_half = len(state.side_units(side)) * 2 <= state.start_count[side]
            assert at_half == (side in state.broken), side


def _check_events(game: Game, new_events, positions: dict[str, str]) -> None:
    state = game.state
    board = state.setup.board
    charts = board.charts
    for e in new_events:
        d = e.data
        if e.kind == "move" and d["frm"] != d["to"] and "advances" not in e.text:
            unit = state.units[d["unit"]]
            step = Hex.from_label(d["frm"]).distance(Hex.from_label(d["to"]))
            assert step == 1 or d["cost"] <= unit.type.move, e.text  # MOVEMENT
        if e.kind == "missile":
            shooter, target = state.units[d["unit"]], state.units[d["target"]]
            at, to = Hex.from_label(positions[shooter.id]), Hex.from_label(positions[target.id])
            assert at.distance(to) <= charts.max_range(shooter.type.missile)  # MISSILE FIRE chart
            assert not board.target_concealed(to)  # not into forest or town
        if e.kind == "melee":
            at, to = Hex.from_label(positions[d["unit"]]), Hex.from_label(positions[d["target"]])
            assert to in board.melee_into[at]  # adjacent, not across river or hedgerow
        if e.kind == "move":
            positions[d["unit"]] = d["to"]


@pytest.mark.parametrize(
    ("ref", "seed", "player"),
    [
        ("miniwars/danville", 1, "random"),
        ("miniwars/danville", 7, "random"),
        ("miniwars/bridge", 3, "random"),
        ("miniwars/danville", 2, "greedy"),
        ("miniwars/danville", 4, "greedy"),
        ("miniwars/bridge", 5, "greedy"),
    ],
)
def test_playout_keeps_the_rules(ref, seed, player):
    """All sections: a seeded game (random or greedy choices) never breaks an invariant."""
    game = Game.start(ref, seed=seed)
    rng = random.Random(seed)
    bot = make_bot("greedy", seed)
    positions = {u.id: u.pos.label for u in game.state.units.values() if u.pos is not None}
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        actions = game.legal_actions(side)
        assert actions, "a decision with no legal action"
        # Cached reach / fire / zones agree with a fresh state that has no caches.
        fresh = game.ruleset.copy_state(game.state)
        assert sorted(map(str, actions)) == sorted(
            map(str, game.ruleset.legal_actions(fresh, side))
        )
        if player == "greedy":
            action = bot.choose(game, side)
        else:
            # Prefer acting to ending, so that something happens within the budget.
            doing = [a for a in actions if str(a) not in ("end", "pass")]
            action = rng.choice(doing) if doing and rng.random() < 0.9 else actions[-1]
        new_events = game.apply(action, side)
        _check_state(game)
        _check_events(game, new_events, positions)
        if str(action).startswith("choose"):
            assert not any(u.fired for u in game.state.units.values())  # INITIATIVE
    assert game.is_over
    breaks = [e.data["side"] for e in game.events if e.kind == "break"]
    assert len(breaks) == len(set(breaks))  # BREAK POINT: once per game
    kinds = {e.kind for e in game.events}
    assert {"melee", "missile"} & kinds


# -- the compiled playout kernel against the Python rules ------------------------------

needs_kernel = pytest.mark.skipif(
    not kernel.kernel_built(),
    reason="the playout kernel (_playout.c) is not built: no C compiler at install time",
)


@cache
def _raw(name: str) -> dict[str, Any]:
    text = resources.files("warbench.rulesets.miniwars").joinpath("scenarios", f"{name}.toml")
    return tomllib.loads(text.read_text("utf-8"))


def _variant(name: str, **changes: Mapping[str, Any] | int) -> Scenario:
    """A built-in scenario with tables of its TOML updated (``options={...}``)."""
    raw = copy.deepcopy(_raw(name))
    for key, value in changes.items():
        if isinstance(value, Mapping):
            raw.setdefault(key, {}).update(value)
        else:
            raw[key] = value
    return scenario_from_dict(raw, f"{name} variant", f"miniwars/{name}")


def _brawl() -> Scenario:
    """Two armies in contact on a small map with every kind of terrain and hexside.

    Every missile code, leaders on both sides, cavalry and a river with a
    bridge, hedgerows and hills: melee, advances, rallies, break points and
    the last army on the board come early and often.
    """
    raw = {
        "ruleset": "miniwars",
        "title": "brawl",
        "turn_limit": 6,
        "map": {
            "columns": 8,
            "rows": 6,
            "hexes": {"forest": ["0302"], "town": ["0605"], "rough": ["0403"], "marsh": ["0506"]},
            "elevation": {"1": ["0404", "0504"]},
            "roads": [["0103", "0203", "0303", "0403", "0503", "0603", "0703", "0803"]],
            "hexsides": [
                {"feature": "river", "sides": ["0402/0502", "0401/0501"]},
                {"feature": "bridge", "sides": ["0403/0503"]},
                {"feature": "hedgerow", "sides": ["0404/0405", "0504/0505"]},
            ],
        },
        "sides": [{"name": "red"}, {"name": "blue"}],
        "unit_types": {
            "bow_a": {"move": 3, "cs": 1, "missile": "A", "morale": "=", "cost": 20},
            "bow_e": {"move": 4, "cs": 2, "missile": "E", "morale": "-", "cost": 12},
            "horse_bow": {
                "move": 6,
                "cavalry": True,
                "cs": 2,
                "missile": "C",
                "morale": "+",
                "cost": 30,
            },
        },
        "forces": {
            "red": [
                {"id": "RL", "type": "mayor", "at": "0303"},
                {"id": "RO", "type": "guard_officers", "at": "0404"},
                {"id": "RA", "type": "bow_a", "at": "0204"},
                {"id": "RG", "type": "guardsmen", "at": "0403"},
                {"id": "RM", "type": "militia", "at": "0405"},
                {"id": "RH", "type": "horse_bow", "at": "0305"},
                {"id": "RW", "type": "wolfriders", "at": "0402"},
            ],
            "blue": [
                {"id": "BL", "type": "hobgoblin_leader", "at": "0603"},
                {"id": "BS", "type": "hobgoblin_sergeant", "at": "0504"},
                {"id": "BE", "type": "bow_e", "at": "0503"},
                {"id": "BM", "type": "mercenaries", "at": "0505"},
                {"id": "BW", "type": "wolfriders", "at": "0502"},
                {"id": "BG", "type": "goblin_infantry", "at": "0604"},
                {"id": "BH", "type": "goblin_infantry", "at": "0506"},
            ],
        },
        "options": {"fired_units": "free", "los_along_edge": "either"},
    }
    return scenario_from_dict(raw, "brawl", "miniwars/brawl")


def _compare(scenario: Scenario, seeds: range, bots: Mapping[str, str]) -> None:
    """The kernel's game of each seed is the Python game, action for action."""
    for seed in seeds:
        problem = difference(kernel.playout_state, scenario, seed, bots)
        if problem is not None:
            pytest.fail(problem)


def _both(bot: str) -> dict[str, str]:
    return {"danville": bot, "horde": bot}


@needs_kernel
@pytest.mark.parametrize(
    ("ref", "bots", "seeds"),
    [
        ("miniwars/danville", _both("random"), range(200)),
        ("miniwars/danville", _both("greedy"), range(30)),
        ("miniwars/danville", {"danville": "greedy", "horde": "random"}, range(10)),
        ("miniwars/danville", {"danville": "random", "horde": "greedy"}, range(10)),
        ("miniwars/danville", {}, range(200, 210)),  # sides not named play random
        ("miniwars/bridge", {"guards": "random", "vanguard": "random"}, range(150)),
        ("miniwars/bridge", {"guards": "greedy", "vanguard": "greedy"}, range(30)),
        ("miniwars/bridge", {"guards": "greedy", "vanguard": "random"}, range(10)),
    ],
    ids=lambda v: "-".join(v.values()) or "default" if isinstance(v, dict) else None,
)
def test_kernel_plays_the_python_game_of_the_builtin_scenarios(
    ref: str, bots: dict[str, str], seeds: range
) -> None:
    """Issue 2 section 9: the compiled playout is the engine's game, seed for seed."""
    _compare(load_scenario(ref), seeds, bots)


VARIANTS: dict[str, dict[str, Any]] = {
    "fired_units=no_melee": {"options": {"fired_units": "no_melee"}},
    "fired_units=hold": {"options": {"fired_units": "hold"}},
    "hold_and_melee=false": {"options": {"hold_and_melee": False}},
    "hedgerow=swapped": {"options": {"hedgerow": "swapped"}},
    "los_along_edge=both": {"options": {"los_along_edge": "both"}},
    "first_initiative_tie=first_side": {"options": {"first_initiative_tie": "first_side"}},
    "at_turn_limit=draw": {"victory": {"at_turn_limit": "draw"}},
    "at_turn_limit=horde": {"victory": {"at_turn_limit": "horde"}},
    "at_turn_limit=points,turn_limit=4": {"turn_limit": 4, "victory": {"at_turn_limit": "points"}},
    "at_turn_limit=units,turn_limit=4": {"turn_limit": 4, "victory": {"at_turn_limit": "units"}},
    "turn_limit=2": {"turn_limit": 2},
    "turn_limit=12": {"turn_limit": 12},
}


@needs_kernel
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_kernel_plays_the_python_game_under_every_option(variant: str) -> None:
    """Scenario options (MiniWars [options], [victory]): the kernel follows each reading."""
    scenario = _variant("danville", **VARIANTS[variant])
    _compare(scenario, range(20), _both("random"))
    _compare(scenario, range(20, 26), _both("greedy"))


@needs_kernel
def test_kernel_plays_the_python_game_of_the_bridge_with_every_option_changed() -> None:
    """All non-default options at once, on the other map."""
    scenario = _variant(
        "bridge",
        options={
            "fired_units": "hold",
            "hold_and_melee": False,
            "hedgerow": "swapped",
            "los_along_edge": "both",
            "first_initiative_tie": "first_side",
        },
        victory={"at_turn_limit": "points"},
    )
    bots = {"guards": "random", "vanguard": "random"}
    _compare(scenario, range(30), bots)
    _compare(scenario, range(30, 40), {"guards": "greedy", "vanguard": "greedy"})


@needs_kernel
def test_kernel_plays_the_python_game_of_a_brawl() -> None:
    """Melee, advances, rallies, break points and last-army endings, early and often."""
    scenario = _brawl()
    _compare(scenario, range(60), {"red": "random", "blue": "random"})
    _compare(scenario, range(60, 80), {"red": "greedy", "blue": "greedy"})
    _compare(scenario, range(80, 90), {"red": "random", "blue": "greedy"})


def test_fire_lanes_cover_hexes_each_movement_class_of_a_code_may_stand_in() -> None:
    """MISSILE FIRE / THE MAP: a cavalry and an infantry unit of one missile code; only
    the infantry can enter the forest 0301 (cavalry n/a), so the kernel must have fire
    lanes from it (the search of one class must not stop the other's)."""
    foot = {"move": 2, "cs": 2, "missile": "C", "morale": "=", "cost": 10}
    raw = {
        "ruleset": "miniwars",
        "title": "two classes, one code",
        "map": {"columns": 4, "rows": 2, "hexes": {"forest": ["0301"]}},
        "sides": [{"name": "red"}, {"name": "blue"}],
        "unit_types": {"horse_bow": {**foot, "move": 6, "cavalry": True}, "foot_bow": foot},
        "forces": {
            "red": [{"id": "H", "type": "horse_bow", "at": "0101"}],
            "blue": [{"id": "F", "type": "foot_bow", "at": "0202"}],
        },
    }
    setup = scenario_from_dict(raw, "two classes", "miniwars/two-classes").spec
    forest = setup.board.index[Hex.from_label("0301")]
    assert forest in kernel._standing(setup.board, setup, "C")


@needs_kernel
def test_replaying_the_kernel_actions_gives_the_same_digest() -> None:
    """A kernel game is a record: its actions replayed through a Game end in its state."""
    scenario = load_scenario("miniwars/danville")
    for seed, bot in [(1, "random"), (2, "greedy"), (3, "random")]:
        played = kernel.playout_state(scenario, seed, _both(bot), bot_seeds(scenario, seed))
        assert played is not None
        fast, final = played
        game = Game(scenario, seed)
        for side, action in fast.actions:
            game.apply(action, side)
        assert game.is_over
        assert game.digest() == state_digest(final)


@needs_kernel
@pytest.mark.parametrize("ref", ["miniwars/danville", "miniwars/bridge"])
def test_kernel_reach_lists_hexes_in_the_board_order(ref: str) -> None:
    """Movement: open and blocked reach in the very order Board.open_reach / reach give."""
    scenario = load_scenario(ref)
    setup = scenario.spec
    board = setup.board
    tables = kernel.export(setup)
    prepared = kernel._prepare(scenario, setup)
    assert prepared is not None and kernel._kernel is not None
    hexes = board.map.grid.hexes
    size = len(hexes)
    rng = random.Random(0)
    kinds = list(zip(tables["kind_class"], tables["kind_budget"], strict=True))
    for k, (c, budget) in enumerate(kinds):
        for i, h in enumerate(hexes):
            expected = [board.index[x] for x in board.open_reach(h, budget, MOVE_CLASSES[c])]
            found = kernel._kernel.reach_order(prepared.capsule, k, i, bytes(size), bytes(size))
            assert found == expected, (k, h.label)
    for _ in range(500):
        k = rng.randrange(len(kinds))
        c, budget = kinds[k]
        i = rng.randrange(size)
        enemies = {rng.randrange(size) for _ in range(rng.randrange(1, 20))} - {i}
        blocked = board.mask(hexes[j] for j in enemies)
        stops = board.mask(n for j in enemies for n in board.zoc_into[hexes[j]])
        expected = [
            board.index[x] for x in board.reach(hexes[i], budget, MOVE_CLASSES[c], blocked, stops)
        ]
        assert kernel._kernel.reach_order(prepared.capsule, k, i, blocked, stops) == expected


def test_playout_declines_what_it_does_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown bot, or no kernel, gives None: the engine then plays in Python."""
    scenario = load_scenario("miniwars/bridge")
    seeds = bot_seeds(scenario, 0)
    assert kernel.playout(scenario, 0, {"guards": "mcts"}, seeds) is None
    monkeypatch.setattr(kernel, "_kernel", None)
    assert not kernel.kernel_built()
    assert kernel.playout(scenario, 0, {}, seeds) is None
