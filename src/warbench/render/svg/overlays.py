"""Overlays: the last action's path moved, lines of sight and arcs, over the board."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from warbench.render.svg.base import (
    ARC_STYLE,
    ARROW_PATH,
    ARROW_SIGHT,
    BOLD,
    ROUND,
    SIGHT_BLOCKED,
    SIGHT_CLEAR,
    Point,
    RenderError,
    _add,
    _arrowhead,
    _circle,
    _direction,
    _fmt,
    _halo_text,
    _line,
    _number,
    _points,
    _shorten,
)
from warbench.render.svg.board import _Board


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
