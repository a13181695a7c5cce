"""Figures on the table: bases, positions, facings, distances, contact and arcs of fire.

A :class:`Figure` is an immutable value: a base (:class:`RoundBase` or
:class:`RectBase`) at a centre point with a facing. Moving or turning returns a
new figure, so rulesets can keep states cheap to copy and safe to share.

How each quantity is measured (the rules texts use all of these):

- *centre distance*: between base centres (MGV and Invisible Enemy measure range so).
- *edge distance*: the gap between base outlines, 0 when they touch or overlap.
  Round bases are treated as true circles here (exact), rectangles as rectangles.
- *touching*: edge distance at most a tolerance (:data:`TOUCH` by default).
- *overlapping*: the bases' interiors overlap by more than :data:`EPS`; bases
  placed exactly against each other do not overlap.
- *arcs*: the apex is the figure's centre and the arc is ``half_angle`` either
  side of the facing. ``part="centre"`` asks about the target's centre,
  ``"any"`` about any part of its base, ``"all"`` about all of it.

For drawing and for line of sight a round base is a regular polygon of
:data:`ROUND_SEGMENTS` corners inscribed in its circle, one corner on the facing;
its outline is therefore at most ``r * (1 - cos(pi / 32))`` (0.5% of the radius)
inside the true circle. Distances, contact and arcs use the exact circle.

>>> a = Figure("a", 0.0, 0.0, base=RoundBase(1.0))
>>> b = Figure("b", 3.0, 4.0, base=RoundBase(1.0))
>>> centre_distance(a, b), edge_distance(a, b)
(5.0, 4.0)
>>> in_arc(a.turned_to(45.0), b, 10.0)
True
>>> touching(a, a.moved_to((1.0, 0.0)))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table.core import (
    ANGLE_TOLERANCE,
    EPS,
    TOUCH,
    Point,
    TableGeometryError,
    boundary_edges,
    heading,
    normalize_angle,
    relative_angles,
    turn_angle,
)

__all__ = [
    "ROUND_SEGMENTS",
    "ArcPart",
    "Base",
    "Figure",
    "Measure",
    "RectBase",
    "RoundBase",
    "bearing",
    "centre_distance",
    "edge_distance",
    "in_arc",
    "overlapping",
    "touching",
    "within",
]

ROUND_SEGMENTS: Final[int] = 32
"""Corners of the polygon that draws a round base (and blocks sight as one)."""

MIN_BASE_SIZE: Final[float] = 1e-3
"""Bases smaller than this (inches) are refused: they would be points."""

# Rectangles are shrunk by this much per side and given this radius in the
# tolerance tests (overlap, legality), so that "distance < sum of radii - EPS"
# works for every pair of shapes, rectangles included.
_RECT_SHRINK: Final[float] = 2 * EPS

Measure = Literal["edge", "centre"]
ArcPart = Literal["centre", "any", "all"]
FloatArray = npt.NDArray[np.float64]

_UNIT_ANGLES = np.linspace(0.0, 2.0 * math.pi, ROUND_SEGMENTS, endpoint=False)
_UNIT_CIRCLE = np.stack([np.cos(_UNIT_ANGLES), np.sin(_UNIT_ANGLES)], axis=1)


def _positive(value: float, what: str) -> float:
    if not (isinstance(value, int | float) and math.isfinite(value) and value >= MIN_BASE_SIZE):
        raise TableGeometryError(
            f"{what} must be a number of at least {MIN_BASE_SIZE}, not {value!r}"
        )
    return float(value)


@dataclass(frozen=True)
class RoundBase:
    """A round base of the given ``diameter`` (inches)."""

    diameter: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "diameter", _positive(self.diameter, "base diameter"))

    @property
    def radius(self) -> float:
        return self.diameter / 2.0

    @property
    def bounding_radius(self) -> float:
        """The radius of the smallest circle about the centre that holds the base."""
        return self.diameter / 2.0

    def local_outline(self) -> FloatArray:
        """Outline corners in the base's own frame (x forward along the facing, y left)."""
        return _UNIT_CIRCLE * (self.diameter / 2.0)

    def to_dict(self) -> dict[str, Any]:
        return {"shape": "round", "diameter": self.diameter}


