"""Draw a table view as a coarse character map for the terminal (a rich renderable).

Reads only the ruleset-independent table keys of a view (see
:mod:`warbench.render.svg` for the contract): ``table`` (width, height in
inches, origin bottom-left, y up), ``features`` and ``figures``. Each character
cell covers a patch of the table (a character is about twice as tall as wide,
so a cell covers twice as many inches down as across). A cell shows the letter
of the terrain at its centre on that terrain's colour; a figure is an arrow
pointing where it faces, followed by its id in its side's colour and a letter
per marker it carries (``markers``: W white, Y yellow, R red, K black...; see
:data:`.palette.MARKER_COLOURS`). The legend lists the terrain letters and
every figure with its exact position, facing, status and markers, since the map
itself is coarse.

>>> import io
>>> from rich.console import Console
>>> view = {"table": {"width": 12, "height": 6}, "sides": ["red"],
...         "features": [{"id": "h", "kind": "house", "shape": "polygon",
...                       "points": [[0, 0], [4, 0], [4, 2], [0, 2]]}],
...         "figures": [{"id": "A1", "side": "red", "x": 8.5, "y": 4.5, "facing": 0}]}
>>> console = Console(file=io.StringIO(), width=40, color_system=None)
>>> console.print(render_table(view, width=40, legend=False))
>>> for line in console.file.getvalue().splitlines():
...     print(line.rstrip())
    0     3     6     9     12
 6 ┌────────────────────────┐
   │                        │
   │                 →A1    │
   │                        │
 3 │                        │
   │hhhhhhhh                │
   │hhhhhhhh                │
 0 └────────────────────────┘
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from warbench.render.palette import MARKER_COLOURS
from warbench.render.text import side_styles

__all__ = ["render_table", "table_map_width"]

MARGIN = 3
"""Characters left of the map for the inch numbers on the y axis."""
MAX_CHARS_PER_INCH = 2.0
ARROWS = "→↗↑↖←↙↓↘"
"""Facing arrows for 0, 45, 90... degrees (counter-clockwise from east)."""
CROWDED = "+"

FEATURE_COLOURS: Sequence[tuple[tuple[str, ...], str]] = (
    (("wood", "forest", "tree", "jungle"), "dark_green"),
    (("building", "house", "ruin", "town", "barn", "church"), "grey42"),
    (("water", "lake", "river", "pond", "stream", "sea"), "navy_blue"),
    (("hill", "ridge", "mountain"), "orange4"),
    (("road", "track", "path"), "wheat4"),
    (("wall", "fence", "hedge", "barrier"), "grey30"),
    (("rough", "rock", "rubble", "marsh", "swamp"), "dark_sea_green4"),
)
FALLBACK_COLOURS = ("dark_red", "deep_pink4", "dark_goldenrod", "medium_purple4", "grey35")


@dataclass(frozen=True, slots=True)
class _Grid:
    """How inches map to character cells."""

    width: float
    height: float
    columns: int
    rows: int

    @property
    def inch_x(self) -> float:
        return self.width / self.columns

    @property
    def inch_y(self) -> float:
        return self.height / self.rows

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """Table inches at the centre of a cell (row 0 is the far edge, y = height)."""
        return (column + 0.5) * self.inch_x, self.height - (row + 0.5) * self.inch_y

    def cell(self, x: float, y: float) -> tuple[int, int]:
        column = min(self.columns - 1, max(0, int(x / self.inch_x)))
        row = min(self.rows - 1, max(0, int((self.height - y) / self.inch_y)))
        return column, row


def table_map_width(view: Mapping[str, Any], width: int = 80) -> int:
    """How many characters wide the table of ``view`` is drawn within ``width`` (0: no table)."""
    grid = _grid(view, width)
    return 0 if grid is None else MARGIN + grid.columns + 4


def render_table(
    view: Mapping[str, Any], *, width: int = 80, legend: bool = True
) -> RenderableType:
    """The table of a view as text at most ``width`` characters wide, plus a legend."""
    grid = _grid(view, width)
    if grid is None:
        return Text("(this game has no table to draw)", style="italic")
    features = [f for f in view.get("features", ()) or () if isinstance(f, Mapping)]
    figures = [f for f in view.get("figures", ()) or () if isinstance(f, Mapping)]
    letters, colours = _feature_style(features)
    sides = [str(s) for s in view.get("sides", ()) or ()]
    for figure in figures:
        if str(figure.get("side")) not in sides:
            sides.append(str(figure.get("side")))
    styles = side_styles(sides)
    picture = _draw(grid, features, figures, letters, colours, styles)
    if not legend:
        return picture
    return Group(picture, _legend(features, figures, letters, colours, styles))


def _grid(view: Mapping[str, Any], width: int) -> _Grid | None:
    table = view.get("table")
    if not isinstance(table, Mapping):
        return None
    try:
        w, h = float(table["width"]), float(table["height"])
    except (KeyError, TypeError, ValueError):
        return None
    if w <= 0 or h <= 0:
        return None
    columns = max(4, min(width - MARGIN - 4, math.ceil(w * MAX_CHARS_PER_INCH)))
    rows = max(2, math.ceil(h / (2 * w / columns)))
    return _Grid(w, h, columns, rows)


def _feature_style(features: Sequence[Mapping[str, Any]]) -> tuple[dict[str, str], dict[str, str]]:
    """A distinct letter and a background colour per feature kind."""
    letters: dict[str, str] = {}
    colours: dict[str, str] = {}
    spare = iter(FALLBACK_COLOURS * (1 + len(features)))
    for feature in features:
        kind = str(feature.get("kind", "terrain"))
        if kind in letters:
            continue
        taken = set(letters.values())
        candidates = [c for c in kind.lower() if c.isalpha()] + list("abcdefghijklmnopqrstuvwxyz")
        letters[kind] = next((c for c in candidates if c not in taken), "?")
        lower = kind.lower()
        colours[kind] = next(
            (colour for words, colour in FEATURE_COLOURS if any(w in lower for w in words)),
            None,
        ) or next(spare)
    return letters, colours


def _covers(feature: Mapping[str, Any], x: float, y: float, reach: float) -> bool:
    """Whether the feature covers the point (x, y); lines count within ``reach`` inches."""
    try:
        points = [(float(p[0]), float(p[1])) for p in feature.get("points", ())]
    except (TypeError, ValueError, IndexError):
        return False
    shape = feature.get("shape")
    if not points:
        return False
    if shape == "circle":
        radius = feature.get("radius")
        return isinstance(radius, int | float) and math.dist(points[0], (x, y)) <= radius
    if shape == "polyline":
        return any(_segment_distance(a, b, (x, y)) <= reach for a, b in itertools.pairwise(points))
    return _inside(points, x, y)


def _inside(ring: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    """Even-odd ray casting: is (x, y) inside the polygon ``ring``?"""
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _segment_distance(
    a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]
) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _arrow(facing: Any) -> str:
    if not isinstance(facing, int | float):
        return "•"
    return ARROWS[round(float(facing) / 45) % 8]


def _on_table(figure: Mapping[str, Any]) -> bool:
    return isinstance(figure.get("x"), int | float) and isinstance(figure.get("y"), int | float)


def _markers(figure: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(colour, label)`` of each marker of a figure (colours the palette lacks are skipped)."""
    raw = figure.get("markers")
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return []
    out = []
    for marker in raw:
        colour, label = marker, ""
        if isinstance(marker, Mapping):
            colour, label = marker.get("colour"), marker.get("label", "")
        if isinstance(colour, str) and colour in MARKER_COLOURS:
            out.append((colour, label if isinstance(label, str) else ""))
    return out


