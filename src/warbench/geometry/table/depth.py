"""How deep a straight line runs into a convex area, by half-planes.

Sight through an area seen into to a depth (woods: ``see_depth``) is decided by the
length of the line inside it, as shapely measures ``length(intersection(line, area))``.
Across a convex polygon that length is the part of the line inside all its
half-planes, found with a few numpy passes for many lines at once. A caller measures
with shapely only the lines where that is not clear by far more than rounding: lines
nearly parallel to an edge (:data:`PARALLEL`) and lengths within :data:`DEPTH_MARGIN`
of the limit, so every decision is the one shapely's measure gives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
Planes = tuple[FloatArray, FloatArray]
"""``(normals, offsets)``: a convex polygon as ``normals @ p <= offsets``."""

PARALLEL = 1e-3
"""A line this close to parallel to an edge (sine of the angle) is measured by shapely."""
DEPTH_MARGIN = 1e-7
"""Inches within which a depth crossed worked out by half-planes is too near the limit to
decide on (shapely then measures it, as for every other shape)."""


def half_planes(geometry: Any) -> Planes | None:
    """A convex polygon as half-planes ``normals @ p <= offsets`` (outward normals, one
    per edge), or None if the shape is not a convex polygon without holes."""
    if shapely.get_type_id(geometry) != 3 or shapely.get_num_interior_rings(geometry):
        return None
    xy = np.asarray(shapely.get_coordinates(shapely.get_exterior_ring(geometry)))[:-1]
    if len(xy) < 3:
        return None
    edges = np.roll(xy, -1, axis=0) - xy
    if float(np.sum(xy[:, 0] * np.roll(xy[:, 1], -1) - np.roll(xy[:, 0], -1) * xy[:, 1])) < 0:
        xy = xy[::-1]  # counter-clockwise
        edges = np.roll(xy, -1, axis=0) - xy
    keep = np.hypot(edges[:, 0], edges[:, 1]) > 0.0
    xy, edges = xy[keep], edges[keep]
    if len(xy) < 3:
        return None
    following = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    if (turns < 0.0).any():
        return None
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1)
    return normals, np.sum(normals * xy, axis=1)


def deeper_than(
    planes: Planes, start: FloatArray, end: FloatArray, limit: float
) -> tuple[BoolArray, BoolArray]:
    """For each segment ``start[i]``-``end[i]``: whether it runs more than ``limit`` into
    the convex polygon ``planes``, and whether that answer is sure (else shapely must
    measure it: a null segment, one nearly parallel to an edge, or a depth within
    :data:`DEPTH_MARGIN` of the limit)."""
    normals, offsets = planes
    d = end - start
    size = np.hypot(d[:, 0], d[:, 1])
    den = d @ normals.T
    num = offsets[None, :] - start @ normals.T
    scale = size[:, None] * np.hypot(normals[:, 0], normals[:, 1])[None, :]
    sure: BoolArray = (size > 0.0) & (np.abs(den) >= PARALLEL * scale).all(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = num / den
    first = np.maximum(0.0, np.where(den < 0.0, t, -np.inf).max(axis=1))
    last = np.minimum(1.0, np.where(den > 0.0, t, np.inf).min(axis=1))
    depth = np.maximum(0.0, last - first) * size
    sure &= np.abs(depth - limit) > DEPTH_MARGIN
    over: BoolArray = depth > limit
    return over, sure
