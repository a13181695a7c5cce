"""A hex map: terrain per hex, elevation, features on hexsides, and roads.

Ruleset-independent: terrain and features are plain names; a ruleset decides
what they cost and whether they block sight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warbench.geometry.hexgrid import Hex, HexGrid, Hexside


@dataclass(slots=True)
class HexMap:
    """Terrain of each hex, elevation, hexside features and road links.

    A hexside carries at most one feature (``river``, ``hedgerow``, ``bridge``
    for a river crossed by a bridge, ``stream``...). A road is a set of
    hexsides it crosses: moving between two hexes along the road means the
    hexside between them is in ``roads``.
    """

    grid: HexGrid
    default_terrain: str
    terrain: dict[Hex, str] = field(default_factory=dict)
    elevation: dict[Hex, int] = field(default_factory=dict)
    hexsides: dict[Hexside, str] = field(default_factory=dict)
    roads: set[Hexside] = field(default_factory=set)
    _json: dict[str, object] | None = field(default=None, init=False, repr=False, compare=False)
    """:meth:`to_json`, made once: a map is filled in when its scenario is built and never
    changed after (every view of every action carries it)."""

    def terrain_at(self, h: Hex) -> str:
        return self.terrain.get(h, self.default_terrain)

    def elevation_at(self, h: Hex) -> int:
        return self.elevation.get(h, 0)

    def feature_between(self, a: Hex, b: Hex) -> str | None:
        return self.hexsides.get(Hexside.of(a, b))

    def road_between(self, a: Hex, b: Hex) -> bool:
        return Hexside.of(a, b) in self.roads

    def road_hexes(self) -> set[Hex]:
        return {h for side in self.roads for h in side.hexes}

    def to_json(self) -> dict[str, object]:
        """Plain data for views and renderers (labels, not Hex objects). The same object
        every call: read it, do not change it."""
        if self._json is None:
            self._json = self._plain()
        return self._json

    def _plain(self) -> dict[str, object]:
        terrain: dict[str, list[str]] = {}
        for h in self.grid.hexes:
            terrain.setdefault(self.terrain_at(h), []).append(h.label)
        return {
            "columns": self.grid.columns,
            "rows": self.grid.rows,
            "terrain": terrain,
            "elevation": {h.label: e for h, e in sorted(self.elevation.items()) if e},
            "hexsides": [
                {"feature": f, "hexes": [side.hexes[0].label, side.hexes[1].label]}
                for side, f in sorted(self.hexsides.items(), key=lambda kv: kv[0].hexes)
            ],
            "roads": [
                [side.hexes[0].label, side.hexes[1].label]
                for side in sorted(self.roads, key=lambda s: s.hexes)
            ],
        }
