"""Draw a hex map view as coloured text for the terminal (a rich renderable).

Reads only the ruleset-independent parts of a view: ``view["map"]`` (columns,
rows, terrain, elevation, hexsides, roads, as :meth:`HexMap.to_json` writes
them), ``view["units"]`` (``id``, ``side``, ``at``, ``disrupted``, optional
``status``: a list of free-text flags) and optional ``view["marks"]``.

A unit's flags are ``disrupted`` (when its ``disrupted`` is true) and its
``status`` entries. ``view["marks"]`` maps the flags a game wants shown to a
one-character mark drawn after the unit id, and the legend names each mark by
its flag: V.E.G. gives ``{"wounded": "~"}``. Without it the mark is the hex
contract's: ``~`` for ``disrupted`` (MiniWars).

Layout: flat-topped hexes stacked in columns, EVEN-numbered columns half a hex
lower. Each hex takes two text lines, so even columns start one line lower. A
full cell is ``LLLL UUU`` over `` TER S``: the label and the unit id (its
mark, ``+`` more units) on one line, so a unit is read against its own
label; the terrain letter, elevation, road and hexside marks on the other.
Colour shows terrain (background) and side (unit text); the marks keep the
picture readable without colour.

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
   01      02
01 0101 H1
           0201 G1~
02 0102
     ^     0202
<BLANKLINE>
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from warbench.geometry.hexgrid import Hex
from warbench.render import palette

__all__ = ["MapStyle", "map_width", "render_map", "side_styles"]

MARGIN = 3
CELL = 8
"""Characters per hex cell: label, space, unit id on one line; marks on the other."""
CELL_COMPACT = 4
"""Width of the row-number margin on the left."""

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

ROAD_MARK = "·"
DISRUPTED_MARK = "~"
CROWDED_MARK = "+"
DEFAULT_MARKS: Mapping[str, str] = {"disrupted": DISRUPTED_MARK}
"""Unit marks of a view that names none: the hex contract's ``disrupted`` flag."""


@dataclass(frozen=True, slots=True)
class MapStyle:
    """Colours and marks chosen for one map: what the legend explains."""

    terrain_colour: Mapping[str, str]
    terrain_letter: Mapping[str, str]
    side_colour: Mapping[str, str]
    hexside_mark: Mapping[str, str]
    hexside_priority: Sequence[str] = field(default_factory=tuple)
    """Features by rarity: a hex touching several shows the rarest one."""
    unit_marks: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_MARKS))
    """Unit flag -> the mark drawn after the unit id (``view["marks"]``)."""


@dataclass(slots=True)
class _Hex:
    """Everything drawn in one hex."""

    label: str
    terrain: str
    elevation: int = 0
    road: bool = False
    features: set[str] = field(default_factory=set)
    units: list[Mapping[str, Any]] = field(default_factory=list)


def side_styles(sides: Iterable[str]) -> dict[str, str]:
    """A distinct bold colour for each side, in order (shared with narration)."""
    return {side: f"bold {colour}" for side, colour in palette.assign(sides, SIDE_COLOURS).items()}


def map_width(view: Mapping[str, Any], *, compact: bool = False) -> int:
    """How many characters wide the map of ``view`` is drawn (0 if it has no hex map)."""
    board = view.get("map")
    if not isinstance(board, Mapping) or "columns" not in board:
        return 0
    return MARGIN + int(board["columns"]) * (CELL_COMPACT if compact else CELL)


def render_map(
    view: Mapping[str, Any], *, legend: bool = True, compact: bool = False
) -> RenderableType:
    """The map of a view as a renderable: numbered hex columns plus a legend.

    ``compact`` draws 4-character cells (label over unit id only) for narrow
    terminals; colours still show terrain and sides.
    """
    board = view.get("map")
    if not isinstance(board, Mapping) or "columns" not in board or "rows" not in board:
        return Text("(this game has no hex map to draw)", style="italic")
    hexes = _collect(board, view.get("units", ()))
    style = _choose_style(board, hexes, _sides(view), _unit_marks(view))
    picture = _draw(board, hexes, style, compact)
    if not legend:
        return picture
    return Group(picture, _legend(view, hexes, style))


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


