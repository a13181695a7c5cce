"""The move action the open-table rulesets share: a base goes along straight legs, then faces.

MGV and Invisible Enemy move a base the same way in the same words
(``move B1 10.5,4 12,8@90 face 90``); MGV's adds a marker beacon at the end. A
point written ``X,Y@F`` is a leg the base drives holding facing F (turning to it
first): backing up, sidestepping. The numbers are canonical
(:func:`warbench.geometry.table.text.canonical_move`), so the text form gives the
very action back. The relative words a person types (``forward 2``, ``reverse 1``,
``turn left 40``, ``toward X,Y``) are read by
:func:`warbench.geometry.table.text.parse_move_words` into these absolute legs;
:func:`afford_clip` is the ``toward`` clip every ruleset builds from its planner.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from warbench.core.actions import Action, check_words
from warbench.errors import IllegalAction
from warbench.geometry.table import Point
from warbench.geometry.table.movement import COST_TOLERANCE, Leg, MoveResult
from warbench.geometry.table.text import LEG_DECIMALS, Clip, Pose, canonical_move, move_words


@dataclass(frozen=True, slots=True)
class TableMove(Action):
    """A move along ``path`` (the points the centre goes to, in order), then ``facing``.

    ``facings``: per point, None (the leg faces its way) or the facing the base holds
    on that leg; empty means all None (the canonical form has one per point).
    """

    base: str
    path: tuple[Point, ...]
    facing: float | None = None
    facings: tuple[float | None, ...] = ()

    MAX_POINTS: ClassVar[int] = 32
    """More legs than any move needs; a longer path is refused as a typing accident."""

    def __post_init__(self) -> None:
        check_words(self)
        path, facings, facing = canonical_move(
            self, self.path, self.facing, self.MAX_POINTS, self.facings
        )
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "facings", facings)

    def legs(self) -> list[Leg]:
        """The legs as the geometry plans them."""
        return move_legs(self.path, self.facings)

    def words(self) -> list[str]:
        words = move_words(self.path, self.facing, self.facings)
        return ["move", self.base, *words, *self.tail_words()]

    def tail_words(self) -> list[str]:
        """Words a ruleset's move adds after the path and facing (none here)."""
        return []

    def __str__(self) -> str:
        return " ".join(self.words())


def move_legs(path: Sequence[Point], facings: Sequence[float | None] = ()) -> list[Leg]:
    """The geometry's legs of a path and its per-leg facings (empty: all None)."""
    held = list(facings) or [None] * len(path)
    return [Leg(p, f) for p, f in zip(path, held, strict=True)]


def own_start(
    piece: str, side: str, at: Point, facing: float, moving: Callable[[], Sequence[str]], text: str
) -> Callable[[], Pose]:
    """The start of relative move words (``forward 2``): the mover's own centre and
    facing, read only while its side is among ``moving()`` (the sides moving now).
    Whoever else typed them would be refused anyway, and the refusal would quote the
    resolved points (the exact place of a base the typist may see only by eye)."""

    def start() -> Pose:
        asked = moving()
        if side not in asked:
            acting = "/".join(asked) or "no side"
            raise IllegalAction(
                text,
                f"{piece} is not of the side moving now ({acting}): relative move words "
                "(forward, reverse, turn, toward) are read only for a base of the side moving",
            )
        return at, facing

    return start


CLIP_HALVINGS: Final = 40
"""Halvings when looking for how far ``toward X,Y`` can still go."""


def afford_clip(spare: Callable[[list[Leg]], float], start: Callable[[], Point]) -> Clip:
    """The ``toward X,Y`` clip of a ruleset: the farthest point straight toward the aim
    whose move (the legs so far, then that leg facing its way) leaves ``spare`` at 0 or
    more. ``spare(legs)`` is the allowance left after the ruleset's planner's costs
    (turns, terrain, direction; VSGMR's half move in rough terrain); ``start`` the
    mover's own centre."""

    def clip(path: tuple[Point, ...], facings: tuple[float | None, ...], aim: Point) -> Point:
        legs = move_legs(path, facings)
        at = path[-1] if path else start()

        def point(t: float) -> Point:
            return (
                round(at[0] + (aim[0] - at[0]) * t, LEG_DECIMALS),
                round(at[1] + (aim[1] - at[1]) * t, LEG_DECIMALS),
            )

        def fits_at(to: Point) -> bool:
            return spare([*legs, Leg(to)]) >= -COST_TOLERANCE

        def fits(t: float) -> bool:
            return fits_at(point(t))

        if fits(1.0):
            return aim
        lo, hi = 0.0, 1.0
        length = math.dist(at, aim)
        for _ in range(CLIP_HALVINGS):
            mid = (lo + hi) / 2.0
            if fits(mid):
                lo = mid
            else:
                hi = mid
            if (hi - lo) * length < 10.0**-LEG_DECIMALS:
                break
        if lo <= 0.0 or not fits(lo):
            return at
        found = point(lo)
        tidy = (round(found[0], 2), round(found[1], 2))  # a hundredth, if as far and paid
        if math.dist(at, tidy) >= math.dist(at, found) and fits_at(tidy):
            return tidy
        return found

    return clip


def move_cost(result: MoveResult, allowance: float | None = None) -> str:
    """What a planned move spends, as a board shows it before the move is made:
    ``6.5" of 8" (1.5" turning)``."""
    turning = sum(t.cost for t in result.turns)
    limit = result.allowance if allowance is None else allowance
    text = f'{result.cost:.1f}" of {limit:g}"'
    return text + (f' ({turning:.1f}" turning)' if turning > 0.05 else "")


def planned_cost(
    plan: Callable[[Any, str, Any], tuple[Any, MoveResult]], state: Any, side: str, action: Action
) -> str | None:
    """:func:`move_cost` of a :class:`TableMove` as the ruleset's own ``plan`` sees it,
    None for any other action or a move the rules refuse (MGV and Invisible Enemy)."""
    if not isinstance(action, TableMove):
        return None
    try:
        _, result = plan(state, side, action)
    except IllegalAction:
        return None
    return move_cost(result)


def planned_reach(
    plan: Callable[[Any, str, Any], tuple[Any, MoveResult]], state: Any, side: str, stay: Action
) -> float | None:
    """The inches a base may move now, as the ruleset's own ``plan`` of ``stay`` (a move
    to where the base stands) gives its allowance; None where the rules refuse it a move."""
    try:
        _, result = plan(state, side, stay)
    except IllegalAction:
        return None
    return round(result.allowance, 2)


__all__ = [
    "TableMove",
    "afford_clip",
    "move_cost",
    "move_legs",
    "own_start",
    "planned_cost",
    "planned_reach",
]
