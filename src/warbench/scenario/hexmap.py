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
"""

from __future__ import annotations

import itertools
from collections.abc import Collection

from pydantic import BaseModel, ConfigDict, Field

from warbench.errors import ScenarioError
from warbench.geometry.hexgrid import Hex, HexError, HexGrid, Hexside
from warbench.geometry.hexmap import HexMap


class HexsideGroup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    feature: str
    sides: list[str] = Field(min_length=1)


class HexMapSpec(BaseModel):
    """Schema of a hex map in a scenario file."""

    model_config = ConfigDict(extra="forbid")
    columns: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    terrain: str = "open"
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
            raise ScenarioError(file, path, f"'{text}' is not a hexside; write it as 0405/0406")
        try:
            return Hexside.of(hex_at(a, path), hex_at(b, path))
        except HexError as exc:
            raise ScenarioError(file, path, str(exc)) from None

    def known(name: str, names: Collection[str], what: str, path: str) -> None:
        if name not in names:
            raise ScenarioError(
                file, path, f"unknown {what} '{name}'; known: {', '.join(sorted(names))}"
            )

    known(spec.terrain, terrains, "terrain", "map.terrain")
    hexmap = HexMap(grid, spec.terrain)
    for name, labels in spec.hexes.items():
        known(name, terrains, "terrain", f"map.hexes.{name}")
        for i, label in enumerate(labels):
            h = hex_at(label, f"map.hexes.{name}[{i}]")
            if h in hexmap.terrain and hexmap.terrain[h] != name:
                raise ScenarioError(
                    file,
                    f"map.hexes.{name}[{i}]",
                    f"hex {label} is already {hexmap.terrain[h]}",
                )
            hexmap.terrain[h] = name
    for level, labels in spec.elevation.items():
        try:
            height = int(level)
        except ValueError:
            raise ScenarioError(
                file, f"map.elevation.{level}", "elevation levels are whole numbers"
            ) from None
        for i, label in enumerate(labels):
            hexmap.elevation[hex_at(label, f"map.elevation.{level}[{i}]")] = height
    for g, group in enumerate(spec.hexsides):
        known(group.feature, features, "hexside feature", f"map.hexsides[{g}].feature")
        for i, text in enumerate(group.sides):
            path = f"map.hexsides[{g}].sides[{i}]"
            side = side_at(text, path)
            if side in hexmap.hexsides:
                raise ScenarioError(
                    file, path, f"hexside {text} already has {hexmap.hexsides[side]}"
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
