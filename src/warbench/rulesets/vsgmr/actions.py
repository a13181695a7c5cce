"""VSGMR actions and their text forms.

===================================  ==============================================
``first red``                         the initiative winner names who starts (II.1)
``move A1 10.5,4 12,8 face 90``       A1 moves along straight legs to each point in
                                      turn, then faces 90 degrees (II.2); ``face``
                                      is optional (it then faces its last leg),
                                      ``move A1 face 90`` only turns it; ``12,8@270``
                                      goes to 12,8 facing 270 all the way (backing
                                      up); ``forward 2``, ``reverse 1``, ``turn left
                                      40``, ``toward 12,8`` are read from A1's own
                                      place and stored as such points
``take A1 idol``                      A1 picks up an item it touches, ending its
                                      movement (III)
``shoot A1 B2``                       distance attack on a figure or a feature (II.3)
``fight A1 B2``                       hand to hand attack on a figure or a feature (II.4)
``skill A1 radio``                    a skill roll at one of the scenario's tasks (II.5)
``end``                               end your part of this step (with Everyone Acts:
                                      you are done for the step)
===================================  ==============================================

Points are ``x,y`` in inches from the table's bottom-left corner; angles are
degrees counter-clockwise from east (0 east, 90 north). A move holds its numbers
in one canonical form (plain floats, no ``-0.0``, a facing in ``[0, 360)``) and
prints them in their shortest exact form, so its text parses back to the very
same move, and a record replays the state it was played to.
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.actions import END as END  # the shared ones, re-exported
from warbench.core.actions import Action, check_words
from warbench.core.actions import End as End
from warbench.geometry.table import Point
from warbench.geometry.table.movement import Leg
from warbench.geometry.table.text import canonical_move, move_usage, move_words
from warbench.rulesets.kit.actions import Worded

MAX_POINTS = 64
"""More legs than any sensible move; a longer path is refused as a typing accident."""


@dataclass(frozen=True, slots=True)
class First(Worded, verb="first"):
    side: str


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A move along ``path`` (the points the centre goes to, in order), then ``facing``.

    ``facings``: per point, None (the leg faces its way) or the facing the figure
    holds on that leg (``X,Y@F``); the same canonical form as the other open tables'
    :class:`~warbench.rulesets.kit.table.moves.TableMove`.
    """

    figure: str
    path: tuple[Point, ...]
    facing: float | None = None
    facings: tuple[float | None, ...] = ()

    def __post_init__(self) -> None:
        check_words(self)
        path, facings, facing = canonical_move(
            self, self.path, self.facing, MAX_POINTS, self.facings
        )
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "facings", facings)

    def legs(self) -> list[Leg]:
        """The legs as the geometry plans them."""
        return [Leg(p, f) for p, f in zip(self.path, self.facings, strict=True)]

    def __str__(self) -> str:
        words = move_words(self.path, self.facing, self.facings)
        return " ".join(["move", self.figure, *words])


@dataclass(frozen=True, slots=True)
class Take(Worded, verb="take"):
    figure: str
    item: str


@dataclass(frozen=True, slots=True)
class FigureTarget(Worded):
    """An attack by one figure on a figure or a feature: ``shoot A1 B2``."""

    figure: str
    target: str


class Shoot(FigureTarget, verb="shoot"): ...


class Fight(FigureTarget, verb="fight"): ...


@dataclass(frozen=True, slots=True)
class Skill(Worded, verb="skill"):
    figure: str
    task: str


USAGE = {
    "first": "first SIDE",
    "move": move_usage("FIGURE"),
    "take": "take FIGURE ITEM",
    "shoot": "shoot FIGURE TARGET",
    "fight": "fight FIGURE TARGET",
    "skill": "skill FIGURE TASK",
    "end": "end",
}
