"""Draw a table view as a coarse character map for the terminal (a rich renderable).

Reads the ruleset-independent table keys of a view (see :mod:`warbench.render.svg`
for the contract): ``table`` (width, height in inches, origin bottom-left, y up),
``features`` and ``figures``; and, where a view has them, ``items``, ``tasks``,
``tasks_done``, ``zones``, ``defeated``, ``cleared``, ``positions`` and the
per-figure records of ``figures_state`` or ``bases`` (matched by id). Nothing
else is read, so a side's map shows only what its view holds.

Each character cell covers a patch of the table (a character is about twice as
tall as wide, so a cell covers twice as many inches down as across):

- terrain: the letter of the feature at the cell's centre on that feature's
  colour; a feature too small to cover a cell's centre still gets its letter at
  its own centre. A feature marked ``destroyed`` (or ``removed``) is not drawn:
  the legend names it as gone.
- things standing on the table, one character at their place: ``*`` an item
  lying there (``view["items"]`` with ``at``, not carried and not gone, or a
  feature of kind ``item``), ``!`` a task's place (``view["tasks"]``: its
  ``at``, or the centre of its ``feature``; or a feature of kind ``task``),
  ``X`` a marker zone (``view["zones"]``, in its marker's colour). The legend
  lists each with its exact place.
- figures: an arrow pointing where the figure faces (``+`` for several in one
  cell), followed by its id in its side's colour and a letter per marker it
  carries (``markers``: W white, Y yellow, R red, K black...; see
  :data:`.palette.MARKER_COLOURS`); several in one cell are written ``+A1,A2``.
  When a label has no room (another figure's mark or a place mark is in the
  way, or the table's edge), a number is written instead and the figures it
  stands for are listed under the map with their positions, so no figure is
  lost.

The legend gives the angle convention, the terrain letters, the places, and a
roster: each figure with its exact position, its facing in whole degrees and a
compass word (:func:`~warbench.geometry.table.text.facing_text`) and its status
(the unit a base belongs to, the view's flags and markers, plus what its
record says: moved, attacked, fired, wounds, hull hits, damage, the items it
carries); then the figures off the table, defeated or destroyed.

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
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from warbench.geometry.table.core import segment_distance
from warbench.geometry.table.text import ANGLE_CONVENTION, facing_text
from warbench.render.palette import MARKER_COLOURS
from warbench.render.text import side_styles

__all__ = ["render_table", "table_map_width"]

MARGIN = 3
"""Characters left of the map for the inch numbers on the y axis."""
MAX_CHARS_PER_INCH = 2.0
ARROWS = "→↗↑↖←↙↓↘"
"""Facing arrows for 0, 45, 90... degrees (counter-clockwise from east)."""
CROWDED = "+"
ITEM, TASK, ZONE = "*", "!", "X"
"""The marks of an item lying on the table, a task's place and a marker zone."""
ITEM_STYLE = "bold black on gold1"
TASK_STYLE = "bold white on magenta"
NOTE_STYLE = "bold reverse"
NOTE_KEYS = "123456789"
"""Single-character keys for labels that did not fit (then ``#``)."""
SPOT_KINDS = ("item", "task")
"""Feature kinds drawn as one mark at their centre, not as terrain."""

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


@dataclass(slots=True)
class _Spot:
    """Something drawn as one character at a point: an item, a task's place, a zone."""

    mark: str
    style: str
    at: tuple[float, float]
    text: str
    """The legend's words for it (its name and exact place)."""
    hidden_by: str = ""
    """The ids of the figures drawn over it, if any."""


@dataclass(frozen=True, slots=True)
class _Shown:
    """What the map and its legend both show, and how: the terrain, the figures and the
    places, the terrain's letters and colours by kind, and each side's style."""

    terrain: Sequence[Mapping[str, Any]]
    figures: Sequence[Mapping[str, Any]]
    spots: Sequence[_Spot]
    letters: Mapping[str, str]
    colours: Mapping[str, str]
    styles: Mapping[str, str]


@dataclass(slots=True)
class _Drawn:
    """The framed map plus what the legend must say about the drawing."""

    picture: Text
    notes: list[tuple[str, list[Mapping[str, Any]]]] = field(default_factory=list)
    """Keys written in place of labels that did not fit, and the figures of each."""


