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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from warbench.core.actions import Action, check_words
from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.geometry.table import Point, along
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


Plan = Callable[[Any, str, Any], tuple[Any, MoveResult]]
"""A ruleset's own check of a move (MGV's and Invisible Enemy's ``movement.plan``):
``(state, side, move)`` to the base and its planned result, or IllegalAction."""


def planned(plan: Plan, state: Any, side: str, action: Action) -> tuple[Any, MoveResult] | None:
    """The base and result of ``action`` as the ruleset's own ``plan`` sees it, None if
    the rules refuse it."""
    try:
        return plan(state, side, action)
    except IllegalAction:
        return None


def planned_cost(plan: Plan, state: Any, side: str, action: Action) -> str | None:
    """:func:`move_cost` of a :class:`TableMove` as the ruleset's own ``plan`` sees it,
    None for any other action or a move the rules refuse (MGV and Invisible Enemy)."""
    found = planned(plan, state, side, action) if isinstance(action, TableMove) else None
    return None if found is None else move_cost(found[1])


def planned_reach(plan: Plan, state: Any, side: str, stay: Action) -> float | None:
    """The inches a base may move now, as the ruleset's own ``plan`` of ``stay`` (a move
    to where the base stands) gives its allowance; None where the rules refuse it a move."""
    found = planned(plan, state, side, stay)
    return None if found is None else round(found[1].allowance, 2)


def base_reach(
    plan: Plan,
    make: Callable[[str, tuple[Point, ...]], Action],
    state: Any,
    side: str,
    piece: str,
    hushed: bool,
) -> tuple[Point, float] | None:
    """Where ``side``'s base ``piece`` stands and the inches it may move now (its
    allowance, from the rules' own ``plan`` of a move to where it stands, made by
    ``make``); None if it may not move now, or while the rules forbid measuring
    (``hushed``)."""
    base = state.bases.get(piece)
    if base is None or base.side != side or hushed:
        return None
    at = (base.geo.at[0], base.geo.at[1])
    inches = planned_reach(plan, state, side, make(piece, (at,)))
    return None if inches is None else (at, inches)


def own_base(bases: Mapping[str, Any], ref: str, side: str, action: Action) -> Any:
    """The base ``ref`` of ``side`` on the table that ``action`` names, or IllegalAction."""
    base = bases.get(ref)
    if base is None or not base.active:
        raise IllegalAction(action, f"there is no base {ref} on the table")
    if base.side != side:
        raise IllegalAction(action, f"{base.id} is not yours")
    return base


def driven_path(result: MoveResult, travelled: float, stopped: bool, end: Point) -> list[Point]:
    """The points a base's centre went: the planned path, or the path until it was
    stopped ``travelled`` inches along (trapped, struck) and the point it stopped at."""
    if stopped:
        return [*along.path_until(result, travelled), end]
    return list(result.path)


def leave_by(
    state: Any, base: Any, end: Point, edge: str | None, stopped: bool, went: str, res: Resolution
) -> None:
    """A base that ends its move (not stopped on the way) past the ``edge`` its side
    may leave by is off the table: ``exited``, told as it ``went`` (``breaks out by``)."""
    if not stopped and edge is not None and state.setup.table.past_edge(end, edge):
        state.exited.append(base.id)
        base.exited = True
        res.emit("exited", f"{base.id} {went} the {edge} edge", base=base.id)


__all__ = [
    "Plan",
    "TableMove",
    "afford_clip",
    "base_reach",
    "driven_path",
    "leave_by",
    "move_cost",
    "move_legs",
    "own_base",
    "own_start",
    "planned",
    "planned_cost",
    "planned_reach",
]
