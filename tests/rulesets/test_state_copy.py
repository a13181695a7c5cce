"""State copies (``copy_state``; MiniWars and CGME through ``State.copy``, which
``copy.deepcopy`` uses too, CGME for the bare core and the V.E.G. world; the table games
through ``core.copying.field_copier``): differential against the game rebuilt from its
seed and actions, so a search bot that plays on copies plays the very game the engine
would, and the original is never touched (issue 13)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from warbench.core.decisions import DecisionKind
from warbench.core.dice import Dice
from warbench.core.game import Game, Resolution
from warbench.core.loader import load_scenario

CASES = [
    ("miniwars/danville", 3),
    ("miniwars/bridge", 8),
    ("cgme/skirmish", 3),
    ("veg/tank-battle", 5),
    ("veg/city-assault", 2),
    ("vsgmr/street", 4),
    ("vsgmr/relic", 6),
    ("mgv/clear", 3),
    ("mgv/strike", 5),
    ("invisible-enemy/company", 2),
    ("invisible-enemy/fungus", 7),
]
ONE_EACH = [CASES[0], CASES[2]]
"""One game of each state type, for the checks that need no variety."""
MAX_ACTIONS = 160
EVERY = 9


def _replayed(game: Game) -> Game:
    """The same game rebuilt from its seed and actions: an independent equal state,
    made without copying anything."""
    twin = Game(game.scenario, game.seed)
    for taken in game.actions:
        twin.apply(taken.action, taken.side)
    return twin


def _steps(scenario_id: str, seed: int) -> Iterator[Game]:
    """A random game, yielded every few actions."""
    game = Game(load_scenario(scenario_id), seed)
    rng = random.Random(seed)
    for n in range(MAX_ACTIONS):
        waiting = game.waiting_for()
        if not waiting:
            return
        side = waiting[0]
        if n % EVERY == 0:
            yield game
        game.apply(rng.choice(game.legal_actions(side)), side)


@pytest.mark.parametrize(("scenario_id", "seed"), CASES)
def test_a_copy_plays_on_exactly_like_the_game_rebuilt_from_its_actions(
    scenario_id: str, seed: int
) -> None:
    checked = 0
    for game in _steps(scenario_id, seed):
        ruleset = game.ruleset
        digest = game.digest()
        side = game.waiting_for()[0]
        copied = ruleset.copy_state(game.state)
        assert type(copied) is type(game.state)
        assert ruleset.state_json(copied) == ruleset.state_json(game.state)
        twin = _replayed(game)
        legal = game.legal_actions(side)
        held = {s: t.action for s, t in game.held_choices().items()}
        # The same actions (a copy may start with no caches, so perhaps in another order).
        listed = ruleset.legal_actions_holding(copied, side, held.get(side))
        assert sorted(map(str, listed)) == sorted(map(str, legal))
        if game.decision is None or game.decision.kind is not DecisionKind.CHOOSE:
            continue
        for action in (legal[0], legal[-1]):
            one, two = Resolution(Dice(seed), held), Resolution(Dice(seed), held)
            mine = ruleset.copy_state(game.state)
            ruleset.apply(mine, side, action, one)
            fresh = _replayed(game)
            ruleset.apply(fresh.state, side, action, two)
            assert ruleset.state_json(mine) == ruleset.state_json(fresh.state)
            assert [e.text for e in one.events] == [e.text for e in two.events]
        assert game.digest() == digest == twin.digest()  # the game was never touched
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("scenario_id", "seed"), ONE_EACH)
def test_a_deep_copy_of_a_game_is_independent_and_equal(scenario_id: str, seed: int) -> None:
    """``copy.deepcopy`` of a game (as the hidden-information tests make) goes through the
    state's own copy: equal, sharing the read-only set-up, changing nothing of the game."""
    for game in _steps(scenario_id, seed):
        digest = game.digest()
        trial = copy.deepcopy(game)
        assert trial.digest() == digest
        assert trial.state is not game.state
        assert trial.state.setup is game.state.setup
        for key, unit in game.state.units.items():
            assert trial.state.units[key] is not unit
            assert trial.state.units[key] == unit
        side = trial.waiting_for()[0]
        trial.apply(trial.legal_actions(side)[-1], side)
        assert game.digest() == digest


@pytest.mark.parametrize(("scenario_id", "seed"), ONE_EACH)
def test_changing_a_copy_leaves_the_original_alone(scenario_id: str, seed: int) -> None:
    game = Game(load_scenario(scenario_id), seed)
    state = game.state
    before = game.ruleset.state_json(state)
    copied = game.ruleset.copy_state(state)
    for unit in copied.units.values():
        unit.pos = None
    copied.units.clear()
    copied.caches["x"] = 1
    copied.turn += 5
    assert game.ruleset.state_json(state) == before
    assert "x" not in state.caches
