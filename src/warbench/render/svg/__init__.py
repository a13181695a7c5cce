"""SVG pictures of a game view: hex maps and free-form tables, with "what just happened".

The one place warbench draws SVG, and the start of the browser client: it reads
views (what :meth:`Ruleset.view` returns for one side) and annotations (what
:meth:`Ruleset.annotations` returns for the last action), never a ruleset's
state, so whatever a side may not see is not drawn. Elements carry ``class``
and ``data-*`` attributes (``data-hex``, ``data-unit``, ``data-figure``,
``data-feature``, ``data-side``) so a client can find and animate them.

What is read (every other key of a view is ignored):

- Hex games: ``view["map"]`` as :meth:`HexMap.to_json` writes it (columns, rows,
  terrain, elevation, hexsides, roads) and ``view["units"]`` (``id``, ``side``,
  ``at`` (a hex label, or None once removed), ``disrupted``; optional ``name``
  (the legend lists units by it) and ``status``, a list of free-text flags).
  ``disrupted`` and the flags named in an optional ``view["marks"]`` (flag ->
  the text map's mark, as :mod:`.text` reads it) are drawn prominently: a red
  badge and a yellow outline round the counter (V.E.G. marks ``wounded``).
- Table games (inches, origin bottom-left, y up): ``view["table"]`` (width,
  height), ``view["features"]`` (id, kind, shape polygon / polyline / circle,
  points, radius, optional label, blocks_los, destroyed; a polygon may have
  ``holes``, rings cut out of it) and ``view["figures"]``
  (id, side, kind, x, y, facing in degrees counter-clockwise from east, base
  round with diameter or rect with width and depth, status flags, label). A
  figure may also carry:

  - ``log``: a hull diagram, ``{"rings": [ring, ...]}``, outermost ring first
    (at most 6 rings of at most 48 circles), each ring a list of circles:
    ``""`` unmarked, or one letter or digit, the mark (``"S"``). Circle i of a
    ring of n sits at ``(i - 1) * 360 / n`` degrees counter-clockwise from the
    figure's front; a ring of one circle, allowed innermost only, sits at the
    centre. Drawn beside the base as rings of dots turned with the figure (a
    tick marks the front, so the side facing away shows), the marked ones filled
    in a colour per mark; the legend explains the marks.
  - ``by_eye``: the viewer sees the figure by eye (:mod:`warbench.rulesets.kit.eye`): a
    dashed square of that many inches is drawn round it, and the legend says so.
  - ``markers``: pegs beside the base, in order, each a colour name (white,
    yellow, red, black, blue, green, orange, purple: ``palette.MARKER_COLOURS``)
    or ``{"colour": name, "label": text}``. The legend gives each colour its
    label; a status flag equal to a marker's label is drawn as the peg only.
- Table games may also give ``view["terrain_kinds"]``: every feature kind the ruleset
  has, in a fixed order, so a kind gets the same colour (and letter in the text map) in
  every scenario.
- Table games may also give ``view["zones"]``: markers standing on the table
  itself (barrage markers), each ``{"id", "at": [x, y], "radius", "colour",
  "label"}`` with a colour of ``palette.MARKER_COLOURS``: drawn as a peg at
  ``at`` inside a dashed circle of ``radius`` inches (the area it covers),
  labelled with its id; the legend gives each colour its label.
- Table games may give ``view["links"]``: thin lines joining pieces that belong
  together (Invisible Enemy's bases of one unit within its base interval), each
  ``{"from": [x, y], "to": [x, y], "side": name}``, drawn dashed in the side's
  colour under the figures; ``view["links_label"]`` says in the legend what a
  link means.
- Table games may give ``view["groups"]``: pieces that actions name as one (Invisible
  Enemy's units), each ``{"id": name, "members": [piece ids], "label": text}``, listed
  in the legend under ``view["groups_label"]``.
- Both: ``sides`` (the order gives the colours), optional ``titles`` (side ->
  name for the legend), ``turn``, ``turn_limit``, ``phase_title`` or ``phase``.

Annotations are generic marks, in hex labels or table inches::

    {"kind": "path", "points": [[x, y] | "0405", ...], "side": "red"}
    {"kind": "sight", "from": [x, y] | "0405", "to": [x, y] | "0406", "clear": true}
    {"kind": "arc", "at": [x, y], "facing": 90.0, "half_angle": 45.0, "range": 12.0}

Any mark may carry an optional ``label`` (a short text drawn beside it). An
arc's range is in inches (tables) or hexes (hex maps); without one the wedge
runs to the board's edge.

>>> import xml.etree.ElementTree as ET
>>> view = {"map": {"columns": 2, "rows": 1, "terrain": {"open": ["0101", "0201"]}},
...         "units": [{"id": "G1", "side": "a", "at": "0101", "disrupted": False}],
...         "sides": ["a"]}
>>> root = ET.fromstring(render_svg(view, title="Two hexes"))
>>> [g.get("data-unit") for g in root.iter(f"{{{SVG_NS}}}g") if g.get("class") == "unit"]
['G1']

The package is split by concern, each module above those it imports: ``base``
(sizes, colours, styles and SVG helpers), ``pieces`` (side colours, status badges,
the markers and logs of table figures), ``legend``, ``board`` (what both boards
share), ``hexmap`` and ``table`` (the two boards), ``overlays`` (the annotations)
and ``document`` (:func:`render_svg`, :func:`svg_size`); import from the package.
"""

from warbench.render.svg.base import LOG_RADIUS as LOG_RADIUS
from warbench.render.svg.base import SIDE_COLOURS as SIDE_COLOURS
from warbench.render.svg.base import SVG_NS, RenderError
from warbench.render.svg.document import render_svg, svg_size

__all__ = ["SVG_NS", "RenderError", "render_svg", "svg_size"]
