"""SVG pictures of a game view: hex maps and free-form tables, with "what just happened".

The one place warbench draws SVG, and the start of the browser client: it reads
views (what :meth:`Ruleset.view` returns for one side) and annotations (what
:meth:`Ruleset.annotations` returns for the last action), never a ruleset's
state, so whatever a side may not see is not drawn. Elements carry ``class``
and ``data-*`` attributes (``data-hex``, ``data-unit``, ``data-figure``,
``data-feature``, ``data-side``) so a client can find and animate them.

What is read (every other key of a view is ignored):

- Hex games: ``view["map"]`` as :meth:`HexMap.to_json` writes it (columns, rows,
  terrain, elevation, hexsides, roads) and ``view["units"]`` (``id``, ``side``,
  ``at`` (a hex label, or None once removed), ``disrupted``; optional ``name``
  (the legend lists units by it) and ``status``, a list of free-text flags).
  ``disrupted`` and the flags named in an optional ``view["marks"]`` (flag ->
  the text map's mark, as :mod:`.text` reads it) are drawn prominently: a red
  badge and a yellow outline round the counter (V.E.G. marks ``wounded``).
- Table games (inches, origin bottom-left, y up): ``view["table"]`` (width,
  height), ``view["features"]`` (id, kind, shape polygon / polyline / circle,
  points, radius, optional label, blocks_los, destroyed; a polygon may have
  ``holes``, rings cut out of it) and ``view["figures"]``
  (id, side, kind, x, y, facing in degrees counter-clockwise from east, base
  round with diameter or rect with width and depth, status flags, label). A
  figure may also carry:

  - ``log``: a hull diagram, ``{"rings": [ring, ...]}``, outermost ring first
    (at most 6 rings of at most 48 circles), each ring a list of circles:
    ``""`` unmarked, or one letter or digit, the mark (``"S"``). Circle i of a
    ring of n sits at ``(i - 1) * 360 / n`` degrees counter-clockwise from the
    figure's front; a ring of one circle, allowed innermost only, sits at the
    centre. Drawn beside the base as rings of dots turned with the figure (a
    tick marks the front, so the side facing away shows), the marked ones filled
    in a colour per mark; the legend explains the marks.
  - ``by_eye``: the viewer sees the figure by eye (:mod:`warbench.rulesets.eye`): a
    dashed square of that many inches is drawn round it, and the legend says so.
  - ``markers``: pegs beside the base, in order, each a colour name (white,
    yellow, red, black, blue, green, orange, purple: ``palette.MARKER_COLOURS``)
    or ``{"colour": name, "label": text}``. The legend gives each colour its
    label; a status flag equal to a marker's label is drawn as the peg only.
- Table games may also give ``view["terrain_kinds"]``: every feature kind the ruleset
  has, in a fixed order, so a kind gets the same colour (and letter in the text map) in
  every scenario.
- Table games may also give ``view["zones"]``: markers standing on the table
  itself (barrage markers), each ``{"id", "at": [x, y], "radius", "colour",
  "label"}`` with a colour of ``palette.MARKER_COLOURS``: drawn as a peg at
  ``at`` inside a dashed circle of ``radius`` inches (the area it covers),
  labelled with its id; the legend gives each colour its label.
- Table games may give ``view["links"]``: thin lines joining pieces that belong
  together (Invisible Enemy's bases of one unit within its base interval), each
  ``{"from": [x, y], "to": [x, y], "side": name}``, drawn dashed in the side's
  colour under the figures; ``view["links_label"]`` says in the legend what a
  link means.
- Table games may give ``view["groups"]``: pieces that actions name as one (Invisible
  Enemy's units), each ``{"id": name, "members": [piece ids], "label": text}``, listed
  in the legend under ``view["groups_label"]``.
- Both: ``sides`` (the order gives the colours), optional ``titles`` (side ->
  name for the legend), ``turn``, ``turn_limit``, ``phase_title`` or ``phase``.

Annotations are generic marks, in hex labels or table inches::

    {"kind": "path", "points": [[x, y] | "0405", ...], "side": "red"}
    {"kind": "sight", "from": [x, y] | "0405", "to": [x, y] | "0406", "clear": true}
    {"kind": "arc", "at": [x, y], "facing": 90.0, "half_angle": 45.0, "range": 12.0}

Any mark may carry an optional ``label`` (a short text drawn beside it). An
arc's range is in inches (tables) or hexes (hex maps); without one the wedge
runs to the board's edge.

>>> import xml.etree.ElementTree as ET
>>> view = {"map": {"columns": 2, "rows": 1, "terrain": {"open": ["0101", "0201"]}},
...         "units": [{"id": "G1", "side": "a", "at": "0101", "disrupted": False}],
...         "sides": ["a"]}
>>> root = ET.fromstring(render_svg(view, title="Two hexes"))
>>> [g.get("data-unit") for g in root.iter(f"{{{SVG_NS}}}g") if g.get("class") == "unit"]
['G1']
"""

from __future__ import annotations

import math
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warbench.errors import WarbenchError, excerpt
from warbench.geometry.hexgrid import Hex, Layout
from warbench.render import palette

__all__ = ["SVG_NS", "RenderError", "render_svg", "svg_size"]

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

Point = tuple[float, float]
Style = Mapping[str, object]
"""SVG presentation attributes, e.g. ``{"stroke": "#222", "stroke-width": 2}``."""
Swatch = Callable[[ET.Element, float, float], object]
"""Draws a legend symbol in the 26 x 16 box whose top-left corner is given."""
Entry = tuple[Swatch | None, str]
"""One legend line: a symbol (or none) and what it means."""

# -- sizes (pixels) -------------------------------------------------------------------------------
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

# -- colours and styles ---------------------------------------------------------------------------
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


# -- small SVG building helpers -------------------------------------------------------------------
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


# -- what both kinds of board share ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Peg:
    """One marker of a figure: a colour of :data:`palette.MARKER_COLOURS`, an optional label."""

    colour: str
    label: str = ""

    @property
    def text(self) -> str:
        """What the legend says of it."""
        return self.label or f"{self.colour} marker"


@dataclass(slots=True)
class _Styles:
    """Colours and marks picked for one picture: what the legend explains."""

    sides: dict[str, str] = field(default_factory=dict)
    prominent: frozenset[str] = frozenset({"disrupted"})
    """Flags drawn like ``disrupted``: a red badge, and an outline on counters."""
    status_letters: dict[str, str] = field(default_factory=dict)
    status_colours: dict[str, str] = field(default_factory=dict)
    pegs: dict[_Peg, None] = field(default_factory=dict)
    """The markers drawn, in order of first use (an ordered set)."""
    log_marks: set[str] = field(default_factory=set)
    """The marks of the logs drawn (empty: no log drawn)."""
    logs: bool = False

    def side_colour(self, side: object) -> str:
        return self.sides.get(str(side), "#555555")

    def add_status(self, status: str) -> None:
        """Give a status flag a letter (from its name where possible) and a colour."""
        if status in self.status_letters:
            return
        taken = set(self.status_letters.values())
        candidates = [c.upper() for c in status if c.isalpha()] + list("ABCDEFGHJKLMNPQRSTUVWXYZ")
        self.status_letters[status] = next((c for c in candidates if c not in taken), "?")
        spare = STATUS_COLOURS[len(self.status_colours) % len(STATUS_COLOURS)]
        self.status_colours[status] = DISRUPTED_COLOUR if status in self.prominent else spare


def _prominent(view: Mapping[str, Any]) -> frozenset[str]:
    """``disrupted`` (the hex contract's flag) and the flags ``view["marks"]`` names."""
    marks = view.get("marks")
    named = {str(flag) for flag in marks} if isinstance(marks, Mapping) else set()
    return frozenset({"disrupted", *named})


