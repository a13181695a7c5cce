"""Hex maps: terrain, hexsides, roads, and the units' counters."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from warbench.geometry.hexgrid import Hex, Layout
from warbench.render.svg.base import (
    BOLD,
    BRIDGE,
    BRIDGE_WORDS,
    CENTRED,
    CONTOUR,
    COUNTER_H,
    COUNTER_W,
    DECORATION,
    DISRUPTED_RING,
    FALLBACK_FILLS,
    HEX_EDGE,
    HEX_SIZE,
    HEXSIDE_ALIASES,
    HEXSIDE_STYLES,
    MARGIN,
    OTHER_HEXSIDE,
    ROAD_CASING,
    ROAD_FILL,
    SHADOW,
    Entry,
    Point,
    RenderError,
    Style,
    Swatch,
    _add,
    _circle,
    _darker,
    _fill_for,
    _fmt,
    _hexagon,
    _line,
    _polygon,
    _rect,
    _text,
)
from warbench.render.svg.board import _Board
from warbench.render.svg.legend import _Legend, _line_swatch, _side_entries, _status_entries
from warbench.render.svg.pieces import _badges, _piece_group, _prominent, _side_colours, _Styles


@dataclass(slots=True)
class _HexCell:
    label: str
    hex: Hex
    centre: Point
    terrain: str = ""
    elevation: int = 0
    units: list[Mapping[str, Any]] = field(default_factory=list)


class _HexBoard(_Board):
    """A hex map: flat-topped hexes in columns, even columns half a hex lower (as text.py)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        board = view["map"]
        try:
            self.columns, self.rows = int(board["columns"]), int(board["rows"])
        except (KeyError, TypeError, ValueError):
            raise RenderError("map: 'columns' and 'rows' must be whole numbers") from None
        self.board = board
        self.size = HEX_SIZE
        self.range_px = math.sqrt(3) * self.size
        half = math.sqrt(3) / 2 * self.size
        self.origin = (self.size + MARGIN, half + MARGIN)
        self.width = 1.5 * self.size * (self.columns - 1) + 2 * self.size + 2 * MARGIN
        self.height = 2 * half * self.rows + (half if self.columns > 1 else 0) + 2 * MARGIN
        self.cells: dict[str, _HexCell] = {}
        for column in range(1, self.columns + 1):
            for row in range(1, self.rows + 1):
                h = Hex.from_offset(column, row)
                x, y = Layout.hex_to_pixel(h, self.size)
                self.cells[h.label] = _HexCell(h.label, h, (x + self.origin[0], y + self.origin[1]))
        for terrain, labels in dict(board.get("terrain", {})).items():
            for label in labels:
                if label in self.cells:
                    self.cells[label].terrain = str(terrain)
        for label, height in dict(board.get("elevation", {})).items():
            if label in self.cells:
                self.cells[label].elevation = int(height)
        self.units = [dict(u) for u in view.get("units", ()) or ()]
        for unit in self.units:
            cell = self.cells.get(str(unit.get("at")))
            if cell is not None:
                cell.units.append(unit)
        self.styles = _Styles(_side_colours(view, self.units), _prominent(view))
        self.ratings_key = str(view.get("ratings_key") or "")
        """What the small print under a counter's id says (the view's own words)."""
        for placed in (u for cell in self.cells.values() for u in cell.units):
            for status in _unit_statuses(placed):
                self.styles.add_status(status)
        self.titles = dict(view.get("titles", {}) or {})
        counts: dict[str, int] = {}
        for cell in self.cells.values():
            counts[cell.terrain] = counts.get(cell.terrain, 0) + 1
        spare = iter(FALLBACK_FILLS * (1 + len(counts)))
        by_area = sorted(counts, key=lambda name: (-counts[name], name))
        self.fills = {name: _fill_for(name, spare) for name in by_area}

    def corners(self, cell: _HexCell, scale: float = 1.0) -> list[Point]:
        x0, y0 = self.origin
        cx, cy = cell.centre
        return [
            (cx + (x + x0 - cx) * scale, cy + (y + y0 - cy) * scale)
            for x, y in Layout.corners(cell.hex, self.size)
        ]

    def shared_edge(self, a: _HexCell, b: _HexCell) -> tuple[Point, Point] | None:
        """The two corners hexes ``a`` and ``b`` share (None if they are not neighbours)."""
        theirs = self.corners(b)
        common = [p for p in self.corners(a) if any(math.dist(p, q) < 0.01 for q in theirs)]
        return (common[0], common[1]) if len(common) == 2 else None

    def place(self, point: Any, where: str) -> Point:
        cell = self.cells.get(point) if isinstance(point, str) else None
        if cell is None:
            raise RenderError(f"{where}: {point!r} is not a hex label on this map")
        return cell.centre

    def cut(self, point: Any) -> float:
        cell = self.cells.get(point) if isinstance(point, str) else None
        return COUNTER_W / 2 + 1 if cell is not None and cell.units else 0.0

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, parent: ET.Element, under_pieces: Callable[[ET.Element], None]) -> None:
        board = _add(parent, "g", class_="board hexmap")
        terrain = _add(board, "g", class_="terrain")
        for cell in self.cells.values():
            style = {**HEX_EDGE, "fill": self.fills.get(cell.terrain, "#eeeeee")}
            _polygon(
                terrain,
                self.corners(cell),
                style,
                class_="hex",
                data_hex=cell.label,
                data_terrain=cell.terrain,
            )
        # Decorations never take a click: a click anywhere in a hex is that hex's (or
        # its counter's), whatever road, river, symbol or label is drawn over it.
        symbols = _add(board, "g", DECORATION, class_="symbols")
        for cell in self.cells.values():
            _terrain_symbol(symbols, cell.terrain, cell.centre, self.size)
        contours = _add(board, "g", DECORATION, class_="elevation")
        for cell in self.cells.values():
            # One ring per level inside a raised hex (dashed below zero).
            dash = "4 3" if cell.elevation < 0 else None
            for level in range(min(abs(cell.elevation), 3)):
                ring = self.corners(cell, 0.86 - 0.12 * level)
                _polygon(
                    contours,
                    ring,
                    CONTOUR,
                    stroke_dasharray=dash,
                    data_hex=cell.label,
                    data_elevation=cell.elevation,
                )
        self._draw_hexsides(_add(board, "g", DECORATION, class_="hexsides"))
        self._draw_roads(_add(board, "g", DECORATION, class_="roads"))
        labels = _add(board, "g", {**CENTRED, **DECORATION}, class_="labels", fill="#4a4a4a")
        for cell in self.cells.values():
            _text(labels, (cell.centre[0], cell.centre[1] - 0.56 * self.size), cell.label, 8.5)
        under_pieces(board)
        units = _add(board, "g", class_="units")
        for cell in self.cells.values():
            for depth, unit in reversed(list(enumerate(cell.units))):
                self._draw_counter(units, cell, unit, depth)

    def _pair(self, labels: Any, where: str) -> tuple[_HexCell, _HexCell]:
        pair = [str(h) for h in labels or ()]
        if len(pair) != 2 or not all(h in self.cells for h in pair):
            raise RenderError(f"{where}: {pair!r} is not two hexes of the map")
        return self.cells[pair[0]], self.cells[pair[1]]

    def _draw_hexsides(self, group: ET.Element) -> None:
        bridges = []
        for index, side in enumerate(self.board.get("hexsides", ()) or ()):
            feature = str(side.get("feature"))
            a, b = self._pair(side.get("hexes"), f"map.hexsides[{index}]")
            edge = self.shared_edge(a, b)
            if edge is None:
                raise RenderError(f"map.hexsides[{index}]: {a.label} and {b.label} do not touch")
            if _is_bridge(feature):
                bridges.append((a, b, feature))
                continue
            _line(
                group,
                *edge,
                _hexside_style(feature),
                class_="hexside",
                data_feature=feature,
                data_hexes=f"{a.label}/{b.label}",
            )
        for a, b, feature in bridges:  # over the rivers they cross
            _bridge(
                group,
                a.centre,
                b.centre,
                self.size,
                data_feature=feature,
                data_hexes=f"{a.label}/{b.label}",
            )

    def _draw_roads(self, group: ET.Element) -> None:
        pairs = [
            self._pair(pair, f"map.roads[{index}]")
            for index, pair in enumerate(self.board.get("roads", ()) or ())
        ]
        # Casings first, then the fills, so joins between segments look continuous.
        for style in (ROAD_CASING, ROAD_FILL):
            for a, b in pairs:
                _line(
                    group,
                    a.centre,
                    b.centre,
                    style,
                    class_="road",
                    data_hexes=f"{a.label}/{b.label}",
                )

    def _draw_counter(
        self, parent: ET.Element, cell: _HexCell, unit: Mapping[str, Any], depth: int
    ) -> None:
        """A counter in the side's colour with its id and status badges; stacked ones offset."""
        colour = self.styles.side_colour(unit.get("side"))
        x = cell.centre[0] - COUNTER_W / 2 + 4 * depth
        y = cell.centre[1] - 0.36 * self.size - 4 * depth
        group = _piece_group(parent, "unit", unit, data_hex=cell.label)
        _add(group, "rect", SHADOW, x=x + 1.5, y=y + 1.5, width=COUNTER_W, height=COUNTER_H, rx=3)
        face = {"fill": colour, "stroke": _darker(colour, 0.5), "stroke-width": 1.2}
        _add(group, "rect", face, x=x, y=y, width=COUNTER_W, height=COUNTER_H, rx=3)
        ratings = _rating_lines(str(unit.get("ratings") or ""))
        # The id, and under it the ratings (on two lines when long) where the view gives them.
        ident = str(unit.get("id", "?"))
        size = min(14.0, (COUNTER_W - 4) / (0.68 * max(len(ident), 1)))  # long ids shrink to fit
        if len(ratings) == 2:
            size = min(size, 10.5)
            centre = (x + COUNTER_W / 2, y + 0.36 * COUNTER_H)
        elif ratings:
            size = min(size, 12.0)
            centre = (x + COUNTER_W / 2, y + COUNTER_H / 2 + 2)
        else:
            centre = (x + COUNTER_W / 2, y + COUNTER_H / 2 + 5)
        _text(group, centre, ident, size, {**BOLD, **CENTRED}, fill="white")
        if ratings:
            small = min(8.5, (COUNTER_W - 3) / (0.6 * max(len(line) for line in ratings)))
            for k, line in enumerate(ratings):
                bottom = (x + COUNTER_W / 2, y + COUNTER_H - 2.5 - (len(ratings) - 1 - k) * small)
                _text(group, bottom, line, small, CENTRED, fill="white", class_="ratings")
        statuses = _unit_statuses(unit)
        if any(status in self.styles.prominent for status in statuses):
            ring = {"fill": "none", "stroke": DISRUPTED_RING, "stroke-width": 3}
            _add(
                group,
                "rect",
                ring,
                x=x - 1,
                y=y - 1,
                width=COUNTER_W + 2,
                height=COUNTER_H + 2,
                rx=4,
            )
        _badges(group, self.styles, statuses, (x + COUNTER_W - 2, y + 1), 5.5)

    # -- legend -----------------------------------------------------------------------------
    def legend(self, legend: _Legend) -> None:
        def hexagon(name: str, fill: str) -> Swatch:
            def swatch(g: ET.Element, x: float, y: float) -> None:
                _polygon(g, _hexagon((x + 13, y + 8), 11), {**HEX_EDGE, "fill": fill})
                _terrain_symbol(g, name, (x + 13, y + 3), 13)

            return swatch

        legend.section("Terrain", [(hexagon(n, f), n) for n, f in self.fills.items() if n])
        legend.section("Map features", self._feature_entries())

        def counter(colour: str) -> Swatch:
            face = {"fill": colour, "stroke": _darker(colour, 0.5)}
            return lambda g, x, y: _add(g, "rect", face, x=x + 3, y=y, width=22, height=16, rx=2)

        on_map = {str(u.get("id")) for c in self.cells.values() for u in c.units}
        sides = _side_entries(self.styles, self.titles, self.units, on_map, "map", counter)
        legend.section("Sides", sides)
        if self.ratings_key:
            legend.section("Counters", [(counter("#777777"), f"under the id: {self.ratings_key}")])
        legend.section("Markers", _status_entries(self.styles))

    def _feature_entries(self) -> list[Entry]:
        entries: list[Entry] = []
        for feature in sorted({str(s.get("feature")) for s in self.board.get("hexsides", ())}):
            if _is_bridge(feature):
                symbol = lambda g, x, y: _bridge(g, (x + 3, y + 8), (x + 23, y + 8), 13)  # noqa: E731
                entries.append((symbol, f"{feature} (across a hexside)"))
            else:
                style = _hexside_style(feature)
                entries.append((_line_swatch(style), f"{feature} (along a hexside)"))
        if self.board.get("roads"):
            entries.append((_line_swatch(ROAD_CASING, ROAD_FILL), "road (from hex to hex)"))
        heights = sorted({c.elevation for c in self.cells.values() if c.elevation})
        if heights:
            ring = lambda g, x, y: _polygon(g, _hexagon((x + 13, y + 8), 10), CONTOUR)  # noqa: E731
            shown = ", ".join(str(h) for h in heights)
            entries.append((ring, f"hill: a brown ring per level of height (heights {shown})"))
        return entries


