"""Helpers for the MiniWars rule tests: tiny scenarios built as dicts, scripted dice.

The tests run with ``--import-mode=importlib``, so test modules cannot import
this file; the helpers are handed out as fixtures instead.

A test scenario has two sides, ``red`` (listed first: it rolls initiative
first) and ``blue``, on a 10x10 open map unless told otherwise. Units are
``(side, id, type, hex)`` tuples. Besides the built-in catalogue, the types in
:data:`TEST_TYPES` exist: plain units with one factor varied at a time, so a
test shows exactly the modifier it is about.

Hex labels are column then row; odd columns sit half a hex higher than even
ones. The neighbours of 0505 are 0504 (N), 0604 (NE), 0605 (SE), 0506 (S),
0405 (SW) and 0404 (NW). Lines along one column run through hex centres, so
they are used wherever a test needs an unambiguous line of sight.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

import warbench.rulesets.miniwars  # noqa: F401  (registers the ruleset)
from warbench.core.dice import ScriptedDice
from warbench.core.events import Event
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.geometry.hexgrid import Hex

SIDES = ("red", "blue")


def _type(move: int = 3, cs: int = 3, morale: str = "=", **extra: Any) -> dict[str, Any]:
    return {"move": move, "cs": cs, "morale": morale, "cost": extra.pop("cost", 10), **extra}


TEST_TYPES: dict[str, dict[str, Any]] = {
    # Infantry, Move 3, CS 3, morale "=": the baseline.
    "foot": _type(),
    "foot2": _type(move=2),
    "foot1": _type(move=1),
    "horse": _type(move=6, cavalry=True),
    "horse1": _type(move=1, cavalry=True),
    # Morale variants (for target and rally modifiers).
    "plus": _type(morale="+"),
    "minus": _type(morale="-"),
    "chief": _type(morale="!"),
    # Combat Strength 1-5, morale "=".
    **{f"cs{n}": _type(cs=n) for n in range(1, 6)},
    # Missile units, one per code, CS 1, morale "=".
    **{f"bow{c}": _type(cs=1, missile=c) for c in "ABCDE"},
    "bowhorse": _type(move=6, cavalry=True, cs=1, missile="A"),
    # Costs for the turn-limit tests.
    "cheap": _type(cost=5),
    "dear": _type(cost=50),
}


def scenario_dict(
    units: Iterable[tuple[str, str, str, str]],
    *,
    columns: int = 10,
    rows: int = 10,
    terrain: str = "open",
    hexes: Mapping[str, list[str]] | None = None,
    hexsides: Mapping[str, list[str]] | None = None,
    elevation: Mapping[int, list[str]] | None = None,
    roads: list[list[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    turn_limit: int = 12,
    unit_types: Mapping[str, Any] | None = None,
    sides: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A MiniWars scenario as the parsed TOML of a scenario file."""
    forces: dict[str, list[dict[str, str]]] = {side: [] for side in SIDES}
    for side, uid, kind, at in units:
        forces.setdefault(side, []).append({"id": uid, "type": kind, "at": at})
    game_map: dict[str, Any] = {"columns": columns, "rows": rows, "terrain": terrain}
    if hexes:
        game_map["hexes"] = {k: list(v) for k, v in hexes.items()}
    if elevation:
        game_map["elevation"] = {str(k): list(v) for k, v in elevation.items()}
    if hexsides:
        game_map["hexsides"] = [{"feature": f, "sides": list(s)} for f, s in hexsides.items()]
    if roads:
        game_map["roads"] = [list(r) for r in roads]
    raw: dict[str, Any] = {
        "ruleset": "miniwars",
        "title": "test",
        "turn_limit": turn_limit,
        "map": game_map,
        "sides": sides if sides is not None else [{"name": s} for s in SIDES],
        "unit_types": {**TEST_TYPES, **(unit_types or {})},
        "forces": forces,
    }
    if options:
        raw["options"] = dict(options)
    if victory:
        raw["victory"] = dict(victory)
    return raw


def new_game(
    units: Iterable[tuple[str, str, str, str]], dice: Sequence[int] = (), **kw: Any
) -> Game:
    """A game on scripted dice; it rolls initiative at once (red's die, then blue's)."""
    raw = scenario_dict(units, **kw)
    return Game(scenario_from_dict(raw, "test", "test"), seed=0, dice=ScriptedDice(list(dice)))