def _draw(
    grid: _Grid,
    features: Sequence[Mapping[str, Any]],
    figures: Sequence[Mapping[str, Any]],
    letters: Mapping[str, str],
    colours: Mapping[str, str],
    styles: Mapping[str, str],
) -> Text:
    """The framed map: terrain letters, then figures (arrow + id) written over them."""
    chars = [[" "] * grid.columns for _ in range(grid.rows)]
    cell_style = [[""] * grid.columns for _ in range(grid.rows)]
    reach = max(grid.inch_x, grid.inch_y) / 2
    # Lines (walls, roads) are drawn after areas, so they show on top of them.
    ordered = sorted(features, key=lambda f: f.get("shape") == "polyline")
    for row in range(grid.rows):
        for column in range(grid.columns):
            x, y = grid.centre(column, row)
            for feature in reversed(ordered):
                if _covers(feature, x, y, reach):
                    kind = str(feature.get("kind", "terrain"))
                    chars[row][column] = letters[kind]
                    cell_style[row][column] = f"grey85 on {colours[kind]}"
                    break
    taken: set[tuple[int, int]] = set()
    placed = []
    for figure in figures:
        if not _on_table(figure):
            continue
        column, row = grid.cell(float(figure["x"]), float(figure["y"]))
        style = styles.get(str(figure.get("side")), "bold")
        if (column, row) in taken:
            chars[row][column] = CROWDED
            continue
        taken.add((column, row))
        chars[row][column] = _arrow(figure.get("facing"))
        cell_style[row][column] = style
        label = str(figure.get("label") or figure.get("id", "?"))
        text = [(char, style) for char in label]
        text += [(MARKER_COLOURS[c].letter, MARKER_COLOURS[c].style) for c, _ in _markers(figure)]
        placed.append((column, row, text))
    for column, row, text in placed:
        for i, (char, style) in enumerate(text, start=1):
            if column + i >= grid.columns or (column + i, row) in taken:
                break
            chars[row][column + i] = char
            cell_style[row][column + i] = style
    return _frame(grid, chars, cell_style)


