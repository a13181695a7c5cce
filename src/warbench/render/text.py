"""Draw a hex map view as text for the terminal (a rich renderable): hexes with edges.

Reads only the ruleset-independent parts of a view: ``view["map"]`` (columns,
rows, terrain, elevation, hexsides, roads, as :meth:`HexMap.to_json` writes
them), ``view["units"]`` (``id``, ``side``, ``at``, ``disrupted``, optional
``status``: a list of free-text flags) and optional ``view["marks"]``; the
roster under the map also shows the status keys a unit entry may carry
(``fired``, ``acted``, ``moved``, ``attacked``, ``mp``, ``riders``,
``carrier``, ``kind``). Every other key is ignored.

A unit's flags are ``disrupted`` (when its ``disrupted`` is true) and its
``status`` entries. ``view["marks"]`` maps the flags a game wants shown to a
one-character mark drawn after the unit id, and the legend names each mark by
its flag: V.E.G. gives ``{"wounded": "~"}``. Without it the mark is the hex
contract's: ``~`` for ``disrupted`` (MiniWars).

Layout: flat-topped hexes stacked in columns, EVEN-numbered columns half a hex
lower, drawn as hexagons of two text lines whose edges are ``/``, ``\\`` and
``_``. Everything a hex holds lies inside its own edges::

     ________
    /0405 f^·\\      upper half: label, terrain letter, hill, road
    \\__G1~+2_/      lower half: units (first id, its marks, +N more), on its south edge

A hexside feature (river, bridge, wall...) replaces the edge it lies on, so
``≈`` stands exactly between the two hexes it separates. Colour shows terrain
(background) and side (unit text); the drawing reads the same without it.
``compact`` splits a map too wide for the terminal into bands of columns, each
drawn the same way, so nothing is cropped at 80 columns.

>>> import io
>>> from rich.console import Console
>>> view = {
...     "map": {"columns": 2, "rows": 2, "terrain": {"open": ["0101", "0201", "0102", "0202"]},
...             "elevation": {"0102": 1}},
...     "units": [{"id": "G1", "side": "a", "at": "0201", "disrupted": True},
...               {"id": "H1", "side": "b", "at": "0101", "disrupted": False}],
... }
>>> console = Console(file=io.StringIO(), width=60, color_system=None)
>>> console.print(render_map(view, legend=False))
>>> for line in console.file.getvalue().splitlines():
...     print(line.rstrip())
 01       02
 ________
/0101    \\________
\\___H1___/0201    \\
/0102  ^ \\___G1~__/
\\________/0202    \\
         \\________/
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from warbench.geometry.hexgrid import Hex
from warbench.render import palette

__all__ = ["CELL", "MapStyle", "map_width", "render_map", "side_styles"]

CELL = 8
"""Characters inside a hex (with 4-digit labels): ``LLLL tHR`` over the units."""
COMPACT_WIDTH = 80
"""The terminal width a compact map is sized for by :func:`map_width`."""

TERRAIN_COLOURS: Mapping[str, str] = {
    "open": "grey23",
    "clear": "grey23",
    "forest": "dark_green",
    "woods": "dark_green",
    "rough": "orange4",
    "marsh": "dark_sea_green4",
    "swamp": "dark_sea_green4",
    "town": "grey42",
    "village": "grey42",
    "city": "grey42",
    "lake": "navy_blue",
    "water": "navy_blue",
    "sea": "navy_blue",
    "hill": "plum4",
    "desert": "wheat4",
}
"""Backgrounds for common terrain names; other names get a colour from ``FALLBACK_COLOURS``."""

FALLBACK_COLOURS = ("dark_red", "deep_pink4", "dark_goldenrod", "medium_purple4", "grey35")
SIDE_COLOURS = {
    "yellow": "bright_yellow",
    "cyan": "bright_cyan",
    "magenta": "bright_magenta",
    "white": "bright_white",
    "red": "bright_red",
    "blue": "bright_blue",
    "green": "bright_green",
}
"""Side colours by name, in order of use (see :mod:`.palette`); chosen to read on terrain."""

HEXSIDE_MARKS: Mapping[str, str] = {
    "river": "≈",
    "stream": "≈",
    "bridge": "=",
    "hedgerow": '"',
    "hedge": '"',
    "wall": "#",
    "cliff": "|",
}
"""Marks for common hexside features; others get ``!``."""
HEXSIDE_COLOURS: Mapping[str, str] = {"river": "bright_cyan", "stream": "bright_cyan"}

ROAD_MARK = "·"
DISRUPTED_MARK = "~"
MORE_MARK = "+"
EDGE = "_"
EDGE_STYLE = "grey50"
LABEL_STYLE = "grey70"
DEFAULT_MARKS: Mapping[str, str] = {"disrupted": DISRUPTED_MARK}
"""Unit marks of a view that names none: the hex contract's ``disrupted`` flag."""

