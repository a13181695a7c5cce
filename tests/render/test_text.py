"""The text map: labels, units, the offset of even columns, marks and legend."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from rich.console import Console

from warbench.core.game import Game
from warbench.render.text import map_width, render_map


def draw(view: dict[str, Any], width: int = 200, **options: Any) -> list[str]:
    """The rendered map as plain text lines, trailing spaces removed."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_map(view, **options))
    return [line.rstrip() for line in console.export_text().splitlines()]


@pytest.fixture(scope="module")
def danville() -> dict[str, Any]:
    return Game.start("miniwars/danville", seed=1).view()


def line_of(lines: list[str], text: str) -> int:
    return next(i for i, line in enumerate(lines) if text in line)


def column_of(lines: list[str], text: str) -> int:
    return lines[line_of(lines, text)].index(text)


def test_every_label_is_drawn(danville: dict[str, Any]) -> None:
    text = "\n".join(draw(danville))
    for column in range(1, 17):
        for row in range(1, 13):
            assert f"{column:02d}{row:02d}" in text


def test_units_and_legend(danville: dict[str, Any]) -> None:
    lines = draw(danville)
    text = "\n".join(lines)
    for unit in ("MG", "G1", "HL", "W4", "B7"):
        assert unit in text
    assert "danville: MG GO G1" in text and "horde: HL" in text
    assert "forest" in text and "town" in text
    assert "river (hexside)" in text and "bridge (hexside)" in text


def test_a_unit_stands_beside_its_own_label(danville: dict[str, Any]) -> None:
    """With even columns shifted, a unit drawn on another line would sit beside a
    neighbour's label; it is drawn on its own hex's label line instead."""
    lines = draw(danville)
    assert "0506 G1" in lines[line_of(lines, "0506")]  # G1 stands in 0506
    assert "0606 MG" in lines[line_of(lines, "0606")]  # an even column


def test_even_columns_sit_half_a_hex_lower(danville: dict[str, Any]) -> None:
    lines = draw(danville)
    assert line_of(lines, "0201") == line_of(lines, "0101") + 1
    assert line_of(lines, "0102") == line_of(lines, "0101") + 2
    assert line_of(lines, "0301") == line_of(lines, "0101")


def test_column_and_row_numbers(danville: dict[str, Any]) -> None:
    lines = draw(danville)
    header = lines[0].split()
    assert header == [f"{c:02d}" for c in range(1, 17)]
    assert lines[line_of(lines, "0105")].startswith("05 ")


def test_disrupted_and_removed_units(danville: dict[str, Any]) -> None:
    view = copy.deepcopy(danville)
    for unit in view["units"]:
        if unit["id"] == "G1":
            unit["disrupted"] = True
        if unit["id"] == "HL":
            unit["at"] = None
    text = "\n".join(draw(view))
    assert "G1~" in text
    assert "off the map: HL" in text


def test_hills_and_roads_are_marked(danville: dict[str, Any]) -> None:
    lines = draw(danville)
    marks = lines[line_of(lines, "0703") + 1]
    assert marks[column_of(lines, "0703") : column_of(lines, "0703") + 8].strip() == "^"
    road = lines[line_of(lines, "0806") + 1]
    assert "·" in road[column_of(lines, "0806") : column_of(lines, "0806") + 8]


def test_compact_cells_fit_narrow_terminals(danville: dict[str, Any]) -> None:
    assert map_width(danville, compact=True) <= 80 < map_width(danville)
    lines = draw(danville, width=80, compact=True, legend=False)
    assert max(len(line) for line in lines) <= 80
    assert "0101" in lines[1] and "1612" in "\n".join(lines)


def test_a_view_without_a_hex_map() -> None:
    assert draw({"units": []}) == ["(this game has no hex map to draw)"]
    assert map_width({"units": []}) == 0


def test_colours_render(danville: dict[str, Any]) -> None:
    console = Console(width=200, color_system="truecolor", file=io.StringIO())
    console.print(render_map(danville))
    console.print(render_map(danville, compact=True))
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in output and "0405" in output