def _side_colours(view: Mapping[str, Any], pieces: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """A colour per side: ``view["sides"]`` in order, then any other side a piece names."""
    names = [str(s) for s in view.get("sides", ()) or ()]
    for piece in pieces:
        if str(piece.get("side")) not in names:
            names.append(str(piece.get("side")))
    return palette.assign(names, SIDE_COLOURS)


def _badges(
    parent: ET.Element, styles: _Styles, statuses: Sequence[str], at: Point, r: float
) -> None:
    """A row of small lettered discs, one per status flag, the first centred at ``at``."""
    for i, status in enumerate(statuses):
        x, y = at[0] + i * (2 * r + 1), at[1]
        badge = _add(parent, "g", class_="status", data_status=status)
        _circle(badge, (x, y), r, {"fill": styles.status_colours[status], "stroke": "white"})
        letter = styles.status_letters[status]
        _text(badge, (x, y + r * 0.62), letter, r * 1.55, {**BOLD, **CENTRED}, fill="white")


@dataclass(slots=True)
class _Legend:
    """Sections of (symbol, text) lines, drawn in a column right of the board."""

    sections: list[tuple[str, list[Entry]]] = field(default_factory=list)

    def section(self, title: str, entries: list[Entry]) -> None:
        if entries:
            self.sections.append((title, entries))

    def height(self) -> float:
        return sum(_section_height(entries) for _, entries in self.sections)

    def columns(self, count: int) -> list[_Legend]:
        """The sections shared out over ``count`` columns (each to the shortest so far,
        in order), for a legend under the board."""
        out = [_Legend() for _ in range(max(1, count))]
        for title, entries in self.sections:
            min(out, key=_Legend.height).sections.append((title, entries))
        return [column for column in out if column.sections]

    def draw(self, parent: ET.Element, x: float, y: float) -> None:
        group = _add(parent, "g", class_="legend", fill="#222")
        for title, entries in self.sections:
            y += 14
            _text(group, (x, y), title, 12, BOLD)
            y += 8
            for swatch, text in entries:
                lines = _wrap(text)
                if swatch is not None:
                    swatch(group, x, y + 1)
                for i, line in enumerate(lines):
                    _text(group, (x + 34, y + 12 + i * 13), line, 11)
                y += max(19, 13 * len(lines) + 6)


def _section_height(entries: Sequence[Entry]) -> float:
    return 22 + sum(max(19, 13 * len(_wrap(text)) + 6) for _, text in entries)


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, LEGEND_CHARS) or [""]


def _line_swatch(*styles: Style) -> Swatch:
    """A legend symbol: a short horizontal line drawn in each style in turn."""

    def swatch(g: ET.Element, x: float, y: float) -> None:
        for style in styles:
            _line(g, (x + 2, y + 8), (x + 24, y + 8), style)

    return swatch


def _status_entries(styles: _Styles) -> list[Entry]:
    def badge(status: str) -> Swatch:
        return lambda g, x, y: _badges(g, styles, [status], (x + 13, y + 8), 6)

    def text(status: str) -> str:
        if status in styles.prominent:
            return f"{status} (counters also get a yellow outline)"
        return status

    return [(badge(status), text(status)) for status in styles.status_letters]


def _overlay_entries(marks: Sequence[Mapping[str, Any]]) -> list[Entry]:
    """Legend lines for the kinds of overlay marks present."""
    kinds = {str(m.get("kind")) for m in marks}
    entries: list[Entry] = []

    def arrow(colour: str, style: Style, start: bool) -> Swatch:
        def swatch(g: ET.Element, x: float, y: float) -> None:
            _line(g, (x + 4, y + 8), (x + 18, y + 8), {"stroke": colour, **style})
            if start:
                _circle(
                    g, (x + 4, y + 8), 3.5, {"fill": "white", "stroke": colour, "stroke-width": 2}
                )
            _arrowhead(g, (x + 26, y + 8), (x, y + 8), colour, 9)

        return swatch

    if "path" in kinds:
        entries.append(
            (arrow("#222", {"stroke-width": 3}, True), "movement just made (circle: start)")
        )
    clear = {bool(m.get("clear", True)) for m in marks if m.get("kind") == "sight"}
    dashed = {"stroke-width": 2.5, "stroke-dasharray": "6 3"}
    if True in clear:
        entries.append((arrow(SIGHT_CLEAR, dashed, False), "line of sight, clear"))
    if False in clear:
        entries.append((arrow(SIGHT_BLOCKED, dashed, False), "line of sight, blocked (X)"))
    if "arc" in kinds:

        def wedge(g: ET.Element, x: float, y: float) -> None:
            d = f"M{x + 2},{y + 14} L{x + 26},{y + 2} A 27 27 0 0 1 {x + 26},{y + 16} Z"
            _add(g, "path", ARC_STYLE, d=d)

        entries.append((wedge, "arc of fire"))
    return entries


def _side_entries(
    styles: _Styles,
    titles: Mapping[str, Any],
    pieces: Sequence[Mapping[str, Any]],
    present: set[str],
    where: str,
    symbol: Callable[[str], Swatch],
) -> list[Entry]:
    """Per side: its colour and title, its pieces grouped by type, those no longer there.

    A piece's type is its ``name`` (hex units) or ``kind`` (figures), where the view has one.
    """
    entries: list[Entry] = []
    for side, colour in styles.sides.items():
        title = titles.get(side)
        entries.append((symbol(colour), side + (f": {title}" if title and title != side else "")))
        mine = [p for p in pieces if str(p.get("side")) == side]
        groups: dict[str, list[str]] = {}
        for piece in mine:
            if str(piece.get("id")) in present:
                kind = str(piece.get("name") or piece.get("kind") or "")
                groups.setdefault(kind, []).append(str(piece.get("id")))
        entries.extend(
            (None, " ".join(ids) + (f": {kind}" if kind else "")) for kind, ids in groups.items()
        )
        gone = [str(p.get("id")) for p in mine if str(p.get("id")) not in present]
        if gone:
            entries.append((None, f"off the {where}: {' '.join(gone)}"))
    return entries


def _group_entries(groups: Sequence[Mapping[str, Any]]) -> list[Entry]:
    """One line per group of pieces the actions name as one (Invisible Enemy's units):
    its id, its members, and what it is."""
    entries: list[Entry] = []
    for group in groups:
        members = " ".join(str(m) for m in group.get("members", ()) or ())
        label = group.get("label")
        entries.append((None, f"{group.get('id')}: {members}" + (f" ({label})" if label else "")))
    return entries


def _caption(view: Mapping[str, Any]) -> str:
    """``Turn 3 of 12 · Player B movement (horde)`` from the view's turn and phase."""
    parts = []
    turn = view.get("turn")
    if isinstance(turn, int):
        limit = view.get("turn_limit")
        parts.append(f"Turn {turn}" + (f" of {limit}" if isinstance(limit, int) else ""))
    phase = view.get("phase_title") or view.get("phase")
    if isinstance(phase, str) and phase:
        parts.append(phase[0].upper() + phase[1:])
    return " · ".join(parts)


class _Board:
    """One kind of board: its size, how to draw it, where annotation points land."""

    width: float
    height: float
    styles: _Styles
    range_px: float
    """Pixels per unit of an arc's range (an inch, or a hex)."""
    above: ET.Element | None = None
    """What is drawn over the overlays too, if anything (markers, which sight lines
    ending at a base would hide)."""

    def draw(self, parent: ET.Element, under_pieces: Callable[[ET.Element], None]) -> None:
        """Draw the board; call ``under_pieces`` where overlays go under the pieces."""
        raise NotImplementedError

    def place(self, point: Any, where: str) -> Point:
        """Pixel position of an annotation point (RenderError naming ``where`` if it has none)."""
        raise NotImplementedError

    def cut(self, point: Any) -> float:
        """How far short of ``point`` a line should stop, not to hide the piece standing there."""
        raise NotImplementedError

    def legend(self, legend: _Legend) -> None:
        raise NotImplementedError


