"""Helpers for the cgme core tests: tiny scenarios of the cgme stand-in world, scripted dice.

The tests run with ``--import-mode=importlib``, so the helpers are handed out
as the ``cg`` fixture. Sides ``red`` (first) and ``blue``, a 10x10 clear map;
units are ``(side, id, type, hex)`` of the cgme catalogue (trooper, tank, gun,
scout). A game waits at red's first movement. Each attack rolls the
attacker's die, then the defender's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import warbench.rulesets.cgme  # noqa: F401  (registers the ruleset)
from warbench.core.dice import ScriptedDice
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict

SIDES = ("red", "blue")


def scenario_dict(
    units: Iterable[tuple[str, str, str, str]],
    *,
    hexes: Mapping[str, list[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    turn_limit: int = 10,
) -> dict[str, Any]:
    forces: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    for side, uid, kind, at in units:
        forces[side].append({"id": uid, "type": kind, "at": at})
    raw: dict[str, Any] = {
        "ruleset": "cgme",
        "title": "test",
        "turn_limit": turn_limit,
        "map": {"columns": 10, "rows": 10, "terrain": "clear", "hexes": dict(hexes or {})},
        "sides": [{"name": s} for s in SIDES],
        "forces": forces,
    }
    if options:
        raw["options"] = dict(options)
    if victory:
        raw["victory"] = dict(victory)
    return raw


def new_game(
    units: Iterable[tuple[str, str, str, str]],
    dice: Sequence[int] = (),
    core: Mapping[str, Any] | None = None,
    **kw: Any,
) -> Game:
    """A game on scripted dice; ``core`` replaces fields of the core's data (a stand-in swap)."""
    scenario = scenario_from_dict(scenario_dict(units, **kw), "test", "test")
    if core:
        setup = scenario.spec
        world = dataclasses.replace(setup.world, core=dataclasses.replace(setup.world.core, **core))
        scenario = dataclasses.replace(scenario, spec=dataclasses.replace(setup, world=world))
    return Game(scenario, seed=0, dice=ScriptedDice(list(dice)))


def acting(game: Game) -> str:
    waiting = game.waiting_for()
    assert len(waiting) == 1, waiting
    return waiting[0]


def skip_to(game: Game, side: str, phase: str) -> Game:
    for _ in range(20):
        state = game.state
        if state.side == side and state.phase_name == phase and state.attack is None:
            return game
        game.apply("roll" if state.attack is not None else "end", acting(game))
    raise AssertionError(f"never reached {side}'s {phase}")


@pytest.fixture
def cg() -> Any:
    class Helpers:
        scenario_dict = staticmethod(scenario_dict)
        new_game = staticmethod(new_game)
        acting = staticmethod(acting)
        skip_to = staticmethod(skip_to)

        @staticmethod
        def events(game: Game, kind: str) -> list[Any]:
            return [e for e in game.events if e.kind == kind]

        @staticmethod
        def alive(game: Game, uid: str) -> bool:
            return game.state.units[uid].pos is not None

    return Helpers
