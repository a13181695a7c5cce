"""The compiled CGME playout kernel against the Python rules and bots.

:mod:`warbench.rulesets.cgme.playout` must play the very game the engine plays
with the same seeds (``sim.runner.play_game``): the same actions in the same
order, the same winner, reason and turns, and the same final-state digest.
Compared here on every built-in scenario of the cgme and veg worlds with random,
greedy and mixed bots; on variants with each scenario option changed; on
variants of the core's and the world's data (margin, dice, result table, wound,
turn sequence, extensions), which the kernel reads from tables rather than
code; and on a crowded scenario made to use every rule at once.
"""

from __future__ import annotations

import copy
import dataclasses
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

import pytest

import warbench.rulesets.veg  # noqa: F401  (registers the ruleset)
from warbench.core import registry
from warbench.core.game import Game, state_digest
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.rulesets.cgme import CGME
from warbench.rulesets.cgme import playout as kernel
from warbench.scenario.model import Scenario
from warbench.sim import simulate
from warbench.sim.differential import difference
from warbench.sim.runner import bot_seeds

needs_kernel = pytest.mark.skipif(
    not kernel.kernel_built(),
    reason="the playout kernel (cgme/_playout.c) is not built: no C compiler at install time",
)


def _compare(scenario: Scenario, seeds: range, bots: Mapping[str, str]) -> None:
    """The kernel's game of each seed is the Python game, action for action."""
    for seed in seeds:
        problem = difference(kernel.playout_state, scenario, seed, bots)
        if problem is not None:
            pytest.fail(problem)


def _bots(scenario: Scenario, first: str, second: str | None = None) -> dict[str, str]:
    a, b = scenario.sides
    return {a: first, b: second or first}


@cache
def _raw(ref: str) -> dict[str, Any]:
    ruleset, name = ref.split("/")
    text = resources.files(f"warbench.rulesets.{ruleset}").joinpath("scenarios", f"{name}.toml")
    return tomllib.loads(text.read_text("utf-8"))


def _variant(ref: str, **changes: Any) -> Scenario:
    """A built-in scenario with tables of its TOML updated (``options={...}``)."""
    raw = copy.deepcopy(_raw(ref))
    for key, value in changes.items():
        if isinstance(value, Mapping):
            raw.setdefault(key, {}).update(value)
        else:
            raw[key] = value
    return scenario_from_dict(raw, f"{ref} variant", ref)


def _with_data(scenario: Scenario, core: Mapping[str, Any], world: Mapping[str, Any]) -> Scenario:
    """``scenario`` on a world whose core and extension numbers are changed.

    What a world's ``[core]`` table or another world's ``rules.toml`` would
    give; the board (terrain) is the same.
    """
    setup = scenario.spec
    new_core = dataclasses.replace(setup.world.core, **core)
    new_world = dataclasses.replace(setup.world, core=new_core, **world)
    return dataclasses.replace(scenario, spec=dataclasses.replace(setup, world=new_world))


# -- the built-in scenarios --------------------------------------------------------------

BUILT_IN = [
    ("veg/tank-battle", "random", None, range(60)),
    ("veg/city-assault", "random", None, range(50)),
    ("veg/crater-field", "random", None, range(60)),
    ("cgme/skirmish", "random", None, range(60)),
    ("veg/tank-battle", "greedy", None, range(100, 112)),
    ("veg/city-assault", "greedy", None, range(100, 112)),
    ("veg/crater-field", "greedy", None, range(100, 112)),
    ("cgme/skirmish", "greedy", None, range(100, 108)),
    ("veg/tank-battle", "greedy", "random", range(200, 203)),
    ("veg/tank-battle", "random", "greedy", range(203, 206)),
    ("veg/city-assault", "greedy", "random", range(200, 203)),
    ("veg/city-assault", "random", "greedy", range(203, 206)),
    ("veg/crater-field", "greedy", "random", range(200, 203)),
    ("veg/crater-field", "random", "greedy", range(203, 206)),
    ("cgme/skirmish", "random", "greedy", range(200, 204)),
]


@needs_kernel
@pytest.mark.parametrize(
    ("ref", "first", "second", "seeds"),
    BUILT_IN,
    ids=[f"{r}-{a}-{b or a}" for r, a, b, _ in BUILT_IN],
)
def test_kernel_plays_the_python_game_of_the_builtin_scenarios(
    ref: str, first: str, second: str | None, seeds: range
) -> None:
    """Issue 3 (speed): the compiled playout is the engine's game, seed for seed."""
    scenario = load_scenario(ref)
    _compare(scenario, seeds, _bots(scenario, first, second))


@needs_kernel
def test_sides_not_named_play_random() -> None:
    """As in ``play_game``: a side the bots mapping leaves out plays the random bot."""
    scenario = load_scenario("veg/tank-battle")
    _compare(scenario, range(300, 303), {})