def table_map_width(view: Mapping[str, Any], width: int = 80) -> int:
    """How many characters wide the table of ``view`` is drawn within ``width`` (0: no table)."""
    grid = _grid(view, width)
    return 0 if grid is None else MARGIN + grid.columns + 4


def render_table(
    view: Mapping[str, Any], *, width: int = 80, legend: bool = True
) -> RenderableType:
    """The table of a view as text at most ``width`` characters wide, plus a legend.

    Labels that found no room on the map are listed under it even without the
    legend (each stands for figures that would otherwise be lost).
    """
    grid = _grid(view, width)
    if grid is None:
        return Text("(this game has no table to draw)", style="italic")
    every = _mappings(view.get("features"))
    features = [f for f in every if not _gone(f)]
    terrain = [f for f in features if str(f.get("kind")) not in SPOT_KINDS]
    figures = _mappings(view.get("figures"))
    spots = _spots(view, features)
    letters, colours = _feature_style(terrain, _strings(view.get("terrain_kinds")))
    sides = [str(s) for s in view.get("sides", ()) or ()]
    for figure in figures:
        if str(figure.get("side")) not in sides:
            sides.append(str(figure.get("side")))
    styles = side_styles(sides)
    what = _Shown(terrain, figures, spots, letters, colours, styles)
    drawn = _draw(grid, what)
    parts: list[RenderableType] = [drawn.picture]
    if drawn.notes:
        parts.append(_notes(drawn.notes, styles))
    if legend:
        gone = [f for f in every if _gone(f)]
        parts.append(_legend(view, gone, what))
    return parts[0] if len(parts) == 1 else Group(*parts)


