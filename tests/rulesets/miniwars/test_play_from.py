"""The compiled kernel plays on from any position: ``playout.play_from`` against the engine.

A search bot's rollouts start where a game stands, not at its beginning. From
positions of seeded games (random, greedy and mixed, on both built-in scenarios,
their option variants and a brawl) the kernel must play on exactly as the engine
plays on from a copy of the position with the same dice generator and bot
streams: the same actions from there on, winner, reason, turn and final digest
(``sim.differential.continuation_difference``). Positions are taken at every
kind of decision, including within a phase (after some units have moved, fired
or rallied) and in melee's attack and advance steps.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from tests.rulesets.miniwars.test_playout import VARIANTS, _brawl, _variant

from warbench.core.game import Game, state_digest
from warbench.core.loader import load_scenario
from warbench.core.ruleset import Ruleset
from warbench.rulesets.miniwars import playout as kernel
from warbench.rulesets.miniwars.ruleset import MiniWars
from warbench.scenario.model import Scenario
from warbench.sim.differential import continuation_difference, positions
from warbench.sim.runner import bot_seeds, play_on

needs_kernel = pytest.mark.skipif(
    not kernel.kernel_built(),
    reason="the playout kernel (_playout.c) is not built: no C compiler at install time",
)


def _kind(game: Game) -> str:
    """What sort of position this is: the step, and "mid" once the phase is under way."""
    state = game.state
    phase, step = state.phase_name, state.step
    side = game.ruleset.acting_side(state)
    units = state.units.values()
    if step in ("attack", "advance"):
        return f"melee {step}"
    if phase.startswith("move") and any(u.acted for u in units):
        return "mid movement"
    if phase == "morale" and (step == "B" or any(u.acted for u in units)):
        return "mid morale"
    if phase.startswith("missile") and any(u.fired and u.side == side for u in units):
        return "mid missile fire"  # each side fires in its own phase; markers go at initiative
    return f"{phase} {step}"


def _compare(scenario: Scenario, seeds: range, bots: Mapping[str, str], every: int) -> Counter[str]:
    """Every position (each ``every``-th action) of each seed's game: the kernel plays on
    as the engine does. Returns how many positions of each kind were compared."""
    kinds: Counter[str] = Counter()
    for seed in seeds:
        for game, players in positions(scenario, seed, bots, every):
            problem = continuation_difference(kernel.play_from_state, game, players, bots)
            if problem is not None:
                pytest.fail(problem)
            kinds[_kind(game)] += 1
    return kinds


def _all(scenario: Scenario, bot: str) -> dict[str, str]:
    return dict.fromkeys(scenario.spec.sides, bot)


def _mixed(scenario: Scenario, first: str) -> dict[str, str]:
    a, b = scenario.spec.sides
    return {a: first, b: "random" if first == "greedy" else "greedy"}


SUB_STEPS = {"melee attack", "melee advance", "mid movement", "mid morale", "mid missile fire"}


@needs_kernel
@pytest.mark.parametrize(
    ("ref", "bot", "seeds", "every", "least"),
    [
        ("miniwars/bridge", "random", range(8), 7, 120),
        ("miniwars/bridge", "greedy", range(6), 6, 60),
        ("miniwars/bridge", "greedy-random", range(4), 6, 25),
        ("miniwars/bridge", "random-greedy", range(4), 6, 25),
        ("miniwars/danville", "random", range(1), 200, 5),
        ("miniwars/danville", "greedy", range(3), 20, 25),
        ("miniwars/danville", "greedy-random", range(2), 30, 15),
        ("miniwars/danville", "random-greedy", range(2, 4), 30, 8),
    ],
)
def test_kernel_plays_on_from_positions_of_the_builtin_scenarios(
    ref: str, bot: str, seeds: range, every: int, least: int
) -> None:
    """Issue 26: from any live position the kernel's continuation is the engine's."""
    scenario = load_scenario(ref)
    bots = _all(scenario, bot) if "-" not in bot else _mixed(scenario, bot.split("-")[0])
    kinds = _compare(scenario, seeds, bots, every)
    assert sum(kinds.values()) >= least
    if ref == "miniwars/bridge" and bot == "greedy":
        assert {"melee attack", "melee advance", "mid movement"} <= set(kinds), kinds


def _short(changes: dict[str, Any], turns: int) -> dict[str, Any]:
    """A variant cut to ``turns`` turns at most: games of Danville last long in Python
    (the options act every turn; the turn limit's reading is reached sooner)."""
    return {**changes, "turn_limit": min(changes.get("turn_limit", turns), turns)}


@needs_kernel
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_kernel_plays_on_under_every_option(variant: str) -> None:
    """Scenario options: positions of random and greedy games (cut short)."""
    changes = VARIANTS[variant]
    short = _variant("danville", **_short(changes, 3))
    kinds = _compare(short, range(2), _all(short, "random"), 8)
    longer = _variant("danville", **_short(changes, 5))
    kinds += _compare(longer, range(30, 31), _all(longer, "greedy"), 8)
    assert sum(kinds.values()) >= 20


@needs_kernel
def test_kernel_plays_on_in_the_bridge_with_every_option_changed() -> None:
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
    kinds = _compare(scenario, range(4), _all(scenario, "random"), 6)
    kinds += _compare(scenario, range(10, 13), _all(scenario, "greedy"), 5)
    assert sum(kinds.values()) >= 40


@needs_kernel
def test_kernel_plays_on_in_a_brawl() -> None:
    """Melee, advances, rallies and break points early and often, from every kind of step."""
    scenario = _brawl()
    kinds = _compare(scenario, range(3), _all(scenario, "random"), 6)
    kinds += _compare(scenario, range(12, 14), _all(scenario, "greedy"), 4)
    kinds += _compare(scenario, range(18, 20), _mixed(scenario, "greedy"), 4)
    assert sum(kinds.values()) >= 80
    assert set(kinds) >= SUB_STEPS, kinds


def _midgame(ref: str, seed: int, bots: Mapping[str, str], actions: int) -> tuple[Game, Any]:
    """A copy of the game of ``seed`` after ``actions`` actions, and its bots as they stand."""
    for k, (game, players) in enumerate(positions(load_scenario(ref), seed, bots, 1)):
        if k == actions:
            return copy.deepcopy(game), copy.deepcopy(players)
    raise AssertionError(f"the game of seed {seed} ended within {actions} actions")


@needs_kernel
def test_play_from_leaves_the_state_alone_and_draws_as_the_engine() -> None:
    """The given state is read only; dice and streams advance as the engine's would."""
    bots = {"guards": "greedy", "vanguard": "random"}
    game, players = _midgame("miniwars/bridge", 4, bots, 25)
    state = game.state
    before = state_digest(state.to_json())
    dice = copy.deepcopy(game.dice.generator)
    streams = {side: copy.deepcopy(bot.stream) for side, bot in players.items()}
    fast = kernel.play_from(state, dice, bots, streams)
    assert fast is not None and fast.actions
    assert state_digest(state.to_json()) == before
    slow = copy.deepcopy(game)
    play_on(slow, players)
    assert fast.actions == [(t.side, t.action) for t in slow.actions[len(game.actions) :]]
    assert dice.getstate() == slow.dice.generator.getstate()
    for side, bot in players.items():
        assert streams[side].getstate() == bot.stream.getstate()


@needs_kernel
def test_the_ruleset_hook_plays_on_in_the_kernel() -> None:
    """``Ruleset.play_from`` of MiniWars answers with the kernel's continuation."""
    bots = {"danville": "greedy", "horde": "greedy"}
    game, players = _midgame("miniwars/danville", 3, bots, 40)
    assert isinstance(game.ruleset, MiniWars)
    assert type(game.ruleset).play_from is not Ruleset.play_from

    def generators() -> tuple[random.Random, dict[str, random.Random]]:
        streams = {side: copy.deepcopy(bot.stream) for side, bot in players.items()}
        return copy.deepcopy(game.dice.generator), streams

    dice, streams = generators()
    hooked = game.ruleset.play_from(game.state, dice, bots, streams)
    dice, streams = generators()
    direct = kernel.play_from(game.state, dice, bots, streams)
    assert hooked is not None and hooked.actions and hooked == direct


@needs_kernel
def test_play_from_declines_what_it_cannot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown bot, a side without a stream, a broken state or no kernel: None."""
    scenario = load_scenario("miniwars/bridge")
    game = Game(scenario, 0)
    seeds = bot_seeds(scenario, 0)
    streams = {side: random.Random(s) for side, s in seeds.items()}
    dice = random.Random(0)
    assert kernel.play_from(game.state, dice, {"guards": "mcts"}, streams) is None
    assert kernel.play_from(game.state, dice, {}, {"guards": streams["guards"]}) is None
    broken = game.ruleset.copy_state(game.state)
    broken.step = "attack"  # attack in the initiative phase, with no attacker
    assert kernel.play_from(broken, dice, {}, streams) is None
    stray = game.ruleset.copy_state(game.state)
    first, second = list(stray.units.values())[:2]
    first.pos = second.pos  # two units in one hex
    assert kernel.play_from(stray, dice, {}, streams) is None
    assert dice.getstate() == random.Random(0).getstate()  # nothing was drawn
    monkeypatch.setattr(kernel, "_kernel", None)
    assert kernel.play_from(game.state, dice, {}, streams) is None


@needs_kernel
def test_play_from_an_ended_game_plays_nothing() -> None:
    """A finished game: no actions, its outcome and turn."""
    scenario = load_scenario("miniwars/bridge")
    bots = {"guards": "random", "vanguard": "random"}
    seeds = bot_seeds(scenario, 2)
    game = Game(scenario, 2)
    played = kernel.playout_state(scenario, 2, bots, seeds)
    assert played is not None
    for side, action in played[0].actions:
        game.apply(action, side)
    assert game.outcome is not None
    streams = {side: random.Random(s) for side, s in seeds.items()}
    again = kernel.play_from_state(game.state, random.Random(2), bots, streams)
    assert again is not None
    fast, final = again
    assert fast.actions == []
    assert (fast.winner, fast.reason, fast.turns) == (
        game.outcome.winner,
        game.outcome.reason,
        game.turn,
    )
    assert state_digest(final) == game.digest()
