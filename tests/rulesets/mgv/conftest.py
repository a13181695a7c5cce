"""Helpers for the MGV rule tests: small table scenarios built as dicts, scripted dice.

The tests run with ``--import-mode=importlib``, so test modules cannot import
this file; the helpers are handed out as the ``mgv`` fixture.

A test scenario has sides ``blue`` and ``red`` (in that order: every X, Y and
Z roll is blue's die, then red's) on an empty 24" x 24" table unless told
otherwise. A base is written ``base("blue", "B1", "L63", (4, 12), facing=0)``;
its mounts are fixed to ``main`` (kinetic unless told; a secondary mount gets
``secondary``, or the main mount's type), so no set-up choice is asked unless
a test passes ``main=None`` / ``secondary=None`` with ``open_mounts=True``.
Features are written with :func:`box` and :func:`circle`. :func:`start`
scripts the X roll for the side asked and takes its first action.

Pre-damaged bases (a B hit, P hits) are made with :func:`damage`, which writes
marks into the live state: the scenario format has no pre-damage, and the
marks are exactly what the 5.2 placement rules would have left. Such a game
must not be undone or replayed (nothing here does).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import warbench.rulesets.mgv  # noqa: F401  (registers the ruleset)
from warbench.core.dice import ScriptedDice
from warbench.core.events import Event
from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.rulesets.mgv.data import vehicles
from warbench.rulesets.mgv.state import Base
from warbench.scenario.model import Scenario

SIDES = ("blue", "red")
WIN = {"blue": (6, 1), "red": (1, 6)}
"""Scripted dice for an X, Y or Z roll won by the side named (blue's die first)."""

BaseSpec = tuple[str, dict[str, Any]]


class Script(ScriptedDice):
    """Scripted dice that, with ``tail``, go on with 6, 1, 6, 1... once the script is used
    up (blue wins every roll after it), for tests that do not care what comes next."""

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


def base(
    side: str,
    bid: str,
    model: str,
    at: tuple[float, float],
    facing: float = 0.0,
    main: str | None = "kinetic",
    secondary: str | None = None,
    open_mounts: bool = False,
    **extra: Any,
) -> BaseSpec:
    """A ``[[bases.<side>]]`` table; mounts fixed unless ``open_mounts``."""
    table: dict[str, Any] = {"id": bid, "model": model, "at": list(at), "facing": facing, **extra}
    weapons: dict[str, str] = {}
    if main is not None:
        weapons["main"] = main
    if vehicles().models[model].mounts.secondary is not None:
        chosen = secondary if secondary is not None else (None if open_mounts else main)
        if chosen is not None:
            weapons["secondary"] = chosen
    if weapons:
        table["weapons"] = weapons
    return side, table


def box(fid: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    """A rectangular feature of a 1.4 kind from (x0, y0) to (x1, y1)."""
    return {
        "id": fid,
        "kind": kind,
        "shape": "polygon",
        "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
    }


def circle(fid: str, kind: str, centre: tuple[float, float], radius: float) -> dict[str, Any]:
    return {"id": fid, "kind": kind, "shape": "circle", "points": [list(centre)], "radius": radius}


def scenario_dict(
    bases: Iterable[BaseSpec],
    *,
    table: tuple[float, float] = (24, 24),
    features: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    victory: Mapping[str, Any] | None = None,
    turns: int = 3,
) -> dict[str, Any]:
    """An MGV scenario as the parsed TOML of a scenario file."""
    forces: dict[str, list[dict[str, Any]]] = {s: [] for s in SIDES}
    for side, spec in bases:
        forces.setdefault(side, []).append(spec)
    raw: dict[str, Any] = {
        "ruleset": "mgv",
        "title": "test",
        "turns": turns,
        "table": {"width": table[0], "height": table[1]},
        "sides": [{"name": s} for s in SIDES],
        "bases": forces,
    }
    if features:
        raw["features"] = [dict(f) for f in features]
    # Tests of the mechanics measure freely; the eye model (issue 24) is tested where
    # a test sets measuring = "eye" (the default of real scenarios). Their scripted
    # missile dice count successes (4+ scores one); the text's pip totals, the default
    # of real scenarios (ruling 18), are tested where a test sets missile_scoring.
    raw["options"] = {"measuring": "free", "missile_scoring": "successes", **(options or {})}
    if victory:
        raw["victory"] = dict(victory)
    return raw


def scenario(bases: Iterable[BaseSpec], **kw: Any) -> Scenario:
    return scenario_from_dict(scenario_dict(bases, **kw), "test.toml", "test")


def new_game(
    bases: Iterable[BaseSpec], dice: Sequence[int] = (), tail: bool = False, **kw: Any
) -> Game:
    """A game on scripted dice (the X roll, if no set-up is asked, comes at once);
    ``tail``: see :class:`Script`."""
    return Game(scenario(bases, **kw), seed=0, dice=Script(list(dice), tail))


def start(
    bases: Iterable[BaseSpec],
    first: str = "blue",
    kind: str = "move",
    dice: Sequence[int] = (),
    tail: bool = False,
    **kw: Any,
) -> Game:
    """A game where ``first`` won the X roll and chose ``kind`` (``dice`` come after)."""
    game = new_game(bases, [*WIN[first], *dice], tail, **kw)
    game.apply(f"phase {kind}", first)
    return game


def give(game: Game, *values: int) -> Game:
    """More scripted dice, for the rolls the next actions cause."""
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


def damage(game: Game, bid: str, marks: Mapping[str, str]) -> Base:
    """Marks already on ``bid``'s hit log (circle -> S, P or B), written into the state."""
    b = the(game, bid)
    b.log = b.log.with_marks(marks)
    game.state.touched()
    return b


def status(game: Game, bid: str, side: str = "blue") -> list[str]:
    for entry in game.view(side)["bases"]:
        if entry["id"] == bid:
            found: list[str] = entry["status"]
            return found
    raise AssertionError(f"no base {bid} in the view")


def phases(game: Game) -> list[tuple[str, str, str]]:
    """(phase letter, side, move/fire) of every phase begun so far."""
    return [(e.data["phase"], e.data["side"], e.data["action"]) for e in events(game, "phase")]


def refused(game: Game, text: str, side: str | None = None) -> str:
    """The reason ``text`` would be refused (fails if it would be taken)."""
    reason = game.refusal(game.parse(text), side)
    assert reason is not None, f"{text!r} would be taken"
    return reason


@pytest.fixture
def mgv() -> Any:
    """The helpers, as attributes: ``mgv.start(...)``, ``mgv.base(...)``..."""

    class Helpers:
        SIDES = SIDES
        WIN = WIN
        base = staticmethod(base)
        box = staticmethod(box)
        circle = staticmethod(circle)
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
        damage = staticmethod(damage)
        status = staticmethod(status)
        phases = staticmethod(phases)
        refused = staticmethod(refused)

    return Helpers
