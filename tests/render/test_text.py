"""The text hex map: hexes drawn with their edges, bands of columns, legend and roster."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from rich.console import Console

from warbench.core.game import Game
from warbench.render.text import CELL, map_width, render_map


def draw(view: dict[str, Any], width: int = 200, **options: Any) -> list[str]:
    """The rendered map as plain text lines, trailing spaces removed."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_map(view, **options))
    return [line.rstrip() for line in console.export_text().splitlines()]


@pytest.fixture(scope="module")
def danville() -> dict[str, Any]:
    return Game.start("miniwars/danville", seed=1).view()


@pytest.fixture(scope="module")
def bridge() -> dict[str, Any]:
    return Game.start("miniwars/bridge", seed=1).view()


def line_of(lines: list[str], text: str) -> int:
    return next(i for i, line in enumerate(lines) if text in line)


def column_of(lines: list[str], text: str) -> int:
    return lines[line_of(lines, text)].index(text)


def inside(lines: list[str], label: str) -> tuple[str, str]:
    """The two lines inside hex ``label``: its label line and the line under it."""
    y, x = line_of(lines, label), column_of(lines, label)
    return lines[y][x : x + CELL], lines[y + 1].ljust(x + CELL)[x : x + CELL]


def roster(lines: list[str]) -> str:
    """The roster and legend under the map, as one text."""
    return "\n".join(lines[line_of(lines, "a hex:") :])


def test_every_label_is_drawn_once(danville: dict[str, Any]) -> None:
    text = "\n".join(draw(danville)[: line_of(draw(danville), "a hex:")])
    for column in range(1, 17):
        for row in range(1, 13):
            assert text.count(f"{column:02d}{row:02d}") == 1


def test_a_hex_is_drawn_as_a_hexagon_of_two_lines() -> None:
    """Flat-topped: north edge, label line between / and \\, units on the south edge."""
    view = {
        "map": {"columns": 1, "rows": 1, "terrain": {"open": ["0101"]}},
        "units": [{"id": "G1", "side": "a", "at": "0101", "disrupted": False}],
    }
    assert draw(view, legend=False) == [" 01", " ________", "/0101    \\", "\\___G1___/"]


def test_a_unit_is_drawn_inside_its_own_hex(danville: dict[str, Any]) -> None:
    """G1 stands in 0506 (an odd column), MG in 0606 (an even one, half a hex lower):
    each under its own label, between that hex's edges."""
    lines = draw(danville)
    assert inside(lines, "0506")[1] == "___G1___"
    assert inside(lines, "0606")[1] == "___MG___"
    y, x = line_of(lines, "0506"), column_of(lines, "0506")
    assert lines[y + 1][x - 1] == "\\" and lines[y + 1][x + CELL] == "/"


def test_even_columns_sit_half_a_hex_lower(danville: dict[str, Any]) -> None:
    lines = draw(danville)
    assert line_of(lines, "0201") == line_of(lines, "0101") + 1
    assert line_of(lines, "0102") == line_of(lines, "0101") + 2
    assert line_of(lines, "0301") == line_of(lines, "0101")


def test_column_numbers_head_their_hexes(danville: dict[str, Any]) -> None:
    lines = draw(danville)
    assert lines[0].split() == [f"{c:02d}" for c in range(1, 17)]
    assert lines[0].index("05") == column_of(lines, "0505")
    assert lines[0].index("12") == column_of(lines, "1206")


def test_terrain_hill_and_road_sit_in_the_label_line(danville: dict[str, Any]) -> None:
    """The bug of issue 12: a town letter read against the wrong label. Now the letter
    follows its own label: 0405 is town, 0306 (beside it before) is open."""
    lines = draw(danville)
    assert inside(lines, "0405")[0] == "0405 t  "
    assert inside(lines, "0306")[0].rstrip() == "0306"
    assert inside(lines, "0703")[0] == "0703  ^ "
    assert inside(lines, "0806")[0] == "0806   ·"
    assert inside(lines, "0506")[0] == "0506 t ·"


