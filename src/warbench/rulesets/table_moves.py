"""The move action the open-table rulesets share: a base goes along straight legs, then faces.

MGV and Invisible Enemy move a base the same way in the same words
(``move B1 10.5,4 12,8 face 90``); MGV's adds a marker beacon at the end. The
numbers are canonical (:func:`warbench.geometry.table.text.canonical_move`), so
the text form gives the very action back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from warbench.core.actions import Action, check_words
from warbench.errors import IllegalAction
from warbench.geometry.table import Point
from warbench.geometry.table.movement import MoveResult
from warbench.geometry.table.text import canonical_move, move_words


@dataclass(frozen=True, slots=True)
class TableMove(Action):
    """A move along ``path`` (the points the centre goes to, in order), then ``facing``."""

    base: str
    path: tuple[Point, ...]
    facing: float | None = None

    MAX_POINTS: ClassVar[int] = 32
    """More legs than any move needs; a longer path is refused as a typing accident."""

    def __post_init__(self) -> None:
        check_words(self)
        path, facing = canonical_move(self, self.path, self.facing, self.MAX_POINTS)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "facing", facing)

    def words(self) -> list[str]:
        return ["move", self.base, *move_words(self.path, self.facing), *self.tail_words()]

    def tail_words(self) -> list[str]:
        """Words a ruleset's move adds after the path and facing (none here)."""
        return []

    def __str__(self) -> str:
        return " ".join(self.words())


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


__all__ = ["TableMove", "move_cost", "planned_cost", "planned_reach"]
