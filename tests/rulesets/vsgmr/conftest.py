"""Helpers for the VSGMR rule tests: small table scenarios built as dicts, scripted dice.

The tests run with ``--import-mode=importlib``, so test modules cannot import
this file; the helpers are handed out as the ``vs`` fixture.

A test scenario has sides ``red`` and ``blue`` (and ``green`` when asked) on an
empty 36" x 36" table unless told otherwise. A figure is written
``fig("red", "A", "troop", (10, 10), facing=90, distance=True, ...)``; any
other key of a scenario figure table may be passed. :func:`start` scripts the
initiative (red 6, everyone else 1) and has red take the first turn, so the
game waits at red's movement with the dice after that still to come.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

import warbench.rulesets.vsgmr  # noqa: F401  (registers the ruleset)
from warbench.core.dice import ScriptedDice
from warbench.core.events import Event
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.rulesets.vsgmr.state import Fig

SIDES = ("red", "blue")


def fig(
    side: str,
    fid: str,
    kind: str,
    at: tuple[float, float] | None,
    facing: float | None = None,
    **extra: Any,
) -> tuple[str, dict[str, Any]]:
    """A figure table for :func:`scenario_dict`."""
    table: dict[str, Any] = {"id": fid, "type": kind, **extra}
    if at is not None:
        table["at"] = list(at)
    if facing is not None:
        table["facing"] = facing
    return side, table


def scenario_dict(
    figures: Iterable[tuple[str, dict[str, Any]]],
    *,
    sides: Sequence[str] = SIDES,
    edges: Mapping[str, str] | None = None,
    table: tuple[float, float] = (36, 36),
    features: Sequence[Mapping[str, Any]] = (),
    items: Sequence[Mapping[str, Any]] = (),
    tasks: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    rounds: int = 5,
    profiles: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A VSGMR scenario as the parsed TOML of a scenario file."""
    forces: dict[str, list[dict[str, Any]]] = {s: [] for s in sides}
    for side, table_ in figures:
        forces.setdefault(side, []).append(table_)
    raw: dict[str, Any] = {
        "ruleset": "vsgmr",
        "title": "test",
        "rounds": rounds,
        "table": {"width": table[0], "height": table[1]},
        "sides": [
            {"name": s, **({"edge": edges[s]} if edges and s in edges else {})} for s in sides
        ],
        "figures": forces,
    }
    if profiles:
        raw["profiles"] = dict(profiles)
    if features:
        raw["features"] = [dict(f) for f in features]
    if items:
        raw["items"] = [dict(i) for i in items]
    if tasks:
        raw["tasks"] = [dict(t) for t in tasks]
    if options:
        raw["options"] = dict(options)
    if victory:
        raw["victory"] = dict(victory)
    return raw


def new_game(
    figures: Iterable[tuple[str, dict[str, Any]]], dice: Sequence[int] = (), **kw: Any
) -> Game:
    """A game on scripted dice; it rolls initiative at once (each side in order)."""
    raw = scenario_dict(figures, **kw)
    return Game(scenario_from_dict(raw, "test", "test"), seed=0, dice=ScriptedDice(list(dice)))


def start(
    figures: Iterable[tuple[str, dict[str, Any]]],
    dice: Sequence[int] = (),
    first: str = "red",
    **kw: Any,
) -> Game:
    """A game where red won the initiative (6 to 1s) and ``first`` takes the first turn."""
    sides = kw.get("sides", SIDES)
    opening = [6] + [1] * (len(sides) - 1)
    game = new_game(figures, [*opening, *dice], **kw)
    game.apply(f"first {first}", "red")
    return game


def acting(game: Game) -> str:
    waiting = game.waiting_for()
    assert len(waiting) == 1, waiting
    return waiting[0]


def skip_to(game: Game, phase: str, side: str | None = None) -> Game:
    """End steps until the game is in ``phase`` (and ``side`` acts) this round."""
    rnd = game.state.round
    for _ in range(60):
        state = game.state
        if game.is_over:
            raise AssertionError(f"the game ended looking for {phase}")
        if state.phase == phase and (side is None or acting(game) == side):
            return game
        assert state.round == rnd, f"ran past round {rnd} looking for {phase}"
        game.apply("end", acting(game))
    raise AssertionError(f"never reached {phase}")


def next_round(game: Game, rolls: Sequence[int] | None = None, first: str | None = "red") -> Game:
    """End the rest of this round; initiative is then rolled with ``rolls`` (red 6 by default)."""
    assert isinstance(game.dice, ScriptedDice)
    n = len(game.scenario.sides)
    game.dice.extend(rolls if rolls is not None else [6] + [1] * (n - 1))
    rnd = game.state.round
    for _ in range(80):
        if game.state.round != rnd or game.is_over:
            break
        game.apply("end", acting(game))
    else:
        raise AssertionError("the round never ended")
    if first is not None and not game.is_over:
        game.apply(f"first {first}", acting(game))
    return game


def events(game: Game, kind: str) -> list[Event]:
    return [e for e in game.events if e.kind == kind]


def last(game: Game, kind: str) -> Event:
    found = events(game, kind)
    assert found, f"no {kind} event"
    return found[-1]


def figure(game: Game, fid: str) -> Fig:
    found: Fig = game.state.figs[fid]
    return found


def at(game: Game, fid: str) -> tuple[float, float]:
    f = figure(game, fid)
    return (round(f.geo.x, 6), round(f.geo.y, 6))


def count(outcomes: Iterable[bool]) -> Fraction:
    flags = list(outcomes)
    return Fraction(sum(flags), len(flags))


def wall(fid: str, a: tuple[float, float], b: tuple[float, float], **extra: Any) -> dict[str, Any]:
    """A sight-blocking polyline (a high wall) that also bars movement."""
    return {
        "id": fid,
        "kind": "wall",
        "shape": "polyline",
        "points": [list(a), list(b)],
        "barrier": True,
        "blocks_los": "yes",
        **extra,
    }


def box(fid: str, x0: float, y0: float, x1: float, y1: float, **extra: Any) -> dict[str, Any]:
    """A rectangular feature from (x0, y0) to (x1, y1)."""
    return {
        "id": fid,
        "kind": extra.pop("kind", "terrain"),
        "shape": "polygon",
        "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        **extra,
    }


@pytest.fixture
def vs() -> Any:
    """The helpers, as attributes: ``vs.start(...)``, ``vs.skip_to(game, "distance")``..."""

    class Helpers:
        fig = staticmethod(fig)
        scenario_dict = staticmethod(scenario_dict)
        new_game = staticmethod(new_game)
        start = staticmethod(start)
        acting = staticmethod(acting)
        skip_to = staticmethod(skip_to)
        next_round = staticmethod(next_round)
        events = staticmethod(events)
        last = staticmethod(last)
        figure = staticmethod(figure)
        at = staticmethod(at)
        count = staticmethod(count)
        wall = staticmethod(wall)
        box = staticmethod(box)
        SIDES = SIDES

    return Helpers
