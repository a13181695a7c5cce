"""Helpers for the Invisible Enemy rule tests: small table scenarios built as dicts, scripted dice.

The tests run with ``--import-mode=importlib``, so test modules cannot import
this file; the helpers are handed out as the ``ie`` fixture.

A test scenario has sides ``blue`` (California, tech 9: 9" intervals) and
``red`` (Australia, tech 6: 7"), in that order, on an empty 24" x 24" table
unless told otherwise, with no network dice (so no purchases are asked) unless
a test gives some. A unit is written
``unit("blue", "U1", base("B1", "L35", (4, 12)), base("B2", "L35", (4, 14)))``.

Every turn begins with the Type 2 acquisition (2.0): 1D6 for blue's number of
dice, those dice, then the same for red; :data:`QUIET` scripts one die each
that gives nothing. The initiative is 2D6 a side (4.6): :data:`WIN` scripts it
for the side named. :func:`start` scripts both and lands in the movement phase
with ``first`` to name a unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import warbench.rulesets.invisible_enemy  # noqa: F401  (registers the ruleset)
from warbench.core.dice import ScriptedDice
from warbench.core.events import Event
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.rulesets.invisible_enemy.state import Base
from warbench.scenario.model import Scenario

SIDES = ("blue", "red")
QUIET = (1, 1, 1, 1)
"""Type 2 acquisition that gives nothing: blue rolls 1 die (a 1), red the same."""
WIN = {"blue": (6, 6, 1, 1), "red": (1, 1, 6, 6)}
"""Scripted 2D6 initiative won by the side named (blue's dice first)."""

UnitSpec = tuple[str, dict[str, Any]]


class Script(ScriptedDice):
    """Scripted dice that, with ``tail``, go on with 6, 1, 6, 1... once the script is used up."""

    __slots__ = ("tail",)

    def __init__(self, values: Iterable[int], tail: bool = False) -> None:
        super().__init__(values)
        self.tail = tail

    def fresh(self) -> Script:
        return Script(self._script, self.tail)

    def roll(self, n: int = 1, sides: int = 6) -> tuple[int, ...]:
        if self.tail and self.remaining < n:
            self.extend((6, 1)[(self.rolled + i) % 2] for i in range(n - self.remaining))
        return super().roll(n, sides)


def base(bid: str, model: str, at: tuple[float, float], facing: float = 0.0) -> dict[str, Any]:
    return {"id": bid, "model": model, "at": list(at), "facing": facing}


def unit(side: str, uid: str, *bases: dict[str, Any], mission: str | None = None) -> UnitSpec:
    table: dict[str, Any] = {"id": uid, "bases": list(bases)}
    if mission is not None:
        table["mission"] = mission
    return side, table


def box(fid: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    """A rectangular feature of a 1.5 kind from (x0, y0) to (x1, y1)."""
    return {
        "id": fid,
        "kind": kind,
        "shape": "polygon",
        "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
    }


def circle(
    fid: str, kind: str, centre: tuple[float, float], radius: float, **extra: Any
) -> dict[str, Any]:
    return {
        "id": fid,
        "kind": kind,
        "shape": "circle",
        "points": [list(centre)],
        "radius": radius,
        **extra,
    }


def line(fid: str, kind: str, *points: tuple[float, float]) -> dict[str, Any]:
    return {"id": fid, "kind": kind, "shape": "polyline", "points": [list(p) for p in points]}


def scenario_dict(
    units: Iterable[UnitSpec],
    *,
    table: tuple[float, float] = (24, 24),
    features: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    turns: int = 3,
    network: tuple[int, int] = (0, 0),
    sides: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """An Invisible Enemy scenario as the parsed TOML of a scenario file."""
    forces: dict[str, list[dict[str, Any]]] = {s: [] for s in SIDES}
    for side, spec in units:
        forces.setdefault(side, []).append(spec)
    raw: dict[str, Any] = {
        "ruleset": "invisible-enemy",
        "title": "test",
        "turns": turns,
        "table": {"width": table[0], "height": table[1]},
        "sides": list(sides)
        if sides is not None
        else [
            {"name": "blue", "nation": "california", "network_dice": network[0]},
            {"name": "red", "nation": "australia", "network_dice": network[1]},
        ],
        "units": forces,
    }
    if features:
        raw["features"] = [dict(f) for f in features]
    # Tests of the mechanics measure freely; the eye model (issue 24) is tested where
    # a test sets measuring = "eye" (the default of real scenarios).
    # Their mixed units fire base by base (mixed_units = "base"); the text's reading by
    # the unit (ruling 25, the default of real scenarios) is tested where a test sets it.
    raw["options"] = {"measuring": "free", "mixed_units": "base", **(options or {})}
    if victory:
        raw["victory"] = dict(victory)
    return raw


def scenario(units: Iterable[UnitSpec], **kw: Any) -> Scenario:
    return scenario_from_dict(scenario_dict(units, **kw), "test.toml", "test")


def new_game(
    units: Iterable[UnitSpec], dice: Sequence[int] = (), tail: bool = False, **kw: Any
) -> Game:
    """A game on scripted dice: the turn's first rolls come at once."""
    return Game(scenario(units, **kw), seed=0, dice=Script(list(dice), tail))


def start(
    units: Iterable[UnitSpec],
    first: str = "blue",
    dice: Sequence[int] = (),
    tail: bool = False,
    **kw: Any,
) -> Game:
    """A game in the movement phase of turn 1, ``first`` holding the initiative
    (no network dice, no Type 2 markers; ``dice`` come after)."""
    return new_game(units, [*QUIET, *WIN[first], *dice], tail, **kw)


def give(game: Game, *values: int) -> Game:
    assert isinstance(game.dice, ScriptedDice)
    game.dice.extend(values)
    return game


def act(game: Game, side: str, text: str, *dice: int) -> list[Event]:
    """Script ``dice`` and apply ``text`` for ``side``."""
    give(game, *dice)
    return game.apply(text, side)


def events(game: Game, kind: str) -> list[Event]:
    return [e for e in game.events if e.kind == kind]


def kinds(game: Game) -> list[str]:
    return [e.kind for e in game.events]


def last(game: Game, kind: str) -> Event:
    found = events(game, kind)
    assert found, f"no {kind} event in {kinds(game)}"
    return found[-1]


def texts(game: Game) -> str:
    return "\n".join(e.text for e in game.events)


def the(game: Game, bid: str) -> Base:
    found: Base = game.state.bases[bid]
    return found


def at(game: Game, bid: str) -> tuple[float, float]:
    b = the(game, bid)
    return (round(b.geo.x, 6), round(b.geo.y, 6))


def hit(game: Game, bid: str, hits: int) -> Base:
    """Hull hits already on ``bid``, written into the live state (the scenario format has
    no pre-damage); such a game must not be undone or replayed."""
    b = the(game, bid)
    b.hits = hits
    game.state.touched()
    return b


def refused(game: Game, text: str, side: str | None = None) -> str:
    """The reason ``text`` would be refused (fails if it would be taken)."""
    reason = game.refusal(game.parse(text), side)
    assert reason is not None, f"{text!r} would be taken"
    return reason


@pytest.fixture
def ie() -> Any:
    """The helpers, as attributes: ``ie.start(...)``, ``ie.unit(...)``..."""

    class Helpers:
        SIDES = SIDES
        QUIET = QUIET
        WIN = WIN
        base = staticmethod(base)
        unit = staticmethod(unit)
        box = staticmethod(box)
        circle = staticmethod(circle)
        line = staticmethod(line)
        scenario_dict = staticmethod(scenario_dict)
        scenario = staticmethod(scenario)
        new_game = staticmethod(new_game)
        start = staticmethod(start)
        give = staticmethod(give)
        act = staticmethod(act)
        events = staticmethod(events)
        kinds = staticmethod(kinds)
        last = staticmethod(last)
        texts = staticmethod(texts)
        the = staticmethod(the)
        at = staticmethod(at)
        hit = staticmethod(hit)
        refused = staticmethod(refused)

    return Helpers