def _collect(board: Mapping[str, Any], units: Iterable[Mapping[str, Any]]) -> dict[str, _Hex]:
    """One :class:`_Hex` per label, with terrain, height, roads, hexsides and units."""
    hexes: dict[str, _Hex] = {}
    for column in range(1, int(board["columns"]) + 1):
        for row in range(1, int(board["rows"]) + 1):
            label = Hex.from_offset(column, row).label
            hexes[label] = _Hex(label, "")
    for terrain, labels in dict(board.get("terrain", {})).items():
        for label in labels:
            if label in hexes:
                hexes[label].terrain = str(terrain)
    for label, height in dict(board.get("elevation", {})).items():
        if label in hexes:
            hexes[label].elevation = int(height)
    for pair in board.get("roads", ()):
        for label in pair:
            if label in hexes:
                hexes[label].road = True
    for side in board.get("hexsides", ()):
        for label in side.get("hexes", ()):
            if label in hexes:
                hexes[label].features.add(str(side.get("feature")))
    for unit in units:
        if unit.get("at") in hexes:
            hexes[unit["at"]].units.append(unit)
    return hexes


def _choose_style(
    board: Mapping[str, Any],
    hexes: Mapping[str, _Hex],
    sides: Sequence[str],
    unit_marks: Mapping[str, str],
) -> MapStyle:
    """Pick terrain colours and letters, side colours and hexside marks for this map."""
    counts = Counter(h.terrain for h in hexes.values())
    terrains = [name for name, _ in counts.most_common()]
    colours: dict[str, str] = {}
    spare = iter(FALLBACK_COLOURS * (1 + len(terrains)))
    for name in terrains:
        colours[name] = TERRAIN_COLOURS.get(name) or next(spare)
    letters = _terrain_letters(terrains[1:])  # the commonest terrain goes unmarked
    feature_counts = Counter(str(s.get("feature")) for s in board.get("hexsides", ()))
    marks = {f: HEXSIDE_MARKS.get(f, "!") for f in feature_counts}
    rarest_first = sorted(feature_counts, key=lambda f: (feature_counts[f], f))
    return MapStyle(colours, letters, side_styles(sides), marks, tuple(rarest_first), unit_marks)


def _terrain_letters(terrains: Sequence[str]) -> dict[str, str]:
    """A distinct lowercase letter per terrain, taken from its name where possible."""
    letters: dict[str, str] = {}
    for name in terrains:
        taken = set(letters.values())
        candidates = [c for c in name.lower() if c.isalpha()] + list("abcdefghijklmnopqrstuvwxyz")
        letters[name] = next((c for c in candidates if c not in taken), "?")
    return letters


def _draw(
    board: Mapping[str, Any], hexes: Mapping[str, _Hex], style: MapStyle, compact: bool
) -> Text:
    """The hex columns as text lines: a column header, then two lines per row."""
    columns, rows = int(board["columns"]), int(board["rows"])
    width = CELL_COMPACT if compact else CELL
    lines = [_margin(line_no, rows) for line_no in range(2 * rows + 1)]
    header = Text(" " * MARGIN)
    for column in range(1, columns + 1):
        header.append(f"{column:02d}".ljust(width), style="bold")
        for line_no, text in enumerate(lines):
            row, part = _cell_part(column, line_no)
            if 1 <= row <= rows:
                cell = hexes[Hex.from_offset(column, row).label]
                _append_cell(text, cell, part, style, compact)
            else:
                text.append(" " * width)
    picture = Text("\n").join([header, *lines])
    picture.no_wrap = True
    picture.overflow = "crop"
    return picture


def _margin(line_no: int, rows: int) -> Text:
    """The left margin of a text line: the row number where odd columns' rows start."""
    row = line_no // 2 + 1
    if line_no % 2 == 0 and row <= rows:
        return Text(f"{row:02d}".ljust(MARGIN), style="bold")
    return Text(" " * MARGIN)


def _cell_part(column: int, line_no: int) -> tuple[int, int]:
    """Which row of ``column`` and which of its two lines (0 or 1) sit on text line ``line_no``."""
    shifted = line_no - (1 if column % 2 == 0 else 0)
    return shifted // 2 + 1, shifted % 2