def started_game(
    units: Iterable[tuple[str, str, str, str]],
    dice: Sequence[int] = (),
    a: str = "red",
    **kw: Any,
) -> Game:
    """A game in which side ``a`` won the initiative (6 against 1) and chose to be A.

    ``dice`` are the rolls after the initiative. The game then waits at the
    first phase with something to decide (a phase with nothing to do is skipped).
    """
    opening = [6, 1] if a == SIDES[0] else [1, 6]
    game = new_game(units, [*opening, *dice], **kw)
    game.apply("choose A", a)
    return game


def acting(game: Game) -> str:
    """The one side the game waits for."""
    waiting = game.waiting_for()
    assert len(waiting) == 1, waiting
    return waiting[0]


def skip_to(game: Game, phase: str, step: str | None = None) -> Game:
    """End (or pass) until the game is in ``phase`` (and ``step``) of this turn."""
    turn = game.state.turn
    for _ in range(50):
        state = game.state
        if state.phase_name == phase and (step is None or state.step == step):
            return game
        assert state.turn == turn, f"ran past turn {turn} looking for {phase}"
        word = "pass" if state.step in ("attack", "advance") else "end"
        game.apply(word, acting(game))
    raise AssertionError(f"never reached {phase}")


def next_turn(game: Game, rolls: tuple[int, int] = (6, 1), choose: str | None = "A") -> Game:
    """End the rest of this turn; the next initiative is rolled with ``rolls``.

    The winner then takes role ``choose`` (None: leave the choice open).
    """
    assert isinstance(game.dice, ScriptedDice)
    turn = game.state.turn
    game.dice.extend(rolls)
    for _ in range(50):
        if game.state.turn != turn or game.is_over:
            break
        word = "pass" if game.state.step in ("attack", "advance") else "end"
        game.apply(word, acting(game))
    else:
        raise AssertionError("the turn never ended")
    if choose is not None and not game.is_over:
        game.apply(f"choose {choose}", acting(game))
    return game


def disrupt(game: Game, *ids: str) -> None:
    """Set-up shortcut: a scenario file cannot start a unit disrupted."""
    for uid in ids:
        game.state.units[uid].disrupted = True
    game.state.caches.clear()


def reach_mp(game: Game, uid: str) -> dict[str, float]:
    """Where unit ``uid`` may end its move now (friends' hexes included), in MP."""
    state = game.state
    half = state.setup.board.charts.half_mp_per_mp
    found = game.ruleset.reach(state, state.units[uid])  # type: ignore[attr-defined]
    return {h.label: cost / half for h, cost in found.items()}


def events(game: Game, kind: str) -> list[Event]:
    return [e for e in game.events if e.kind == kind]


def last(game: Game, kind: str) -> Event:
    found = events(game, kind)
    assert found, f"no {kind} event"
    return found[-1]


def where(game: Game, uid: str) -> str | None:
    pos = game.state.units[uid].pos
    return pos.label if pos is not None else None


def hexes(*labels: str) -> set[Hex]:
    return {Hex.from_label(label) for label in labels}


def count(outcomes: Iterable[bool]) -> Fraction:
    """The share of True among equally likely outcomes."""
    flags = list(outcomes)
    return Fraction(sum(flags), len(flags))


@pytest.fixture
def mw() -> Any:
    """The small helpers, as attributes: ``mw.skip_to(game, "move_a")`` and so on."""

    class Helpers:
        scenario_dict = staticmethod(scenario_dict)
        new_game = staticmethod(new_game)
        started_game = staticmethod(started_game)
        acting = staticmethod(acting)
        skip_to = staticmethod(skip_to)
        next_turn = staticmethod(next_turn)
        disrupt = staticmethod(disrupt)
        reach_mp = staticmethod(reach_mp)
        events = staticmethod(events)
        last = staticmethod(last)
        where = staticmethod(where)
        hexes = staticmethod(hexes)
        count = staticmethod(count)
        SIDES = SIDES
        TEST_TYPES = TEST_TYPES

    return Helpers
