"""Every mark of the text hex map sits on its own hex (issue 12, "Seeing the game").

The map is rendered without colour, at 80 columns (compact: bands of columns)
and wide, and read back as a player reads it: each hex is found by its label,
and what lies inside its outline (the label line and the line under it) and on
its six edges is compared with the view. Every hex is checked, so a terrain
letter, hill, road, hexside or unit drawn in a neighbour's cell fails as surely
as one missing from its own.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from rich.console import Console

from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios
from warbench.geometry.hexgrid import Hex
from warbench.render.text import CELL, map_width, render_map

N, NE, SE, S, SW, NW = range(6)
LABEL = re.compile(r"\d{4}")


@cache
def hex_scenarios() -> list[str]:
    """Every built-in scenario drawn on a hex map."""
    return [
        sid
        for sid in builtin_scenarios()
        if Game.start(sid, seed=1).view().get("geometry") == "hex"
    ]


def played_view(sid: str, steps: int = 80, seed: int = 5) -> dict[str, Any]:
    """The view after ``steps`` random legal actions: units moved, fired, hurt, stacked."""
    game = Game.start(sid, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        game.apply(rng.choice(list(game.legal_actions(side))), side)
    return game.view()


def render(view: Mapping[str, Any], width: int, compact: bool) -> list[str]:
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_map(view, compact=compact))
    return console.export_text().splitlines()


@dataclass
class Drawn:
    """One hex as read off the text: what is inside it and on each of its edges."""

    upper: str
    lower: str
    edges: dict[int, str]


def read_map(lines: list[str]) -> dict[str, Drawn]:
    """Find every hex by its label; its cell is the label line and the line below,
    ``CELL`` characters from the label on; its edges the characters around them."""
    found: dict[str, Drawn] = {}
    end = next(i for i, line in enumerate(lines) if line.startswith("a hex:"))
    for y, line in enumerate(lines[:end]):
        for match in LABEL.finditer(line):
            x = match.start()
            assert match.group() not in found, f"{match.group()} drawn twice"
            below, above = lines[y + 1].ljust(x + CELL + 1), lines[y - 1].ljust(x + 1)
            found[match.group()] = Drawn(
                upper=line.ljust(x + CELL + 1)[x : x + CELL],
                lower=below[x : x + CELL],
                edges={
                    N: above[x],
                    S: below[x],
                    NW: line[x - 1],
                    SW: below[x - 1],
                    NE: line.ljust(x + CELL + 1)[x + CELL],
                    SE: below[x + CELL],
                },
            )
    return found


def legend_letters(lines: list[str], terrains: list[str]) -> dict[str, str]:
    """Terrain name -> the letter the legend gives it (a space for the unmarked one)."""
    start = next(i for i, x in enumerate(lines) if x.startswith("terrain:"))
    legend = " ".join(lines[start:])  # a narrow console may wrap the legend
    letters = {}
    for name in terrains:
        if re.search(rf"\b{name} \(blank\)", legend):
            letters[name] = " "
        else:
            match = re.search(rf"(\S)\s+{name}\b", legend)
            assert match, f"the legend does not name {name}"
            letters[name] = match.group(1)
    return letters


def legend_hexside_marks(lines: list[str]) -> dict[str, str]:
    """Hexside feature -> its mark, from the legend's ``hexsides:`` part (up to the
    roster's first heading, ``side (title):``)."""
    start = next((i for i, x in enumerate(lines) if x.startswith("hexsides:")), len(lines))
    part = []
    for line in lines[start:]:
        if re.fullmatch(r"\S+( \(.*\))?:", line):
            break
        part.append(line)
    text = " ".join(part).removeprefix("hexsides:")
    return {name: mark for mark, name in re.findall(r"(\S)\s+([a-z_]+)\b", text)}


