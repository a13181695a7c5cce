"""What a side may learn about a hex of a hex map, read from its view (``info 0405``).

Shared by the hex rulesets' ``unit_info``: the view's ``map`` (the contract of
:meth:`warbench.scenario.hexmap.HexMap.to_json`: terrain by kind, elevation,
hexsides and roads) and its ``units`` are all it reads, so it can never tell
what the view does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from warbench.errors import QuestionRefused, excerpt

HEX_LABEL = re.compile(r"^[0-9]{4}$")
SHOWN_NAMES = 16
"""At most this many unit ids are named in a refusal (then "and N more")."""


def names_list(names: Sequence[str]) -> str:
    """Ids joined for a refusal, cut after :data:`SHOWN_NAMES`."""
    shown = ", ".join(names[:SHOWN_NAMES])
    more = len(names) - SHOWN_NAMES
    return shown + (f" and {more} more" if more > 0 else "")


def hex_terrain(view: Mapping[str, Any], label: str) -> str | None:
    """The terrain kind of hex ``label`` on the view's map, or None if there is no such hex."""
    for kind, labels in view["map"]["terrain"].items():
        if label in labels:
            return str(kind).replace("_", " ")
    return None


def hex_lines(view: Mapping[str, Any], label: str) -> list[str] | None:
    """Terrain, elevation, roads and hexsides of hex ``label``; None if the map has no
    such hex. The caller adds what stands there."""
    terrain = hex_terrain(view, label)
    if terrain is None:
        return None
    board = view["map"]
    level = int(board.get("elevation", {}).get(label, 0))
    lines = [f"hex {label}: {terrain}" + (f", hill (level {level})" if level else "")]
    roads = sorted({a if b == label else b for a, b in board.get("roads", []) if label in (a, b)})
    if roads:
        lines.append(f"road to {', '.join(roads)}")
    sides = [
        f"{side['feature']} toward {other}"
        for side in board.get("hexsides", [])
        if label in side["hexes"]
        for other in side["hexes"]
        if other != label
    ]
    if sides:
        lines.append(f"hexsides: {'; '.join(sorted(sides))}")
    return lines


def where_text(view: Mapping[str, Any], label: str | None) -> str:
    """``at 0504 (open, road)``: a unit's hex with its terrain, hill and road."""
    if label is None:
        return "not on the map"
    terrain = hex_terrain(view, label) or "off the map"
    extras = [terrain]
    level = int(view["map"].get("elevation", {}).get(label, 0))
    if level:
        extras.append(f"hill level {level}")
    if any(label in pair for pair in view["map"].get("roads", [])):
        extras.append("road")
    return f"at {label} ({', '.join(extras)})"


def refuse(view: Mapping[str, Any], ref: str, units: Sequence[str], what: str = "unit") -> None:
    """Raise QuestionRefused: ``ref`` names no visible unit or hex; say what may be asked."""
    board = view["map"]
    columns, rows = int(board["columns"]), int(board["rows"])
    raise QuestionRefused(
        f"no {what} or hex '{excerpt(ref)}' here; ask about a {what} "
        f"({names_list(units)}) or a hex (0101 to {columns:02d}{rows:02d})"
    )


def is_hex_label(ref: str) -> bool:
    return HEX_LABEL.match(ref) is not None


def status_text(
    unit: Mapping[str, Any], flags: Sequence[tuple[str, str]], fine: str, *more: str
) -> str:
    """``status:`` and the words of each of ``flags`` (key, words) the view's ``unit``
    has set, then ``more``; ``fine`` when there are none."""
    status = [words for key, words in flags if unit[key]]
    status.extend(more)
    return "status: " + ("; ".join(status) if status else fine)
