"""Checks every open-table scenario shares: ids, points near the table, bases set down.

VSGMR, MGV (and Invisible Enemy) validate their own schemas; what a table
scenario asks of its pieces is the same for all of them and lives here, so a
malformed file gets the same clear error whichever game it is for.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Final

from warbench.errors import ScenarioError
from warbench.geometry.table import Figure, Point, Table, Terrain, heading, overlapping
from warbench.geometry.table.serial import TABLE_MARGIN, off_table_by


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