def test_a_river_and_its_bridge_lie_on_the_edges_between_two_hexes(
    bridge: dict[str, Any],
) -> None:
    """Hold the Bridge: the river runs between columns 05 and 06; the bridge joins
    0504 to 0603 (north-east edge of 0504) and 0604 (its south-east edge)."""
    lines = draw(bridge)
    y, x = line_of(lines, "0504"), column_of(lines, "0504")
    assert lines[y][x + CELL] == "=" and lines[y + 1][x + CELL] == "="
    y, x = line_of(lines, "0505"), column_of(lines, "0505")
    assert lines[y][x + CELL] == "≈" and lines[y + 1][x + CELL] == "≈"
    legend = roster(lines)
    assert "= bridge" in legend and "≈ river" in legend
    assert "(on the edge between two hexes)" in legend


def test_disrupted_stacked_and_removed_units(danville: dict[str, Any]) -> None:
    view = copy.deepcopy(danville)
    for unit in view["units"]:
        if unit["id"] == "G1":
            unit["disrupted"] = True
        if unit["id"] == "T1":
            unit["at"] = "0506"
        if unit["id"] == "HL":
            unit["at"] = None
    lines = draw(view)
    assert inside(lines, "0506")[1] == "__G1~+1_"
    text = roster(lines)
    assert "G1~ 0506 disrupted" in text and "T1 0506" in text
    assert "off the map: HL" in text


def test_the_roster_shows_each_units_status(danville: dict[str, Any]) -> None:
    """MiniWars: disrupted, fired this turn, moved or fought this phase."""
    view = copy.deepcopy(danville)
    for unit in view["units"]:
        unit["fired"] = unit["id"] == "G1"
        unit["acted"] = unit["id"] in ("G1", "MG")
    text = roster(draw(view, width=80))
    assert "danville (The defenders of Danville):" in text
    assert "horde (De Rompot's horde):" in text
    assert "G1 0506 fired, moved or fought;" in text
    assert "MG 0606 moved or fought;" in text
    assert "GO 0505;" in text


def test_the_roster_of_a_veg_game_shows_riders_wounds_moves_and_buildings() -> None:
    """V.E.G. city assault: a truck and its riders, a bunker with its structure points;
    after a move, the MP left; a wound, marked as on the map."""
    game = Game.start("veg/city-assault", seed=1)
    game.apply("move M1 0305", "assault")
    view = game.view()
    for unit in view["units"]:
        if unit["id"] == "Ga":
            unit["status"] = ["wounded"]
    lines = draw(view, width=80, compact=True)
    text = roster(lines)
    assert "T1 0106 carrying Aa Ab Ac;" in text
    assert "Aa 0106" not in text  # listed inside its truck's entry
    moved = next(u for u in view["units"] if u["id"] == "M1")
    assert f"M1 0305 moved, {moved['mp']} MP left;" in text
    assert "BUNKER 1206 building, 20/20 SP" in text
    assert "Ga~ 1005 wounded;" in text
    assert inside(lines, "0106")[1] == "__T1+3__"
    assert inside(lines, "1005")[1] == "__Ga~+2_"
    assert "~ wounded" in text and "disrupted" not in text


def test_the_roster_breaks_lines_between_entries_only() -> None:
    lines = draw(Game.start("veg/city-assault", seed=1).view(), width=60)
    body = [line for line in lines[line_of(lines, "assault (") :] if line.startswith("  ")]
    assert len(body) > 3 and max(len(line) for line in body) <= 60
    for line in body:
        for entry in line.strip().removesuffix(";").split("; "):
            assert entry.split()[0].isalnum() and entry.split()[1].isdigit(), line


def test_compact_maps_are_split_into_bands_that_fit(danville: dict[str, Any]) -> None:
    assert map_width(danville, compact=True) <= 80 < map_width(danville)
    lines = draw(danville, width=80, compact=True, legend=False)
    assert max(len(line) for line in lines) <= 80
    assert lines[0] == "columns 01-08 of 16"
    assert "columns 09-16 of 16, continued" in lines
    text = "\n".join(lines)
    assert "0101" in text and "1612" in text


def test_a_compact_map_that_fits_is_one_band(bridge: dict[str, Any]) -> None:
    wide = draw(bridge, width=100, legend=False)
    assert draw(bridge, width=100, compact=True, legend=False) == wide
    assert not any(line.startswith("columns") for line in wide)


def test_a_view_without_a_hex_map() -> None:
    assert draw({"units": []}) == ["(this game has no hex map to draw)"]
    assert map_width({"units": []}) == 0


def test_colours_render(danville: dict[str, Any]) -> None:
    console = Console(width=200, color_system="truecolor", file=io.StringIO())
    console.print(render_map(danville))
    console.print(render_map(danville, compact=True))
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in output and "0405" in output
