"""The reinforcement-learning environments (issue 14, part 4): PettingZoo's own api_test
on every kind of game, masks that are the legal actions, observations that hold nothing
a side may not see, the Gymnasium environment against a bot, and the example loop."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from warbench.core.decisions import DecisionKind
from warbench.env import SIZE, WarbenchEnv, WarbenchSingleEnv
from warbench.errors import WarbenchError


@pytest.mark.parametrize(
    "scenario_id",
    [
        "miniwars/bridge",  # hex, sides in turn
        "veg/tank-battle",  # hex, the CGME core
        "vsgmr/relic",  # open table, three sides
        "mgv/clear",  # sealed choices (weapons, missile splits) and held guesses
        "invisible-enemy/company",  # markers placed by eye: positions coarse in views
    ],
)
def test_pettingzoos_api_test_passes(scenario_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on names and dict observations
        api_test(WarbenchEnv(scenario_id), num_cycles=40)


def test_the_mask_is_the_legal_actions_and_a_bad_number_changes_nothing() -> None:
    env = WarbenchEnv("miniwars/bridge")
    env.reset(seed=3)
    observation, *_ = env.last()
    assert observation["observation"].shape == (SIZE,)
    assert env.game is not None
    legal = env.game.legal_actions(env.agent_selection)
    assert int(observation["action_mask"].sum()) == len(legal) == len(env.legal_actions())
    digest = env.game.digest()
    with pytest.raises(ValueError, match="not one of its"):
        env.step(len(legal) + 3)
    assert env.game.digest() == digest
    other = next(a for a in env.agents if a != env.agent_selection)
    assert int(env.observe(other)["action_mask"].sum()) == 0  # only the asked side acts


def test_a_sealed_choice_never_reaches_the_other_sides_observation() -> None:
    """MGV's weapon choice is sealed: whatever the first side chose, the second side's
    observation is the same."""
    seen = []
    for pick in (0, -1):
        env = WarbenchEnv("mgv/clear")
        env.reset(seed=2)
        assert env.game is not None and env.game.decision is not None
        assert env.game.decision.kind is DecisionKind.SEALED
        first = env.agent_selection
        choices = env.legal_actions()
        env.step(pick % len(choices))
        other = next(a for a in env.agents if a != first)
        assert env.agent_selection == other
        seen.append(env.observe(other)["observation"])
    assert np.array_equal(seen[0], seen[1])


def test_the_gymnasium_environment_against_a_bot() -> None:
    """(Gymnasium's check_env samples actions without the mask, which a masked game
    refuses: the same checks are made here with legal actions.)"""
    env = WarbenchSingleEnv("miniwars/bridge", side="guards", opponents="greedy")
    observation, info = env.reset(seed=5)
    again, _ = env.reset(seed=5)
    assert np.array_equal(observation["observation"], again["observation"])  # seeded
    assert env.observation_space.contains(observation)
    assert np.array_equal(info["action_mask"], observation["action_mask"])
    rng = np.random.default_rng(5)
    reward, done, steps = 0.0, False, 0
    while not done and steps < 3_000:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        assert env.observation_space.contains(observation)
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        done, steps = terminated or truncated, steps + 1
    assert done and reward in (-1.0, 0.0, 1.0)
    with pytest.raises(WarbenchError, match="no side 'nobody'"):
        WarbenchSingleEnv("miniwars/bridge", side="nobody")


def test_the_ansi_render_is_the_text_map() -> None:
    env = WarbenchEnv("vsgmr/street", render_mode="ansi")
    text = env.render()
    assert isinstance(text, str) and "R1" in text


def test_the_example_loop_runs() -> None:
    path = pathlib.Path(__file__).parents[2] / "examples" / "rl_random.py"
    spec = importlib.util.spec_from_file_location("rl_random", path)
    assert spec is not None and spec.loader is not None
    example: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    totals = example.multi_agent("miniwars/bridge", seed=2)
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    total, steps = example.one_side("invisible-enemy/company", "california", seed=2)
    assert total in (-1.0, 0.0, 1.0) and steps >= 1