def _rating_lines(ratings: str) -> list[str]:
    """A counter's ratings on one line, or on two when long ("A3 R2 D3 M3" as "A3 R2" over
    "D3 M3"), so that they print large enough to read."""
    words = ratings.split()
    if len(ratings) <= 7 or len(words) < 2:
        return [ratings] if ratings else []
    cut = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(ratings) / 2))
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def _unit_statuses(unit: Mapping[str, Any]) -> list[str]:
    """``disrupted`` (the hex contract's flag) plus any free-text ``status`` flags."""
    statuses = ["disrupted"] if unit.get("disrupted") else []
    for status in unit.get("status", ()) or ():
        if str(status) not in statuses:
            statuses.append(str(status))
    return statuses


def _is_bridge(feature: str) -> bool:
    return any(word in feature.lower() for word in BRIDGE_WORDS)


def _hexside_style(feature: str) -> Style:
    return HEXSIDE_STYLES.get(HEXSIDE_ALIASES.get(feature, feature), OTHER_HEXSIDE)


def _terrain_symbol(parent: ET.Element, terrain: str, centre: Point, size: float) -> None:
    """A small drawing that tells the terrain without colour: trees, houses, reeds, waves, rocks."""
    lower = terrain.lower()
    cx, cy = centre
    s = size / 32

    def at(dx: float, dy: float) -> Point:
        return cx + dx * s, cy + dy * s

    if any(w in lower for w in ("forest", "wood", "tree", "jungle")):
        for dx, dy in ((-14, 14), (0, 17), (14, 14)):
            tree = {"fill": "#4f7f3a", "stroke": "#2f5a22", "stroke-width": 0.7}
            _circle(parent, at(dx, dy), 4.2 * s, tree)
    elif any(w in lower for w in ("town", "village", "city", "building", "house")):
        for dx, dy in ((-15, 12), (-5, 16), (6, 12), (15, 16)):
            x, y = at(dx - 3, dy - 3)
            _rect(parent, x, y, 6 * s, 5 * s, {"fill": "#7b6d5f"})
    elif any(w in lower for w in ("marsh", "swamp", "bog")):
        reeds = {"stroke": "#3d6b55", "stroke-width": 0.9, "fill": "none"}
        for dx in (-12, 0, 12):
            for top in (-2.5, 0, 2.5):
                _line(parent, at(dx + top * 0.4, 18), at(dx + top, 13.5), reeds)
            _line(parent, at(dx - 4, 18), at(dx + 4, 18), reeds)
    elif any(w in lower for w in ("lake", "water", "sea", "pond", "ocean")):
        for dy in (10, 17):
            (x, y), step = at(-12, dy), 6 * s
            d = f"M{_fmt(x)},{_fmt(y)} q{_fmt(step / 2)},{_fmt(-step / 2)} {_fmt(step)},0"
            d += f" t{_fmt(step)},0" * 3
            _add(parent, "path", {"stroke": "#2b6cb0", "stroke-width": 1, "fill": "none"}, d=d)
    elif any(w in lower for w in ("rough", "rock", "rubble", "broken")):
        for dx, dy in ((-13, 15), (0, 18), (12, 14)):
            rock = [at(dx - 3.5, dy + 2), at(dx, dy - 3.5), at(dx + 3.5, dy + 2)]
            _polygon(parent, rock, {"fill": "#8c7447"})


def _bridge(parent: ET.Element, a: Point, b: Point, size: float, **kw: object) -> None:
    """A bridge deck across the hexside between hex centres ``a`` and ``b``."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    along, across = 0.5 * size, 0.22 * size
    deck = [
        (mx + i * ux * along - j * uy * across, my + i * uy * along + j * ux * across)
        for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    _polygon(parent, deck, BRIDGE, class_="hexside" if kw else None, **kw)
