"""Checks every open-table scenario shares: ids, points near the table, bases set down.

VSGMR, MGV (and Invisible Enemy) validate their own schemas; what a table
scenario asks of its pieces is the same for all of them and lives here, so a
malformed file gets the same clear error whichever game it is for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final, Literal, Protocol, TypeVar

from pydantic import Field

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import (
    Base,
    Feature,
    Figure,
    Point,
    Table,
    TableGeometryError,
    Terrain,
    heading,
    overlapping,
)
from warbench.geometry.table.serial import (
    MAX_FEATURE_POINTS,
    TABLE_MARGIN,
    Distance,
    PointSpec,
    off_table_by,
)
from warbench.scenario.errors import listing
from warbench.scenario.schema import Key, Label, ScenarioModel


def shown(point: Point | Sequence[float]) -> str:
    """A point as a person wrote it: ``(18, 2.5)``."""
    return f"({point[0]:g}, {point[1]:g})"


def toward_centre(table: Table, at: Point) -> float:
    """Set-up facing when none is given: toward the middle of the table."""
    centre = (table.width / 2.0, table.height / 2.0)
    return round(heading(at, centre), 1) if at != centre else 0.0


class Ids:
    """Ids claimed so far in one file: unique regardless of case, and never a word
    of the ruleset's action language (a parser could not tell them apart)."""

    def __init__(self, file: str, reserved: Collection[str]) -> None:
        self.file = file
        self.reserved = reserved
        self.paths: dict[str, str] = {}

    def claim(self, ident: str, path: str) -> None:
        low = ident.lower()
        if low in self.reserved:
            raise ScenarioError(self.file, path, f"'{ident}' is a word of the action language")
        if low in self.paths:
            raise ScenarioError(self.file, path, f"duplicate id '{ident}' (also {self.paths[low]})")
        self.paths[low] = path


def check_points(file: str, path: str, table: Table, points: Sequence[Point]) -> None:
    """A feature's points lie on the table or within :data:`TABLE_MARGIN` of it."""
    for k, point in enumerate(points):
        if off_table_by(table, point) > TABLE_MARGIN:
            raise ScenarioError(
                file,
                f"{path}.points[{k}]",
                f"{shown(point)} is more than {TABLE_MARGIN:g} inches off the table",
            )


class Placed:
    """The bases set down so far, by the square cells their bounds touch, so that
    checking a new base for overlaps looks only at its neighbours (thousands of
    figures validate in a blink instead of comparing every pair)."""

    SIZE: Final = 4.0
    """Inches of a cell's side."""

    def __init__(self, file: str, table: Table, terrain: Terrain, piece: str = "figure") -> None:
        self.file = file
        self.table = table
        self.terrain = terrain
        self.piece = piece
        self.members: dict[tuple[int, int], list[int]] = {}
        self.figures: list[tuple[Figure, str]] = []

    def _cells(self, figure: Figure) -> list[tuple[int, int]]:
        xmin, ymin, xmax, ymax = figure.bounds
        pad = 0.01  # overlaps within rounding of touching still meet in a cell
        size = self.SIZE
        columns = range(math.floor((xmin - pad) / size), math.floor((xmax + pad) / size) + 1)
        rows = range(math.floor((ymin - pad) / size), math.floor((ymax + pad) / size) + 1)
        return [(c, r) for c in columns for r in rows]

    def place(
        self,
        path: str,
        ident: str,
        at: Sequence[float],
        facing: float | None,
        base: Base,
        side: str,
        kind: str,
    ) -> Figure:
        """The figure of a piece as the scenario places it at ``at``, facing ``facing``
        (by default toward the middle of the table), set down (:meth:`add`)."""
        x, y = float(at[0]), float(at[1])
        turned = facing if facing is not None else toward_centre(self.table, (x, y))
        if not math.isfinite(turned):
            raise ScenarioError(self.file, f"{path}.facing", "must be a number")
        figure = Figure(ident, x, y, turned, base, side, kind)
        self.add(figure, path)
        return figure

    def add(self, figure: Figure, path: str) -> None:
        """Set ``figure`` down: wholly on the table, off impassable terrain, on no other."""
        at = shown(figure.at)
        if not self.table.contains_bounds(figure.bounds):
            raise ScenarioError(
                self.file, f"{path}.at", f"the base at {at} is not wholly on the table"
            )
        core, radius = figure.solid
        blocked = self.terrain.movement_obstacles(core, radius)
        if blocked:
            raise ScenarioError(
                self.file, f"{path}.at", f"the base at {at} overlaps impassable '{blocked[0].id}'"
            )
        cells = self._cells(figure)
        for n in sorted({n for cell in cells for n in self.members.get(cell, ())}):
            other, other_path = self.figures[n]
            if overlapping(figure, other):
                raise ScenarioError(
                    self.file,
                    f"{path}.at",
                    f"the base overlaps {self.piece} '{other.id}' ({other_path})",
                )
        for cell in cells:
            self.members.setdefault(cell, []).append(len(self.figures))
        self.figures.append((figure, path))