@dataclass(frozen=True)
class RectBase:
    """A rectangular base: ``width`` across the facing, ``depth`` along it (inches)."""

    width: float
    depth: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "width", _positive(self.width, "base width"))
        object.__setattr__(self, "depth", _positive(self.depth, "base depth"))

    @property
    def bounding_radius(self) -> float:
        return math.hypot(self.width, self.depth) / 2.0

    def local_outline(self, shrink: float = 0.0) -> FloatArray:
        """Corners (counter-clockwise from front-right) in the base frame (x forward, y left)."""
        d = self.depth / 2.0 - shrink
        w = self.width / 2.0 - shrink
        return np.array([[d, -w], [d, w], [-d, w], [-d, -w]], dtype=np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {"shape": "rect", "width": self.width, "depth": self.depth}


Base = RoundBase | RectBase


def _to_world(local: FloatArray, x: float, y: float, facing: float) -> FloatArray:
    """Rotate base-frame coordinates by ``facing`` and move them to ``(x, y)``."""
    a = math.radians(facing)
    c, s = math.cos(a), math.sin(a)
    rot = np.array([[c, s], [-s, c]], dtype=np.float64)
    out: FloatArray = local @ rot + np.array([x, y], dtype=np.float64)
    return out


@dataclass(frozen=True)
class Figure:
    """One figure: ``base`` centred at ``(x, y)``, facing ``facing`` degrees.

    ``side`` (who owns it) and ``kind`` (free text: "troop", "vehicle", ...) are
    carried for rulesets and views; the geometry uses ``side`` only for the
    "friends may pass through" movement rule.
    """

    id: str
    x: float
    y: float
    facing: float = 0.0
    base: Base = RoundBase(1.0)
    side: str = ""
    kind: str = ""

    def __post_init__(self) -> None:
        for name in ("x", "y", "facing"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value)):
                raise TableGeometryError(
                    f"figure {self.id!r}: {name} must be a number, not {value!r}"
                )
        object.__setattr__(self, "x", float(self.x))
        object.__setattr__(self, "y", float(self.y))
        object.__setattr__(self, "facing", normalize_angle(float(self.facing)))
        if not isinstance(self.base, RoundBase | RectBase):
            raise TableGeometryError(f"figure {self.id!r}: base must be a RoundBase or RectBase")

    # -- position -------------------------------------------------------------------

    @property
    def at(self) -> Point:
        """The centre, ``(x, y)``."""
        return (self.x, self.y)

    def moved_to(self, point: Point, facing: float | None = None) -> Figure:
        """The same figure with its centre at ``point`` (and a new facing if given)."""
        new_facing = self.facing if facing is None else facing
        return self._placed(point[0], point[1], new_facing)

    def turned_to(self, facing: float) -> Figure:
        """The same figure, facing ``facing`` degrees."""
        return self._placed(self.x, self.y, facing)

    def _placed(self, x: float, y: float, facing: float) -> Figure:
        """This figure at ``x, y`` facing ``facing``: ``dataclasses.replace`` without its
        per-call overhead (a move makes many), and the same checks and normalisation as
        ``__post_init__``; anything but finite plain numbers goes the checked way."""
        if (
            type(self) is not Figure
            or not (type(x) is float and type(y) is float and type(facing) is float)
            or not (math.isfinite(x) and math.isfinite(y) and math.isfinite(facing))
        ):
            return replace(self, x=x, y=y, facing=facing)
        new = object.__new__(Figure)
        new.__dict__.update(
            id=self.id,
            x=x,
            y=y,
            facing=normalize_angle(facing),
            base=self.base,
            side=self.side,
            kind=self.kind,
        )
        return new

    # -- shape ----------------------------------------------------------------------

    @cached_property
    def outline_coords(self) -> FloatArray:
        """The outline's corners in table coordinates (counter-clockwise)."""
        return _to_world(self.base.local_outline(), self.x, self.y, self.facing)

    @cached_property
    def outline(self) -> shapely.Polygon:
        """The base as a shapely polygon (round bases: an inscribed regular polygon)."""
        return shapely.Polygon(self.outline_coords)

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` of the true base (circle or rectangle)."""
        if isinstance(self.base, RoundBase):
            r = self.base.radius
            return (self.x - r, self.y - r, self.x + r, self.y + r)
        pts = self.outline_coords
        return (
            float(pts[:, 0].min()),
            float(pts[:, 1].min()),
            float(pts[:, 0].max()),
            float(pts[:, 1].max()),
        )

    @cached_property
    def solid(self) -> tuple[shapely.Geometry, float]:
        """``(core, radius)``: the base is the set of points within ``radius`` of ``core``.

        Round bases are their centre and radius (exact). Rectangles are shrunk
        by a hair and given that hair as radius, so every overlap test is the one
        formula ``distance(core_a, core_b) < radius_a + radius_b - EPS``.
        """
        if isinstance(self.base, RoundBase):
            return shapely.Point(self.x, self.y), self.base.radius
        local = self.base.local_outline(shrink=_RECT_SHRINK)
        return shapely.Polygon(_to_world(local, self.x, self.y, self.facing)), _RECT_SHRINK

    @cached_property
    def core_edges(self) -> tuple[FloatArray, FloatArray]:
        """The edges of :attr:`solid`'s core as start and end arrays (a point: one null edge)."""
        return boundary_edges(self.solid[0])

    def local(self, point: Point) -> Point:
        """``point`` in this figure's frame: x ahead along the facing, y to the left."""
        a = math.radians(self.facing)
        dx, dy = point[0] - self.x, point[1] - self.y
        c, s = math.cos(a), math.sin(a)
        return (dx * c + dy * s, -dx * s + dy * c)

    def covers(self, point: Point, tolerance: float = TOUCH) -> bool:
        """True if ``point`` is on this base (its edge included)."""
        if isinstance(self.base, RoundBase):
            return math.hypot(point[0] - self.x, point[1] - self.y) <= self.base.radius + tolerance
        lx, ly = self.local(point)
        return (
            abs(lx) <= self.base.depth / 2.0 + tolerance
            and abs(ly) <= self.base.width / 2.0 + tolerance
        )

    # -- plain data -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data (the view's figure shape minus status/label)."""
        return {
            "id": self.id,
            "x": self.x,
            "y": self.y,
            "facing": self.facing,
            "base": self.base.to_dict(),
            "side": self.side,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Figure:
        """The inverse of :meth:`to_dict` (validated by :class:`FigureSpec`)."""
        from warbench.geometry.table.serial import FigureSpec

        return FigureSpec.model_validate(data).build()


Place = Figure | Point
"""Anything distances accept: a figure (its base) or a bare point (a marker)."""


def _centre(place: Place) -> Point:
    return place.at if isinstance(place, Figure) else (float(place[0]), float(place[1]))


def _exact(place: Place) -> tuple[shapely.Geometry, float]:
    """Exact shape as (geometry, radius): round -> centre + r, rect -> outline + 0."""
    if isinstance(place, Figure):
        if isinstance(place.base, RoundBase):
            return shapely.Point(place.x, place.y), place.base.radius
        return place.outline, 0.0
    return shapely.Point(place[0], place[1]), 0.0


def _radius_if_round(place: Place) -> float | None:
    if isinstance(place, Figure):
        return place.base.radius if isinstance(place.base, RoundBase) else None
    return 0.0


def centre_distance(a: Place, b: Place) -> float:
    """Distance between centres (inches)."""
    ax, ay = _centre(a)
    bx, by = _centre(b)
    return math.hypot(bx - ax, by - ay)


def edge_distance(a: Place, b: Place) -> float:
    """Gap between the bases' outlines (a point has no base); 0 if they touch or overlap."""
    if type(a) is Figure and type(b) is Figure:
        base_a, base_b = a.base, b.base
        if type(base_a) is RoundBase and type(base_b) is RoundBase:
            # Two round bases, the sum below spelt out (the same operations): asked of
            # every pair of bases many times an action.
            return max(0.0, math.hypot(b.x - a.x, b.y - a.y) - base_a.radius - base_b.radius)
    ra, rb = _radius_if_round(a), _radius_if_round(b)
    if ra is not None and rb is not None:
        return max(0.0, centre_distance(a, b) - ra - rb)
    ga, pa = _exact(a)
    gb, pb = _exact(b)
    return max(0.0, float(shapely.distance(ga, gb)) - pa - pb)


def within(
    a: Place,
    b: Place,
    distance: float,
    *,
    measure: Measure = "edge",
    tolerance: float = TOUCH,
) -> bool:
    """True if ``b`` is within ``distance`` of ``a`` (edge to edge, or centre to centre)."""
    gap = edge_distance(a, b) if measure == "edge" else centre_distance(a, b)
    return gap <= distance + tolerance


def touching(a: Place, b: Place, tolerance: float = TOUCH) -> bool:
    """True if the bases touch or overlap (edge distance at most ``tolerance``)."""
    return edge_distance(a, b) <= tolerance


def overlapping(a: Figure, b: Figure) -> bool:
    """True if the bases' interiors overlap by more than :data:`EPS` (touching is fine)."""
    ra, rb = _radius_if_round(a), _radius_if_round(b)
    if ra is not None and rb is not None:
        return centre_distance(a, b) < ra + rb - EPS
    ga, pa = a.solid
    gb, pb = b.solid
    return float(shapely.distance(ga, gb)) < pa + pb - EPS


def bearing(figure: Figure, target: Place) -> float:
    """The signed angle of ``target``'s centre off ``figure``'s facing, in ``(-180, 180]``.

    Positive is to the figure's left. A target at the figure's own centre is at 0.
    """
    centre = _centre(target)
    if centre == figure.at:
        return 0.0
    return turn_angle(figure.facing, heading(figure.at, centre))


def silhouette(eye: Point, target: Figure) -> tuple[float, float, float] | None:
    """How ``target`` spans the view from ``eye``: ``(direction, lo, hi)`` in radians.

    ``direction`` is the absolute angle from ``eye`` to the target's centre;
    ``lo <= 0 <= hi`` bound the base's angular extent relative to it (exact for
    circles and rectangles). None when ``eye`` is on the base (it fills the view).
    """
    if target.covers(eye, tolerance=0.0):
        return None
    dx, dy = target.x - eye[0], target.y - eye[1]
    d = math.hypot(dx, dy)
    direction = math.atan2(dy, dx)
    if isinstance(target.base, RoundBase):
        half = math.asin(min(1.0, target.base.radius / d))
        return direction, -half, half
    rel = relative_angles(target.outline_coords, eye, direction)
    return direction, float(rel.min()), float(rel.max())


def in_arc(figure: Figure, target: Place, half_angle: float, *, part: ArcPart = "centre") -> bool:
    """True if ``target`` is within ``half_angle`` degrees either side of ``figure``'s facing.

    The apex is ``figure``'s centre and the arc has no range limit (combine with
    :func:`within`). ``part`` says what must be inside: the target's ``"centre"``,
    ``"any"`` part of its base, or ``"all"`` of it. A point target has only a centre.
    """
    limit = half_angle + ANGLE_TOLERANCE
    if part == "centre" or not isinstance(target, Figure):
        return abs(bearing(figure, target)) <= limit
    span = silhouette(figure.at, target)
    if span is None:  # the target's base covers the apex
        return part == "any" or half_angle >= 180.0
    direction, lo, hi = span
    centre = turn_angle(figure.facing, math.degrees(direction))
    low, high = centre + math.degrees(lo), centre + math.degrees(hi)
    for shift in (-360.0, 0.0, 360.0):
        a, b = low + shift, high + shift
        if part == "any" and a <= limit and b >= -limit:
            return True
        if part == "all" and a >= -limit and b <= limit:
            return True
    return False