# -- scenario options -------------------------------------------------------------------

OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("veg/tank-battle", {"options": {"stacking_limit": 6}}),
    ("veg/tank-battle", {"options": {"stacking_limit": 1}}),
    ("veg/tank-battle", {"options": {"stacking_limit": "off"}}),
    ("veg/tank-battle", {"options": {"attack_during_movement": False}}),
    ("veg/tank-battle", {"options": {"combined_attacks": False}}),
    ("veg/tank-battle", {"options": {"spillover_hits": "enemies"}}),
    ("veg/tank-battle", {"options": {"spillover_hits": "not_attackers"}}),
    ("veg/tank-battle", {"options": {"hexside_crossing": "additive"}}),
    ("veg/city-assault", {"options": {"spillover_hits": "not_attackers"}}),
    ("veg/city-assault", {"options": {"stacking_limit": 3}}),
    ("veg/city-assault", {"options": {"move_or_shoot": False}}),
    ("veg/city-assault", {"options": {"building_damage": "margin"}}),
    ("veg/city-assault", {"options": {"unstated_terrain": "no_entry"}}),
    ("veg/city-assault", {"options": {"unstated_terrain": "no_effect"}}),
    ("veg/city-assault", {"options": {"attack_during_movement": True}}),
    ("veg/city-assault", {"victory": {"at_turn_limit": "draw"}, "turn_limit": 4}),
    ("veg/crater-field", {"options": {"stacking_limit": "off", "spillover_hits": "enemies"}}),
    ("veg/crater-field", {"options": {"attack_during_movement": True, "combined_attacks": False}}),
    ("veg/crater-field", {"victory": {"at_turn_limit": "points"}, "turn_limit": 3}),
    ("cgme/skirmish", {"options": {"combined_attacks": False}}),
    ("cgme/skirmish", {"victory": {"at_turn_limit": "red"}}),
    ("cgme/skirmish", {"victory": {"at_turn_limit": "draw"}, "turn_limit": 2}),
]


@needs_kernel
@pytest.mark.parametrize(
    ("ref", "changes"), OPTIONS, ids=[f"{r}-{sorted(c.items())}" for r, c in OPTIONS]
)
def test_kernel_follows_every_scenario_option(ref: str, changes: dict[str, Any]) -> None:
    """Scenario [options] and [victory] (veg/options.py): the kernel follows each reading."""
    scenario = _variant(ref, **changes)
    _compare(scenario, range(8), _bots(scenario, "random"))
    _compare(scenario, range(8, 10), _bots(scenario, "greedy"))


# -- the core's and the world's numbers ---------------------------------------------------

DATA: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    ("margin-2", "veg/tank-battle", {"margin": 2}, {}),
    (
        "three-results",
        "veg/tank-battle",
        {"results": ((2, "destroy"), (0, "wound"), (-3, "none"))},
        {},
    ),
    ("two-dice-each", "veg/crater-field", {"attack_dice": 2, "defence_dice": 2}, {}),
    ("two-attack-dice", "veg/city-assault", {"attack_dice": 2}, {}),
    (
        "harsh-wound",
        "veg/crater-field",
        {"wound_att": -2, "wound_def": 0, "wound_mov": -2, "second_wound": "wound"},
        {},
    ),
    ("wound-speeds-up", "veg/tank-battle", {"wound_mov": 1, "wound_def": -3}, {}),
    ("hazards-last", "veg/crater-field", {"phases": ("move", "attack", "hazard")}, {}),
    ("two-moves", "veg/city-assault", {"phases": ("hazard", "move", "attack", "move")}, {}),
    ("no-spillover-no-range0", "veg/city-assault", {}, {"spillover_att": None, "range0_att": 0}),
    ("road-bonus-every-2", "veg/tank-battle", {}, {"road_bonus_every": 2}),
    ("no-road-bonus", "veg/crater-field", {}, {"road_bonus_every": 0}),
    (
        "transport-costs",
        "veg/city-assault",
        {},
        {"load_cost": 2, "unload_cost": 0, "building_wound_divisor": 3},
    ),
    ("core-margin-3", "cgme/skirmish", {"margin": 3}, {}),
]


@needs_kernel
@pytest.mark.parametrize(("name", "ref", "core", "world"), DATA, ids=[d[0] for d in DATA])
def test_kernel_reads_the_core_and_world_numbers_from_data(
    name: str, ref: str, core: dict[str, Any], world: dict[str, Any]
) -> None:
    """cgme.md: margin, dice, result table, wound, turn sequence and extensions are data."""
    scenario = _with_data(load_scenario(ref), core, world)
    _compare(scenario, range(6), _bots(scenario, "random"))
    _compare(scenario, range(6, 8), _bots(scenario, "greedy"))


