"""The ``[map]`` table of a hex scenario: schema, and building a HexMap from it.

```toml
[map]
columns = 16
rows = 12
terrain = "open"                       # every hex not listed below
hexes = { forest = ["0203", "0204"], town = ["0806"] }
elevation = { 1 = ["1203"], 2 = ["1204"] }
hexsides = [ { feature = "river", sides = ["0405/0406", "0505/0506"] } ]
roads = [ ["0101", "0201", "0302"] ]    # each a chain of adjacent hexes
```

The limits of a hex scenario are here: :data:`MAX_MAP_SIZE` columns and
rows, :data:`MAX_UNITS` units (the rulesets count them), elevations within
:data:`MAX_ELEVATION`; hex labels are at most
:data:`~warbench.geometry.hexgrid.MAX_LABEL_DIGITS` digits.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection
from typing import Final

from pydantic import Field

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.hexgrid import Hex, HexError, HexGrid, Hexside
from warbench.geometry.hexmap import HexMap
from warbench.scenario.errors import listing
from warbench.scenario.schema import Key, ScenarioModel

MAX_MAP_SIZE: Final = 99
"""Columns and rows of a hex map, each (labels keep two digits per part)."""
MAX_UNITS: Final = 2_000
"""Units (each squad of a counter counted) in a hex scenario."""
MAX_ELEVATION: Final = 99
"""Elevation levels run from -MAX_ELEVATION to MAX_ELEVATION."""

_LEVEL = re.compile(r"-?[0-9]{1,3}")


def check_unit_count(file: str, count: int, path: str = "forces") -> None:
    """Refuse a scenario with more than :data:`MAX_UNITS` units."""
    if count > MAX_UNITS:
        raise ScenarioError(file, path, f"{count:,} units; a scenario has at most {MAX_UNITS:,}")


class HexsideGroup(ScenarioModel):
    feature: Key
    sides: list[str] = Field(min_length=1)


class HexMapSpec(ScenarioModel):
    """Schema of a hex map in a scenario file."""

    columns: int = Field(ge=1, le=MAX_MAP_SIZE)
    rows: int = Field(ge=1, le=MAX_MAP_SIZE)
    terrain: Key = "open"
    hexes: dict[str, list[str]] = Field(default_factory=dict)
    elevation: dict[str, list[str]] = Field(default_factory=dict)
    hexsides: list[HexsideGroup] = Field(default_factory=list)
    roads: list[list[str]] = Field(default_factory=list)


def build_hexmap(
    spec: HexMapSpec,
    file: str,
    terrains: Collection[str],
    features: Collection[str],
) -> HexMap:
    """Check every label and name of ``spec`` and build the map.

    Errors name the field: an unknown terrain, a hex off the map, a hexside
    between hexes that are not adjacent, a road with a gap.
    """
    grid = HexGrid(spec.columns, spec.rows)

    def hex_at(label: str, path: str) -> Hex:
        try:
            return grid.parse(label)
        except HexError as exc:
            raise ScenarioError(file, path, str(exc)) from None

    def side_at(text: str, path: str) -> Hexside:
        a, sep, b = text.partition("/")
        if not sep:
            raise ScenarioError(
                file, path, f"'{excerpt(text)}' is not a hexside; write it as 0405/0406"
            )
        try:
            return Hexside.of(hex_at(a, path), hex_at(b, path))
        except HexError as exc:
            raise ScenarioError(file, path, str(exc)) from None

    def known(name: str, names: Collection[str], what: str, path: str) -> None:
        if name not in names:
            raise ScenarioError(
                file,
                path,
                f"unknown {what} '{excerpt(name)}'; known: {listing(names)}",
            )

    known(spec.terrain, terrains, "terrain", "map.terrain")
    hexmap = HexMap(grid, spec.terrain)
    for name, labels in spec.hexes.items():
        where = f"map.hexes.{excerpt(name, 40)}"
        known(name, terrains, "terrain", where)
        for i, label in enumerate(labels):
            h = hex_at(label, f"{where}[{i}]")
            if h in hexmap.terrain and hexmap.terrain[h] != name:
                raise ScenarioError(
                    file, f"{where}[{i}]", f"hex {h.label} is already {hexmap.terrain[h]}"
                )
            hexmap.terrain[h] = name
    for level, labels in spec.elevation.items():
        where = f"map.elevation.{excerpt(level, 40)}"
        if not _LEVEL.fullmatch(level) or abs(int(level)) > MAX_ELEVATION:
            raise ScenarioError(
                file,
                where,
                f"elevation levels are whole numbers from -{MAX_ELEVATION} to {MAX_ELEVATION}",
            )
        height = int(level)
        for i, label in enumerate(labels):
            hexmap.elevation[hex_at(label, f"{where}[{i}]")] = height
    for g, group in enumerate(spec.hexsides):
        known(group.feature, features, "hexside feature", f"map.hexsides[{g}].feature")
        for i, text in enumerate(group.sides):
            path = f"map.hexsides[{g}].sides[{i}]"
            side = side_at(text, path)
            if side in hexmap.hexsides:
                raise ScenarioError(
                    file, path, f"hexside {excerpt(text)} already has {hexmap.hexsides[side]}"
                )
            hexmap.hexsides[side] = group.feature
    for r, chain in enumerate(spec.roads):
        hexes = [hex_at(label, f"map.roads[{r}][{i}]") for i, label in enumerate(chain)]
        if len(hexes) < 2:
            raise ScenarioError(file, f"map.roads[{r}]", "a road needs at least two hexes")
        for i, (a, b) in enumerate(itertools.pairwise(hexes)):
            if a.distance(b) != 1:
                raise ScenarioError(
                    file,
                    f"map.roads[{r}][{i + 1}]",
                    f"road jumps from {a.label} to {b.label}; they are not adjacent",
                )
            hexmap.roads.add(Hexside.of(a, b))
    return hexmap
