"""SVG -> PNG with CairoSVG (pinned), which needs the cairo C library at run time.

Kept apart from :mod:`warbench.render.svg` because it is the only piece with a
native dependency: without libcairo, SVG pictures still work and asking for a
PNG says what to install.
"""

from __future__ import annotations

from pathlib import Path

from warbench.render.svg import RenderError

__all__ = ["PNG_SIGNATURE", "svg_to_png", "write_png"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """The PNG image of an SVG document, ``scale`` times its declared size."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        # cairocffi raises OSError when it cannot find libcairo.
        raise RenderError(
            "PNG output needs the cairo library (e.g. apt-get install libcairo2, "
            f"brew install cairo); --svg works without it ({_first_line(exc)})"
        ) from None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return png


def write_png(svg: str, path: str | Path, scale: float = 1.0) -> bytes:
    """Write the PNG image of ``svg`` to ``path``; return its bytes."""
    png = svg_to_png(svg, scale)
    Path(path).write_bytes(png)
    return png


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (the IHDR chunk right after the signature).

    >>> png_size(PNG_SIGNATURE + bytes(8) + (300).to_bytes(4, "big") + (200).to_bytes(4, "big"))
    (300, 200)
    """
    if not png.startswith(PNG_SIGNATURE) or len(png) < 24:
        raise RenderError("not a PNG image")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
