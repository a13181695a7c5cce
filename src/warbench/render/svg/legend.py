"""The legend beside the board: its box, and the entries each kind of mark adds to it."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warbench.render.svg.base import (
    ARC_STYLE,
    BOLD,
    LEGEND_CHARS,
    LOG_UNMARKED,
    SIGHT_BLOCKED,
    SIGHT_CLEAR,
    Entry,
    Style,
    Swatch,
    _add,
    _arrowhead,
    _circle,
    _darker,
    _line,
    _text,
)
from warbench.render.svg.pieces import _badges, _draw_log, _draw_pegs, _mark_colour, _Peg, _Styles


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
