"""Units, angles, tolerances and the table itself: the conventions every module shares.

Conventions (the same in every function of :mod:`warbench.geometry.table`):

- Lengths are inches, as plain floats.
- The origin is the table's bottom-left corner; x grows to the east (right), y grows
  north (up). A :data:`Point` is an ``(x, y)`` tuple.
- Angles are degrees. A facing or heading of 0 points east (+x) and angles grow
  counter-clockwise, so 90 is north (+y), 180 west, 270 (or -90) south. Facings are
  stored normalised to ``[0, 360)``; a signed turn is in ``(-180, 180]``, positive
  to the left (counter-clockwise).

>>> heading((0.0, 0.0), (0.0, 5.0))
90.0
>>> turn_angle(350.0, 10.0)
20.0
>>> Table(72, 48).contains_point((72.0, 0.0))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import shapely

from warbench.errors import WarbenchError

__all__ = [
    "ANGLE_TOLERANCE",
    "EPS",
    "TOUCH",
    "Point",
    "Table",
    "TableGeometryError",
    "boundary_edges",
    "heading",
    "normalize_angle",
    "part_bounds",
    "relative_angles",
    "turn_angle",
]

FloatArray = npt.NDArray[np.float64]

Point = tuple[float, float]
"""A position on the table, ``(x, y)`` in inches from the bottom-left corner."""

EPS: Final[float] = 1e-7
"""Overlaps shallower than this (inches) are not overlaps: bases placed exactly
against each other by arithmetic stay legal despite rounding."""

TOUCH: Final[float] = 1e-6
"""Default tolerance of "touching": edge distances up to this count as contact."""

ANGLE_TOLERANCE: Final[float] = 1e-6
"""Degrees. Turns smaller than this are no turn; arc and turning-table bounds are
compared with this slack so a designed 45-degree turn is not 45.0000000001."""


class TableGeometryError(WarbenchError, ValueError):
    """Bad geometry input: a negative size, a degenerate polygon, an unknown id..."""


def normalize_angle(degrees: float) -> float:
    """The same direction in ``[0, 360)``.

    >>> normalize_angle(-90.0)
    270.0
    """
    value = math.fmod(degrees, 360.0)
    if value < 0.0:
        value += 360.0
    return 0.0 if value >= 360.0 else value


def turn_angle(start: float, end: float) -> float:
    """The signed smallest turn from facing ``start`` to facing ``end``, in ``(-180, 180]``.

    Positive turns are to the left (counter-clockwise).

    >>> turn_angle(90.0, 0.0)
    -90.0
    >>> turn_angle(0.0, 180.0)
    180.0
    """
    value = math.fmod(end - start, 360.0)
    if value <= -180.0:
        value += 360.0
    elif value > 180.0:
        value -= 360.0
    return value


def heading(start: Point, end: Point) -> float:
    """The direction from ``start`` to ``end`` in degrees ``[0, 360)``; 0 if they coincide."""
    dx = end[0] - start[0]
    dy = end[1] - start[1]
    if dx == 0.0 and dy == 0.0:
        return 0.0
    return normalize_angle(math.degrees(math.atan2(dy, dx)))


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Inches from ``p`` to the segment from ``a`` to ``b`` (to ``a`` if they coincide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0.0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / span))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


@dataclass(frozen=True)
class Table:
    """The playing surface: a ``width`` x ``height`` rectangle (inches) from ``(0, 0)``.

    A base is *on the table* when all of it is inside this rectangle (edges
    included); :meth:`contains_point` is for centres and markers.
    """

    width: float
    height: float

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise TableGeometryError(f"table {name} must be a positive number, not {value!r}")
        object.__setattr__(self, "width", float(self.width))
        object.__setattr__(self, "height", float(self.height))

    def contains_point(self, point: Point, tolerance: float = TOUCH) -> bool:
        """True if ``point`` is on the table (its edges count as on)."""
        x, y = point
        return (
            -tolerance <= x <= self.width + tolerance and -tolerance <= y <= self.height + tolerance
        )

    def contains_bounds(
        self, bounds: tuple[float, float, float, float], tolerance: float = TOUCH
    ) -> bool:
        """True if the box ``(xmin, ymin, xmax, ymax)`` lies on the table."""
        xmin, ymin, xmax, ymax = bounds
        return (
            xmin >= -tolerance
            and ymin >= -tolerance
            and xmax <= self.width + tolerance
            and ymax <= self.height + tolerance
        )

    def past_edge(self, point: Point, edge: str) -> bool:
        """True if ``point`` (a base's centre) has crossed ``edge`` ("north", "south",
        "east" or "west"): a base that left the table there.

        >>> Table(24, 12).past_edge((24.5, 6), "east"), Table(24, 12).past_edge((23, 6), "east")
        (True, False)
        """
        x, y = point
        return {
            "north": y > self.height,
            "south": y < 0.0,
            "east": x > self.width,
            "west": x < 0.0,
        }[edge]

    @property
    def rect(self) -> shapely.Polygon:
        """The table as a shapely rectangle."""
        return shapely.box(0.0, 0.0, self.width, self.height)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as scenario files and views write it: ``{"width", "height"}``."""
        return {"width": self.width, "height": self.height}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        """The inverse of :meth:`to_dict` (validated by :class:`TableSpec`)."""
        from warbench.geometry.table.serial import TableSpec

        return TableSpec.model_validate(data).build()


def boundary_edges(geometry: shapely.Geometry) -> tuple[FloatArray, FloatArray]:
    """The edges of a geometry's outline as two arrays of end points (a point: one null edge)."""
    kind = shapely.get_type_id(geometry)
    if kind == 0:  # Point
        xy = shapely.get_coordinates(geometry)
        return xy, xy
    if kind == 3:  # Polygon: exterior and holes
        rings = [shapely.get_exterior_ring(geometry)]
        rings += [
            shapely.get_interior_ring(geometry, i)
            for i in range(shapely.get_num_interior_rings(geometry))
        ]
    else:
        rings = list(shapely.get_parts(geometry))
    starts, ends = [], []
    for ring in rings:
        xy = shapely.get_coordinates(ring)
        starts.append(xy[:-1])
        ends.append(xy[1:])
    return np.vstack(starts), np.vstack(ends)


def relative_angles(points: FloatArray, eye: Point, direction: float) -> FloatArray:
    """Angles of ``points`` seen from ``eye``, relative to ``direction``, in (-pi, pi]."""
    c, s = math.cos(direction), math.sin(direction)
    vx = points[:, 0] - eye[0]
    vy = points[:, 1] - eye[1]
    out: FloatArray = np.arctan2(c * vy - s * vx, c * vx + s * vy)
    return out


def part_bounds(
    values: FloatArray, which: npt.NDArray[np.intp], parts: int
) -> tuple[FloatArray, FloatArray]:
    """The lowest and highest of ``values`` in each of ``parts`` groups, ``which[i]`` naming
    the group of ``values[i]`` (as ``shapely.get_coordinates(..., return_index=True)``
    numbers the parts; a group without values: ``inf`` and ``-inf``)."""
    lo = np.full(parts, np.inf)
    hi = np.full(parts, -np.inf)
    np.minimum.at(lo, which, values)
    np.maximum.at(hi, which, values)
    return lo, hi