def check_every_hex(view: Mapping[str, Any], lines: list[str]) -> None:
    board = view["map"]
    columns, rows = board["columns"], board["rows"]
    labels = {
        Hex.from_offset(c, r).label for c in range(1, columns + 1) for r in range(1, rows + 1)
    }
    drawn = read_map(lines)
    assert set(drawn) == labels, "every hex is drawn once, with its label"

    terrain = {label: name for name, hexes in board["terrain"].items() for label in hexes}
    letters = legend_letters(lines, list(board["terrain"]))
    marks = legend_hexside_marks(lines)
    sides: dict[frozenset[str], str] = {}
    for side in board.get("hexsides") or ():
        sides[frozenset(side["hexes"])] = side["feature"]
    assert set(sides.values()) <= set(marks), "the legend names every hexside feature"
    roads = {label for pair in board.get("roads") or () for label in pair}
    heights = board.get("elevation") or {}
    unit_marks = view.get("marks") or {"disrupted": "~"}
    units: dict[str, list[Mapping[str, Any]]] = {}
    for unit in view["units"]:
        if unit.get("at"):
            units.setdefault(unit["at"], []).append(unit)

    for label, cell in drawn.items():
        # terrain letter, hill, road: in the label line of the hex itself
        assert cell.upper[:5] == f"{label} ", label
        assert cell.upper[5] == letters[terrain[label]], (label, cell.upper)
        height = int(heights.get(label, 0))
        hill = " " if height == 0 else "^" if height == 1 else "v" if height < 0 else str(height)
        assert cell.upper[6] == hill, (label, cell.upper)
        assert cell.upper[7] == ("·" if label in roads else " "), (label, cell.upper)

        # hexsides: on the edge the hex shares with that neighbour, and no other edge
        here = Hex.from_label(label)
        for direction, char in cell.edges.items():
            column, row = here.neighbour(direction).to_offset()
            other = Hex.from_offset(column, row)
            feature = None
            if 1 <= column <= columns and 1 <= row <= rows:
                feature = sides.get(frozenset((label, other.label)))
            plain = {N: "_", S: "_", NE: "\\", SW: "\\", NW: "/", SE: "/"}[direction]
            expected = marks[feature] if feature else plain
            assert char == expected, (label, "NNESESSWNW"[direction], char, feature)
        # the line under the label is the hex's south edge with its units on it
        fill = re.escape(cell.edges[S])
        inside = re.fullmatch(rf"{fill}+(?: ?([^\s_]+?) ?{fill}+)?", cell.lower)
        assert inside, (label, cell.lower)
        body = inside.group(1) or ""

        # units: the first one, its marks, +N for the rest, all standing in this hex
        here_units = units.get(label, [])
        if not here_units:
            assert body == "", (label, cell.lower)
            continue
        more = f"+{len(here_units) - 1}" if len(here_units) > 1 else ""
        assert body.endswith(more), (label, body)
        shown = body.removesuffix(more) if more else body
        first = next(
            (
                u
                for u in here_units
                if shown.startswith(str(u["id"]))
                and shown == str(u["id"]) + unit_mark_text(u, unit_marks)
            ),
            None,
        )
        assert first is not None, (label, body, [u["id"] for u in here_units])


def unit_mark_text(unit: Mapping[str, Any], unit_marks: Mapping[str, str]) -> str:
    flags = (["disrupted"] if unit.get("disrupted") else []) + list(unit.get("status") or ())
    shown: list[str] = []
    for flag, mark in unit_marks.items():
        if flag in flags and mark not in shown:
            shown.append(mark)
    return "".join(shown)


def test_the_built_in_hex_scenarios_are_the_expected_ones() -> None:
    """The checks below run on every built-in hex scenario; this names them."""
    assert {"miniwars/bridge", "miniwars/danville", "cgme/skirmish"} <= set(hex_scenarios())
    assert {"veg/crater-field", "veg/city-assault", "veg/tank-battle"} <= set(hex_scenarios())


@pytest.mark.parametrize("sid", hex_scenarios())
@pytest.mark.parametrize("compact", [True, False], ids=["80-columns", "wide"])
def test_every_mark_sits_on_its_own_hex(sid: str, compact: bool) -> None:
    for view in (Game.start(sid, seed=1).view(), played_view(sid)):
        width = 80 if compact else map_width(view) + 20
        lines = render(view, width, compact)
        check_every_hex(view, lines)
        map_lines = lines[: next(i for i, x in enumerate(lines) if x.startswith("a hex:"))]
        assert max(len(x) for x in map_lines) <= width


def test_marks_of_every_kind_on_a_small_map() -> None:
    """Heights 1, 3 and below zero, every hexside direction, a stack, a wall and a
    feature without a mark of its own (``!``)."""
    labels = [Hex.from_offset(c, r).label for c in range(1, 5) for r in range(1, 5)]
    centre = Hex.from_label("0202")
    around = [centre.neighbour(d).label for d in range(6)]
    features = ["river", "bridge", "wall", "hedgerow", "ford", "cliff"]
    view = {
        "map": {
            "columns": 4,
            "rows": 4,
            "terrain": {"open": labels[:-3], "town": labels[-3:]},
            "elevation": {"0101": 1, "0303": 3, "0404": -1},
            "roads": [["0301", "0401"]],
            "hexsides": [
                {"feature": f, "hexes": ["0202", other]}
                for f, other in zip(features, around, strict=True)
            ],
        },
        "units": [
            {"id": "A1", "side": "a", "at": "0202", "disrupted": True},
            {"id": "A2", "side": "a", "at": "0202", "disrupted": False},
            {"id": "B1", "side": "b", "at": "0303", "disrupted": False},
        ],
    }
    for compact, width in ((False, 120), (True, 30)):  # 30: two bands of two columns
        lines = render(view, width, compact)
        check_every_hex(view, lines)
    drawn = read_map(render(view, 120, False))
    assert drawn["0202"].lower == '""A1~+1"'  # the hedgerow south, units on it
    assert [drawn["0202"].edges[d] for d in range(6)] == ["≈", "=", "#", '"', "!", "|"]
