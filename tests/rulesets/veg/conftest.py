"""Helpers for the V.E.G. rule tests: tiny scenarios built as dicts, scripted dice.

The tests run with ``--import-mode=importlib``, so test modules cannot import
this file; the helpers are handed out as the ``veg`` fixture.

A test scenario has two sides, ``red`` (listed first: it takes the first
player turn) and ``blue``, on a 10x10 clear map unless told otherwise. Units
are ``(side, id, type, hex)`` tuples, or dicts written as in a scenario file
(with ``side`` added) for counters and riders. Besides the catalogue, the
types of :data:`TEST_TYPES` exist.

A game starts in red's movement phase (its hazard phase passes by itself).
Every attack rolls one die for the attacker, then one for the defender (the
stand-in core); scripted dice give them in that order.

Hex labels are column then row; odd columns sit half a hex higher than even
ones. The neighbours of 0505 are 0504 (N), 0604 (NE), 0605 (SE), 0506 (S),
0405 (SW) and 0404 (NW); hexes along one column are in a line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import warbench.rulesets.veg  # noqa: F401  (registers the ruleset)
from warbench.core.dice import ScriptedDice
from warbench.core.events import Event
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict

SIDES = ("red", "blue")

TEST_TYPES: dict[str, dict[str, Any]] = {
    # Plain vehicles with one rating varied at a time.
    "gun": {"att": 3, "rng": 3, "def": 3, "mov": 3, "class": "vehicle"},
    "gun5": {"att": 3, "rng": 3, "def": 3, "mov": 5, "class": "vehicle"},
    "gun6": {"att": 3, "rng": 3, "def": 3, "mov": 6, "class": "vehicle"},
    "sitter": {"att": 1, "rng": 1, "def": 3, "mov": 0, "class": "vehicle"},
    "hover": {"att": 2, "rng": 2, "def": 2, "mov": 6, "class": "hover"},
    "walker": {"att": 1, "rng": 1, "def": 1, "mov": 6, "class": "infantry"},
}

Unit = tuple[str, str, str, str] | Mapping[str, Any]


def scenario_dict(
    units: Iterable[Unit],
    *,
    ruleset: str = "veg",
    columns: int = 10,
    rows: int = 10,
    terrain: str = "clear",
    hexes: Mapping[str, list[str]] | None = None,
    hexsides: Mapping[str, list[str]] | None = None,
    roads: list[list[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    buildings: list[dict[str, Any]] | None = None,
    turn_limit: int = 10,
    unit_types: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A scenario as the parsed TOML of a scenario file."""
    forces: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    for unit in units:
        if isinstance(unit, tuple):
            side, uid, kind, at = unit
            forces[side].append({"id": uid, "type": kind, "at": at})
        else:
            entry = dict(unit)
            forces[entry.pop("side")].append(entry)
    game_map: dict[str, Any] = {"columns": columns, "rows": rows, "terrain": terrain}
    if hexes:
        game_map["hexes"] = {k: list(v) for k, v in hexes.items()}
    if hexsides:
        game_map["hexsides"] = [{"feature": f, "sides": list(s)} for f, s in hexsides.items()]
    if roads:
        game_map["roads"] = [list(r) for r in roads]
    raw: dict[str, Any] = {
        "ruleset": ruleset,
        "title": "test",
        "turn_limit": turn_limit,
        "map": game_map,
        "sides": [{"name": s} for s in SIDES],
        "unit_types": {**(TEST_TYPES if ruleset == "veg" else {}), **(unit_types or {})},
        "forces": forces,
    }
    if options:
        raw["options"] = dict(options)
    if victory:
        raw["victory"] = dict(victory)
    if buildings:
        raw["buildings"] = buildings
    return raw


def new_game(units: Iterable[Unit], dice: Sequence[int] = (), **kw: Any) -> Game:
    """A game on scripted dice, waiting at red's first decision."""
    raw = scenario_dict(units, **kw)
    return Game(scenario_from_dict(raw, "test", "test"), seed=0, dice=ScriptedDice(list(dice)))


def acting(game: Game) -> str:
    waiting = game.waiting_for()
    assert len(waiting) == 1, waiting
    return waiting[0]


def skip_to(game: Game, side: str, phase: str) -> Game:
    """End phases until ``side``'s ``phase`` (this turn or the next)."""
    for _ in range(20):
        state = game.state
        if state.side == side and state.phase_name == phase and state.attack is None:
            return game
        game.apply("roll" if state.attack is not None else "end", acting(game))
    raise AssertionError(f"never reached {side}'s {phase}")


def reach(game: Game, uid: str) -> dict[str, int]:
    """Where unit ``uid`` may go on its next leg -> MP (regular + bonus) left on arrival."""
    state = game.state
    board = state.setup.board
    found = game.ruleset.reach(state, state.units[uid])  # type: ignore[attr-defined]
    return {board.label(i): key[1] + key[2] for i, (_, key) in found.ends.items()}


def events(game: Game, kind: str) -> list[Event]:
    return [e for e in game.events if e.kind == kind]


def last(game: Game, kind: str) -> Event:
    found = events(game, kind)
    assert found, f"no {kind} event"
    return found[-1]


def where(game: Game, uid: str) -> str | None:
    pos = game.state.units[uid].pos
    return pos.label if pos is not None else None


def alive(game: Game, uid: str) -> bool:
    return game.state.units[uid].pos is not None


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


@pytest.fixture
def veg() -> Any:
    """The helpers, as attributes: ``veg.new_game(...)`` and so on."""

    class Helpers:
        scenario_dict = staticmethod(scenario_dict)
        new_game = staticmethod(new_game)
        acting = staticmethod(acting)
        skip_to = staticmethod(skip_to)
        reach = staticmethod(reach)
        events = staticmethod(events)
        last = staticmethod(last)
        where = staticmethod(where)
        alive = staticmethod(alive)
        legal = staticmethod(legal)
        SIDES = SIDES

    return Helpers
