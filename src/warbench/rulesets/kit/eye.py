"""By eye, not by ruler: what a side sees of the other sides' bases in a game of by-eye skills.

MGV's photon ranging (5.3: the range is guessed on the spot, nothing measured)
and Invisible Enemy's barrage markers (3.0: set down by hand) are skills of
the eye. A program that showed every base to a hundredth of an inch would
turn them into arithmetic, so in those rulesets a side never receives another
side's base positions more exactly than this model allows, in any form: view,
picture, events, listed actions, odds, answers to questions.

The model (a stand-in, numbers in each ruleset's ``rules.toml [eye]``): the
table is cut into square cells of ``cell`` inches from its corner; a side sees
another side's base at the centre of the cell its centre stands in, facing
to the nearest ``facing`` degrees. Its own bases it sees exactly. A spectator
sees every base so (a spectator's link could be a player's second window).
Moving a base anywhere within its cell changes nothing another side receives
(``tests/conformance/test_eye.py``). Where a rule measures (a beacon's 5", a
marker's 3", line of sight) the rules measure exactly and say only the
verdict.

What the model cannot hide: a base still where the scenario file deploys it
is known as exactly as the file says, and the exact distance the rules
announce when they resolve a shot (a photon attack's range) is known from then
on, as it would be at the table.

The scenario option ``measuring = "free"`` turns the model off (friends who
measure everything); the default is ``"eye"``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any, Literal, NamedTuple, Protocol, TypeVar

from pydantic import Field

from warbench.core.actions import Action
from warbench.errors import MoveRefused
from warbench.geometry.table import Figure, Point
from warbench.geometry.table.movement import MoveProblem, MoveResult
from warbench.geometry.table.text import num
from warbench.rulesets.kit.datafiles import StandIn
from warbench.rulesets.kit.table.moves import TableMove

Measuring = Literal["eye", "free"]
"""The scenario option: positions by eye (the model) or measured freely."""


_SEEN: dict[int, tuple[Figure, tuple[float, float], Figure]] = {}
"""Figures as the eye sees them, by the figure's identity (kept in the entry, so the
identity stays its own), with the eye's cell and facing step."""
_SEEN_LIMIT = 4096
"""Entries kept at most (then forgotten all at once)."""


class EyeSpec(StandIn):
    """The eye-precision model's numbers (``rules.toml [eye]``)."""

    cell: float = Field(gt=0.0, le=12.0)
    """Inches: another side's base is seen at the centre of its cell of this size."""
    facing: float = Field(gt=0.0, le=90.0)
    """Degrees: another side's facing is seen to the nearest multiple of this."""

    def coordinate(self, value: float) -> float:
        """A coordinate as the eye sees it: the centre of its cell."""
        return (math.floor(value / self.cell) + 0.5) * self.cell

    def point(self, at: Point) -> Point:
        return (self.coordinate(at[0]), self.coordinate(at[1]))

    def heading(self, facing: float) -> float:
        return float(round(facing / self.facing) * self.facing) % 360.0

    def inches(self, distance: float) -> float:
        """A distance as the eye tells it: to the nearest cell."""
        return float(round(distance / self.cell) * self.cell)

    def figure(self, geo: Figure) -> Figure:
        """``geo`` where the eye sees it (remembered for that figure: a base that has not
        moved is seen where it was, as the same figure, every time a side looks)."""
        key = id(geo)
        found = _SEEN.get(key)
        if found is not None and found[0] is geo and found[1] == (self.cell, self.facing):
            return found[2]
        seen = geo.moved_to(self.point(geo.at), self.heading(geo.facing))
        if len(_SEEN) >= _SEEN_LIMIT:
            _SEEN.clear()
        _SEEN[key] = (geo, (self.cell, self.facing), seen)
        return seen

    def note(self) -> str:
        """What a view says of its positions (``view["positions"]``)."""
        return (
            f"other sides' bases by eye: to the {self.cell:g}-inch cell, facing to "
            f'{self.facing:g} degrees (measuring = "eye")'
        )


class Placed(Protocol):
    """A base: whose it is and where it stands."""

    side: str
    geo: Figure


def hides(measuring: str, owner: str, viewer: str | None) -> bool:
    """Whether ``viewer`` (None: a spectator) sees ``owner``'s bases by eye."""
    return measuring == "eye" and owner != viewer


class Seen(NamedTuple):
    """A base as one side sees it: its id, side and where the eye puts it."""

    id: str
    side: str
    geo: Figure


def seen(bases: Iterable[Any], eye: EyeSpec, measuring: str, viewer: str | None) -> list[Seen]:
    """``bases`` (with ``id``, ``side`` and ``geo``) as ``viewer`` sees them: what a bot
    or a listed candidate may aim at."""
    return [
        Seen(b.id, b.side, eye.figure(b.geo) if hides(measuring, b.side, viewer) else b.geo)
        for b in bases
    ]


class Table(Protocol):
    """A table ruleset's state as the eye model reads it: its bases, and a way to forget
    what depended on where they stand."""

    @property
    def bases(self) -> Mapping[str, Placed]: ...

    def touched(self) -> None: ...


T = TypeVar("T", bound=Table)


def seen_copy(state: T, eye: EyeSpec, measuring: str, viewer: str | None) -> T:
    """``state`` as ``viewer`` (None: a spectator) knows it: a copy with the bases it sees
    by eye where it sees them, or the state itself when measuring is free."""
    if measuring != "eye":
        return state
    known = copy.deepcopy(state)
    blur_bases(known.bases.values(), eye, measuring, viewer)
    known.touched()
    return known