def _mappings(value: Any) -> list[Mapping[str, Any]]:
    """The mappings of a list in a view (anything else in it is ignored)."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        return []
    return [entry for entry in value if isinstance(entry, Mapping)]


def _gone(feature: Mapping[str, Any]) -> bool:
    """A feature the view marks as no longer on the table."""
    return bool(feature.get("destroyed") or feature.get("removed"))


def _grid(view: Mapping[str, Any], width: int) -> _Grid | None:
    table = view.get("table")
    if not isinstance(table, Mapping):
        return None
    try:
        w, h = float(table["width"]), float(table["height"])
    except (KeyError, TypeError, ValueError):
        return None
    if not (w > 0 and h > 0 and math.isfinite(w) and math.isfinite(h)):
        return None
    columns = max(4, min(width - MARGIN - 4, math.ceil(w * MAX_CHARS_PER_INCH)))
    rows = max(2, math.ceil(h / (2 * w / columns)))
    return _Grid(w, h, columns, rows)


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _feature_style(
    features: Sequence[Mapping[str, Any]], known: Sequence[str] = ()
) -> tuple[dict[str, str], dict[str, str]]:
    """A distinct letter and a background colour per feature kind. ``known``: every kind
    the ruleset has (``view["terrain_kinds"]``), given their letters and colours first so
    that a kind looks the same in every scenario of the ruleset."""
    letters: dict[str, str] = {}
    colours: dict[str, str] = {}
    kinds = list(dict.fromkeys([*known, *(str(f.get("kind", "terrain")) for f in features)]))
    spare = iter(FALLBACK_COLOURS * (1 + len(kinds)))
    for kind in kinds:
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


def _points(feature: Mapping[str, Any]) -> list[tuple[float, float]]:
    try:
        return [(float(p[0]), float(p[1])) for p in feature.get("points", ()) or ()]
    except (TypeError, ValueError, IndexError):
        return []


def _point(value: Any) -> tuple[float, float] | None:
    """``[x, y]`` of a view as a point, or None."""
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        x, y = value
        if isinstance(x, int | float) and isinstance(y, int | float):
            return float(x), float(y)
    return None


def _centre(feature: Mapping[str, Any]) -> tuple[float, float] | None:
    """Where a feature is marked when it is too small to fill a cell: its circle's centre,
    or the mean of its points."""
    points = _points(feature)
    if not points:
        return None
    if feature.get("shape") == "circle":
        return points[0]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def _covers(feature: Mapping[str, Any], x: float, y: float, reach: float) -> bool:
    """Whether the feature covers the point (x, y); lines count within ``reach`` inches."""
    points = _points(feature)
    shape = feature.get("shape")
    if not points:
        return False
    if shape == "circle":
        radius = feature.get("radius")
        return isinstance(radius, int | float) and math.dist(points[0], (x, y)) <= radius
    if shape == "polyline":
        return any(segment_distance((x, y), a, b) <= reach for a, b in itertools.pairwise(points))
    holes = feature.get("holes") or ()
    return _inside(points, x, y) and not any(
        _inside(_points({"points": ring}), x, y) for ring in holes
    )


def _inside(ring: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    """Even-odd ray casting: is (x, y) inside the polygon ``ring``?"""
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _inches(value: float) -> str:
    """A coordinate or length for people: at most two decimals (``18``, ``15.8``)."""
    return f"{round(value, 2):g}"


def _at(point: tuple[float, float]) -> str:
    return f"{_inches(point[0])},{_inches(point[1])}"


def _name(entry: Mapping[str, Any]) -> str:
    """``Label (id)``, or the id alone when the label is the id or missing."""
    ident = str(entry.get("id", "?"))
    label = entry.get("label")
    return f"{label} ({ident})" if isinstance(label, str) and label and label != ident else ident


def _spots(view: Mapping[str, Any], features: Sequence[Mapping[str, Any]]) -> list[_Spot]:
    """The items lying on the table, the tasks' places and the marker zones of a view."""
    spots: list[_Spot] = []
    items = _mappings(view.get("items"))
    tasks = _mappings(view.get("tasks"))
    listed = {str(entry.get("id")) for entry in (*items, *tasks)}
    by_id = {str(f.get("id")): f for f in features}
    for item in items:
        at = _point(item.get("at"))
        if at is None or item.get("gone") or item.get("carrier"):
            continue
        text = f"{_name(item)} lies at {_at(at)}" + (", locked" if item.get("locked") else "")
        spots.append(_Spot(ITEM, ITEM_STYLE, at, text))
    done = {str(t) for t in view.get("tasks_done", ()) or ()}
    for task in tasks:
        at = _point(task.get("at"))
        place = f"at {_at(at)}" if at is not None else ""
        feature = by_id.get(str(task.get("feature")))
        if at is None and feature is not None:
            at = _centre(feature)
            place = f"on {_name(feature)}"
        if at is None:  # its feature is gone: nothing left to mark
            continue
        reach = task.get("reach")
        if isinstance(reach, int | float) and reach > 0:
            place += f', within {_inches(float(reach))}"'
        text = f"{_name(task)} {place}" + (", done" if str(task.get("id")) in done else "")
        spots.append(_Spot(TASK, TASK_STYLE, at, text))
    for feature in features:
        kind = str(feature.get("kind"))
        at = _centre(feature)
        if kind in SPOT_KINDS and str(feature.get("id")) not in listed and at is not None:
            mark, style = (ITEM, ITEM_STYLE) if kind == "item" else (TASK, TASK_STYLE)
            spots.append(_Spot(mark, style, at, f"{_name(feature)} at {_at(at)}"))
    for zone in _mappings(view.get("zones")):
        at = _point(zone.get("at"))
        colour = zone.get("colour")
        if at is None:
            continue
        known = isinstance(colour, str) and colour in MARKER_COLOURS
        style = MARKER_COLOURS[str(colour)].style if known else "bold reverse"
        radius = zone.get("radius")
        text = f"{_name(zone)} at {_at(at)}"
        if isinstance(radius, int | float) and radius > 0:
            text += f', covering {_inches(float(radius))}" round it'
        spots.append(_Spot(ZONE, style, at, text))
    return spots


def _arrow(facing: Any) -> str:
    if not isinstance(facing, int | float) or not math.isfinite(facing):
        return "•"
    return ARROWS[round(float(facing) / 45) % 8]


def _on_table(figure: Mapping[str, Any]) -> bool:
    x, y = figure.get("x"), figure.get("y")
    return (
        isinstance(x, int | float)
        and isinstance(y, int | float)
        and math.isfinite(x)
        and math.isfinite(y)
    )


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


