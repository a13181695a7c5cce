"""Sizes, colours and styles of the pictures, and the small SVG building helpers
every part of the renderer uses."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from warbench.errors import WarbenchError

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

Point = tuple[float, float]
Style = Mapping[str, object]
"""SVG presentation attributes, e.g. ``{"stroke": "#222", "stroke-width": 2}``."""
Swatch = Callable[[ET.Element, float, float], object]
"""Draws a legend symbol in the 26 x 16 box whose top-left corner is given."""
Entry = tuple[Swatch | None, str]
"""One legend line: a symbol (or none) and what it means."""

MARGIN = 16
HEX_SIZE = 32.0
"""Centre-to-corner distance of a hex."""
COUNTER_W, COUNTER_H = 1.2 * HEX_SIZE, 0.94 * HEX_SIZE
ARROW_PATH, ARROW_SIGHT = 13.0, 11.0
"""Arrowhead lengths of movement paths and sight lines."""
TABLE_PX = 760.0
"""The longer side of a table is drawn about this long..."""
TABLE_SCALE_LIMITS = (6.0, 28.0)
"""...within these pixels per inch."""
LOG_RADIUS = 23.0
"""Radius of the hull diagram drawn beside a figure that has a ``log``."""
LOG_MAX_RINGS, LOG_MAX_CIRCLES = 6, 48
PEG_RADIUS = 4.5
"""Radius of a marker peg (a status badge is 5)."""
LEGEND_W = 270
LEGEND_CHARS = 36
"""Characters per legend line at the legend's font size (a safe estimate)."""

SIDE_COLOURS = {
    "blue": "#2b5ca8",
    "red": "#b3261e",
    "green": "#2e7d32",
    "purple": "#7b3fa0",
    "orange": "#c77700",
    "teal": "#00838f",
}
"""Side colours by name, in order of use (see :mod:`.palette`)."""
STATUS_COLOURS = ("#6a1b9a", "#00695c", "#e65100", "#37474f", "#ad1457", "#4e342e")
DISRUPTED_COLOUR = "#d50000"
DISRUPTED_RING = "#ffc400"
"""A disrupted (or marked) counter also gets an outline in this colour, seen on any side's."""
SIGHT_CLEAR, SIGHT_BLOCKED = "#1b9e3a", "#d62828"
LOG_MARK_COLOURS = ("#37474f", "#d50000", "#7b1fa2", "#ff8f00", "#1565c0", "#2e7d32")
"""Fills of marked log circles, by the mark (A, G, M, S, Y and 0, 6 take the first; B, H,
N, T, Z and 1, 7 the second...): a mark keeps its colour from picture to picture."""
LOG_UNMARKED: Style = {"fill": "white", "stroke": "#7a7a7a", "stroke-width": 0.9}
ARC_COLOUR = "#e0a800"
FALLBACK_FILLS = ("#d7b5d8", "#c7d9a7", "#f2c9a0", "#b7c9e2", "#e3d3a3", "#c9c9c9")

TERRAIN_FILLS: Sequence[tuple[tuple[str, ...], str]] = (
    (("open", "clear", "grass", "field"), "#eef0d6"),
    (("forest", "wood", "tree", "jungle"), "#8dbb73"),
    (("rough", "rock", "rubble", "broken"), "#d3bc8a"),
    (("marsh", "swamp", "bog"), "#b4d3c0"),
    (("town", "village", "city", "building", "house", "ruin"), "#cdc3b5"),
    (("lake", "water", "sea", "river", "pond", "stream", "ocean"), "#8ebfe6"),
    (("hill", "mountain", "ridge"), "#dcc48f"),
    (("desert", "sand", "beach"), "#f0dfa8"),
    (("road", "track", "path"), "#e2c893"),
    (("wall", "fence", "barrier"), "#8a8a8a"),
    (("hedge",), "#4f8a3c"),
    (("crop", "orchard", "farm"), "#e6dc94"),
)
"""Fill colours by a word the terrain or feature name contains; others get ``FALLBACK_FILLS``."""

ROUND: Style = {"stroke-linecap": "round", "stroke-linejoin": "round"}
HEXSIDE_STYLES: Mapping[str, Style] = {
    "river": {"stroke": "#2b6cb0", "stroke-width": 6, **ROUND},
    "stream": {"stroke": "#4a9ee0", "stroke-width": 3.5, **ROUND},
    "hedgerow": {"stroke": "#2f6b2f", "stroke-width": 5, "stroke-dasharray": "0.1 5", **ROUND},
    "wall": {"stroke": "#5a5a5a", "stroke-width": 4},
    "cliff": {"stroke": "#6b4226", "stroke-width": 4, "stroke-dasharray": "6 2"},
}
"""How a hexside feature is drawn along its hexside (a bridge is drawn as a deck across it)."""
OTHER_HEXSIDE: Style = {"stroke": "#c2185b", "stroke-width": 4, **ROUND}
HEXSIDE_ALIASES = {"hedge": "hedgerow", "brook": "stream", "creek": "stream", "fence": "wall"}
BRIDGE_WORDS = ("bridge", "ford")
HEX_EDGE: Style = {"stroke": "#8c8c7c", "stroke-width": 0.8}
CONTOUR: Style = {"fill": "none", "stroke": "#9a5b24", "stroke-width": 1.8}
ROAD_CASING: Style = {"stroke": "#8a6a3a", "stroke-width": 7, **ROUND}
ROAD_FILL: Style = {"stroke": "#ead2a0", "stroke-width": 4, **ROUND}
BRIDGE: Style = {"fill": "#b08050", "stroke": "#4e3218", "stroke-width": 1.5}
SHADOW: Style = {"fill": "#000", "fill-opacity": 0.25}
HALO: Style = {"stroke": "white", "stroke-width": 3, "stroke-linejoin": "round"}
BOLD: Style = {"font-weight": "bold"}
CENTRED: Style = {"text-anchor": "middle"}
DECORATION: Style = {"pointer-events": "none"}
"""On what is drawn over the board only to be seen (roads, rivers, symbols, labels, the
grid, overlays): a click passes through it to the hex or table beneath."""
ARC_STYLE: Style = {
    "fill": ARC_COLOUR,
    "fill-opacity": 0.22,
    "stroke": "#8a6800",
    "stroke-width": 1.5,
    "stroke-dasharray": "6 3",
}