# -- everything at once -------------------------------------------------------------------


def _brawl(**options: Any) -> Scenario:
    """Two forces in contact on a small V.E.G. map with every terrain and extension.

    Craters on the road, woods, bog, sand, city, water and a stream; carriers
    of every kind with riders (a truck on the road, a Hover-PC, a user-defined
    jeep whose rider may fire), a wounded squad, a heavy unit counting as two
    for stacking, buildings on both sides, a destroy and a reach objective.
    """
    raw = {
        "ruleset": "veg",
        "title": "brawl",
        "turn_limit": 6,
        "map": {
            "columns": 10,
            "rows": 8,
            "terrain": "clear",
            "hexes": {
                "crater": ["0503", "0504", "0505", "0602"],
                "woods": ["0302", "0706"],
                "city": ["0806", "0807", "0906", "0907"],
                "bog": ["0207"],
                "sand": ["0402"],
                "open_water": ["0608"],
            },
            "roads": [["0104", "0204", "0304", "0404", "0504", "0604", "0704", "0804", "0904"]],
            "hexsides": [
                {"feature": "stream", "sides": ["0601/0701", "0601/0702", "0602/0702"]},
            ],
        },
        "sides": [{"name": "red"}, {"name": "blue"}],
        "unit_types": {
            "jeep": {
                "att": 1,
                "rng": 1,
                "def": 1,
                "mov": 4,
                "class": "vehicle",
                "capacity": 1,
                "riders_attack": True,
                "value": 7,
            },
            "ogre": {
                "att": 6,
                "rng": 2,
                "def": 6,
                "mov": 2,
                "class": "vehicle",
                "value": 20,
                "stack_parts": 6,
            },
        },
        "forces": {
            "red": [
                {"id": "RT", "type": "truck", "at": "0104"},
                {"id": "RI", "type": "infantry", "riding": "RT", "count": 2},
                {"id": "RP", "type": "hover_pc", "at": "0203"},
                {"id": "RR", "type": "ranger", "riding": "RP", "count": 3},
                {"id": "RW", "type": "heavy_weapons", "riding": "RP"},
                {"id": "RH", "type": "heavy_tank", "at": "0204"},
                {"id": "RM", "type": "mobile_howitzer", "at": "0103"},
                {"id": "RF", "type": "infantry", "at": "0205", "count": 2},
                {"id": "RX", "type": "infantry", "at": "0305", "wounded": True},
                {"id": "RC", "type": "jeep", "at": "0105"},
                {"id": "RJ", "type": "infantry", "riding": "RC"},
            ],
            "blue": [
                {"id": "BK", "type": "missile_tank", "at": "0905"},
                {"id": "BZ", "type": "howitzer", "at": "1008"},
                {"id": "BV", "type": "hovercraft", "at": "0902"},
                {"id": "BN", "type": "infantry", "at": "0806", "count": 3},
                {"id": "BW", "type": "heavy_weapons", "at": "0807"},
                {"id": "BL", "type": "light_tank", "at": "0804"},
                {"id": "BG", "type": "ogre", "at": "1005"},
            ],
        },
        "buildings": [
            {"id": "HQ", "side": "blue", "at": "0907", "def": 4, "sp": 8, "value": 15},
            {"id": "DEPOT", "side": "red", "at": "0106", "def": 2, "sp": 5},
        ],
        "options": {"stacking_limit": 3, **options},
        "victory": {
            "at_turn_limit": "points",
            "objectives": [
                {"side": "red", "destroy": ["HQ"]},
                {"side": "blue", "reach": {"hexes": ["0104"], "within": 1}, "count": 2},
            ],
        },
    }
    return scenario_from_dict(raw, "brawl", "veg/brawl")


@needs_kernel
@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "attack_during_movement": True,
            "move_or_shoot": True,
            "building_damage": "margin",
            "spillover_hits": "enemies",
        },
        {"stacking_limit": "off", "combined_attacks": False, "unstated_terrain": "no_entry"},
        {"spillover_hits": "not_attackers", "attack_during_movement": True},
    ],
    ids=["defaults", "optional-rules", "no-stacking", "spare-attackers"],
)
def test_kernel_plays_the_python_game_of_a_brawl(options: dict[str, Any]) -> None:
    """Transport, hazards, roads, buildings, objectives and stacking, early and often."""
    scenario = _brawl(**options)
    _compare(scenario, range(20), {"red": "random", "blue": "random"})
    _compare(scenario, range(20, 25), {"red": "greedy", "blue": "greedy"})
    _compare(scenario, range(25, 28), {"red": "random", "blue": "greedy"})