def _draw(grid: _Grid, what: _Shown) -> _Drawn:
    """The framed map: terrain letters, then places, then figures (arrow + label)."""
    features, figures, spots = what.terrain, what.figures, what.spots
    letters, colours, styles = what.letters, what.colours, what.styles
    chars = [[" "] * grid.columns for _ in range(grid.rows)]
    cell_style = [[""] * grid.columns for _ in range(grid.rows)]
    reach = max(grid.inch_x, grid.inch_y) / 2
    # Lines (walls, roads) are drawn after areas, so they show on top of them.
    ordered = sorted(features, key=lambda f: f.get("shape") == "polyline")
    shown: set[int] = set()
    for row in range(grid.rows):
        for column in range(grid.columns):
            x, y = grid.centre(column, row)
            for feature in reversed(ordered):
                if _covers(feature, x, y, reach):
                    kind = str(feature.get("kind", "terrain"))
                    chars[row][column] = letters[kind]
                    cell_style[row][column] = f"grey85 on {colours[kind]}"
                    shown.add(id(feature))
                    break
    for feature in ordered:  # too small to cover a cell's centre: marked at its own centre
        at = _centre(feature)
        if id(feature) not in shown and at is not None:
            column, row = grid.cell(*at)
            kind = str(feature.get("kind", "terrain"))
            chars[row][column] = letters[kind]
            cell_style[row][column] = f"grey85 on {colours[kind]}"
    reserved: set[tuple[int, int]] = set()
    spot_cells: dict[tuple[int, int], list[_Spot]] = {}
    for spot in spots:
        column, row = grid.cell(*spot.at)
        chars[row][column] = spot.mark
        cell_style[row][column] = spot.style
        reserved.add((column, row))
        spot_cells.setdefault((column, row), []).append(spot)
    groups: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for figure in figures:
        if _on_table(figure):
            groups.setdefault(grid.cell(float(figure["x"]), float(figure["y"])), []).append(figure)
    for (column, row), group in groups.items():
        for spot in spot_cells.get((column, row), ()):
            spot.hidden_by = " ".join(str(f.get("id")) for f in group)
        chars[row][column] = _arrow(group[0].get("facing")) if len(group) == 1 else CROWDED
        cell_style[row][column] = styles.get(str(group[0].get("side")), "bold")
        reserved.add((column, row))

    def fits(column: int, row: int, length: int) -> bool:
        return all(
            column + i < grid.columns and (column + i, row) not in reserved
            for i in range(1, length + 1)
        )

    def write(column: int, row: int, label: Sequence[tuple[str, str]]) -> None:
        """``label`` right of the cell, then a blank to keep terrain letters off it."""
        if fits(column + len(label), row, 1):
            label = [*label, (" ", "")]
        for i, (char, style) in enumerate(label, start=1):
            chars[row][column + i] = char
            cell_style[row][column + i] = style
            reserved.add((column + i, row))

    drawn = _Drawn(Text())
    # Marks side by side in a row whose labels have no room share one key, written just
    # after the last of them (or in its place when even the key has no room).
    waiting: list[tuple[int, Sequence[Mapping[str, Any]]]] = []

    def settle(row: int) -> None:
        if not waiting:
            return
        key = NOTE_KEYS[len(drawn.notes)] if len(drawn.notes) < len(NOTE_KEYS) else "#"
        drawn.notes.append((key, [figure for _, group in waiting for figure in group]))
        column = waiting[-1][0]
        if fits(column, row, 1):
            write(column, row, [(key, NOTE_STYLE)])
        else:
            chars[row][column], cell_style[row][column] = key, NOTE_STYLE
        waiting.clear()

    for row in range(grid.rows):
        for column in range(grid.columns):
            here = groups.get((column, row))
            if here is None:
                continue
            label = next((o for o in _labels(here, styles) if fits(column, row, len(o))), None)
            if label is None:
                waiting.append((column, here))
                continue
            settle(row)
            write(column, row, label)
        settle(row)
    drawn.picture = _frame(grid, chars, cell_style)
    return drawn


