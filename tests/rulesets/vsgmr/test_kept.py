"""Results kept across actions (``State.kept``, :mod:`warbench.rulesets.vsgmr.memo`) are
always those a fresh computation gives: after every action of random games, each
side's movement candidates, attacks, skill rolls and item pick-ups on the played
state equal those of a fresh copy of it (empty caches), with and without figures
blocking sight, on built-in and tiled scenarios. ``copy_state`` hands a copy the
caches and kept results of the state copied (a search plays on such copies): a
copy and its original, played on apart, each keep giving the fresh answers."""

from __future__ import annotations

import copy
import importlib.util
import pathlib
import random
from typing import Any

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.core.registry import get
from warbench.rulesets.vsgmr.candidates import movement_candidates
from warbench.rulesets.vsgmr.state import State
from warbench.scenario.model import Scenario

MAX_ACTIONS = 120


def _bench() -> Any:
    path = pathlib.Path(__file__).parents[3] / "benchmarks" / "bench_vsgmr_large.py"
    spec = importlib.util.spec_from_file_location("bench_vsgmr_large", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _scenario(name: str, block: bool) -> Scenario:
    if name == "tiled":
        raw = _bench().large_raw(72)
    else:
        raw = copy.deepcopy(dict(load_scenario(f"vsgmr/{name}").raw))
    if block:
        raw["options"] = {**raw.get("options", {}), "figures_block_sight": True}
    if name == "tiled":
        return get("vsgmr").build_scenario(raw, "<tiled>", "vsgmr/tiled")
    return scenario_from_dict(raw, f"<{name}>", f"vsgmr/{name}")


def _fresh(rules: Any, state: State) -> State:
    """A copy of ``state`` that has worked nothing out yet (``copy_state`` keeps the
    caches and kept results, which is what is under test here)."""
    clone: State = rules.copy_state(state)
    clone.caches = {}
    clone.kept = {}
    return clone


def _lists(game: Game, state: State) -> dict[str, Any]:
    """Every per-side list the kept results feed, as text."""
    rules: Any = game.ruleset
    out: dict[str, Any] = {}
    for side in state.setup.sides:
        out[side] = (
            [str(a) for a in movement_candidates(rules, state, side)],
            [str(a) for a in rules.shoot_options(state, side)],
            [str(a) for a in rules.fight_options(state, side)],
            [str(a) for a in rules.skill_options(state, side)],
            [str(a) for a in rules.take_options(state, side)],
        )
    waiting = game.waiting_for()
    if waiting:
        out["legal"] = [str(a) for a in rules.legal_actions(state, waiting[0])]
    return out


@pytest.mark.parametrize(
    ("name", "seed", "block"),
    [
        ("street", 1, False),
        ("street", 2, True),
        ("field", 3, False),
        ("field", 4, True),
        ("relic", 5, False),
        ("tiled", 6, False),
        ("tiled", 7, True),
    ],
)
def test_kept_results_equal_fresh_ones(name: str, seed: int, block: bool) -> None:
    scenario = _scenario(name, block)
    game = Game(scenario, seed)
    rng = random.Random(seed)
    rules: Any = game.ruleset
    checked = 0
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        state = game.state
        kept = _lists(game, state)
        fresh = _lists(game, _fresh(rules, state))
        assert kept == fresh, f"after {len(game.actions)} actions"
        checked += 1
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        game.apply(legal[rng.randrange(len(legal))], side)
    assert checked > 30


def test_a_copy_and_its_original_played_apart_keep_fresh_answers() -> None:
    scenario = _scenario("street", False)
    game = Game(scenario, 11)
    rng = random.Random(11)
    rules: Any = game.ruleset
    branches = 0
    for step in range(90):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        if step % 15 == 5:
            # A branch: the copy (caches and kept results included) plays on alone
            # for a few actions; its lists must be the fresh ones after each, and the
            # original's must not have been touched by the copy's play.
            twin = copy.deepcopy(game)
            twin.state = rules.copy_state(game.state)
            before = _lists(game, game.state)
            for _ in range(6):
                if twin.is_over:
                    break
                s2 = twin.waiting_for()[0]
                options = twin.legal_actions(s2)
                twin.apply(options[rng.randrange(len(options))], s2)
                assert _lists(twin, twin.state) == _lists(twin, _fresh(rules, twin.state))
            assert _lists(game, game.state) == before
            branches += 1
        game.apply(legal[rng.randrange(len(legal))], side)
    assert branches >= 4
