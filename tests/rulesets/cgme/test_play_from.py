"""The CGME kernel playing on from any position (``playout.play_from``) against the engine.

A search bot's rollouts start from wherever a game stands. For positions of
games of the cgme and V.E.G. scenarios (built-in ones and variants with the
options and data the whole-game tests of ``test_playout_kernel.py`` cover),
played by random, greedy and mixed bots, and taken every few actions (so in
the middle of movement phases, with MP half spent and road bonus earned, with
riders aboard, and with attacks declared and open to joiners), the kernel
continues the game from the live state with copies of the game's dice
generator and each bot's stream, and the engine plays a copy of the game on
with copies of the bots (:func:`warbench.sim.differential.continuation_difference`):
the same actions from there on, the same winner, reason and turn, the same
final digest. Also: the given state is left as it was and the generators are
advanced as the engine advances them, the ruleset hook answers for both
worlds, and what the kernel declines gives None.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import tomllib
from ast import literal_eval
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

import pytest

import warbench.rulesets.veg  # noqa: F401  (registers the ruleset)
from warbench.bots.base import SeededBot
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.rulesets.cgme import CGME
from warbench.rulesets.cgme import playout as kernel
from warbench.rulesets.cgme.state import State
from warbench.scenario.model import Scenario
from warbench.sim.differential import continuation_difference, positions
from warbench.sim.runner import play_on

needs_kernel = pytest.mark.skipif(
    not kernel.kernel_built(),
    reason="the playout kernel (cgme/_playout.c) is not built: no C compiler at install time",
)


@cache
def _raw(ref: str) -> dict[str, Any]:
    ruleset, name = ref.split("/")
    text = resources.files(f"warbench.rulesets.{ruleset}").joinpath("scenarios", f"{name}.toml")
    return tomllib.loads(text.read_text("utf-8"))


@cache
def _scenario(ref: str, changes: str = "", core: str = "") -> Scenario:
    """A built-in scenario, its TOML tables updated by ``changes`` and its core's
    numbers by ``core`` (both ``repr`` of a dict, so that the scenario is cached)."""
    if not changes and not core:
        return load_scenario(ref)
    raw = copy.deepcopy(_raw(ref))
    for key, value in (literal_eval(changes) if changes else {}).items():
        if isinstance(value, Mapping):
            raw.setdefault(key, {}).update(value)
        else:
            raw[key] = value
    scenario = scenario_from_dict(raw, f"{ref} variant", ref)
    if core:
        setup = scenario.spec
        world = dataclasses.replace(
            setup.world,
            core=dataclasses.replace(setup.world.core, **literal_eval(core)),
        )
        scenario = dataclasses.replace(scenario, spec=dataclasses.replace(setup, world=world))
    return scenario


@dataclasses.dataclass(frozen=True)
class Case:
    ref: str
    seed: int
    first: str
    second: str
    every: int
    least: int
    """Positions the game must give at least (the count per ruleset is checked below)."""
    changes: str = ""
    core: str = ""
    opens: bool = False
    """Whether some position must wait on an open attack (joiners or the roll)."""
    rides: bool = False
    """Whether some position must have riders aboard a carrier."""

    @property
    def ruleset(self) -> str:
        return self.ref.split("/")[0]

    @property
    def name(self) -> str:
        what = " ".join(filter(None, (self.changes, self.core)))
        return f"{self.ref}-{self.seed}-{self.first}-{self.second}{'-' + what if what else ''}"


DRAW_2 = "{'victory': {'at_turn_limit': 'draw'}, 'turn_limit': 2}"
CASES = [
    # cgme: the skirmish, its options and a core number changed.
    Case("cgme/skirmish", 10, "random", "random", 3, 50),
    Case("cgme/skirmish", 11, "greedy", "greedy", 3, 30, opens=True),
    Case("cgme/skirmish", 12, "random", "greedy", 3, 40, opens=True),
    Case("cgme/skirmish", 13, "greedy", "random", 3, 35),
    Case(
        "cgme/skirmish", 14, "random", "random", 4, 38, "{'options': {'combined_attacks': False}}"
    ),
    Case("cgme/skirmish", 15, "greedy", "greedy", 4, 28, "{'victory': {'at_turn_limit': 'red'}}"),
    Case("cgme/skirmish", 16, "random", "greedy", 1, 25, DRAW_2),
    Case("cgme/skirmish", 17, "greedy", "random", 4, 30, core="{'margin': 3}"),
    # V.E.G.: every built-in scenario, with options, data and transport.
    Case("veg/tank-battle", 20, "random", "random", 8, 25),
    Case("veg/tank-battle", 21, "greedy", "greedy", 8, 20),
    Case("veg/tank-battle", 22, "random", "greedy", 8, 15, opens=True),
    Case("veg/tank-battle", 23, "greedy", "random", 4, 18, "{'turn_limit': 3}"),
    Case(
        "veg/tank-battle",
        24,
        "random",
        "random",
        3,
        27,
        "{'options': {'stacking_limit': 1, 'spillover_hits': 'not_attackers'}, 'turn_limit': 3}",
    ),
    Case(
        "veg/tank-battle",
        25,
        "greedy",
        "greedy",
        3,
        14,
        "{'options': {'attack_during_movement': False, 'stacking_limit': 'off'}, 'turn_limit': 3}",
    ),
    Case(
        "veg/city-assault",
        30,
        "greedy",
        "greedy",
        4,
        30,
        "{'victory': {'at_turn_limit': 'draw'}, 'turn_limit': 4}",
        opens=True,
        rides=True,
    ),
    Case(
        "veg/city-assault",
        31,
        "random",
        "greedy",
        4,
        22,
        "{'options': {'attack_during_movement': True, 'building_damage': 'margin'}, "
        "'turn_limit': 3}",
        rides=True,
    ),
    Case(
        "veg/city-assault",
        32,
        "random",
        "random",
        4,
        28,
        "{'options': {'move_or_shoot': False, 'stacking_limit': 3}, 'turn_limit': 3}",
        rides=True,
    ),
    Case("veg/crater-field", 40, "random", "random", 4, 35, rides=True),
    Case("veg/crater-field", 41, "greedy", "greedy", 2, 45, opens=True, rides=True),
    Case(
        "veg/crater-field",
        42,
        "greedy",
        "random",
        3,
        24,
        "{'options': {'attack_during_movement': True, 'combined_attacks': False}}",
        rides=True,
    ),
    Case(
        "veg/crater-field",
        43,
        "random",
        "greedy",
        2,
        48,
        "{'victory': {'at_turn_limit': 'points'}, 'turn_limit': 3}",
        rides=True,
    ),
    Case(
        "veg/crater-field",
        44,
        "random",
        "random",
        3,
        42,
        core="{'phases': ('move', 'attack', 'hazard')}",
        rides=True,
    ),
]


def test_at_least_200_positions_per_ruleset() -> None:
    for ruleset in ("cgme", "veg"):
        assert sum(case.least for case in CASES if case.ruleset == ruleset) >= 200


def _mid_move(state: State) -> bool:
    """A movement phase under way: a unit of the moving side has moved and has MP left."""
    return any(u.moved and u.mp + u.bonus > 0 for u in state.units.values())


@needs_kernel
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_kernel_plays_on_as_the_engine_does(case: Case) -> None:
    """Issue 26: from every position taken, the kernel's continuation is the engine's."""
    scenario = _scenario(case.ref, case.changes, case.core)
    assert scenario.ruleset == case.ruleset
    first, second = scenario.sides
    bots = {first: case.first, second: case.second}
    count = opened = moving = riding = 0
    for game, players in positions(scenario, case.seed, bots, case.every):
        problem = continuation_difference(kernel.play_from_state, game, players, bots)
        if problem is not None:
            pytest.fail(problem)
        count += 1
        opened += game.state.attack is not None
        moving += _mid_move(game.state)
        riding += any(u.carrier is not None for u in game.state.units.values())
    assert count >= case.least
    assert moving > 0
    assert opened > 0 or not case.opens
    assert riding > 0 or not case.rides


def _midgame(
    ref: str, seed: int, bots: Mapping[str, str], after: int
) -> tuple[Game, dict[str, Any]]:
    """A copy of the game of ``seed`` and its bots after ``after`` actions."""
    for game, players in positions(_scenario(ref), seed, bots, after):
        if game.actions:
            memo = {id(game.ruleset): game.ruleset, id(game.scenario): game.scenario}
            return copy.deepcopy(game, memo), copy.deepcopy(players)
    raise AssertionError(f"{ref} seed {seed} ended within {after} actions")


def _generators(
    game: Game, players: Mapping[str, Any]
) -> tuple[random.Random, dict[str, random.Random]]:
    streams = {}
    for side, bot in players.items():
        assert isinstance(bot, SeededBot)
        streams[side] = copy.deepcopy(bot.stream)
    return copy.deepcopy(game.dice.generator), streams


@needs_kernel
@pytest.mark.parametrize("ref", ["cgme/skirmish", "veg/city-assault"])
def test_play_from_leaves_the_state_and_advances_the_generators(ref: str) -> None:
    """The state passed is read only; the dice and the streams end where the engine leaves them."""
    scenario = _scenario(ref)
    bots = dict.fromkeys(scenario.sides, "greedy")
    game, players = _midgame(ref, 3, bots, 9)
    state = game.state
    before = (
        state.to_json(),
        {h: [u.id for u in stack] for h, stack in state.stacks.items()},
        dict(state.parts),
        state.version,
        dict(state.side_version),
    )
    dice, streams = _generators(game, players)
    played = kernel.play_from(state, dice, bots, streams)
    assert played is not None and played.actions
    after = (
        state.to_json(),
        {h: [u.id for u in stack] for h, stack in state.stacks.items()},
        dict(state.parts),
        state.version,
        dict(state.side_version),
    )
    assert after == before
    start = len(game.actions)
    play_on(game, players)
    assert played.actions == [(t.side, t.action) for t in game.actions[start:]]
    assert dice.getstate() == game.dice.generator.getstate()
    for side, bot in players.items():
        assert isinstance(bot, SeededBot)
        assert streams[side].getstate() == bot.stream.getstate()


@needs_kernel
@pytest.mark.parametrize("ref", ["cgme/skirmish", "veg/tank-battle"])
def test_the_ruleset_hook_answers_for_both_worlds(
    ref: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Ruleset.play_from`` of cgme and of V.E.G. is the kernel's continuation."""
    scenario = _scenario(ref)
    ruleset = registry.get(scenario.ruleset)
    assert isinstance(ruleset, CGME)
    first, second = scenario.sides
    bots = {first: "random", second: "greedy"}
    game, players = _midgame(ref, 4, bots, 12)
    dice, streams = _generators(game, players)
    hooked = ruleset.play_from(game.state, dice, bots, streams)
    dice, streams = _generators(game, players)
    assert hooked is not None
    assert hooked == kernel.play_from(game.state, dice, bots, streams)
    monkeypatch.setattr(kernel, "_kernel", None)
    dice, streams = _generators(game, players)
    assert ruleset.play_from(game.state, dice, bots, streams) is None