def _labels(
    group: Sequence[Mapping[str, Any]], styles: Mapping[str, str]
) -> list[list[tuple[str, str]]]:
    """The labels a cell's figures may be written with, longest first: one figure's label
    and its marker letters, or its label alone; several figures' ids joined by commas."""
    if len(group) > 1:
        out: list[tuple[str, str]] = []
        for i, figure in enumerate(group):
            if i:
                out.append((",", ""))
            style = styles.get(str(figure.get("side")), "bold")
            out += [(char, style) for char in str(figure.get("id", "?"))]
        return [out]
    figure = group[0]
    style = styles.get(str(figure.get("side")), "bold")
    name = [(char, style) for char in str(figure.get("label") or figure.get("id", "?"))]
    pegs = [(MARKER_COLOURS[c].letter, MARKER_COLOURS[c].style) for c, _ in _markers(figure)]
    ident = [(char, style) for char in str(figure.get("id", "?"))]
    options = [name + pegs, name, ident]
    return [option for i, option in enumerate(options) if option not in options[:i]]


def _notes(
    notes: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], styles: Mapping[str, str]
) -> Text:
    """Under the map: which figures each key stands for, with their positions."""
    text = Text(
        "no room for these labels; each key is on the map at or after their marks:", style="bold"
    )
    for key, group in notes:
        text.append("\n  ")
        text.append(key, style=NOTE_STYLE)
        text.append(": ")
        for i, figure in enumerate(group):
            text.append(", " if i else "")
            text.append(str(figure.get("id", "?")), style=styles.get(str(figure.get("side")), ""))
            text.append(f" at {_at((float(figure['x']), float(figure['y'])))}")
    return text


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