class RenderError(WarbenchError, ValueError):
    """A view or an annotation the renderer cannot draw; the message says which part."""


def _fmt(value: object) -> str:
    """Numbers with at most two decimals; everything else as text XML can hold."""
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return xml_safe(str(value))


def xml_safe(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold (control characters, lone
    surrogates) written as escapes, so no name can break the document.

    >>> print(xml_safe("a" + chr(1) + "b"))
    a\\x01b
    """
    if all(_xml_char(ch) for ch in text):
        return text
    return "".join(ch if _xml_char(ch) else f"\\x{ord(ch):02x}" for ch in text)


def _xml_char(ch: str) -> bool:
    code = ord(ch)
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or code >= 0x10000
    )


def _add(parent: ET.Element, tag: str, style: Style | None = None, /, **kw: object) -> ET.Element:
    """A child element with ``style`` plus keyword attributes (``class_`` -> ``class``,
    ``stroke_width`` -> ``stroke-width``); None values are left out.

    ElementTree escapes text and attribute values, so names from scenario files
    cannot break the document.
    """
    attrs: dict[str, str] = {}
    for key, value in {**(style or {}), **kw}.items():
        if value is not None:
            attrs[key.rstrip("_").replace("_", "-")] = _fmt(value)
    return ET.SubElement(parent, tag, attrs)


def _line(parent: ET.Element, a: Point, b: Point, style: Style, **kw: object) -> ET.Element:
    return _add(parent, "line", style, x1=a[0], y1=a[1], x2=b[0], y2=b[1], **kw)


def _polygon(parent: ET.Element, points: Iterable[Point], style: Style, **kw: object) -> None:
    _add(parent, "polygon", style, points=_points(points), **kw)


def _circle(parent: ET.Element, centre: Point, r: float, style: Style, **kw: object) -> None:
    _add(parent, "circle", style, cx=centre[0], cy=centre[1], r=r, **kw)


def _rect(parent: ET.Element, x: float, y: float, w: float, h: float, style: Style) -> None:
    _add(parent, "rect", style, x=x, y=y, width=w, height=h)


def _text(
    parent: ET.Element, at: Point, text: str, size: float, style: Style | None = None, **kw: object
) -> None:
    element = _add(parent, "text", style, x=at[0], y=at[1], font_size=size, **kw)
    element.text = xml_safe(text)


def _halo_text(parent: ET.Element, at: Point, text: str, size: float, style: Style) -> None:
    """Text over a white outline of itself, readable on any background."""
    _text(parent, at, text, size, {**style, **HALO})
    _text(parent, at, text, size, style)


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)


def _fill_for(name: str, spare: Iterable[str]) -> str:
    """The fill of a terrain or feature by a word in its name, else the next spare colour."""
    lower = name.lower()
    for words, colour in TERRAIN_FILLS:
        if any(word in lower for word in words):
            return colour
    return next(iter(spare))


def _darker(colour: str, factor: float = 0.6) -> str:
    """``#rrggbb`` darkened (for the outline of a fill)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(int(c * factor) for c in (r, g, b)))


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RenderError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _xy(value: Any, where: str) -> Point:
    """An ``[x, y]`` pair of numbers."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise RenderError(f"{where}: expected [x, y], got {value!r}")
    return _number(value[0], where), _number(value[1], where)


def _direction(degrees: float) -> Point:
    """Screen direction (y down) of a facing in degrees counter-clockwise from east."""
    angle = math.radians(degrees)
    return math.cos(angle), -math.sin(angle)


def _shorten(a: Point, b: Point, cut_a: float, cut_b: float) -> tuple[Point, Point] | None:
    """Segment a-b less ``cut_a`` and ``cut_b`` pixels at its ends (None if nothing is left)."""
    length = math.dist(a, b)
    if length <= cut_a + cut_b + 2:
        return None
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return (a[0] + ux * cut_a, a[1] + uy * cut_a), (b[0] - ux * cut_b, b[1] - uy * cut_b)


def _arrowhead(parent: ET.Element, tip: Point, frm: Point, colour: str, size: float) -> None:
    """A filled triangle at ``tip`` pointing away from ``frm``."""
    length = math.dist(frm, tip) or 1.0
    ux, uy = (tip[0] - frm[0]) / length, (tip[1] - frm[1]) / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    wing = size * 0.5
    corners = [tip, (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)]
    _polygon(parent, corners, {"fill": colour, "stroke": "white", "stroke-width": 0.8})


def _hexagon(centre: Point, radius: float) -> list[Point]:
    """Corners of a flat-topped hexagon (for legend symbols)."""
    return [
        (
            centre[0] + radius * math.cos(math.radians(60 * i)),
            centre[1] + radius * math.sin(math.radians(60 * i)),
        )
        for i in range(6)
    ]
