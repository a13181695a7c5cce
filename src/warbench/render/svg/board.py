"""What both kinds of board share: the board interface and the caption."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from typing import Any

from warbench.render.svg.base import Point
from warbench.render.svg.legend import _Legend
from warbench.render.svg.pieces import _Styles


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
