"""A table, its terrain and the figures on it: the one object table queries go through.

A :class:`Scene` is cheap to make: the :class:`Terrain` (features and their index)
is built once per layout and shared, and the figure index is built lazily, on
the first query that needs it. A ruleset typically keeps the ``Terrain`` with the
scenario set-up and makes a scene from its current figures when it needs one:

>>> from warbench.geometry.table.core import Table
>>> from warbench.geometry.table.features import Feature
>>> from warbench.geometry.table.figures import Figure, RoundBase
>>> terrain = Terrain([Feature.circle("wood", (12.0, 6.0), 3.0, half_move=True)])
>>> scene = Scene(Table(24, 12), terrain, [Figure("a", 2.0, 6.0), Figure("b", 11.0, 6.0)])
>>> [f.id for f in scene.features_under("b")]
['wood']
>>> [f.id for f in scene.figures_within("a", 9.0)]
['b']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from warbench.geometry.table.core import TOUCH, Point, Table
from warbench.geometry.table.fan import LegHits, LegKey
from warbench.geometry.table.features import Feature
from warbench.geometry.table.figures import (
    Figure,
    Measure,
    Place,
    centre_distance,
    edge_distance,
    overlapping,
)
from warbench.geometry.table.index import FigureIndex
from warbench.geometry.table.movement import plan_move, reach_along
from warbench.geometry.table.sight import Sight, compute_sight, compute_sight_points
from warbench.geometry.table.terrain import Terrain, TrackPiece

__all__ = ["Scene"]

FigureRef = Figure | str
"""A figure, or the id of one in the scene."""
_KEYS = (Figure, tuple)
"""Types of eyes and targets whose sight :meth:`Scene.sight` may remember (hashable)."""


class Scene:
    """The table, the terrain and the figures at one moment.

    Methods taking a figure also take its id. Figures are values: a scene with
    a figure moved is a new scene (:meth:`replaced`), sharing the terrain.
    """

    def __init__(
        self,
        table: Table,
        terrain: Terrain | Iterable[Feature] = (),
        figures: Iterable[Figure] = (),
    ) -> None:
        self.table = table
        self.terrain = terrain if isinstance(terrain, Terrain) else Terrain(terrain)
        self.figures: tuple[Figure, ...] = tuple(figures)
        self._index: FigureIndex | None = None
        self.started_on: dict[tuple[Figure, frozenset[str]], frozenset[str]] = {}
        """Figures a base overlaps where a move starts, by the base and the figures the
        move leaves out (the move planner's, kept with the scene's figures)."""
        self.fan_hits: dict[LegKey, LegHits] = {}
        """What round bases sweeping legs overlap, worked out for a fan of candidate moves
        at once (:func:`~warbench.geometry.table.fan.prepare_fan`)."""
        self.fan_ends: dict[tuple[float, float, float], tuple[int, ...]] = {}
        """The figures a round base (x, y, radius) overlaps at the ends of those legs."""
        if len({f.id for f in self.figures}) != len(self.figures):
            self.index  # noqa: B018 - raises, naming the duplicate id

    @property
    def index(self) -> FigureIndex:
        """The spatial index of the figures (built on first use)."""
        if self._index is None:
            self._index = FigureIndex(self.figures)
        return self._index

    def figure(self, ref: FigureRef) -> Figure:
        """The figure itself, given it or its id."""
        return ref if isinstance(ref, Figure) else self.index.get(ref)

    def _place(self, ref: Figure | str | Point) -> Place:
        return self.index.get(ref) if isinstance(ref, str) else ref

    # -- new scenes -----------------------------------------------------------------

    def with_figures(self, figures: Iterable[Figure]) -> Scene:
        """The same table and terrain with these figures."""
        return Scene(self.table, self.terrain, figures)

    def replaced(self, *figures: Figure) -> Scene:
        """These figures replace those with the same ids (new ids are added).

        The figure index is updated, not rebuilt: moving one figure of 200
        costs a few microseconds.
        """
        index = self.index.replaced(figures)
        scene = Scene(self.table, self.terrain)
        scene.figures = index.figures
        scene._index = index
        return scene

    def without(self, *ids: str) -> Scene:
        """The scene without these figures (destroyed, left the table)."""
        gone = set(ids)
        return Scene(self.table, self.terrain, [f for f in self.figures if f.id not in gone])

    # -- figures near figures -------------------------------------------------------

    def figures_within(
        self,
        of: Figure | str | Point,
        distance: float,
        *,
        measure: Measure = "edge",
        tolerance: float = TOUCH,
    ) -> tuple[Figure, ...]:
        """Other figures within ``distance`` of a figure or point, nearest first."""
        place = self._place(of)
        own = place.id if isinstance(place, Figure) else None
        reach = distance + tolerance
        if isinstance(place, Figure):
            x, y = place.at
            reach += place.base.bounding_radius
        else:
            x, y = place
        index = self.index
        found = []
        for i in index.in_box(x - reach, y - reach, x + reach, y + reach):
            other = index.figures[int(i)]
            if other.id == own:
                continue
            gap = (
                edge_distance(place, other) if measure == "edge" else centre_distance(place, other)
            )
            if gap <= distance + tolerance:
                found.append((gap, other.id, other))
        return tuple(f for _, _, f in sorted(found))

    def figures_touching(self, of: FigureRef, tolerance: float = TOUCH) -> tuple[Figure, ...]:
        """Other figures whose bases touch (or overlap) this one's."""
        return self.figures_within(of, 0.0, tolerance=tolerance)

    def figures_overlapping(self, of: FigureRef) -> tuple[Figure, ...]:
        """Other figures whose bases overlap this one's (more than touching)."""
        figure = self.figure(of)
        return tuple(f for f in self.figures_touching(figure) if overlapping(figure, f))

    def figures_at(self, point: Point) -> tuple[Figure, ...]:
        """Figures whose bases cover ``point``."""
        return tuple(f for f in self.figures_within(point, 0.0) if f.covers(point))

    # -- terrain --------------------------------------------------------------------

    def features_under(self, of: Figure | str | Point) -> tuple[Feature, ...]:
        """Features a base overlaps, or a point lies in (see :meth:`Terrain.features_under`)."""
        return self.terrain.features_under(self._place(of))

    def features_touching(
        self, of: Figure | str | Point, reach: float = 0.0
    ) -> tuple[Feature, ...]:
        """Features within ``reach`` of a base or point (default: touching it)."""
        return self.terrain.features_touching(self._place(of), reach)

    def track(self, start: Point, end: Point) -> tuple[TrackPiece, ...]:
        """A straight centre track split into pieces by terrain, with their costs."""
        return self.terrain.track(start, end)

    # -- sight ----------------------------------------------------------------------

    def sight(
        self,
        eye: Figure | str | Point,
        target: Figure | str | Point,
        *,
        figures_block: bool = True,
        ignore: Collection[str] = (),
        eye_level: float = 0.0,
        target_level: float = 0.0,
    ) -> Sight:
        """Line of sight from a figure's centre (or a point) to a figure's base (or a point).

        See :mod:`warbench.geometry.table.sight` for the method and the rules
        about ``"beyond"`` features, heights and intervening figures.

        Without ``figures_block`` the answer depends on the terrain alone (and the
        eye, the target and the levels): it is remembered with the terrain, for
        every later scene of the layout (MGV asks it of every shooter and target
        after each move, and most pairs have not moved).
        """
        seen_from, seen = self._place(eye), self._place(target)
        key = None
        if not figures_block and type(seen_from) in _KEYS and type(seen) in _KEYS:
            key = (seen_from, seen, eye_level, target_level)
            found = self.terrain.sight_memo.get(key)
            if found is not None:
                return found
        sight = compute_sight(
            self.terrain,
            self.index,
            seen_from,
            seen,
            figures_block=figures_block,
            ignore=ignore,
            eye_level=eye_level,
            target_level=target_level,
        )
        if key is not None:
            self.terrain.remember_sight(key, sight)
        return sight

    def sight_points(
        self,
        eye: Figure | str | Point,
        targets: Sequence[Point],
        *,
        figures_block: bool = True,
        ignore: Collection[str] = (),
    ) -> list[Sight]:
        """:meth:`sight` to each of many points at once (the same answers, one pass)."""
        return compute_sight_points(
            self.terrain,
            self.index,
            self._place(eye),
            targets,
            figures_block=figures_block,
            ignore=ignore,
        )

    def can_see(self, eye: Figure | str | Point, target: Figure | str | Point) -> bool:
        """True if any part of the target can be seen (default options)."""
        return self.sight(eye, target).clear

    # -- movement -------------------------------------------------------------------

    plan_move = plan_move
    """Cost and check a move of a figure (or the figure of an id) here: the method form of
    :func:`~warbench.geometry.table.movement.plan_move`."""
    reach_along = reach_along
    """How far a figure (or the figure of an id) gets straight towards ``to`` here: the method
    form of :func:`~warbench.geometry.table.movement.reach_along`."""