def _records(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The per-figure records of a view (``figures_state`` or ``bases``), by id."""
    records: dict[str, Mapping[str, Any]] = {}
    for key in ("figures_state", "bases"):
        for record in _mappings(view.get(key)):
            records.setdefault(str(record.get("id")), record)
    return records


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _statuses(
    figure: Mapping[str, Any],
    record: Mapping[str, Any],
    carried: Sequence[str],
) -> list[str]:
    """A figure's status words: its view flags and markers, then what its record adds."""
    statuses = [str(s) for s in figure.get("status", ()) or ()]
    unit = figure.get("unit", record.get("unit"))
    if isinstance(unit, str) and unit:
        statuses.insert(0, f"unit {unit}")  # a base of a unit (MGV, Invisible Enemy)
    if figure.get("disrupted") and "disrupted" not in statuses:
        statuses.insert(0, "disrupted")
    for colour, label in _markers(figure):
        if (label or f"{colour} marker") not in statuses:
            statuses.append(label or f"{colour} marker")
    for key in ("disrupted", "moved", "attacked", "fired"):
        if record.get(key) is True and not any(s.startswith(key) for s in statuses):
            statuses.append(key)
    wounds = _count(record.get("wounds"))
    if wounds:
        statuses.append(f"wounds {wounds}")
    hits, hull = _count(record.get("hits")), _count(record.get("hull"))
    damage = record.get("damage")
    if hits:
        text = f"hull hits {hits}/{hull}" if hull else f"hull hits {hits}"
        if isinstance(damage, str) and damage not in ("", "none"):
            text += f" ({damage} damage)"
        statuses.append(text)
    elif isinstance(damage, str) and any(c in "123456789" for c in damage):
        statuses.append(f"damage {damage}")
    if carried:
        statuses = [s for s in statuses if s != "carrying"]
        statuses.append("carrying " + ", ".join(carried))
    return statuses


def _legend(view: Mapping[str, Any], gone: Sequence[Mapping[str, Any]], what: _Shown) -> Text:
    """The angle convention, terrain letters, places on the table, then each side's
    figures with position, facing and status, one entry a line (so that no entry is
    broken across lines at 80 columns)."""
    features, figures, spots = what.terrain, what.figures, what.spots
    letters, colours, styles = what.letters, what.colours, what.styles
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
    drawn = {str(f.get("id")) for f in features}
    cleared = [str(c) for c in view.get("cleared", ()) or () if isinstance(c, str)]
    lost = list(dict.fromkeys([_name(f) for f in gone] + [c for c in cleared if c not in drawn]))
    if lost:
        legend.append("destroyed (no longer drawn): ", style="bold")
        legend.append(", ".join(lost) + "\n")
    items = _mappings(view.get("items"))
    away = [item for item in items if item.get("carrier") or item.get("gone")]
    if spots or away:
        legend.append("on the table: ", style="bold")
        words = {ITEM: "an item", TASK: "a task's place", ZONE: "a marker zone"}
        marks = dict.fromkeys(spot.mark for spot in spots)
        legend.append(", ".join(f"{mark} {words[mark]}" for mark in marks))
        for spot in spots:
            legend.append("\n  ")
            legend.append(f" {spot.mark} ", style=spot.style)
            legend.append(" " + spot.text)
            if spot.hidden_by:
                legend.append(f" (under {spot.hidden_by})", style="italic")
        for item in away:
            carrier = item.get("carrier")
            legend.append("\n     " + _name(item))
            if carrier:
                legend.append(f": carried by {carrier}")
            else:
                scorer = item.get("scored_by")
                legend.append(": off the table" + (f", scored by {scorer}" if scorer else ""))
        legend.append("\n")
    legend.append("figures: arrow = facing, ", style="bold")
    legend.append(f"{CROWDED} = several in one cell", style="bold")
    pegs = dict.fromkeys(c for f in figures if _on_table(f) for c, _ in _markers(f))
    if pegs:
        legend.append(", after an id: ", style="bold")
        for i, colour in enumerate(pegs):
            legend.append(", " if i else "")
            legend.append(MARKER_COLOURS[colour].letter, style=MARKER_COLOURS[colour].style)
            legend.append(f" {colour} marker")
    legend.append(f"\n{ANGLE_CONVENTION}")
    for key, lead in (("eye", "positions: "), ("positions", "")):
        note = view.get(key)
        if isinstance(note, str) and note:
            legend.append(f"\n{lead}{note}", style="italic")
    records = _records(view)
    labels = {str(item.get("id")): str(item.get("label") or item.get("id")) for item in items}
    carried: dict[str, list[str]] = {}
    for item in items:
        if item.get("carrier") and not item.get("gone"):
            carried.setdefault(str(item["carrier"]), []).append(labels[str(item.get("id"))])
    titles = view.get("titles")
    defeated = {str(d) for d in view.get("defeated", ()) or ()}
    for side, style in styles.items():
        mine = [f for f in figures if str(f.get("side")) == side]
        title = titles.get(side) if isinstance(titles, Mapping) else None
        header = side + (f" ({title})" if isinstance(title, str) and title != side else "")
        legend.append("\n")
        legend.append(f"{header}:", style=style)
        shown = []
        for figure in mine:
            if not _on_table(figure):
                continue
            ident = str(figure.get("id"))
            record = records.get(ident, {})
            own = carried.get(ident) or [
                labels.get(str(i), str(i)) for i in record.get("items", ()) or ()
            ]
            text = f"{ident} {figure.get('kind', '')}".rstrip()
            text += f" at {_at((float(figure['x']), float(figure['y'])))}"
            if figure.get("by_eye"):
                text += " (by eye)"
            facing = figure.get("facing")
            if isinstance(facing, int | float) and math.isfinite(facing):
                text += f" facing {facing_text(float(facing))}"
            statuses = _statuses(figure, record, own)
            if statuses:
                text += f" [{', '.join(statuses)}]"
            shown.append(text)
        legend.append("".join(f"\n  {text}" for text in shown) or " none on the table")
        listed = {str(f.get("id")) for f in mine}
        off = [
            f"{f.get('id')}" + (f" ({', '.join(map(str, f['status']))})" if f.get("status") else "")
            for f in mine
            if not _on_table(f)
        ]
        off += [
            f"{ident} (exited)"
            for ident, record in records.items()
            if str(record.get("side")) == side and record.get("exited") and ident not in listed
        ]
        destroyed = [
            ident
            for ident, record in records.items()
            if str(record.get("side")) == side
            and ident not in listed
            and (record.get("destroyed") or ident in defeated)
            and not record.get("exited")
        ]
        if off:
            legend.append(f"\n  off the table: {' '.join(off)}", style="dim")
        if destroyed:
            word = "defeated" if defeated & set(destroyed) else "destroyed"
            legend.append(f"\n  {word}: {' '.join(destroyed)}", style="dim")
    return legend