@needs_kernel
def test_play_from_declines_what_it_does_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot it does not play, a side without a stream, a world with rules of its own, or
    a state that does not hold together: None, and the engine plays on."""
    scenario = _scenario("veg/crater-field")
    first, second = scenario.sides
    bots = {first: "random", second: "random"}
    game, players = _midgame("veg/crater-field", 1, bots, 6)
    state = game.state

    def fresh() -> tuple[random.Random, dict[str, random.Random]]:
        return _generators(game, players)

    dice, streams = fresh()
    assert kernel.play_from(state, dice, {first: "mcts"}, streams) is None
    assert kernel.play_from(state, dice, bots, {first: streams[first]}) is None
    assert kernel.play_from(state, dice, bots, streams, ruleset="no-such-ruleset") is None

    class Variant(CGME):
        def proceed(self, state: Any, res: Any) -> None:  # another turn sequence
            super().proceed(state, res)

    assert Variant().play_from(state, dice, bots, streams) is None
    broken = state.copy()
    some = next(u for u in broken.units.values() if u.pos is not None and u.carrier is None)
    broken.stacks[some.pos].remove(some)  # type: ignore[index]
    assert kernel.play_from(broken, dice, bots, streams) is None
    # Nothing drawn by what was declined: the generators still play the engine's game.
    assert dice.getstate() == game.dice.generator.getstate()
    assert kernel.play_from(state, dice, bots, streams) is not None


@needs_kernel
def test_a_finished_game_plays_nothing() -> None:
    scenario = _scenario("cgme/skirmish")
    bots = dict.fromkeys(scenario.sides, "random")
    game, players = _midgame("cgme/skirmish", 2, bots, 5)
    play_on(game, players)
    assert game.outcome is not None
    dice, streams = _generators(game, players)
    played = kernel.play_from_state(game.state, dice, bots, streams)
    assert played is not None
    result, final = played
    assert (result.actions, result.winner, result.reason, result.turns) == (
        [],
        game.outcome.winner,
        game.outcome.reason,
        game.turn,
    )
    assert final == game.state.to_json()
