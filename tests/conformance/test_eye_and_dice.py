"""By eye and by chance: the hidden-information suite's second and third swaps (issue 24).

The first swap (``test_hidden_information.py``) trades a side's pending sealed or
held choice for every other one. These two swap what the rules hide besides:

(b) **Positions by eye.** In MGV and Invisible Enemy a side sees the other side's
    bases by eye (:mod:`warbench.rulesets.kit.eye`). Every base a viewer sees so is
    moved to random points of its eye cell (facing within its step), and
    everything the viewer is given must stay the same: its view, its seat's
    state (what bots read), odds texts and data, the reasons beside its listed
    actions, its answers to ``info`` and ``measure`` about every piece, the
    form of its sealed choice, and the marks drawn of the last action. Not
    compared: what is legal, in sight or in cover, and the refusals and bot
    choices that follow from it. Those are the rules' verdicts, measured
    exactly, as at the table.
(c) **Future dice.** A game with a person in it has secret dice. Its copy
    draws other future dice from the same past. Everything a side or a
    spectator can reach (the whole of ``_reachable``, records and side files
    included) must be the same in both until a die is rolled.

Meta tests show each swap fails where the protection is missing, as it was on
the old main: exact positions (``measuring = "free"``) and a record that keeps
the dice's seed.
"""

from __future__ import annotations

import copy
import importlib
import itertools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conformance.test_hidden_information import (
    MAX_NAMES,
    _ask,
    _names,
    _odds_json,
    _random_game,
    _reachable,
    hidden_scenario,
)

from warbench.core.dice import Dice
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.rulesets.kit.eye import EyeSpec
from warbench.scenario.model import Scenario

__all__ = ["hidden_scenario"]  # the fixture, shared with the first swap

STEP = 4
"""Check every STEP-th state of a game (each check copies the game several times)."""
ACTIONS = 48
WORLDS = 2


def _eye_scenarios() -> list[str]:
    """Built-in scenarios whose views show another side by eye."""
    found = []
    for scenario_id in builtin_scenarios():
        game = Game.start(scenario_id, 1)
        if "eye" in game.view(None):
            found.append(scenario_id)
    return found


def _eye(game: Game) -> EyeSpec:
    package: str = game.ruleset.package  # type: ignore[attr-defined]
    spec = importlib.import_module(f"{package}.data").rules().data.eye
    assert isinstance(spec, EyeSpec)
    return spec


# -- (b) the eye ---------------------------------------------------------------------------
def _moved_within_the_eye(game: Game, viewer: str | None, rng: random.Random) -> Game:
    """A copy of ``game`` with every base ``viewer`` sees by eye moved within its cell."""
    world = copy.deepcopy(game)
    shift_within_the_eye(world, game.view(viewer), rng)
    return world


def shift_within_the_eye(game: Game, view: dict[str, Any], rng: random.Random) -> None:
    """Move every base ``view`` shows by eye to a random point of its eye cell, facing
    within the eye's step (in place: the server's tests shift a live game)."""
    eye = _eye(game)
    seen = {f["id"] for f in view["figures"] if f.get("by_eye")}
    for base in game.state.bases.values():
        if base.id not in seen:
            continue
        cell = eye.cell
        x0 = (eye.coordinate(base.geo.x) - cell / 2) + cell * rng.uniform(0.02, 0.98)
        y0 = (eye.coordinate(base.geo.y) - cell / 2) + cell * rng.uniform(0.02, 0.98)
        turn = rng.uniform(-0.45, 0.45) * eye.facing
        base.geo = base.geo.moved_to((x0, y0), (eye.heading(base.geo.facing) + turn) % 360.0)
    game.state.touched()


def _told(game: Game, viewer: str | None, actions: list[str]) -> dict[str, Any]:
    """What ``viewer`` is given that no exact position may change (see the module)."""
    found: dict[str, Any] = {"view": game.view(viewer)}
    last = game.events[-8:]
    found["marks"] = game.ruleset.annotations(game.state, last, viewer)
    names = [*_names(game)[:MAX_NAMES], "1,1", "12,12"]
    if viewer is None:
        return found
    seat = game.seat(viewer)
    found["state"] = game.ruleset.state_json(seat.state)
    parsed = [seat.parse(text) for text in actions]
    found["odds"] = [seat.action_odds(a) for a in parsed]
    found["odds_data"] = [_odds_json(seat.odds(a)) for a in parsed]
    found["reasons"] = [seat.action_reason(a) for a in parsed]
    found["info"] = [_ask(seat.unit_info, name) for name in names]
    found["measure"] = [_ask(seat.measure, a, b) for a, b in itertools.pairwise(names)]
    found["form"] = seat.choice_form()
    return found


