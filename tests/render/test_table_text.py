"""The coarse character map of a table view for the terminal."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from rich.console import Console

from warbench.render.table_text import render_table, table_map_width


def draw(view: dict[str, Any], width: int = 100, **options: Any) -> list[str]:
    """The rendered table as plain text lines, trailing spaces removed."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_table(view, width=width, **options))
    return [line.rstrip() for line in console.export_text().splitlines()]


def cell_of(lines: list[str], text: str) -> tuple[int, int]:
    """(line, column) where ``text`` first appears."""
    for number, line in enumerate(lines):
        if text in line:
            return number, line.index(text)
    raise AssertionError(f"{text!r} not drawn")


def test_figures_are_arrows_with_ids_where_they_stand(table_view: dict[str, Any]) -> None:
    """A1 faces east (0), C1 south (270), B1 west (180), V1 north-west (135)."""
    lines = draw(table_view, legend=False)
    for text in ("→A1", "↓C1", "←B1", "↖V1", "↗Hero A2"):
        assert text in "\n".join(lines)
    a1, b1, c1 = cell_of(lines, "→A1"), cell_of(lines, "←B1"), cell_of(lines, "↓C1")
    assert b1[1] > a1[1] and b1[0] < a1[0]  # further east, further up the table
    assert c1[0] < b1[0]  # C1 (y = 30) above B1 (y = 20)
    # Across: 95 columns for 48 inches; A1 at 12" and B1 at 36" are 24" apart.
    assert (b1[1] - a1[1]) * 48 / 95 == pytest.approx(24, abs=1)


def test_features_are_letters_and_the_legend_names_them(table_view: dict[str, Any]) -> None:
    lines = draw(table_view)
    text = "\n".join(lines)
    house = cell_of(lines, "bbbbbbbbbbbb")
    assert house[0] < cell_of(lines, "→A1")[0]  # the house (y 20-26) is above A1 (y 12)
    for letter, kind in (("b", "building"), ("w", "woods"), ("r", "road")):
        assert f" {letter}  {kind}" in text
    assert "woods (blocks sight: beyond)" in text


def test_the_legend_lists_figures_exactly(table_view: dict[str, Any]) -> None:
    text = "\n".join(draw(table_view, width=200))
    assert "A2 hero at 14,10 facing 45deg north-east [hero]" in text
    assert "B1 troop at 36,20 facing 180deg west [hero, pinned]" in text
    assert "off the table: B2" in text


def test_no_legend_entry_is_broken_across_lines_at_80_columns(table_view: dict[str, Any]) -> None:
    """One entry a line: a terrain letter or a figure never wraps mid-entry."""
    lines = draw(table_view, width=80)
    assert any(line.strip() == "A2 hero at 14,10 facing 45deg north-east [hero]" for line in lines)
    assert max(len(line) for line in lines) <= 80


def test_figures_in_one_cell_are_marked_crowded(table_view: dict[str, Any]) -> None:
    view = copy.deepcopy(table_view)
    view["figures"][1]["x"], view["figures"][1]["y"] = 12.1, 12.1  # A2 onto A1
    lines = draw(view, legend=False)
    assert "+A1,A2" in "\n".join(lines)


def test_the_map_fits_the_width_given(table_view: dict[str, Any]) -> None:
    for width in (40, 60, 80, 120):
        lines = draw(table_view, width=width, legend=False)
        assert max(len(line) for line in lines) <= width
        assert table_map_width(table_view, width) <= width
    assert lines[0].split()[-1] == "48"  # the far edge is numbered


def test_a_view_without_a_table() -> None:
    assert draw({"map": {}}) == ["(this game has no table to draw)"]
    assert table_map_width({"map": {}}) == 0


def test_colours_render(table_view: dict[str, Any]) -> None:
    console = Console(width=100, color_system="truecolor", file=io.StringIO())
    console.print(render_table(table_view, width=100))
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in output and "A1" in output