def _melee(**options: Any) -> Scenario:
    """Squads of both sides in one hex of a tiny map: range-0 attacks and spillover on
    friends, so that both sides may be wiped out by one attack."""
    raw = {
        "ruleset": "veg",
        "title": "melee",
        "turn_limit": 3,
        "map": {
            "columns": 3,
            "rows": 3,
            "terrain": "clear",
            "hexes": {"crater": ["0301"], "city": ["0103"]},
        },
        "sides": [{"name": "red"}, {"name": "blue"}],
        "forces": {
            "red": [
                {"id": "R", "type": "infantry", "at": "0202", "count": 2},
                {"id": "RH", "type": "heavy_weapons", "at": "0101"},
            ],
            "blue": [
                {"id": "B", "type": "infantry", "at": "0202", "count": 2},
                {"id": "BR", "type": "ranger", "at": "0303"},
            ],
        },
        "options": options,
    }
    return scenario_from_dict(raw, "melee", "veg/melee")


@needs_kernel
@pytest.mark.parametrize(
    "options", [{}, {"attack_during_movement": True}], ids=["defaults", "attacks-during-movement"]
)
def test_kernel_plays_the_python_game_of_a_melee(options: dict[str, Any]) -> None:
    """Range 0, spillover on friends, hazards; games end every way (both wiped out too)."""
    scenario = _melee(**options)
    _compare(scenario, range(60), {"red": "random", "blue": "random"})
    _compare(scenario, range(60, 75), {"red": "greedy", "blue": "greedy"})


# -- the kernel in the engine ---------------------------------------------------------------


@needs_kernel
def test_replaying_the_kernel_actions_gives_the_same_digest() -> None:
    """A kernel game is a record: its actions replayed through a Game end in its state."""
    scenario = load_scenario("veg/city-assault")
    for seed, bot in [(1, "random"), (2, "greedy")]:
        bots = _bots(scenario, bot)
        played = kernel.playout_state(scenario, seed, bots, bot_seeds(scenario, seed))
        assert played is not None
        fast, final = played
        game = Game(scenario, seed)
        for side, action in fast.actions:
            game.apply(action, side)
        assert game.is_over
        assert game.digest() == state_digest(final)


@needs_kernel
def test_simulate_uses_the_kernel_through_ruleset_playout(monkeypatch: pytest.MonkeyPatch) -> None:
    """``warbench simulate`` offers each game to Ruleset.playout: the same results either way."""
    scenario = load_scenario("veg/tank-battle")
    ruleset = registry.get("veg")
    seeds = bot_seeds(scenario, 5)
    assert ruleset.playout(scenario, 5, {}, seeds) == kernel.playout(scenario, 5, {}, seeds)
    bots = {"blue": "greedy", "red": "random"}
    fast = simulate("veg/tank-battle", 4, bots, seed=9)
    monkeypatch.setattr(kernel, "_kernel", None)
    assert ruleset.playout(scenario, 5, {}, seeds) is None
    slow = simulate("veg/tank-battle", 4, bots, seed=9)
    assert (fast.wins, fast.draws, fast.reasons, fast.mean_turns, fast.mean_actions) == (
        slow.wins,
        slow.draws,
        slow.reasons,
        slow.mean_turns,
        slow.mean_actions,
    )


def test_playout_declines_what_it_does_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown bot, data the kernel does not do, a world with its own rules, or no
    kernel: None, and the engine plays the game in Python."""
    scenario = load_scenario("veg/crater-field")
    seeds = bot_seeds(scenario, 0)
    assert kernel.playout(scenario, 0, {"raiders": "mcts"}, seeds) is None
    # A carrier that could itself ride in a carrier (an infantry-class transport).
    raw = copy.deepcopy(_raw("veg/crater-field"))
    raw["unit_types"] = {"mule": {"att": 1, "def": 1, "mov": 2, "class": "infantry", "capacity": 1}}
    raw["forces"]["raiders"].append({"id": "MU", "type": "mule", "at": "0101"})
    odd = scenario_from_dict(raw, "mule", "veg/mule")
    assert kernel.unsupported(odd.spec) is not None
    assert kernel.playout(odd, 0, {}, bot_seeds(odd, 0)) is None
    # Hazards rolled against the defence dice alone (core [hazard] defence = "dice").
    dice_only = _with_data(scenario, {"hazard_defence": "dice"}, {})
    assert kernel.unsupported(dice_only.spec) is not None
    assert kernel.playout(dice_only, 0, {}, seeds) is None

    class Variant(CGME):
        def proceed(self, state: Any, res: Any) -> None:  # another turn sequence
            super().proceed(state, res)

    monkeypatch.setattr(kernel.registry, "get", lambda name: Variant())
    assert kernel.playout(scenario, 0, {}, seeds) is None
    monkeypatch.undo()
    monkeypatch.setattr(kernel, "_kernel", None)
    assert not kernel.kernel_built()
    assert kernel.playout(scenario, 0, {}, seeds) is None
