"""warbench.render: pictures of a view (terminal hex and table maps, SVG, PNG)."""

from warbench.render.text import map_width, render_map, side_styles

__all__ = ["map_width", "render_map", "side_styles"]