def _frame(grid: _Grid, chars: list[list[str]], cell_style: list[list[str]]) -> Text:
    """The cells inside a box, with inch numbers along the top and the left."""
    step = _label_step(grid.width / grid.columns)
    header = [" "] * (MARGIN + grid.columns + 2 + 4)
    for inch in range(0, int(grid.width) + 1, step):
        column = MARGIN + 1 + round(inch / grid.inch_x)
        for i, char in enumerate(str(inch)):
            if column + i < len(header):
                header[column + i] = char
    lines = [Text("".join(header).rstrip(), style="bold")]
    y_step = _label_step(grid.height / grid.rows / 2)
    labelled: dict[int, int] = {}
    for inch in range(0, int(grid.height) + 1, y_step):
        # The borders stand for the edges; a number in between goes on the row holding it.
        if inch == 0:
            line_no = grid.rows + 1
        elif inch >= grid.height:
            line_no = 0
        else:
            line_no = 1 + min(grid.rows - 1, int((grid.height - inch) / grid.inch_y))
        labelled.setdefault(line_no, inch)
    for line_no in range(grid.rows + 2):
        mark = labelled.get(line_no)
        line = Text(f"{mark:>{MARGIN - 1}} " if mark is not None else " " * MARGIN, style="bold")
        if line_no == 0:
            line.append("┌" + "─" * grid.columns + "┐", style="grey50")
        elif line_no == grid.rows + 1:
            line.append("└" + "─" * grid.columns + "┘", style="grey50")
        else:
            row = line_no - 1
            line.append("│", style="grey50")
            for column in range(grid.columns):
                line.append(chars[row][column], style=cell_style[row][column])
            line.append("│", style="grey50")
        lines.append(line)
    picture = Text("\n").join(lines)
    picture.no_wrap = True
    picture.overflow = "crop"
    return picture


def _label_step(inches_per_char: float) -> int:
    """Inches between axis numbers: the smallest of 3, 6, 12, 24... leaving room for them."""
    step = 3
    while step / inches_per_char < 6:
        step *= 2
    return step


def _legend(
    features: Sequence[Mapping[str, Any]],
    figures: Sequence[Mapping[str, Any]],
    letters: Mapping[str, str],
    colours: Mapping[str, str],
    styles: Mapping[str, str],
) -> Text:
    """Terrain letters, then each side's figures with position, facing and status,
    one entry a line (so that no entry is broken across lines at 80 columns)."""
    legend = Text()
    if letters:
        legend.append("terrain: ", style="bold")
        for kind, letter in letters.items():
            sight = sorted(
                {
                    str(f["blocks_los"])
                    for f in features
                    if str(f.get("kind", "terrain")) == kind and f.get("blocks_los")
                }
            )
            legend.append("\n  ")
            legend.append(f" {letter} ", style=f"grey85 on {colours[kind]}")
            legend.append(f" {kind}" + (f" (blocks sight: {'/'.join(sight)})" if sight else ""))
        legend.append("\n")
    legend.append(f"figures: arrow = facing, {CROWDED} = several in one cell", style="bold")
    pegs = dict.fromkeys(c for f in figures if _on_table(f) for c, _ in _markers(f))
    if pegs:
        legend.append(", after an id: ", style="bold")
        for i, colour in enumerate(pegs):
            legend.append(", " if i else "")
            legend.append(MARKER_COLOURS[colour].letter, style=MARKER_COLOURS[colour].style)
            legend.append(f" {colour} marker")
    for side, style in styles.items():
        mine = [f for f in figures if str(f.get("side")) == side]
        legend.append(f"\n{side}:", style=style)
        shown = []
        for figure in mine:
            if not _on_table(figure):
                continue
            text = f"{figure.get('id')} {figure.get('kind', '')}".rstrip()
            text += f" at {float(figure['x']):g},{float(figure['y']):g}"
            if isinstance(figure.get("facing"), int | float):
                text += f" facing {float(figure['facing']):g}°"
            statuses = [str(s) for s in figure.get("status", ()) or ()]
            for colour, label in _markers(figure):
                if (label or f"{colour} marker") not in statuses:
                    statuses.append(label or f"{colour} marker")
            if statuses:
                text += f" [{', '.join(statuses)}]"
            shown.append(text)
        legend.append("".join(f"\n  {text}" for text in shown) or " none on the table")
        gone = [str(f.get("id")) for f in mine if not _on_table(f)]
        if gone:
            legend.append(f"\n  off the table: {' '.join(gone)}", style="dim")
    return legend
