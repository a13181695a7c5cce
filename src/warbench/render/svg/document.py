"""The document: the board, its overlays and its legend in one SVG."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from warbench.render.svg.base import (
    BOLD,
    DECORATION,
    FONT,
    LEGEND_W,
    MARGIN,
    SVG_NS,
    RenderError,
    _add,
    _text,
    xml_safe,
)
from warbench.render.svg.board import _Board, _caption
from warbench.render.svg.hexmap import _HexBoard
from warbench.render.svg.legend import _Legend, _overlay_entries
from warbench.render.svg.overlays import _draw_overlays
from warbench.render.svg.table import _TableBoard


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