def blur_bases(bases: Iterable[Placed], eye: EyeSpec, measuring: str, viewer: str | None) -> None:
    """Move every base ``viewer`` sees by eye to where it sees it (in place: on a copy)."""
    for base in bases:
        if hides(measuring, base.side, viewer):
            base.geo = eye.figure(base.geo)


def blur_figures(
    figures: Iterable[dict[str, Any]],
    owners: Iterable[str],
    eye: EyeSpec,
    measuring: str,
    viewer: str | None,
) -> None:
    """The same for a view's figures (``x``, ``y``, ``facing`` keys), in place; a figure
    seen by eye says so (``by_eye``: the cell's size)."""
    for fig, owner in zip(figures, owners, strict=True):
        if hides(measuring, owner, viewer):
            fig["x"], fig["y"] = eye.point((fig["x"], fig["y"]))
            fig["facing"] = eye.heading(fig["facing"])
            fig["by_eye"] = eye.cell


def path(points: Iterable[Point], eye: EyeSpec, measuring: str) -> list[list[float]]:
    """A move's path as every side is told it: each point where the eye sees it (the
    mover's own view is exact; an event is told to everyone alike)."""
    if measuring != "eye":
        return [[float(x), float(y)] for x, y in points]
    out: list[list[float]] = []
    for at in points:
        seen = list(eye.point(at))
        if not out or out[-1] != seen:
            out.append(seen)
    return out


def told_action(
    action: Action, eye: EyeSpec, measuring: str, owner: str, viewer: str | None
) -> str:
    """``owner``'s action as ``viewer`` is told it: its text, or for a move ``viewer`` sees
    by eye only where it ends and faces (``move R1 to about 19,11 facing about 180``)."""
    if not isinstance(action, TableMove) or not hides(measuring, owner, viewer):
        return str(action)
    words = ["move", action.base]
    if action.path:
        x, y = eye.point(action.path[-1])
        words += ["to about", f"{num(x)},{num(y)}"]
    facing = action.facing
    if facing is None and action.facings:  # a last leg held at a facing ends facing so
        facing = action.facings[-1]
    if facing is not None:
        words += ["facing about", num(eye.heading(facing))]
    return " ".join([*words, *action.tail_words()])


def told_distance(distance: float, by_eye: bool) -> str:
    """A distance as ``measure`` says it: to the hundredth, or about the whole inch when
    one end is a base seen by eye (worked out from where the eye puts it)."""
    return f'about {round(distance)}" (by eye)' if by_eye else f'{distance:.2f}"'


def spots_by_eye(spots: Iterable[Any], measuring: str, viewer: str) -> bool:
    """Whether any of ``spots`` (``kit.table.phrases.Spot``) is a base ``viewer`` sees by eye."""
    return any(
        spot.figure is not None and spot.side and hides(measuring, spot.side, viewer)
        for spot in spots
    )


def move_problem(problem: MoveProblem, owner: str | None, measuring: str, mover: str) -> str:
    """Why a move is refused, as the mover is told: where it runs into a base the mover
    sees by eye (``owner``: that base's side), the verdict only, never the point of
    contact (a measure of where the base stands)."""
    if problem.blocker is None or owner is None or not hides(measuring, owner, mover):
        return problem.reason
    if problem.kind == "end_overlap":
        return f"the move ends on top of {problem.blocker}"
    if problem.kind == "figure":
        leg = "" if problem.leg is None else f"leg {problem.leg + 1} "
        return f"{leg}runs into {problem.blocker} (moving through it is not allowed)".strip()
    return problem.reason


def refuse_problem(
    action: Action, result: MoveResult, bases: Mapping[str, Any], measuring: str, side: str
) -> None:
    """Refuse a move whose planned ``result`` has a problem, as :func:`move_problem` tells
    ``side`` (the blocking base among ``bases``); told when read: a bot listing moves asks
    only the kind of problem."""
    problem = result.problem
    if problem is None:
        return
    blocker = bases.get(problem.blocker or "")
    owner = blocker.side if blocker is not None else None
    raise MoveRefused(action, partial(move_problem, problem, owner, measuring, side), problem.kind)


class Emitter(Protocol):
    def emit(self, kind: str, text: str, **data: Any) -> None: ...


def emit_move(
    res: Emitter,
    base: str,
    points: Iterable[Point],
    facing: float,
    spend: tuple[float, float, float],
    eye: EyeSpec,
    measuring: str,
) -> None:
    """Narrate a base's move to everyone: by eye, its path's points where the eye sees
    them and no distance (``spend``: inches travelled, the allowance, movement spent);
    measured freely, all of it exactly."""
    travelled, allowance, spent = spend
    if measuring == "eye":
        text = f'{base} moves (allowance {allowance:g}")'
        res.emit(
            "move", text, base=base, path=path(points, eye, measuring), facing=eye.heading(facing)
        )
        return
    text = f'{base} moves {travelled:.1f}" (allowance {allowance:g}", spent {spent:.1f}")'
    res.emit("move", text, base=base, path=path(points, eye, measuring), facing=facing)


__all__ = [
    "Emitter",
    "EyeSpec",
    "Measuring",
    "Placed",
    "Seen",
    "Table",
    "blur_bases",
    "blur_figures",
    "emit_move",
    "hides",
    "move_problem",
    "path",
    "refuse_problem",
    "seen",
    "seen_copy",
    "spots_by_eye",
    "told_action",
    "told_distance",
]
