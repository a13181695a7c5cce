"""warbench.render: pictures of a game state (text for the terminal; SVG to come)."""

from warbench.render.text import map_width, render_map, side_styles

__all__ = ["map_width", "render_map", "side_styles"]
