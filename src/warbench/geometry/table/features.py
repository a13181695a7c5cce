"""Terrain features: areas and lines on the table, with the properties rules ask about.

A :class:`Feature` is a polygon (woods, a building, a pond; it may have
``holes``, as what is left of a patch a blast cleared in its middle), a polyline
(a wall, a hedge, a fence) or a circle (a crater, a copse; drawn as a regular
polygon of :data:`CIRCLE_SEGMENTS` corners inscribed in the circle).
:func:`remains` cuts an area out of a feature (a barrage or an engineer clearing
part of it) and gives the pieces left. It carries names only
for the renderer (``kind``, ``label``) and the effects every table game needs:

Movement
    ``move_cost``: inches of allowance per inch the moving figure's *centre*
    travels inside the area (1 = open ground, 2 = half speed). Where areas
    overlap, the worst (largest) cost applies, not the product. A polyline has
    no inside, so its cost never applies.
    ``impassable``: no part of a base may enter it.
    ``half_move``: a flag for rules like VSGMR's rough terrain ("half move until
    fully out of it"); the geometry only answers whether a base is in it.
    ``barrier`` with ``crossing_cost``: a line (or thin area) a base cannot pass
    (``crossing_cost`` None) or can pass for that many extra inches each time
    its centre crosses it.

Sight
    ``blocks_los``: ``"no"``; ``"yes"`` (solid: blocks any sight line through
    it); ``"beyond"`` (MGV's "Y&N", Invisible Enemy's "50%"): a figure within
    ``beyond_reach`` inches of it (0 = touching) sees and is seen across it, and
    the target gets its cover; sight passing it to or from anything farther
    away is blocked. A figure *standing in* a ``"yes"`` feature treats it as
    ``"beyond"`` (a figure in a building fires out of it).
    ``see_depth`` (areas with ``"beyond"`` only; None keeps the reach rule
    above): sight is judged by how much of the area a line crosses instead.
    A line crossing more than ``see_depth`` inches of it (measured between the
    two bases, not under them) is blocked; a shorter crossing sees through,
    the target getting cover unless only the eye is near the area. The same
    figure in both directions, so A sees B exactly when B sees A. VSGMR's
    woods and ruins; MGV and Invisible Enemy keep the reach rule.
    ``height``: features no taller than both ends of a sight line are looked
    over (see :mod:`warbench.geometry.table.sight`).
    ``cover``: a number for the ruleset (a cover class, a modifier).

``destroyed`` features are drawn (if the ruleset wants) but have no effect.

>>> wood = Feature.circle("w1", (10.0, 10.0), 3.0, move_cost=2.0, blocks_los="beyond")
>>> round(wood.geometry.area, 1)
28.2
>>> Feature.polyline("wall", [(0, 0), (5, 0)], barrier=True).is_area
False
>>> patch = Feature.polygon("p", [(0, 0), (3, 0), (3, 3), (0, 3)])
>>> lane = shapely.LineString([(1.5, -1), (1.5, 4)]).buffer(0.5, cap_style="flat")
>>> [(f.shape, round(f.geometry.area, 2)) for f in remains(patch, lane)]
[('polygon', 3.0), ('polygon', 3.0)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
import shapely

from warbench.geometry.table.core import Point, TableGeometryError, boundary_edges

__all__ = ["CIRCLE_SEGMENTS", "Feature", "LosBlock", "Shape", "remains"]

CIRCLE_SEGMENTS: Final[int] = 64
"""Corners of the polygon standing for a circular feature (error < 0.12% of the radius)."""

_ANGLES = np.linspace(0.0, 2.0 * math.pi, CIRCLE_SEGMENTS, endpoint=False)
_UNIT_CIRCLE = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)

LosBlock = Literal["yes", "no", "beyond"]
Shape = Literal["polygon", "polyline", "circle"]


def _finite(value: object, what: str) -> float:
    if not (
        isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    ):
        raise TableGeometryError(f"{what} must be a number, not {value!r}")
    return float(value)


MIN_RADIUS = 0.001
"""The smallest circle feature, in inches (as the smallest base): below it the
circle has no area the geometry can work with."""


@dataclass(frozen=True)
class Feature:
    """One terrain feature; see the module docstring for what each property means."""

    id: str
    shape: Shape
    points: tuple[Point, ...]
    radius: float = 0.0
    kind: str = ""
    label: str = ""
    move_cost: float = 1.0
    impassable: bool = False
    half_move: bool = False
    blocks_los: LosBlock = "no"
    beyond_reach: float = 0.0
    see_depth: float | None = None
    cover: float = 0.0
    barrier: bool = False
    crossing_cost: float | None = None
    height: float = 1.0
    destroyed: bool = False
    holes: tuple[tuple[Point, ...], ...] = ()
    """Rings cut out of a polygon (none for the other shapes)."""

    def __post_init__(self) -> None:
        where = f"feature {self.id!r}"
        pts = tuple(
            (_finite(p[0], f"{where}: x"), _finite(p[1], f"{where}: y")) for p in self.points
        )
        if self.shape == "polygon" and len(pts) > 3 and pts[0] == pts[-1]:
            pts = pts[:-1]  # a closed ring written out in full
        object.__setattr__(self, "points", pts)
        holes = []
        for ring in self.holes:
            hole = tuple((_finite(p[0], f"{where}: x"), _finite(p[1], f"{where}: y")) for p in ring)
            if len(hole) > 3 and hole[0] == hole[-1]:
                hole = hole[:-1]
            if len(hole) < 3:
                raise TableGeometryError(f"{where}: a hole needs at least 3 points")
            holes.append(hole)
        if holes and self.shape != "polygon":
            raise TableGeometryError(f"{where}: only a polygon has holes")
        object.__setattr__(self, "holes", tuple(holes))
        if self.shape == "polygon":
            if len(pts) < 3:
                raise TableGeometryError(f"{where}: a polygon needs at least 3 points")
        elif self.shape == "polyline":
            if len(pts) < 2:
                raise TableGeometryError(f"{where}: a polyline needs at least 2 points")
        elif self.shape == "circle":
            if len(pts) != 1:
                raise TableGeometryError(f"{where}: a circle has exactly one point, its centre")
            radius = _finite(self.radius, f"{where}: radius")
            if radius <= 0.0:
                raise TableGeometryError(f"{where}: a circle needs a positive radius")
            if radius < MIN_RADIUS:
                raise TableGeometryError(
                    f"{where}: a circle's radius is at least {MIN_RADIUS} inches"
                )
        else:
            raise TableGeometryError(f"{where}: unknown shape {self.shape!r}")
        object.__setattr__(self, "radius", _finite(self.radius, f"{where}: radius"))
        for name in ("move_cost", "beyond_reach", "cover", "height"):
            object.__setattr__(self, name, _finite(getattr(self, name), f"{where}: {name}"))
        if self.move_cost < 0.0:
            raise TableGeometryError(f"{where}: move_cost cannot be negative")
        if self.beyond_reach < 0.0:
            raise TableGeometryError(f"{where}: beyond_reach cannot be negative")
        if self.blocks_los not in ("yes", "no", "beyond"):
            raise TableGeometryError(
                f"{where}: blocks_los must be 'yes', 'no' or 'beyond', not {self.blocks_los!r}"
            )
        if self.see_depth is not None:
            depth = _finite(self.see_depth, f"{where}: see_depth")
            if depth < 0.0:
                raise TableGeometryError(f"{where}: see_depth cannot be negative")
            if self.blocks_los != "beyond" or self.shape == "polyline":
                raise TableGeometryError(
                    f"{where}: see_depth is only for areas that block sight 'beyond'"
                )
            object.__setattr__(self, "see_depth", depth)
        if self.crossing_cost is not None:
            cost = _finite(self.crossing_cost, f"{where}: crossing_cost")
            if cost < 0.0:
                raise TableGeometryError(f"{where}: crossing_cost cannot be negative")
            if not self.barrier:
                raise TableGeometryError(f"{where}: crossing_cost is only for barriers")
            object.__setattr__(self, "crossing_cost", cost)
        geometry = self.geometry
        if shapely.is_empty(geometry) or not shapely.is_valid(geometry):
            reason = shapely.is_valid_reason(geometry)
            raise TableGeometryError(f"{where}: the {self.shape} is not valid ({reason})")
        if self.shape != "polyline" and shapely.area(geometry) <= 0.0:
            raise TableGeometryError(f"{where}: the {self.shape} has no area")

    # -- constructors ---------------------------------------------------------------

    @classmethod
    def polygon(cls, id: str, points: Iterable[Sequence[float]], **properties: Any) -> Feature:
        """An area bounded by ``points`` (an open or closed ring)."""
        return cls(id, "polygon", tuple((p[0], p[1]) for p in points), **properties)

    @classmethod
    def polyline(cls, id: str, points: Iterable[Sequence[float]], **properties: Any) -> Feature:
        """A line through ``points`` (a wall, a hedge, a stream)."""
        return cls(id, "polyline", tuple((p[0], p[1]) for p in points), **properties)

    @classmethod
    def circle(cls, id: str, centre: Sequence[float], radius: float, **properties: Any) -> Feature:
        """A round area of ``radius`` inches about ``centre``."""
        return cls(id, "circle", ((centre[0], centre[1]),), radius=radius, **properties)

    # -- geometry -------------------------------------------------------------------

    @cached_property
    def geometry(self) -> shapely.Polygon | shapely.LineString:
        """The shapely geometry (Polygon, LineString, or the circle's polygon)."""
        if self.shape == "polygon":
            return shapely.Polygon(self.points, self.holes or None)
        if self.shape == "polyline":
            return shapely.LineString(self.points)
        (cx, cy) = self.points[0]
        centre = np.array([cx, cy])
        ring = centre + self.radius * _UNIT_CIRCLE
        return shapely.Polygon(ring)

    @cached_property
    def edges(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The outline's edges as arrays of start and end points (for swept-base contact)."""
        return boundary_edges(self.geometry)

    @property
    def is_area(self) -> bool:
        """True for polygons and circles (they have an inside), False for polylines."""
        return self.shape != "polyline"

    @property
    def blocks_movement(self) -> bool:
        """True if no base may overlap it: impassable, or a barrier that cannot be crossed."""
        return self.impassable or (self.barrier and self.crossing_cost is None)

    # -- plain data -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data: the view's feature shape plus every property (``see_depth`` when set)."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "shape": self.shape,
            "points": [[x, y] for x, y in self.points],
            "radius": self.radius,
            "label": self.label,
            "move_cost": self.move_cost,
            "impassable": self.impassable,
            "half_move": self.half_move,
            "blocks_los": self.blocks_los,
            "beyond_reach": self.beyond_reach,
            "cover": self.cover,
            "barrier": self.barrier,
            "crossing_cost": self.crossing_cost,
            "height": self.height,
            "destroyed": self.destroyed,
        }
        if self.see_depth is not None:
            out["see_depth"] = self.see_depth
        if self.holes:
            out["holes"] = [[[x, y] for x, y in ring] for ring in self.holes]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Feature:
        """The inverse of :meth:`to_dict`; only ``id``, ``shape`` and ``points`` are required."""
        from warbench.geometry.table.serial import FeatureSpec

        return FeatureSpec.model_validate(data).build()


def remains(feature: Feature, cut: shapely.Geometry, least: float = 0.0) -> list[Feature]:
    """What is left of ``feature`` once the area ``cut`` is taken away, largest first.

    ``[feature]`` itself if ``cut`` misses it; else its pieces, each a polygon
    (with holes where the cut lies inside it) or, for a line, a polyline, with
    every property of ``feature`` and its id (the caller names the pieces);
    ``[]`` if nothing is left. Pieces smaller than ``least`` (square inches; a
    line: inches long) are crumbs, dropped.
    """
    whole = feature.geometry
    if not shapely.intersects(whole, cut) or shapely.touches(whole, cut):
        return [feature]
    left = shapely.difference(whole, cut)
    if not shapely.is_valid(left):
        left = shapely.make_valid(left)
    line = not feature.is_area
    size = shapely.length if line else shapely.area
    parts = [
        p
        for p in shapely.get_parts(left)
        if shapely.get_type_id(p) == (1 if line else 3) and float(size(p)) > max(least, 0.0)
    ]
    parts.sort(key=lambda p: (-float(size(p)), *shapely.get_coordinates(p)[0].tolist()))
    out = []
    for part in parts:
        if line:
            points = tuple(map(tuple, shapely.get_coordinates(part).tolist()))
            piece = replace(feature, shape="polyline", points=points, radius=0.0, holes=())
        else:
            shell = shapely.get_coordinates(shapely.get_exterior_ring(part)).tolist()
            holes = tuple(
                tuple(map(tuple, shapely.get_coordinates(shapely.get_interior_ring(part, i))))
                for i in range(shapely.get_num_interior_rings(part))
            )
            piece = replace(
                feature,
                shape="polygon",
                points=tuple(map(tuple, shell)),
                radius=0.0,
                holes=holes,
            )
        out.append(piece)
    return out
