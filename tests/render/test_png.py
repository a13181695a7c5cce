"""PNG output: CairoSVG turns the SVG into a PNG of the declared size; no cairo, a clear error."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from warbench.core.game import Game
from warbench.render.png import PNG_SIGNATURE, png_size, svg_to_png, write_png
from warbench.render.svg import RenderError, render_svg, svg_size


def test_a_hex_map_becomes_a_png_of_the_declared_size(tmp_path: Path) -> None:
    svg = render_svg(Game.start("miniwars/danville", seed=1).view(), title="The Danville Raid")
    png = write_png(svg, tmp_path / "danville.png")
    assert png.startswith(PNG_SIGNATURE)
    assert (tmp_path / "danville.png").read_bytes() == png
    assert png_size(png) == svg_size(svg)


def test_a_table_becomes_a_png_scaled(
    table_view: dict[str, Any], table_marks: list[dict[str, Any]]
) -> None:
    svg = render_svg(table_view, annotations=table_marks)
    width, height = svg_size(svg)
    png = svg_to_png(svg, scale=2)
    assert png.startswith(PNG_SIGNATURE)
    assert png_size(png) == (2 * width, 2 * height)


def test_without_cairo_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now fails
    with pytest.raises(RenderError, match=r"PNG output needs the cairo library.*--svg works"):
        svg_to_png(render_svg({"table": {"width": 6, "height": 6}}))


def test_png_size_rejects_other_files() -> None:
    with pytest.raises(RenderError, match="not a PNG"):
        png_size(b"GIF89a" + bytes(30))