__all__ = ["Ids", "Placed", "check_points", "shown", "toward_centre"]


# -- shared schema pieces and their checks -------------------------------------------------
ID_PATTERN: Final = r"^[A-Za-z][A-Za-z0-9_-]{0,15}$"
"""A piece's or feature's id in a table scenario: a letter, then letters, digits, - or _."""
Edge = Literal["north", "south", "east", "west"]


class FeatureSpec(ScenarioModel):
    """A terrain feature: a kind of the ruleset's terrain chart and a shape."""

    id: str = Field(pattern=ID_PATTERN)
    kind: Key
    label: Label = ""
    shape: Literal["polygon", "polyline", "circle"]
    points: list[PointSpec] = Field(min_length=1, max_length=MAX_FEATURE_POINTS)
    radius: Distance = 0.0


F = TypeVar("F", bound=FeatureSpec)
K = TypeVar("K")


def chart_features(
    file: str,
    specs: Sequence[F],
    table: Table,
    chart: Mapping[str, K],
    claim: Callable[[str, str], None],
    make: Callable[[str, F, K], Feature],
) -> tuple[list[Feature], dict[str, K]]:
    """Each feature's id claimed, its kind looked up in ``chart``, its points checked
    against the table, and the geometry feature ``make(path, spec, kind)`` built; also
    each feature's row of the chart, by id."""
    features: list[Feature] = []
    kinds: dict[str, K] = {}
    for i, ft in enumerate(specs):
        path = f"features[{i}]"
        claim(ft.id, f"{path}.id")
        kind = chart.get(ft.kind)
        if kind is None:
            raise ScenarioError(
                file,
                f"{path}.kind",
                f"unknown terrain '{excerpt(ft.kind)}'; known: {listing(chart)}",
            )
        check_points(file, path, table, ft.points)
        features.append(make(path, ft, kind))
        kinds[ft.id] = kind
    return features, kinds


def feature_from(file: str, path: str, spec: FeatureSpec, **properties: Any) -> Feature:
    """The geometry feature of a scenario's feature ``spec`` (at ``path``), with the
    ``properties`` its ruleset gives it; ScenarioError if its shape is unsound."""
    try:
        return Feature(
            spec.id,
            spec.shape,
            tuple(spec.points),
            radius=spec.radius,
            kind=spec.kind,
            **properties,
        )
    except TableGeometryError as exc:
        raise ScenarioError(file, path, str(exc)) from None


class ChartRow(Protocol):
    """A row of a ruleset's terrain chart, as a feature takes it."""

    @property
    def title(self) -> str: ...
    @property
    def move(self) -> float: ...


def chart_feature(
    file: str, path: str, spec: FeatureSpec, kind: ChartRow, **properties: Any
) -> Feature:
    """:func:`feature_from` for a row of a terrain chart: labelled by the row's title
    unless the file labels it, and costing the row's ``move`` per inch."""
    label = spec.label or kind.title
    return feature_from(file, path, spec, label=label, move_cost=kind.move, **properties)


def check_edge_run(
    file: str,
    what: str,
    side: str | None,
    edge: str | None,
    count: int,
    names: Sequence[str],
    pieces: Sequence[str],
) -> None:
    """A victory by getting ``count`` pieces of ``side`` off the table by ``edge`` (MGV's
    gauntlet, Invisible Enemy's breach): the side is one of ``names``, the edge is given,
    and the side has that many pieces (``pieces``: the side of every piece)."""
    if side not in names:
        raise ScenarioError(
            file, "victory.side", f"a {what} names the side making it: one of {', '.join(names)}"
        )
    if edge is None:
        raise ScenarioError(file, "victory.edge", f"a {what} names the edge to get off by")
    mine = sum(1 for s in pieces if s == side)
    if count > mine:
        bases = "base" if mine == 1 else "bases"
        raise ScenarioError(
            file, "victory.count", f"{side} has only {mine} {bases}, not the {count} asked"
        )