# Directions of Hex.neighbour: the edge each part of a hex's outline draws.
N, NE, SE, S, SW, NW = range(6)

Half = Literal["top", "upper", "lower"]


@dataclass(frozen=True, slots=True)
class MapStyle:
    """Colours and marks chosen for one map: what the legend explains."""

    terrain_colour: Mapping[str, str]
    terrain_letter: Mapping[str, str]
    side_colour: Mapping[str, str]
    hexside_mark: Mapping[str, str]
    hexside_priority: Sequence[str] = field(default_factory=tuple)
    """Features by rarity: a hexside holding several shows the rarest one."""
    unit_marks: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_MARKS))
    """Unit flag -> the mark drawn after the unit id (``view["marks"]``)."""


@dataclass(slots=True)
class _Hex:
    """Everything drawn in one hex."""

    label: str
    terrain: str
    elevation: int = 0
    road: bool = False
    units: list[Mapping[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Board:
    """One map's hexes, hexside features and style: what every band is drawn from."""

    columns: int
    rows: int
    hexes: Mapping[tuple[int, int], _Hex]
    """Offset ``(column, row)`` -> the hex."""
    sides: Mapping[frozenset[str], str]
    """The two labels of a hexside -> the feature drawn on it."""
    style: MapStyle
    cell: int
    """Characters inside one hex."""


def side_styles(sides: Iterable[str]) -> dict[str, str]:
    """A distinct bold colour for each side, in order (shared with narration)."""
    return {side: f"bold {colour}" for side, colour in palette.assign(sides, SIDE_COLOURS).items()}


def map_width(view: Mapping[str, Any], *, compact: bool = False) -> int:
    """How many characters wide the map of ``view`` is drawn (0 if it has no hex map).

    ``compact``: the width of its widest band when drawn for an 80-column terminal.
    """
    board = view.get("map")
    if not isinstance(board, Mapping) or "columns" not in board or "rows" not in board:
        return 0
    columns, cell = int(board["columns"]), _cell_width(board)
    if compact:
        columns = max(len(band) for band in _bands(columns, cell, COMPACT_WIDTH))
    return _band_width(columns, cell)


def render_map(
    view: Mapping[str, Any], *, legend: bool = True, compact: bool = False
) -> RenderableType:
    """The map of a view as a renderable: hexes in numbered columns, a legend and a roster.

    ``compact`` splits the columns into bands that each fit the console's width
    (a narrow terminal); otherwise the map is one band, cropped if too wide.
    """
    raw = view.get("map")
    if not isinstance(raw, Mapping) or "columns" not in raw or "rows" not in raw:
        return Text("(this game has no hex map to draw)", style="italic")
    board = _board(raw, view)
    picture = _Picture(board, compact)
    if not legend:
        return picture
    return Group(picture, _legend(board), _Roster(view, board.style))


def _cell_width(board: Mapping[str, Any]) -> int:
    """Characters inside a hex: the label, a space and three marks."""
    columns, rows = int(board["columns"]), int(board["rows"])
    label = len(Hex.from_offset(max(columns, 1), max(rows, 1)).label)
    return max(CELL, label + 4)


def _band_width(columns: int, cell: int) -> int:
    """Width of a band of ``columns`` hexes: a slant before each, one after the last."""
    return columns * (cell + 1) + 1


def _bands(columns: int, cell: int, width: int | None) -> list[range]:
    """The column numbers of each band, as even in size as fits ``width`` (None: one band)."""
    if width is None or _band_width(columns, cell) <= width or columns <= 1:
        return [range(1, columns + 1)]
    most = max(1, (width - 1) // (cell + 1))
    count = math.ceil(columns / most)
    size = math.ceil(columns / count)
    return [range(start, min(start + size, columns + 1)) for start in range(1, columns + 1, size)]


# -- what is drawn --------------------------------------------------------------------------


def _board(raw: Mapping[str, Any], view: Mapping[str, Any]) -> _Board:
    columns, rows = int(raw["columns"]), int(raw["rows"])
    hexes = _collect(raw, columns, rows, view.get("units", ()))
    by_label = {h.label: h for h in hexes.values()}
    counts = Counter(str(s.get("feature")) for s in raw.get("hexsides", ()) or ())
    rarest_first = sorted(counts, key=lambda f: (counts[f], f))
    sides: dict[frozenset[str], str] = {}
    for side in raw.get("hexsides", ()) or ():
        pair = frozenset(str(label) for label in side.get("hexes", ()))
        if len(pair) != 2 or not pair <= by_label.keys():
            continue
        feature = str(side.get("feature"))
        held = sides.get(pair)
        if held is None or rarest_first.index(feature) < rarest_first.index(held):
            sides[pair] = feature
    style = _choose_style(hexes.values(), rarest_first, _sides(view), _unit_marks(view))
    return _Board(columns, rows, hexes, sides, style, _cell_width(raw))


def _sides(view: Mapping[str, Any]) -> list[str]:
    """The view's sides in order: ``view["sides"]`` if given, else from the units."""
    sides = [str(s) for s in view.get("sides", ())]
    for unit in view.get("units", ()):
        if str(unit.get("side")) not in sides:
            sides.append(str(unit.get("side")))
    return sides


def _unit_marks(view: Mapping[str, Any]) -> dict[str, str]:
    """The view's ``marks`` (flag -> mark), or the default ``~`` for ``disrupted``."""
    marks = view.get("marks")
    if not isinstance(marks, Mapping) or not marks:
        return dict(DEFAULT_MARKS)
    return {str(flag): str(mark) for flag, mark in marks.items()}


def _flags(unit: Mapping[str, Any]) -> list[str]:
    """A unit's flags: ``disrupted`` if set, then its free-text ``status`` entries."""
    flags = ["disrupted"] if unit.get("disrupted") else []
    flags.extend(str(s) for s in unit.get("status", ()) or ())
    return flags


def _collect(
    board: Mapping[str, Any], columns: int, rows: int, units: Iterable[Mapping[str, Any]]
) -> dict[tuple[int, int], _Hex]:
    """One :class:`_Hex` per ``(column, row)``, with terrain, height, roads and units."""
    hexes: dict[tuple[int, int], _Hex] = {}
    by_label: dict[str, _Hex] = {}
    for column in range(1, columns + 1):
        for row in range(1, rows + 1):
            cell = _Hex(Hex.from_offset(column, row).label, "")
            hexes[column, row] = by_label[cell.label] = cell
    for terrain, labels in dict(board.get("terrain", {})).items():
        for label in labels:
            if label in by_label:
                by_label[label].terrain = str(terrain)
    for label, height in dict(board.get("elevation", {}) or {}).items():
        if label in by_label:
            by_label[label].elevation = int(height)
    for pair in board.get("roads", ()) or ():
        for label in pair:
            if label in by_label:
                by_label[label].road = True
    for unit in units:
        if unit.get("at") in by_label:
            by_label[unit["at"]].units.append(unit)
    for cell in hexes.values():
        cell.units.sort(key=_shown_first)
    return hexes


def _shown_first(unit: Mapping[str, Any]) -> int:
    """Sort key of the units in a hex: the one drawn is a unit that rides in nothing;
    riders and buildings come after (``sort`` keeps the view's order otherwise)."""
    if unit.get("kind") == "building":
        return 2
    return 1 if unit.get("carrier") else 0


def _choose_style(
    hexes: Iterable[_Hex],
    rarest_first: Sequence[str],
    sides: Sequence[str],
    unit_marks: Mapping[str, str],
) -> MapStyle:
    """Pick terrain colours and letters, side colours and hexside marks for this map."""
    counts = Counter(h.terrain for h in hexes)
    terrains = [name for name, _ in counts.most_common()]
    colours: dict[str, str] = {}
    spare = iter(FALLBACK_COLOURS * (1 + len(terrains)))
    for name in terrains:
        colours[name] = TERRAIN_COLOURS.get(name) or next(spare)
    letters = _terrain_letters(terrains[1:])  # the commonest terrain goes unmarked
    marks = {f: HEXSIDE_MARKS.get(f, "!") for f in rarest_first}
    return MapStyle(colours, letters, side_styles(sides), marks, tuple(rarest_first), unit_marks)


def _terrain_letters(terrains: Sequence[str]) -> dict[str, str]:
    """A distinct lowercase letter per terrain, taken from its name where possible."""
    letters: dict[str, str] = {}
    for name in terrains:
        taken = set(letters.values())
        candidates = [c for c in name.lower() if c.isalpha()] + list("abcdefghijklmnopqrstuvwxyz")
        letters[name] = next((c for c in candidates if c not in taken), "?")
    return letters


# -- drawing --------------------------------------------------------------------------------


class _Picture:
    """The hex columns as text, split into bands that fit the console when compact."""

    def __init__(self, board: _Board, compact: bool) -> None:
        self.board = board
        self.compact = compact

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        board = self.board
        bands = _bands(board.columns, board.cell, options.max_width if self.compact else None)
        for number, band in enumerate(bands):
            if len(bands) > 1:
                if number:
                    yield Text("")
                caption = f"columns {band[0]:02d}-{band[-1]:02d} of {board.columns:02d}"
                yield Text(caption + (", continued" if number else ""), style="italic")
            picture = Text("\n").join(_band_lines(board, band))
            picture.no_wrap = True
            picture.overflow = "crop"
            yield picture


def _band_lines(board: _Board, band: range) -> list[Text]:
    """A column header, then two lines per row plus the top and bottom edges."""
    cell = board.cell
    header = Text(" ")
    for column in band:
        header.append(f"{column:02d}".ljust(cell + 1), style="bold")
    header.rstrip()
    lines = [header]
    for line_no in range(2 * board.rows + 2):
        text = Text()
        for column in band:
            _append_slant(text, board, column - 1, column, line_no, column == band[0])
            part = _part(board, column, line_no)
            if part is None:
                text.append(" " * cell)
            else:
                _append_half(text, board, column, *part)
        _append_slant(text, board, band[-1], band[-1] + 1, line_no, False)
        text.rstrip()
        lines.append(text)
    while not lines[-1].plain:
        lines.pop()  # the line under the last row holds only even columns' edges
    return lines


def _part(board: _Board, column: int, line_no: int) -> tuple[Half, int] | None:
    """Which half of which row of ``column`` sits on text line ``line_no`` (None: nothing).

    Line 0 holds the north edges of the odd columns' first row; even columns, half a
    hex lower, start one line further down. Row ``r`` of an odd column has its upper
    half on line ``2r - 1`` and its lower half on line ``2r``.
    """
    if not 1 <= column <= board.columns:
        return None
    shifted = line_no - (0 if column % 2 else 1)
    if shifted < 0:
        return None
    if shifted == 0:
        return "top", 0
    row = (shifted + 1) // 2
    if row > board.rows:
        return None
    return ("upper" if shifted % 2 else "lower"), row


def _append_half(text: Text, board: _Board, column: int, half: Half, row: int) -> None:
    """Append the inside of one half hex (or the north edge above a first row)."""
    cell, style = board.cell, board.style
    if half == "top":
        text.append(EDGE * cell, style=EDGE_STYLE)
        return
    spot = board.hexes[column, row]
    background = f"on {style.terrain_colour.get(spot.terrain, 'grey23')}"
    if half == "upper":
        text.append(spot.label, style=f"{LABEL_STYLE} {background}")
        letter = style.terrain_letter.get(spot.terrain, " ")
        marks = letter + _elevation_mark(spot.elevation) + (ROAD_MARK if spot.road else " ")
        text.append(f" {marks}".ljust(cell - len(spot.label)), style=f"bold white {background}")
        return
    feature = _feature(board, column, row, S)
    fill = style.hexside_mark[feature] if feature else EDGE
    fill_style = _feature_style(feature) if feature else EDGE_STYLE
    body = _unit_text(spot, style.unit_marks, cell - 2)
    if feature and body and len(body) <= cell - 4:
        body = f" {body} "  # apart from the feature's marks: a wound ~ is no river ≈
    before = (cell - len(body) + 1) // 2
    text.append(fill * before, style=f"{fill_style} {background}")
    if spot.units:
        colour = style.side_colour.get(str(spot.units[0].get("side")), "bold")
        text.append(body, style=f"{colour} {background}")
    text.append(fill * (cell - before - len(body)), style=f"{fill_style} {background}")


def _append_slant(
    text: Text, board: _Board, left: int, right: int, line_no: int, first: bool
) -> None:
    """Append the edge between ``left`` and ``right`` columns on a line: ``\\`` or ``/``,
    or the mark of the hexside feature that lies on that edge. The ``first`` edge of a
    band draws only the edges of the band's first column."""
    found = _slant(board, None if first else left, right, line_no)
    if found is None:
        text.append(" ")
        return
    shape, (column, row), direction = found
    feature = _feature(board, column, row, direction)
    if feature:
        text.append(board.style.hexside_mark[feature], style=_feature_style(feature))
    else:
        text.append(shape, style=EDGE_STYLE)


def _slant(
    board: _Board, left: int | None, right: int, line_no: int
) -> tuple[str, tuple[int, int], int] | None:
    """The slant between two columns on a line: its shape, the hex it edges and on which
    side (the hex on the left if that column has one there, else the one on the right).
    Both readings give the same shape and hexside; ``left`` None: only the right one."""
    left_part = None if left is None else _part(board, left, line_no)
    right_part = _part(board, right, line_no)
    if left is not None and left_part is not None and left_part[0] != "top":
        half, row = left_part
        return ("\\", (left, row), NE) if half == "upper" else ("/", (left, row), SE)
    if right_part is not None and right_part[0] != "top":
        half, row = right_part
        return ("/", (right, row), NW) if half == "upper" else ("\\", (right, row), SW)
    return None


def _feature(board: _Board, column: int, row: int, direction: int) -> str | None:
    """The hexside feature between hex ``(column, row)`` and its neighbour in ``direction``."""
    other = Hex.from_offset(column, row).neighbour(direction).to_offset()
    neighbour = board.hexes.get(other)
    if neighbour is None:
        return None
    return board.sides.get(frozenset((board.hexes[column, row].label, neighbour.label)))


def _feature_style(feature: str) -> str:
    return f"bold {HEXSIDE_COLOURS.get(feature, 'bright_white')}"


def _unit_text(spot: _Hex, unit_marks: Mapping[str, str], room: int) -> str:
    """The first unit's id and the marks of its flags (``~`` disrupted), then ``+N``
    when N more units share the hex; at most ``room`` characters."""
    if not spot.units:
        return ""
    first = spot.units[0]
    more = f"{MORE_MARK}{len(spot.units) - 1}" if len(spot.units) > 1 else ""
    marks = _marks(first, unit_marks)
    ident = str(first.get("id", "?"))[: max(1, room - len(marks) - len(more))]
    return (ident + marks + more)[:room]


def _marks(unit: Mapping[str, Any], unit_marks: Mapping[str, str]) -> str:
    """The marks of a unit's flags, in the order the view names them, each once."""
    flags = _flags(unit)
    shown: list[str] = []
    for flag, mark in unit_marks.items():
        if flag in flags and mark not in shown:
            shown.append(mark)
    return "".join(shown)


def _elevation_mark(height: int) -> str:
    """``^`` for elevation 1, the digit for 2-9, ``v`` below 0, blank at 0."""
    if height == 0:
        return " "
    if height < 0:
        return "v"
    return "^" if height == 1 else str(min(height, 9))


# -- legend and roster ----------------------------------------------------------------------


def _legend(board: _Board) -> Text:
    """How to read a hex, what the letters and marks mean."""
    style = board.style
    legend = Text()
    legend.append("a hex:    ", style="bold")
    legend.append(f"/0405 f^{ROAD_MARK}\\", style=EDGE_STYLE)
    legend.append("  its label, terrain letter, hill, road\n")
    legend.append("          \\__U1~+2_/", style=EDGE_STYLE)
    legend.append("  its units: the first with its marks, +2 more\n")
    legend.append("terrain:  ", style="bold")
    for name, colour in style.terrain_colour.items():
        letter = style.terrain_letter.get(name)
        legend.append(f" {letter or ' '} ", style=f"on {colour}")
        legend.append(f" {name}{'' if letter else ' (blank)'}  ")
    legend.append("\nmarks:    ", style="bold")
    legend.append(f"^ hill (digit: higher)  {ROAD_MARK} road  ")
    for flag, mark in style.unit_marks.items():
        legend.append(f"{mark} {flag}  ")
    if style.hexside_priority:
        legend.append("\nhexsides: ", style="bold")
        for feature in style.hexside_priority:
            legend.append(style.hexside_mark[feature], style=_feature_style(feature))
            legend.append(f" {feature}  ")
        legend.append("(on the edge between two hexes)")
    return legend


class _Roster:
    """Each side's units with their hex and status, wrapped at whole entries."""

    def __init__(self, view: Mapping[str, Any], style: MapStyle) -> None:
        self.view = view
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(40, options.max_width)
        titles = self.view.get("titles", {})
        units = list(self.view.get("units", ()))
        for side, colour in self.style.side_colour.items():
            own = [u for u in units if str(u.get("side")) == side]
            title = titles.get(side) if isinstance(titles, Mapping) else None
            head = Text(f"{side}", style=colour)
            if title and title != side:
                head.append(f" ({title})", style=colour)
            head.append(":")
            yield head
            entries = list(_roster_entries(own, colour, self.style.unit_marks))
            yield from _wrap(entries, width)


def _roster_entries(
    units: Sequence[Mapping[str, Any]], colour: str, unit_marks: Mapping[str, str]
) -> Iterator[Text]:
    """One entry per unit on the map (``G1 0504 disrupted, fired``), its riders in it;
    then the units off the map."""
    ids = {str(u.get("id")) for u in units}
    gone: list[str] = []
    for unit in units:
        ident = str(unit.get("id"))
        if not unit.get("at"):
            gone.append(ident)
            continue
        if unit.get("carrier") and str(unit.get("carrier")) in ids:
            continue  # listed inside its carrier's entry
        entry = Text()
        entry.append(ident + _marks(unit, unit_marks), style=colour)
        entry.append(f" {unit['at']}")
        words = _status_words(unit, units, unit_marks)
        if words:
            entry.append(" " + ", ".join(words), style="dim" if not unit.get("riders") else "")
        yield entry
    if gone:
        yield Text(f"off the map: {' '.join(gone)}", style="dim")


def _status_words(
    unit: Mapping[str, Any], units: Sequence[Mapping[str, Any]], unit_marks: Mapping[str, str]
) -> list[str]:
    """What a unit's view entry says of its state, in a player's words."""
    words: list[str] = []
    if unit.get("kind") == "building":
        words.append("building")
    if unit.get("disrupted"):
        words.append("disrupted")
    riders = [str(r) for r in unit.get("riders", ()) or ()]
    by_id = {str(u.get("id")): u for u in units}
    for flag in unit.get("status", ()) or ():
        text = str(flag)
        if riders and text.startswith("carries "):
            continue  # said below, with the riders' own marks
        if unit.get("carrier") and text.startswith("rides in "):
            continue
        words.append(text)
    if unit.get("moved"):
        mp = unit.get("mp")
        words.append("moved" + (f", {mp} MP left" if isinstance(mp, int) else ""))
    if unit.get("fired"):
        words.append("fired")
    if unit.get("attacked"):
        words.append("attacked")
    if unit.get("acted"):
        words.append("moved or fought")
    if riders:
        carried = " ".join(r + _marks(by_id.get(r, {}), unit_marks) for r in riders)
        words.append(f"carrying {carried}")
    elif unit.get("carrier"):
        words.append(f"rides in {unit['carrier']}")
    return words


def _wrap(entries: Sequence[Text], width: int) -> Iterator[Text]:
    """Indented lines of entries joined by ``"; "``, breaking only between entries."""
    indent = "  "
    line = Text(indent)
    for entry in entries:
        if len(line) > len(indent):
            line.append(";")
            if len(line) + 1 + len(entry) > width:
                yield line
                line = Text(indent)
            else:
                line.append(" ")
        line.append_text(entry)
    if len(line) > len(indent):
        yield line
