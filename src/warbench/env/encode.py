"""Fixed-size numbers from a side's view, for learning agents (``warbench.env``).

Built from the view alone (``Game.view(side)``), so it holds nothing the side may not
see: the same rule that keeps the terminal, the pictures and the bots honest.

The vector (float32, length :data:`SIZE`) is a header and then :data:`MAX_PIECES`
slots, one a unit, figure or base as the view lists them (hex views' ``units``,
table views' ``figures``), in the view's order; slots past the last piece are zeros.

- header: the turn as a share of the turn limit; the sides in the scenario's order,
  turned so the viewer's side comes first, each as 1 if it is asked to decide now;
  1 if the viewer is asked.
- a piece: present (1); its side, one-hot over :data:`MAX_SIDES` turned the same way
  (so slot 0 is always "mine"); its place as a share of the board (hex: column and row;
  table: x and y in inches); its facing as cosine and sine (0, 0 on a hex map); how many
  status flags it has, over 4 (disrupted, wounded, moved, attacked, fired, acted, or a
  table figure's ``status`` words).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

MAX_SIDES = 4
MAX_PIECES = 64
HEADER = 2 + MAX_SIDES
PIECE = 1 + MAX_SIDES + 2 + 2 + 1
SIZE = HEADER + MAX_PIECES * PIECE
"""Length of the vector."""

HEX_FLAGS = ("disrupted", "wounded", "moved", "attacked", "fired", "acted")


def _turned(sides: Sequence[str], viewer: str | None) -> list[str]:
    """The sides with the viewer's first (the rest in the scenario's order after it)."""
    if viewer is None or viewer not in sides:
        return list(sides)
    at = list(sides).index(viewer)
    return [*sides[at:], *sides[:at]]


def _pieces(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    key = "figures" if isinstance(view.get("figures"), list) else "units"
    found = view.get(key)
    return [p for p in found if isinstance(p, Mapping)] if isinstance(found, list) else []


def _size(view: Mapping[str, Any]) -> tuple[float, float]:
    """The board's extent: a table's inches, or a hex map's columns and rows."""
    table = view.get("table")
    if isinstance(table, Mapping):
        return float(table.get("width") or 1.0), float(table.get("height") or 1.0)
    board = view.get("map")
    if isinstance(board, Mapping):
        return float(board.get("columns") or 1.0), float(board.get("rows") or 1.0)
    return 1.0, 1.0


def _place(piece: Mapping[str, Any], width: float, height: float) -> tuple[float, float]:
    if isinstance(piece.get("x"), int | float) and isinstance(piece.get("y"), int | float):
        return float(piece["x"]) / width, float(piece["y"]) / height
    at = piece.get("at")
    if isinstance(at, str) and len(at) == 4 and at.isdigit():
        return int(at[:2]) / width, int(at[2:]) / height
    return 0.0, 0.0


def _flags(piece: Mapping[str, Any]) -> int:
    status = piece.get("status")
    words = len(status) if isinstance(status, list) else 0
    return max(words, sum(1 for f in HEX_FLAGS if piece.get(f) is True))


def encode(view: Mapping[str, Any], asked: Sequence[str] = ()) -> npt.NDArray[np.float32]:
    """The vector of ``view`` (``asked``: the sides asked to decide now)."""
    out = np.zeros(SIZE, dtype=np.float32)
    viewer = view.get("viewer")
    sides = [str(s) for s in view.get("sides", ())]
    order = _turned(sides, viewer if isinstance(viewer, str) else None)[:MAX_SIDES]
    index = {side: i for i, side in enumerate(order)}
    turn, limit = view.get("turn"), view.get("turn_limit") or view.get("turns")
    if isinstance(turn, int | float) and isinstance(limit, int | float) and limit > 0:
        out[0] = min(float(turn) / float(limit), 1.0)
    for side in asked:
        if side in index:
            out[2 + index[side]] = 1.0
    out[1] = 1.0 if viewer in asked else 0.0
    width, height = _size(view)
    for slot, piece in enumerate(_pieces(view)[:MAX_PIECES]):
        at = HEADER + slot * PIECE
        out[at] = 1.0
        seat = index.get(str(piece.get("side")))
        if seat is not None:
            out[at + 1 + seat] = 1.0
        x, y = _place(piece, width, height)
        out[at + 1 + MAX_SIDES] = x
        out[at + 2 + MAX_SIDES] = y
        facing = piece.get("facing")
        if isinstance(facing, int | float):
            angle = math.radians(float(facing))
            out[at + 3 + MAX_SIDES] = math.cos(angle)
            out[at + 4 + MAX_SIDES] = math.sin(angle)
        out[at + 5 + MAX_SIDES] = min(_flags(piece) / 4.0, 1.0)
    return out


def map_text(view: Mapping[str, Any], width: int = 100) -> str:
    """The text map of a view, without colour (what ``render_mode="ansi"`` shows)."""
    import io

    from rich.console import Console

    from warbench.render.table_text import render_table
    from warbench.render.text import map_width, render_map

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None)
    if "table" in view:
        console.print(render_table(view, width=width))
    else:
        console.print(render_map(view, compact=map_width(view) > width))
    return buffer.getvalue()