def check_eye(game: Game, rng: random.Random) -> int:
    """Assert that no viewer can tell apart worlds whose hidden bases differ within
    their eye cells; returns the worlds checked."""
    checked = 0
    for viewer in (*game.scenario.sides, None):
        if not any(f.get("by_eye") for f in game.view(viewer)["figures"]):
            continue
        mine = list(game.legal_actions(viewer)) if viewer in game.waiting_for() else []
        actions = [str(a) for a in mine[:12]]
        here = _told(game, viewer, actions)
        for _ in range(WORLDS):
            there = _told(_moved_within_the_eye(game, viewer, rng), viewer, actions)
            for key in here:
                assert here[key] == there[key], (
                    f"{viewer or 'a spectator'} can tell where the other side's bases stand "
                    f"within the eye's cells by {key}"
                )
            checked += 1
    return checked


def _played(scenario: Scenario, seed: int, secret: bool = False) -> Iterator[Game]:
    """A random game, every STEP-th action (``secret``: on secret dice)."""
    return itertools.islice(_random_game(scenario, seed, ACTIONS, secret), 0, None, STEP)


@pytest.mark.parametrize("scenario_id", _eye_scenarios())
@pytest.mark.parametrize("seed", (1, 2))
def test_no_side_can_tell_where_a_base_stands_within_the_eyes_cell(
    scenario_id: str, seed: int
) -> None:
    rng = random.Random(seed)
    checked = sum(check_eye(game, rng) for game in _played(load_scenario(scenario_id), seed))
    assert checked > 0


def test_the_eye_swap_catches_exact_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that names the bases seen by eye but shows them exactly, as the old main
    showed every position, is caught."""
    from warbench.rulesets.kit import eye as eye_module
    from warbench.rulesets.mgv import view as mgv_view

    def exact(figures: Any, owners: Any, eye: Any, measuring: str, viewer: Any) -> None:
        for fig, owner in zip(figures, owners, strict=True):
            if eye_module.hides(measuring, owner, viewer):
                fig["by_eye"] = eye.cell  # said to be by eye, but exact

    game = next(_played(load_scenario("mgv/clear"), 1))
    monkeypatch.setattr(mgv_view, "blur_figures", exact)
    with pytest.raises(AssertionError, match="within the eye's cells by view"):
        check_eye(game, random.Random(1))


def test_a_bot_reads_the_other_side_by_eye() -> None:
    """What a bot is given (its seat's state) holds the other side by eye: moving those
    bases within their cells changes nothing any bot can read, so no bot's choice."""
    game = next(_played(load_scenario("invisible-enemy/company"), 3))
    side = game.waiting_for()[0]
    world = _moved_within_the_eye(game, side, random.Random(4))
    ours, theirs = game.seat(side).state, world.seat(side).state
    assert game.ruleset.state_json(ours) == game.ruleset.state_json(theirs)
    assert game.ruleset.state_json(game.state) != game.ruleset.state_json(world.state)


# -- (c) the dice --------------------------------------------------------------------------
def check_dice(game: Game, tmp: Path, redraw: Callable[[Game], Game] = copy.deepcopy) -> int:
    """Assert that nobody can tell two worlds apart whose future dice differ (``redraw``
    makes the other world: a copy of a secret-dice game draws its own future)."""
    world = redraw(game)
    checked = 0
    for viewer in (*game.scenario.sides, None):
        here = _reachable(game, viewer, tmp)
        there = _reachable(world, viewer, tmp)
        for key in here:
            assert json.dumps(here[key], default=str) == json.dumps(there[key], default=str), (
                f"{viewer or 'a spectator'} can tell the future dice apart by {key}"
            )
        checked += 1
    return checked


def test_no_one_can_tell_the_future_dice_apart(hidden_scenario: Scenario, tmp_path: Path) -> None:
    checked = sum(check_dice(game, tmp_path) for game in _played(hidden_scenario, 1, secret=True))
    assert checked > 0


def test_the_dice_swap_catches_a_record_that_keeps_the_seed(tmp_path: Path) -> None:
    """The old main gave a game with a person in it a seed, kept in the record (and
    printed): the seed tells every die to come. A world of other future dice is then one
    of another seed, and the swap tells it apart by the record."""
    game = Game(load_scenario("mgv/clear"), 7)
    side = game.waiting_for()[0]
    game.apply(game.legal_actions(side)[0], side)

    def other_seed(seeded: Game) -> Game:
        world = copy.deepcopy(seeded)
        world.seed = 8
        world.dice = Dice(8)
        if seeded.dice.rolled:
            world.dice.roll(seeded.dice.rolled)
        return world

    with pytest.raises(AssertionError, match="tell the future dice apart by record"):
        check_dice(game, tmp_path, other_seed)