def _append_cell(text: Text, cell: _Hex, part: int, style: MapStyle, compact: bool) -> None:
    """Append one line of a hex cell.

    Part 0 holds the label and the unit standing there, on the same line, so a
    unit is never read against a neighbour's label; part 1 holds the marks
    (terrain letter, height, road, hexside feature). Compact cells show the
    unit id in place of the label when the hex is occupied.
    """
    background = f"on {style.terrain_colour.get(cell.terrain, 'grey23')}"
    body = _unit_text(cell, style.unit_marks)
    unit_style = style.side_colour.get(str(cell.units[0].get("side")), "bold") if cell.units else ""
    if compact:
        if part == 0:
            shown = body.ljust(4)[:4] if body else cell.label
            text.append(shown, style=f"{unit_style or 'grey70'} {background}")
        else:
            letter = style.terrain_letter.get(cell.terrain, " ")
            marks = letter + _elevation_mark(cell.elevation) + (ROAD_MARK if cell.road else " ")
            text.append(marks + _hexside_mark(cell, style), style=f"grey62 {background}")
        return
    if part == 0:
        text.append(cell.label, style=f"grey70 {background}")
        text.append(" " + body.ljust(3)[:3], style=f"{unit_style} {background}")
        return
    letter = style.terrain_letter.get(cell.terrain, " ")
    text.append(f" {letter}", style=f"grey62 {background}")
    text.append(_elevation_mark(cell.elevation), style=f"bold white {background}")
    text.append(ROAD_MARK if cell.road else " ", style=f"bold white {background}")
    text.append(_hexside_mark(cell, style), style=f"bold bright_white {background}")
    text.append("   ", style=background)


def _unit_text(cell: _Hex, unit_marks: Mapping[str, str]) -> str:
    """The first unit's id, the marks of its flags (``~`` disrupted), ``+`` if more
    units share the hex."""
    if not cell.units:
        return ""
    first = cell.units[0]
    text = str(first.get("id", "?"))
    flags = _flags(first)
    shown: list[str] = []
    for flag, mark in unit_marks.items():
        if flag in flags and mark not in shown:
            shown.append(mark)
    text += "".join(shown)
    if len(cell.units) > 1:
        text += CROWDED_MARK
    return text


def _elevation_mark(height: int) -> str:
    """``^`` for elevation 1, the digit for 2-9, ``v`` below 0, blank at 0."""
    if height == 0:
        return " "
    if height < 0:
        return "v"
    return "^" if height == 1 else str(min(height, 9))


def _hexside_mark(cell: _Hex, style: MapStyle) -> str:
    """The mark of the rarest hexside feature on this hex's sides, or blank."""
    for feature in style.hexside_priority:
        if feature in cell.features:
            return style.hexside_mark[feature]
    return " "


def _legend(view: Mapping[str, Any], hexes: Mapping[str, _Hex], style: MapStyle) -> Text:
    """What the colours and marks mean, and each side's units (removed ones listed)."""
    legend = Text()
    legend.append("terrain: ", style="bold")
    for name, colour in style.terrain_colour.items():
        letter = style.terrain_letter.get(name)
        legend.append(f" {letter or ' '} ", style=f"on {colour}")
        legend.append(f" {name}  ")
    legend.append("\nmarks:   ", style="bold")
    legend.append(f"^ hill (digit: higher)  {ROAD_MARK} road  ")
    for flag, mark in style.unit_marks.items():
        legend.append(f"{mark} {flag}  ")
    legend.append(f"{CROWDED_MARK} more units  ")
    for feature in style.hexside_priority:
        legend.append(f"{style.hexside_mark[feature]} {feature} (hexside)  ")
    on_map = {str(u.get("id")) for h in hexes.values() for u in h.units}
    for side, colour in style.side_colour.items():
        legend.append(f"\n{side}: ", style=colour)
        ids = [str(u.get("id")) for u in view.get("units", ()) if str(u.get("side")) == side]
        legend.append(" ".join(i for i in ids if i in on_map), style=colour)
        gone = [i for i in ids if i not in on_map]
        if gone:
            legend.append(f"  (off the map: {' '.join(gone)})", style="dim")
    return legend