# -- hex maps -------------------------------------------------------------------------------------
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
        group = _add(
            parent,
            "g",
            class_="unit",
            data_unit=str(unit.get("id")),
            data_side=str(unit.get("side")),
            data_hex=cell.label,
        )
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


# -- free-form tables -----------------------------------------------------------------------------
class _TableBoard(_Board):
    """A table in inches: origin bottom-left, y up; an inch grid, features, figures."""

    AXIS = 22.0
    """Room left of and below the table for the inch numbers."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        table = view["table"]
        self.table_w = _number(table.get("width"), "table.width")
        self.table_h = _number(table.get("height"), "table.height")
        if self.table_w <= 0 or self.table_h <= 0:
            raise RenderError(f"table: {self.table_w} x {self.table_h} inches is no table")
        low, high = TABLE_SCALE_LIMITS
        self.scale = max(low, min(high, TABLE_PX / max(self.table_w, self.table_h)))
        self.range_px = self.scale
        self.left, self.top = MARGIN + self.AXIS, float(MARGIN)
        self.width = self.left + self.table_w * self.scale + MARGIN
        self.height = self.top + self.table_h * self.scale + self.AXIS + MARGIN
        self.features = [dict(f) for f in view.get("features", ()) or ()]
        self.figures = [dict(f) for f in view.get("figures", ()) or ()]
        self.zones = [_zone(z, f"zones[{i}]") for i, z in enumerate(view.get("zones", ()) or ())]
        self.links = [_link(k, f"links[{i}]") for i, k in enumerate(view.get("links", ()) or ())]
        self.by_eye = any(f.get("by_eye") and _on_table(f) for f in self.figures)
        """Some figure is drawn where its viewer sees it by eye (the legend says so)."""
        self.links_label = str(view.get("links_label") or "pieces that belong together")
        self.groups = [dict(g) for g in view.get("groups", ()) or ()]
        self.groups_label = str(view.get("groups_label") or "Groups")
        self.styles = _Styles(_side_colours(view, self.figures), _prominent(view))
        self.logs: dict[int, list[list[str]]] = {}
        self.pegs: dict[int, list[_Peg]] = {}
        for index, figure in enumerate(self.figures):
            where = f"figures[{index}] ({figure.get('id', '?')})"
            rings, pegs = _log_rings(figure, where), _markers(figure, where)
            if not _on_table(figure):  # figures off the table are not drawn, so not explained
                continue
            if rings is not None:
                self.logs[index] = rings
                self.styles.logs = True
                self.styles.log_marks.update(mark for ring in rings for mark in ring if mark)
            self.pegs[index] = pegs
            self.styles.pegs.update(dict.fromkeys(pegs))
            for status in _shown_statuses(figure, pegs):
                self.styles.add_status(status)
        self.titles = dict(view.get("titles", {}) or {})
        known = view.get("terrain_kinds") or ()  # every kind of the ruleset: stable colours
        kinds = list(
            dict.fromkeys(
                [*(str(k) for k in known), *(str(f.get("kind", "terrain")) for f in self.features)]
            )
        )
        spare = iter(FALLBACK_FILLS * (1 + len(kinds)))
        self.fills = {kind: _fill_for(kind, spare) for kind in kinds}

    def px(self, x: float, y: float) -> Point:
        return self.left + x * self.scale, self.top + (self.table_h - y) * self.scale

    def place(self, point: Any, where: str) -> Point:
        return self.px(*_xy(point, where))

    def cut(self, point: Any) -> float:
        try:
            x, y = _xy(point, "point")
        except RenderError:
            return 0.0
        for figure in self.figures:
            if _on_table(figure) and math.dist((x, y), (figure["x"], figure["y"])) < 0.05:
                return _base_radius(figure) * self.scale + 2
        return 0.0

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, parent: ET.Element, under_pieces: Callable[[ET.Element], None]) -> None:
        # Where the table lies in the picture, for a client that turns a pointer into
        # inches: x px = left + x" * scale, y px = bottom - y" * scale.
        board = _add(
            parent,
            "g",
            class_="board table",
            data_scale=self.scale,
            data_left=self.left,
            data_bottom=self.top + self.table_h * self.scale,
        )
        top = {"fill": "#e4ead0", "stroke": "#5d6b48", "stroke-width": 2}
        _add(
            board,
            "rect",
            top,
            x=self.left,
            y=self.top,
            width=self.table_w * self.scale,
            height=self.table_h * self.scale,
            class_="table-top",
        )
        self._draw_grid(_add(board, "g", DECORATION, class_="grid"))
        features = _add(board, "g", class_="features")
        # Areas first, then lines (walls, roads) over them, each in the view's order.
        lines_last = sorted(enumerate(self.features), key=lambda f: f[1].get("shape") == "polyline")
        for index, feature in lines_last:
            self._draw_feature(features, index, feature)
        labels = _add(board, "g", DECORATION, class_="feature-labels")
        for index, feature in enumerate(self.features):
            self._label_feature(labels, index, feature)
        if self.zones:
            self._draw_zones(_add(board, "g", class_="zones"))
        if self.links:
            self._draw_links(_add(board, "g", DECORATION, class_="links"))
        under_pieces(board)
        if any(self.pegs.values()):
            self.above = ET.Element("g", {"class": "markers"})
        figures = _add(board, "g", class_="figures")
        for index, figure in enumerate(self.figures):
            self._draw_figure(figures, index, figure)
        if self.logs:
            self._draw_logs(_add(board, "g", class_="logs"))

    def _draw_links(self, group: ET.Element) -> None:
        """Each link: a thin dashed line in its side's colour."""
        for a, b, side in self.links:
            colour = self.styles.side_colour(side)
            style = {"stroke": colour, "stroke-width": 1.6, "stroke-dasharray": "3 3"}
            _line(group, self.px(*a), self.px(*b), style, class_="link", data_side=side)

    def _draw_zones(self, group: ET.Element) -> None:
        """Each zone: its area as a dashed, lightly filled circle, a peg at its centre, its id."""
        for zone in self.zones:
            colour = palette.MARKER_COLOURS[zone.colour]
            centre = self.px(*zone.at)
            area = {
                "fill": colour.fill,
                "fill-opacity": 0.12,
                "stroke": colour.outline,
                "stroke-width": 1.5,
                "stroke-dasharray": "6 4",
            }
            _circle(group, centre, zone.radius * self.scale, area, class_="zone", data_zone=zone.id)
            _draw_pegs(group, [_Peg(zone.colour, zone.label)], centre, 6)
            _text(group, (centre[0] + 8, centre[1] - 8), zone.id, 10, {"fill": "#222"})

    def _draw_grid(self, group: ET.Element) -> None:
        """A line every inch, stronger every 6 inches, numbered along the bottom and left."""
        numbers = {"fill": "#555"}
        for inch in range(1, math.ceil(self.table_w)):
            strong = inch % 6 == 0
            line = {"stroke": "#55603f", "stroke-opacity": 0.35 if strong else 0.12}
            _line(group, self.px(inch, 0), self.px(inch, self.table_h), line)
        for inch in range(1, math.ceil(self.table_h)):
            strong = inch % 6 == 0
            line = {"stroke": "#55603f", "stroke-opacity": 0.35 if strong else 0.12}
            _line(group, self.px(0, inch), self.px(self.table_w, inch), line)
        for inch in range(0, int(self.table_w) + 1, 6 if self.table_w > 12 else 1):
            x, y = self.px(inch, 0)
            _text(group, (x, y + 14), f"{inch}\u2033", 9, {**numbers, **CENTRED})
        for inch in range(0, int(self.table_h) + 1, 6 if self.table_h > 12 else 1):
            x, y = self.px(0, inch)
            _text(group, (x - 4, y + 3), f"{inch}\u2033", 9, numbers, text_anchor="end")

    def _feature_points(self, index: int, feature: Mapping[str, Any]) -> list[Point]:
        where = f"features[{index}] ({feature.get('id', '?')})"
        points = feature.get("points")
        if not isinstance(points, Sequence) or isinstance(points, str) or not points:
            raise RenderError(f"{where}: 'points' must be a list of [x, y]")
        return [_xy(p, f"{where}.points[{i}]") for i, p in enumerate(points)]

    def _feature_holes(self, where: str, feature: Mapping[str, Any]) -> list[list[Point]]:
        """A polygon's holes (rings cut out of it), in pixels."""
        holes = feature.get("holes") or []
        if not isinstance(holes, Sequence) or isinstance(holes, str):
            raise RenderError(f"{where}: 'holes' must be a list of rings")
        out = []
        for i, ring in enumerate(holes):
            if not isinstance(ring, Sequence) or isinstance(ring, str) or len(ring) < 3:
                raise RenderError(f"{where}: holes[{i}] must be a ring of 3 or more [x, y]")
            out.append([self.px(*_xy(p, f"{where}.holes[{i}][{j}]")) for j, p in enumerate(ring)])
        return out

    def _draw_feature(self, parent: ET.Element, index: int, feature: Mapping[str, Any]) -> None:
        """An area (polygon, circle) or a line (polyline) in its kind's colour; faded if gone."""
        kind = str(feature.get("kind", "terrain"))
        shape = feature.get("shape")
        where = f"features[{index}] ({feature.get('id', '?')})"
        fill = self.fills[kind]
        destroyed = bool(feature.get("destroyed"))
        group = _add(
            parent,
            "g",
            class_="feature",
            data_feature=str(feature.get("id", index)),
            data_kind=kind,
            data_shape=str(shape),
            data_destroyed="true" if destroyed else None,
            opacity=0.55 if destroyed else None,
        )
        area = {"fill": fill, "fill-opacity": 0.85, "stroke": _darker(fill), "stroke-width": 1.5}
        if destroyed:
            area["stroke-dasharray"] = "5 3"
        points = [self.px(x, y) for x, y in self._feature_points(index, feature)]
        if shape == "polygon":
            if len(points) < 3:
                raise RenderError(f"{where}: a polygon needs at least 3 points")
            holes = self._feature_holes(where, feature)
            if holes:  # what was cleared inside it stays open ground
                rings = [points, *holes]
                d = " ".join(f"M{_points(ring).replace(' ', ' L')} Z" for ring in rings)
                _add(group, "path", area, d=d, fill_rule="evenodd")
            else:
                _polygon(group, points, area)
        elif shape == "circle":
            radius = _number(feature.get("radius"), f"{where}.radius") * self.scale
            _circle(group, points[0], radius, area)
            (cx, cy), points = points[0], [(points[0][0] - radius, points[0][1] - radius)]
            points.append((cx + radius, cy + radius))
        elif shape == "polyline":
            if len(points) < 2:
                raise RenderError(f"{where}: a polyline needs at least 2 points")
            width = max(3.0, (0.6 if _is_wide_line(kind) else 0.3) * self.scale)
            edge = {"fill": "none", "stroke": _darker(fill, 0.55), "stroke-width": width + 2}
            _add(group, "polyline", {**edge, **ROUND}, points=_points(points))
            body = {**area, "fill": "none", "stroke": fill, "stroke-width": width, **ROUND}
            _add(group, "polyline", body, points=_points(points))
            return
        else:
            raise RenderError(f"{where}: unknown shape {shape!r} (polygon, polyline or circle)")
        if destroyed:  # a dashed cross over the area's bounding box
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            cross = {"stroke": "#5a3a2a", "stroke-width": 1.5, "stroke-dasharray": "4 3"}
            _line(group, (min(xs), min(ys)), (max(xs), max(ys)), cross)
            _line(group, (min(xs), max(ys)), (max(xs), min(ys)), cross)

    def _label_feature(self, parent: ET.Element, index: int, feature: Mapping[str, Any]) -> None:
        placed = self._feature_label(index, feature)
        if placed is not None:
            style = {"fill": "#333", "font-style": "italic", **CENTRED}
            _halo_text(parent, placed[0], placed[1], 10, style)

    def _feature_label(self, index: int, feature: Mapping[str, Any]) -> tuple[Point, str] | None:
        """Where a feature's label is written (its baseline's middle) and its text."""
        label = feature.get("label")
        if not isinstance(label, str) or not label:
            return None
        points = self._feature_points(index, feature)
        if feature.get("shape") == "polyline":
            a, b = points[(len(points) - 1) // 2], points[(len(points) - 1) // 2 + 1]
            x, y = self.px((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        elif feature.get("shape") == "circle":
            x, y = self.px(*points[0])
        else:
            x, y = self.px(
                sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
            )
        # The name actions use beside the name on the board ("Bank (house1)"): a person
        # reads the one and types the other.
        ident = str(feature.get("id") or "")
        named = f"{label} ({ident})" if ident and ident.lower() != label.lower() else label
        text = named + (" (destroyed)" if feature.get("destroyed") else "")
        return (x, y + 4), text

    def _draw_figure(self, parent: ET.Element, index: int, figure: Mapping[str, Any]) -> None:
        """A base in the side's colour, a facing tick, the label above and status badges."""
        if not _on_table(figure):
            return  # off the table: the legend lists it
        where = f"figures[{index}] ({figure.get('id', '?')})"
        centre = cx, cy = self.px(_number(figure["x"], where), _number(figure["y"], where))
        dx, dy = _direction(_number(figure.get("facing", 90.0), f"{where}.facing"))
        colour = self.styles.side_colour(figure.get("side"))
        group = _add(
            parent,
            "g",
            class_="figure",
            data_figure=str(figure.get("id")),
            data_side=str(figure.get("side")),
            data_kind=str(figure.get("kind", "")),
        )
        cell = figure.get("by_eye")
        if cell:  # seen by eye: somewhere in this square (warbench.rulesets.eye)
            half = _number(cell, f"{where}.by_eye") * self.scale / 2
            eye_style = {"fill": "none", "stroke": colour, "stroke-width": 1, **DECORATION}
            eye_style["stroke-dasharray"] = "2 3"
            _rect(group, cx - half, cy - half, 2 * half, 2 * half, eye_style)
        base = figure.get("base") or {"shape": "round", "diameter": 1.0}
        style = {"fill": colour, "stroke": _darker(colour, 0.45), "stroke-width": 1.4}
        if base.get("shape") == "rect":
            half_w = _number(base.get("width"), f"{where}.base.width") * self.scale / 2
            half_d = _number(base.get("depth"), f"{where}.base.depth") * self.scale / 2
            # The depth runs along the facing (dx, dy), the width across it (-dy, dx).
            corners = [
                (cx + i * dx * half_d - j * dy * half_w, cy + i * dy * half_d + j * dx * half_w)
                for i, j in ((1, 1), (1, -1), (-1, -1), (-1, 1))
            ]
            _polygon(group, corners, style, class_="base")
            front, radius = half_d, max(half_w, half_d)
        elif base.get("shape", "round") == "round":
            diameter = _number(base.get("diameter", 1.0), f"{where}.base.diameter")
            front = radius = diameter * self.scale / 2
            _circle(group, centre, radius, style, class_="base")
        else:
            raise RenderError(f"{where}: unknown base shape {base.get('shape')!r} (round or rect)")
        edge = (cx + dx * front, cy + dy * front)
        tip = (cx + dx * (front + max(4.0, 0.5 * front)), cy + dy * (front + max(4.0, 0.5 * front)))
        _line(group, centre, edge, {"stroke": "white", "stroke-width": 2, **ROUND}, class_="facing")
        _line(group, edge, tip, {"stroke": "#111", "stroke-width": 2.2, **ROUND})
        label = str(figure.get("label") or figure.get("id", "?"))
        style = {"fill": "#111", **BOLD, **CENTRED}
        _halo_text(group, (cx, cy - radius - 4), label, 10, style)
        pegs = self.pegs.get(index, [])
        row = _row_start(centre, radius, (dx, dy), len(pegs))
        if pegs and self.above is not None:
            mine = _add(self.above, "g", class_="markers", data_figure=str(figure.get("id")))
            _draw_pegs(mine, pegs, row, PEG_RADIUS)
        after = (row[0] + len(pegs) * (2 * PEG_RADIUS + 2), row[1])
        _badges(group, self.styles, _shown_statuses(figure, pegs), after, 5)

    def _extent(self, figure: Mapping[str, Any]) -> tuple[Point, float, float]:
        """A drawn figure's centre and radius in pixels, and its facing."""
        base = figure.get("base") or {}
        if base.get("shape") == "rect":
            radius = max(float(base["width"]), float(base["depth"])) * self.scale / 2
        else:
            radius = float(base.get("diameter", 1.0)) * self.scale / 2
        facing = float(figure.get("facing", 90.0))
        return self.px(float(figure["x"]), float(figure["y"])), radius, facing

    def _taken(self) -> list[Box]:
        """What a hull diagram should not cover: feature labels; bases, facing ticks,
        labels, pegs and badges of figures."""
        boxes: list[Box] = []
        for index, feature in enumerate(self.features):
            placed = self._feature_label(index, feature)
            if placed is not None:
                (x, y), text = placed
                boxes.append(_box((x, y - 3.5), 3 * len(text), 6))
        for index, figure in enumerate(self.figures):
            if not _on_table(figure):
                continue
            (cx, cy), radius, facing = self._extent(figure)
            boxes.append(_box((cx, cy), radius))
            dx, dy = _direction(facing)
            reach = radius + max(4.0, 0.5 * radius)
            boxes.append(_box((cx + dx * reach, cy + dy * reach), 3))
            label = str(figure.get("label") or figure.get("id", "?"))
            boxes.append(_box((cx, cy - radius - 8), 3.3 * len(label) + 2, 6))
            pegs = self.pegs.get(index, [])
            things = len(pegs) * (2 * PEG_RADIUS + 2) + len(_shown_statuses(figure, pegs)) * 11
            if things:
                x, y = _row_start((cx, cy), radius, (dx, dy), len(pegs))
                boxes.append((x - 6, y - 6, x + things, y + 6))
        return boxes

    def _log_place(
        self, centre: Point, radius: float, facing: float, taken: Sequence[Box]
    ) -> Point:
        """Where a figure's hull diagram goes: near the base, clear of the other drawings.

        Tried in 16 directions round the base, close first, starting behind it and
        turning either way; the first clear place not in front of the base (where
        its arcs and sight lines go) wins, else the least crowded one.
        """
        table: Box = (
            self.left,
            self.top,
            self.left + self.table_w * self.scale,
            self.top + self.table_h * self.scale,
        )
        picture: Box = (0.0, 0.0, self.width, self.height - self.AXIS)
        size = LOG_RADIUS + 3  # with the front tick
        box_area = (2 * 0.886 * size) ** 2
        tick = max(4.0, 0.5 * radius) + 2
        bx, by = _direction(facing + 180)
        behind = math.degrees(math.atan2(by, bx))
        best: tuple[float, Point] | None = None
        for tier, gap in enumerate((5.0, 16.0, 30.0)):
            for step in range(16):
                turn = (step + 1) // 2 * (1 if step % 2 else -1) * 22.5
                angle = math.radians(behind + turn)
                ahead = abs(turn) > 130
                # In front, past the facing tick.
                distance = radius + gap + LOG_RADIUS + (tick if ahead else 0.0)
                spot = (
                    centre[0] + math.cos(angle) * distance,
                    centre[1] + math.sin(angle) * distance,
                )
                # The square of the disc's area stands for it; it may reach a little way
                # over the table's edge, not off the picture.
                box = _box(spot, 0.886 * size)
                crowd = sum(_overlap(box, other) for other in taken)
                outside = box_area - _overlap(box, table)
                off = box_area - _overlap(box, picture)
                score = crowd + outside + 10 * off + tier * 60 + abs(turn) * 0.05 + 250 * ahead
                if best is None or score < best[0]:
                    best = (score, spot)
                if crowd == 0 and outside < 0.1 * box_area and off == 0 and not ahead:
                    return spot
        assert best is not None
        return best[1]

    def _draw_logs(self, parent: ET.Element) -> None:
        """Each figure's hull diagram beside its base, joined to it by a short line."""
        taken = self._taken()
        for index, rings in self.logs.items():
            figure = self.figures[index]
            centre, radius, facing = self._extent(figure)
            spot = self._log_place(centre, radius, facing, taken)
            taken.append(_box(spot, LOG_RADIUS + 3))
            colour = self.styles.side_colour(figure.get("side"))
            link = _shorten(centre, spot, radius, LOG_RADIUS)
            if link is not None:
                style = {"stroke": colour, "stroke-width": 1.6, **ROUND}
                _line(parent, *link, style, class_="log-link", data_figure=str(figure.get("id")))
            _draw_log(parent, spot, facing, rings, colour, data_figure=str(figure.get("id")))

    # -- legend -----------------------------------------------------------------------------
    def legend(self, legend: _Legend) -> None:
        def area(fill: str, shape: Any) -> Swatch:
            if shape == "polyline":
                edge = {"stroke": _darker(fill, 0.55), "stroke-width": 6, **ROUND}
                return _line_swatch(edge, {"stroke": fill, "stroke-width": 4, **ROUND})
            style = {"fill": fill, "stroke": _darker(fill), "stroke-width": 1.2}
            rx = 5 if shape == "circle" else 1
            return lambda g, x, y: _add(g, "rect", style, x=x + 2, y=y, width=22, height=16, rx=rx)

        entries: list[Entry] = []
        for kind, fill in self.fills.items():
            examples = [f for f in self.features if str(f.get("kind", "terrain")) == kind]
            if not examples:
                continue  # a kind of the ruleset this table does not have
            sight = sorted({str(f["blocks_los"]) for f in examples if f.get("blocks_los")})
            text = kind + (f"; blocks sight: {' / '.join(sight)}" if sight else "")
            if "beyond" in sight:
                text += " (beyond: cover for a figure touching it, blocks sight past it)"
            entries.append((area(fill, examples[0].get("shape")), text))
        if any(f.get("destroyed") for f in self.features):

            def ruined(g: ET.Element, x: float, y: float) -> None:
                cross = {"stroke": "#5a3a2a", "stroke-dasharray": "4 3"}
                _rect(g, x + 2, y, 22, 16, {"fill": "#cccccc", "opacity": 0.55, **cross})
                _line(g, (x + 2, y), (x + 24, y + 16), cross)

            entries.append((ruined, "destroyed (faded and crossed)"))
        legend.section("Terrain", entries)

        def base(colour: str) -> Swatch:
            def swatch(g: ET.Element, x: float, y: float) -> None:
                _circle(g, (x + 12, y + 8), 7, {"fill": colour, "stroke": _darker(colour, 0.45)})
                _line(g, (x + 12, y + 8), (x + 19, y + 8), {"stroke": "white", "stroke-width": 2})
                _line(g, (x + 19, y + 8), (x + 24, y + 8), {"stroke": "#111", "stroke-width": 2})

            return swatch

        on_table = {str(f.get("id")) for f in self.figures if _on_table(f)}
        sides = _side_entries(self.styles, self.titles, self.figures, on_table, "table", base)
        if sides:
            sides.append((None, "The tick on a base points where the figure faces."))
        if self.links:

            def link(g: ET.Element, x: float, y: float) -> None:
                style = {"stroke": "#444", "stroke-width": 1.6, "stroke-dasharray": "3 3"}
                _line(g, (x + 2, y + 8), (x + 24, y + 8), style)

            sides.append((link, self.links_label))
        if self.by_eye:

            def square(g: ET.Element, x: float, y: float) -> None:
                style = {"fill": "none", "stroke": "#444", "stroke-dasharray": "2 3"}
                _rect(g, x + 5, y, 16, 16, style)

            sides.append((square, "Seen by eye: the base stands somewhere in the square."))
        legend.section("Sides", sides)
        legend.section(self.groups_label, _group_entries(self.groups))
        zones: dict[_Peg, None] = {}
        for zone in self.zones:
            zones[_Peg(zone.colour, zone.label)] = None
        zone_entries: list[Entry] = [
            (_peg_swatch(p), f"{p.text} (dashed: the area it covers)") for p in zones
        ]
        legend.section(
            "Markers", _peg_entries(self.styles) + zone_entries + _status_entries(self.styles)
        )
        legend.section("Logs", _log_entries(self.styles))


def _peg_swatch(marker: _Peg) -> Swatch:
    return lambda g, x, y: _draw_pegs(g, [marker], (x + 13, y + 8), 6)


def _peg_entries(styles: _Styles) -> list[Entry]:
    return [(_peg_swatch(marker), marker.text) for marker in styles.pegs]


def _log_entries(styles: _Styles) -> list[Entry]:
    if not styles.logs:
        return []

    def diagram(g: ET.Element, x: float, y: float) -> None:
        rings = [["S", "S", "", "", "", "", "", ""], ["", "", ""], [""]]
        _draw_log(g, (x + 12, y + 8), 90.0, rings, "#555555", radius=9.5)

    def dot(mark: str) -> Swatch:
        fill = _mark_colour(mark)
        style = {"fill": fill, "stroke": _darker(fill, 0.5), "stroke-width": 0.8}
        return lambda g, x, y: _circle(g, (x + 13, y + 8), 5, style)

    about = (
        "log beside a figure, joined to its base: rings of circles, the outermost "
        "first, turned with the figure (the tick is its front)"
    )
    entries: list[Entry] = [(diagram, about)]
    entries.append((lambda g, x, y: _circle(g, (x + 13, y + 8), 5, LOG_UNMARKED), "unmarked"))
    entries.extend((dot(mark), f"marked {mark}") for mark in sorted(styles.log_marks))
    return entries


def _on_table(figure: Mapping[str, Any]) -> bool:
    return all(isinstance(figure.get(k), int | float) for k in ("x", "y"))


def _is_wide_line(kind: str) -> bool:
    return any(w in kind.lower() for w in ("road", "river", "stream", "track", "path", "water"))


def _base_radius(figure: Mapping[str, Any]) -> float:
    """Half the largest size of a figure's base in inches (to stop lines short of it)."""
    base = figure.get("base") or {}
    keys = ("width", "depth") if base.get("shape") == "rect" else ("diameter",)
    sizes = [float(base[k]) for k in keys if isinstance(base.get(k), int | float)]
    return max(sizes) / 2 if sizes else 0.5


# -- logs and markers of table figures ------------------------------------------------------------
Box = tuple[float, float, float, float]
"""A rectangle of the picture: left, top, right, bottom."""


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _log_rings(figure: Mapping[str, Any], where: str) -> list[list[str]] | None:
    """A figure's ``log`` as rings of marks, outermost first (None if it has none)."""
    raw = figure.get("log")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or "rings" not in raw:
        raise RenderError(
            f'{where}.log: expected {{"rings": [["", "S", ...], ...]}}, got {excerpt(repr(raw))}'
        )
    rings = raw["rings"]
    if not _is_list(rings) or not 1 <= len(rings) <= LOG_MAX_RINGS:
        raise RenderError(
            f"{where}.log.rings: expected a list of 1 to {LOG_MAX_RINGS} rings, "
            f"got {excerpt(repr(rings))}"
        )
    out: list[list[str]] = []
    for k, ring in enumerate(rings):
        here = f"{where}.log.rings[{k}]"
        if not _is_list(ring) or not 1 <= len(ring) <= LOG_MAX_CIRCLES:
            raise RenderError(
                f"{here}: expected a list of 1 to {LOG_MAX_CIRCLES} circles, "
                f"got {excerpt(repr(ring))}"
            )
        if len(ring) == 1 and k < len(rings) - 1:
            raise RenderError(
                f"{here}: only the innermost ring may be a single circle (it sits at the centre)"
            )
        for i, mark in enumerate(ring):
            letter = isinstance(mark, str) and len(mark) == 1 and mark.isascii() and mark.isalnum()
            if mark != "" and not letter:
                raise RenderError(
                    f"{here}[{i}]: expected '' (unmarked) or one letter or digit (the mark), "
                    f"got {excerpt(repr(mark))}"
                )
        out.append(list(ring))
    return out


@dataclass(frozen=True, slots=True)
class _Zone:
    id: str
    at: tuple[float, float]
    radius: float
    colour: str
    label: str


def _link(raw: Any, where: str) -> tuple[Point, Point, str]:
    """A ``view["links"]`` entry, checked."""
    if not isinstance(raw, Mapping):
        raise RenderError(f"{where}: expected a mapping with from, to and side")
    return (
        _xy(raw.get("from"), f"{where}.from"),
        _xy(raw.get("to"), f"{where}.to"),
        str(raw.get("side", "")),
    )


def _zone(raw: Any, where: str) -> _Zone:
    """A ``view["zones"]`` entry, checked."""
    if not isinstance(raw, Mapping):
        raise RenderError(f"{where}: expected a mapping with id, at, radius, colour, label")
    colour = raw.get("colour")
    if not isinstance(colour, str) or colour not in palette.MARKER_COLOURS:
        names = ", ".join(palette.MARKER_COLOURS)
        raise RenderError(f"{where}.colour: expected a marker colour ({names})")
    radius = _number(raw.get("radius"), f"{where}.radius")
    if radius < 0:
        raise RenderError(f"{where}.radius: cannot be negative")
    label = raw.get("label", "")
    if not isinstance(label, str):
        raise RenderError(f"{where}.label: expected text")
    return _Zone(str(raw.get("id", "")), _xy(raw.get("at"), f"{where}.at"), radius, colour, label)


def _markers(figure: Mapping[str, Any], where: str) -> list[_Peg]:
    """A figure's ``markers`` (none if it has none)."""
    raw = figure.get("markers")
    if raw is None:
        return []
    if not _is_list(raw):
        raise RenderError(
            f"{where}.markers: expected a list of colour names or "
            f'{{"colour": name, "label": text}}, got {excerpt(repr(raw))}'
        )
    pegs = []
    for i, marker in enumerate(raw):
        here = f"{where}.markers[{i}]"
        label, colour = "", marker
        if isinstance(marker, Mapping):
            colour, text = marker.get("colour"), marker.get("label", "")
            if not isinstance(text, str):
                raise RenderError(f"{here}.label: expected text, got {excerpt(repr(text))}")
            label = text
        if not isinstance(colour, str) or colour not in palette.MARKER_COLOURS:
            names = ", ".join(palette.MARKER_COLOURS)
            raise RenderError(
                f"{here}: expected a marker colour ({names}) or "
                f'{{"colour": name, "label": text}}, got {excerpt(repr(marker))}'
            )
        pegs.append(_Peg(colour, label))
    return pegs


def _shown_statuses(figure: Mapping[str, Any], pegs: Sequence[_Peg]) -> list[str]:
    """A figure's status flags, less those its markers stand for (drawn as pegs)."""
    labels = {peg.label for peg in pegs}
    return [str(s) for s in figure.get("status", ()) or () if str(s) not in labels]


def _row_start(centre: Point, radius: float, facing: Point, pegs: int) -> Point:
    """Where the row of a figure's pegs and status badges starts (it runs to the right).

    Right of the base, a little low; with pegs (black ones look like the facing
    tick), the first of that place, lower right, below and upper right where no
    peg touches the tick.
    """
    (cx, cy), (dx, dy) = centre, facing
    usual = (cx + radius + 5, cy + radius * 0.3)
    if not pegs:
        return usual
    edge = (cx + dx * radius, cy + dy * radius)
    reach = radius + max(4.0, 0.5 * radius)
    tip = (cx + dx * reach, cy + dy * reach)
    out = radius + PEG_RADIUS + 2
    spots = [usual] + [
        (cx + math.cos(math.radians(a)) * out, cy + math.sin(math.radians(a)) * out)
        for a in (40, 90, -40)
    ]
    for x, y in spots:
        centres = [(x + i * (2 * PEG_RADIUS + 2), y) for i in range(pegs)]
        if all(_gap(p, edge, tip) >= PEG_RADIUS + 2 for p in centres):
            return x, y
    return usual


def _gap(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = max(0.0, min(1.0, t))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _mark_colour(mark: str) -> str:
    """The fill of a log circle marked ``mark`` (a letter or a digit)."""
    index = int(mark) if mark.isdigit() else ord(mark.upper()) - ord("A")
    return LOG_MARK_COLOURS[index % len(LOG_MARK_COLOURS)]


def _draw_pegs(parent: ET.Element, pegs: Sequence[_Peg], at: Point, r: float) -> None:
    """A row of marker pegs, the first centred at ``at``."""
    for i, peg in enumerate(pegs):
        colour = palette.MARKER_COLOURS[peg.colour]
        group = _add(parent, "g", class_="marker", data_colour=peg.colour, data_label=peg.label)
        centre = (at[0] + i * (2 * r + 2), at[1])
        _circle(
            group, centre, r, {"fill": colour.fill, "stroke": colour.outline, "stroke-width": 1.3}
        )


def _log_geometry(rings: Sequence[Sequence[str]], reach: float) -> tuple[list[float], float]:
    """The radius of each ring (0 for a centre circle) and of every dot, within ``reach``."""
    centre = len(rings[-1]) == 1
    around = len(rings) - (1 if centre else 0)
    # Bands of equal width, one per ring round the centre; the innermost ring keeps
    # clear of a centre circle, or (without one) its circles clear of each other.
    width = reach / (around + (0.7 if centre else 0.2)) if around else reach
    radii = [reach - width * (k + 0.5) for k in range(around)] + ([0.0] if centre else [])
    dot = 0.45 * width
    for rho, ring in zip(radii, rings, strict=True):
        if rho > 0 and len(ring) > 1:
            dot = min(dot, 0.45 * 2 * rho * math.sin(math.pi / len(ring)))
    return radii, dot


def _draw_log(
    parent: ET.Element,
    centre: Point,
    facing: float,
    rings: Sequence[Sequence[str]],
    colour: str,
    radius: float = LOG_RADIUS,
    **kw: object,
) -> None:
    """A hull diagram: rings of dots turned with ``facing`` (a tick at the front), marks filled."""
    cx, cy = centre
    group = _add(parent, "g", class_="log", data_facing=facing, **kw)
    back = {"fill": "white", "fill-opacity": 0.94, "stroke": colour, "stroke-width": 1.6}
    _circle(group, centre, radius, back, class_="log-back")
    radii, dot = _log_geometry(rings, radius - 2.5)
    for k, (rho, ring) in enumerate(zip(radii, rings, strict=True)):
        for i, mark in enumerate(ring):
            dx, dy = _direction(facing + i * 360 / len(ring))
            style: Style = LOG_UNMARKED
            if mark:
                fill = _mark_colour(mark)
                style = {"fill": fill, "stroke": _darker(fill, 0.5), "stroke-width": 0.8}
            _circle(
                group,
                (cx + dx * rho, cy + dy * rho),
                dot,
                style,
                class_="log-circle marked" if mark else "log-circle",
                data_ring=k + 1,
                data_circle=i + 1,
                data_mark=mark or None,
            )
    dx, dy = _direction(facing)
    front = {"stroke": "#111", "stroke-width": 2.2, **ROUND}
    tick = max(3.0, radius * 0.25)
    edge = (cx + dx * radius, cy + dy * radius)
    _line(group, edge, (edge[0] + dx * tick, edge[1] + dy * tick), front, class_="log-front")


def _overlap(a: Box, b: Box) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _box(centre: Point, half_w: float, half_h: float | None = None) -> Box:
    half_h = half_w if half_h is None else half_h
    return centre[0] - half_w, centre[1] - half_h, centre[0] + half_w, centre[1] + half_h


# -- overlays -------------------------------------------------------------------------------------
def _draw_overlays(
    under: ET.Element, over: ET.Element, board: _Board, marks: Sequence[Mapping[str, Any]]
) -> None:
    """Arcs and paths under the pieces (a piece marks a path's end), sight lines over them.

    A sight line or arc repeating an earlier one but for its label (two weapons of
    one figure at one target) is drawn once, with both labels.
    """
    for index, mark in _merge_repeats(marks):
        kind = mark.get("kind")
        where = f"annotations[{index}] ({kind})"
        if kind == "path":
            _draw_path(under, board, mark, where)
        elif kind == "sight":
            _draw_sight(over, board, mark, where)
        elif kind == "arc":
            _draw_arc(under, board, mark, where)
        else:
            raise RenderError(f"{where}: unknown kind {kind!r} (path, sight or arc)")


def _merge_repeats(marks: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """The marks with their indexes, repeated sight lines and arcs merged into the first."""
    out: list[tuple[int, Mapping[str, Any]]] = []
    first: dict[str, int] = {}
    labels: dict[int, list[str]] = {}
    for index, mark in enumerate(marks):
        label = mark.get("label")
        if mark.get("kind") in ("sight", "arc"):
            key = repr(sorted((str(k), repr(v)) for k, v in mark.items() if k != "label"))
            if key in first:
                if isinstance(label, str) and label:
                    labels[first[key]].append(label)
                continue
            first[key] = len(out)
        out.append((index, mark))
        labels[len(out) - 1] = [label] if isinstance(label, str) and label else []
    return [
        (
            index,
            {**mark, "label": ", ".join(dict.fromkeys(labels[i]))} if len(labels[i]) > 1 else mark,
        )
        for i, (index, mark) in enumerate(out)
    ]


def _draw_path(parent: ET.Element, board: _Board, mark: Mapping[str, Any], where: str) -> None:
    """A line through the points, from a hollow circle (start) to an arrowhead (end)."""
    raw = mark.get("points")
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) < 2:
        raise RenderError(f"{where}: 'points' must list at least two points")
    points = [board.place(p, f"{where}.points[{i}]") for i, p in enumerate(raw)]
    colour = board.styles.side_colour(mark["side"]) if mark.get("side") is not None else "#222"
    group = _add(parent, "g", class_="overlay path", data_side=mark.get("side"))
    end = _shorten(points[-2], points[-1], 0.0, board.cut(raw[-1]) + 2)
    tip = end[1] if end is not None else points[-1]
    # The line stops where the arrowhead begins, so it does not poke out past the tip.
    back = _shorten(points[-2], tip, 0.0, ARROW_PATH - 2)
    line = _points([*points[:-1], back[1] if back is not None else tip])
    casing = {"fill": "none", "stroke": "white", "stroke-width": 7, "stroke-opacity": 0.8}
    _add(group, "polyline", {**casing, **ROUND}, points=line)
    _add(
        group,
        "polyline",
        {"fill": "none", "stroke": colour, "stroke-width": 3.5, **ROUND},
        points=line,
    )
    for waypoint in points[1:-1]:
        _circle(group, waypoint, 2.5, {"fill": colour})
    _circle(group, points[0], 5, {"fill": "white", "stroke": colour, "stroke-width": 2.5})
    _arrowhead(group, tip, points[-2], colour, ARROW_PATH)
    _mark_label(group, mark, tip)


def _draw_sight(parent: ET.Element, board: _Board, mark: Mapping[str, Any], where: str) -> None:
    """A dashed line, green if clear, red and crossed if blocked, edge to edge of the pieces."""
    a = board.place(mark.get("from"), f"{where}.from")
    b = board.place(mark.get("to"), f"{where}.to")
    clear = bool(mark.get("clear", True))
    colour = SIGHT_CLEAR if clear else SIGHT_BLOCKED
    group = _add(parent, "g", class_="overlay sight", data_clear="true" if clear else "false")
    segment = _shorten(a, b, board.cut(mark.get("from")), board.cut(mark.get("to")) + 1)
    if segment is None:
        return
    start, tip = segment
    body = _shorten(start, tip, 0.0, ARROW_SIGHT - 2)
    end = body[1] if body is not None else start
    _line(group, start, end, {"stroke": "white", "stroke-width": 5, "stroke-opacity": 0.7})
    _line(group, start, end, {"stroke": colour, "stroke-width": 2.6, "stroke-dasharray": "8 4"})
    _circle(group, start, 3.5, {"fill": colour})
    _arrowhead(group, tip, start, colour, ARROW_SIGHT)
    mx, my = (start[0] + tip[0]) / 2, (start[1] + tip[1]) / 2
    if not clear:
        cross = {"stroke": colour, "stroke-width": 3, **ROUND}
        _line(group, (mx - 6, my - 6), (mx + 6, my + 6), cross)
        _line(group, (mx - 6, my + 6), (mx + 6, my - 6), cross)
    _mark_label(group, mark, (mx, my))


def _draw_arc(parent: ET.Element, board: _Board, mark: Mapping[str, Any], where: str) -> None:
    """A wedge of ``half_angle`` either side of ``facing``, out to ``range`` (or off the board)."""
    cx, cy = board.place(mark.get("at"), f"{where}.at")
    facing = _number(mark.get("facing", 0.0), f"{where}.facing")
    half = _number(mark.get("half_angle", 45.0), f"{where}.half_angle")
    reach = mark.get("range")
    radius = (
        _number(reach, f"{where}.range") * board.range_px
        if reach is not None
        else math.hypot(board.width, board.height)
    )
    group = _add(parent, "g", class_="overlay arc", data_facing=facing, data_half_angle=half)
    if half >= 180:
        _circle(group, (cx, cy), radius, ARC_STYLE)
    else:
        # From facing - half to facing + half counter-clockwise on the table, which is
        # counter-clockwise on screen too: SVG's sweep flag 0, since screen y points down.
        (ax, ay), (bx, by) = _direction(facing - half), _direction(facing + half)
        large = 1 if 2 * half > 180 else 0
        d = (
            f"M{_fmt(cx)},{_fmt(cy)} L{_fmt(cx + ax * radius)},{_fmt(cy + ay * radius)} "
            f"A{_fmt(radius)},{_fmt(radius)} 0 {large} 0 "
            f"{_fmt(cx + bx * radius)},{_fmt(cy + by * radius)} Z"
        )
        _add(group, "path", ARC_STYLE, d=d)
    fx, fy = _direction(facing)
    _mark_label(group, mark, (cx + fx * min(radius, 60), cy + fy * min(radius, 60)))


def _mark_label(parent: ET.Element, mark: Mapping[str, Any], at: Point) -> None:
    label = mark.get("label")
    if isinstance(label, str) and label:
        _halo_text(parent, (at[0] + 8, at[1] - 8), label, 11, {"fill": "#111", **BOLD})


# -- the document ---------------------------------------------------------------------------------
def render_svg(
    view: Mapping[str, Any],
    *,
    title: str = "",
    notes: Sequence[str] = (),
    annotations: Sequence[Mapping[str, Any]] = (),
    legend: bool = True,
    legend_below: bool = False,
) -> str:
    """The picture of ``view`` as an SVG document (text).

    ``title`` heads it (a scenario's title, say); ``notes`` are lines under the
    turn and phase (whose view this is, which action was just taken);
    ``annotations`` are the overlay marks of the last action (see the module
    docstring). Raises :class:`RenderError` naming the part of the view or mark
    that cannot be drawn. ``legend_below``: the legend in columns under the board, not
    beside it (a page that fits the picture to a narrow screen gives the board the width).
    """
    board: _Board
    if isinstance(view.get("table"), Mapping):
        board = _TableBoard(view)
    elif isinstance(view.get("map"), Mapping):
        board = _HexBoard(view)
    else:
        raise RenderError("this view has neither a hex map ('map') nor a table ('table') to draw")
    lines = [line for line in (_caption(view), *notes) if line]
    header = MARGIN + (24 if title else 0) + 16 * len(lines) + 6
    key = _Legend()
    if legend:
        board.legend(key)
        key.section("Last action", _overlay_entries(annotations))
    columns = key.columns(int(max(board.width - MARGIN, LEGEND_W) // LEGEND_W))
    if legend_below:
        width = math.ceil(max(board.width, MARGIN + LEGEND_W * len(columns)) + MARGIN)
        below = max((c.height() for c in columns), default=0.0)
        height = math.ceil(header + board.height + (below + MARGIN if columns else 0))
    else:
        width = math.ceil(board.width + (LEGEND_W if key.sections else 0) + MARGIN)
        height = math.ceil(header + max(board.height, key.height() + MARGIN))

    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "version": "1.1",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "font-family": FONT,
        },
    )
    ET.SubElement(root, "title").text = xml_safe(title or "warbench")
    _add(root, "rect", {"fill": "white"}, width=width, height=height, class_="background")
    heading = _add(root, "g", class_="heading")
    y = float(MARGIN)
    if title:
        y += 18
        _text(heading, (MARGIN, y), title, 19, BOLD, fill="#111")
        y += 6
    for line in lines:
        y += 16
        _text(heading, (MARGIN, y), line, 12.5, fill="#444")
    picture = _add(root, "g", class_="picture", transform=f"translate(0,{header})")
    on_top = ET.Element("g", {"class": "overlays-over", "pointer-events": "none"})
    board.draw(
        picture,
        lambda under: _draw_overlays(
            _add(under, "g", DECORATION, class_="overlays-under"), on_top, board, annotations
        ),
    )
    picture.append(on_top)
    if board.above is not None:
        picture.append(board.above)
    if key.sections and legend_below:
        for k, column in enumerate(columns):
            column.draw(picture, MARGIN + k * LEGEND_W, board.height - MARGIN)
    elif key.sections:
        key.draw(picture, board.width + 8, 0)
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def svg_size(svg: str) -> tuple[int, int]:
    """The width and height in pixels an SVG document made by :func:`render_svg` declares."""
    root = ET.fromstring(svg)
    try:
        return int(float(root.get("width", ""))), int(float(root.get("height", "")))
    except ValueError:
        raise RenderError("the SVG declares no width and height in pixels") from None
