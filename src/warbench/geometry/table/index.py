"""Where the figures are: numpy arrays of centres and sizes, cheap to update after a move.

Features are static, so :class:`~warbench.geometry.table.terrain.Terrain` puts
them in a shapely ``STRtree`` once. Figures move after nearly every action, and a
tree has to be rebuilt whenever one does. For the few hundred figures of a table
game a vectorised scan of two numpy arrays (centres and bounding radii) answers
a query about as fast as a tree lookup and costs almost nothing to update:
moving one figure copies the arrays and rewrites one row
(:meth:`FigureIndex.replaced`), where a tree of 200 figures takes some tenths of
a millisecond to rebuild. ``benchmarks/bench_table_geometry.py`` measures the
update, a rebuild and both kinds of query. (With many thousands of figures a
tree would answer faster; none of our games comes near that.)

Queries return candidate positions (a superset, by bounding circle); callers
then test exactly.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

import numpy as np
import numpy.typing as npt

from warbench.geometry.table.core import Point, TableGeometryError
from warbench.geometry.table.figures import Figure

__all__ = ["FigureIndex"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

SMALL = 48
"""Up to this many figures a plain loop answers a box query faster than numpy."""


class FigureIndex:
    """Figures by id and by place.

    >>> idx = FigureIndex([Figure("a", 1.0, 1.0), Figure("b", 9.0, 9.0)])
    >>> [idx.figures[i].id for i in idx.in_box(0.0, 0.0, 2.0, 2.0)]
    ['a']
    >>> moved = idx.replaced([Figure("a", 8.0, 8.0)])
    >>> [moved.figures[i].id for i in moved.near_segment((9.0, 9.0), (9.0, 9.0), 1.0)]
    ['a', 'b']
    """

    figures: tuple[Figure, ...]
    position: dict[str, int]
    centres: FloatArray
    bound_radius: FloatArray
    _plain: list[tuple[float, float, float]] | None

    def __init__(self, figures: Iterable[Figure]) -> None:
        self.figures = tuple(figures)
        self.position = {}
        for i, f in enumerate(self.figures):
            if not isinstance(f, Figure):
                raise TableGeometryError(f"expected a Figure, not {f!r}")
            if f.id in self.position:
                raise TableGeometryError(f"two figures have the id {f.id!r}")
            self.position[f.id] = i
        n = len(self.figures)
        self.centres = np.array([(f.x, f.y) for f in self.figures], dtype=np.float64).reshape(n, 2)
        self.bound_radius = np.array(
            [f.base.bounding_radius for f in self.figures], dtype=np.float64
        )
        self._plain = None

    def replaced(self, figures: Iterable[Figure]) -> FigureIndex:
        """A new index with these figures replacing those of the same ids (others added)."""
        new = object.__new__(FigureIndex)
        listed = list(self.figures)
        position = dict(self.position)
        centres = self.centres.copy()
        radius = self.bound_radius.copy()
        extra: list[Figure] = []
        for f in figures:
            i = position.get(f.id)
            if i is None:
                position[f.id] = len(listed) + len(extra)
                extra.append(f)
                continue
            listed[i] = f
            centres[i] = (f.x, f.y)
            radius[i] = f.base.bounding_radius
        if extra:
            centres = np.vstack([centres, [(f.x, f.y) for f in extra]])
            radius = np.concatenate([radius, [f.base.bounding_radius for f in extra]])
        new.figures = tuple(listed + extra)
        new.position = position
        new.centres = centres
        new.bound_radius = radius
        new._plain = None
        return new

    @property
    def plain(self) -> list[tuple[float, float, float]]:
        """Each figure's centre and bounding radius, ``(x, y, r)``, as plain floats (built
        on first use): what the loops over a few figures read."""
        found = self._plain
        if found is None:
            found = self._plain = [(f.x, f.y, f.base.bounding_radius) for f in self.figures]
        return found

    def __len__(self) -> int:
        return len(self.figures)

    def get(self, figure_id: str) -> Figure:
        """The figure with this id; the error lists the known ids."""
        try:
            return self.figures[self.position[figure_id]]
        except KeyError:
            known = ", ".join(sorted(self.position)) or "none"
            raise TableGeometryError(f"no figure {figure_id!r}; known: {known}") from None

    def in_box(self, xmin: float, ymin: float, xmax: float, ymax: float) -> IntArray:
        """Positions of figures whose bounding circles meet this box."""
        if not self.figures:
            return np.empty(0, dtype=np.intp)
        if len(self.figures) <= SMALL:
            return np.array(self.in_box_list(xmin, ymin, xmax, ymax), dtype=np.intp)
        x, y, r = self.centres[:, 0], self.centres[:, 1], self.bound_radius
        inside = (x + r >= xmin) & (x - r <= xmax) & (y + r >= ymin) & (y - r <= ymax)
        found: IntArray = np.nonzero(inside)[0]
        return found

    def in_box_list(self, xmin: float, ymin: float, xmax: float, ymax: float) -> list[int]:
        """:meth:`in_box` as a list, ascending (a plain loop for a few figures: no numpy
        call overhead)."""
        if len(self.figures) > SMALL:
            found: list[int] = self.in_box(xmin, ymin, xmax, ymax).tolist()
            return found
        return [
            i
            for i, (x, y, r) in enumerate(self.plain)
            if x + r >= xmin and x - r <= xmax and y + r >= ymin and y - r <= ymax
        ]

    def near_segment(
        self, start: Point, end: Point, pad: float, exclude: Container[str] = ()
    ) -> IntArray:
        """Positions of figures whose bounding circles come within ``pad`` of the segment."""
        if not self.figures:
            return np.empty(0, dtype=np.intp)
        gap = _segment_distances(self.centres, start, end)
        keep: IntArray = np.nonzero(gap <= self.bound_radius + pad)[0]
        if len(keep) and exclude:
            keep = np.array(
                [i for i in keep.tolist() if self.figures[i].id not in exclude], dtype=np.intp
            )
        return keep


def _segment_distances(points: FloatArray, start: Point, end: Point) -> FloatArray:
    """Distance of each point to the segment ``start``-``end`` (vectorised)."""
    ax, ay = start
    dx, dy = end[0] - ax, end[1] - ay
    length2 = dx * dx + dy * dy
    px = points[:, 0] - ax
    py = points[:, 1] - ay
    if length2 == 0.0:
        out: FloatArray = np.hypot(px, py)
        return out
    t = np.clip((px * dx + py * dy) / length2, 0.0, 1.0)
    out = np.hypot(px - t * dx, py - t * dy)
    return out
