"""What stands on either board: side colours, status badges, and the markers (pegs)
and logs of table figures."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warbench.errors import excerpt
from warbench.render import palette
from warbench.render.svg.base import (
    BOLD,
    CENTRED,
    DISRUPTED_COLOUR,
    LOG_MARK_COLOURS,
    LOG_MAX_CIRCLES,
    LOG_MAX_RINGS,
    LOG_RADIUS,
    LOG_UNMARKED,
    PEG_RADIUS,
    ROUND,
    SIDE_COLOURS,
    STATUS_COLOURS,
    Point,
    RenderError,
    Style,
    _add,
    _circle,
    _darker,
    _direction,
    _line,
    _number,
    _text,
    _xy,
)


def _piece_group(
    parent: ET.Element, kind: str, piece: Mapping[str, Any], **more: object
) -> ET.Element:
    """The group a piece is drawn in, as the browser client finds it: ``class`` its kind
    (``unit``, ``figure``), ``data-KIND`` its id and ``data-side`` its side, then ``more``."""
    return _add(
        parent,
        "g",
        class_=kind,
        **{f"data_{kind}": str(piece.get("id"))},
        data_side=str(piece.get("side")),
        **more,
    )


@dataclass(frozen=True, slots=True)
class _Peg:
    """One marker of a figure: a colour of :data:`palette.MARKER_COLOURS`, an optional label."""

    colour: str
    label: str = ""

    @property
    def text(self) -> str:
        """What the legend says of it."""
        return self.label or f"{self.colour} marker"


@dataclass(slots=True)
class _Styles:
    """Colours and marks picked for one picture: what the legend explains."""

    sides: dict[str, str] = field(default_factory=dict)
    prominent: frozenset[str] = frozenset({"disrupted"})
    """Flags drawn like ``disrupted``: a red badge, and an outline on counters."""
    status_letters: dict[str, str] = field(default_factory=dict)
    status_colours: dict[str, str] = field(default_factory=dict)
    pegs: dict[_Peg, None] = field(default_factory=dict)
    """The markers drawn, in order of first use (an ordered set)."""
    log_marks: set[str] = field(default_factory=set)
    """The marks of the logs drawn (empty: no log drawn)."""
    logs: bool = False

    def side_colour(self, side: object) -> str:
        return self.sides.get(str(side), "#555555")

    def add_status(self, status: str) -> None:
        """Give a status flag a letter (from its name where possible) and a colour."""
        if status in self.status_letters:
            return
        taken = set(self.status_letters.values())
        candidates = [c.upper() for c in status if c.isalpha()] + list("ABCDEFGHJKLMNPQRSTUVWXYZ")
        self.status_letters[status] = next((c for c in candidates if c not in taken), "?")
        spare = STATUS_COLOURS[len(self.status_colours) % len(STATUS_COLOURS)]
        self.status_colours[status] = DISRUPTED_COLOUR if status in self.prominent else spare


def _prominent(view: Mapping[str, Any]) -> frozenset[str]:
    """``disrupted`` (the hex contract's flag) and the flags ``view["marks"]`` names."""
    marks = view.get("marks")
    named = {str(flag) for flag in marks} if isinstance(marks, Mapping) else set()
    return frozenset({"disrupted", *named})


def _side_colours(view: Mapping[str, Any], pieces: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """A colour per side: ``view["sides"]`` in order, then any other side a piece names."""
    names = [str(s) for s in view.get("sides", ()) or ()]
    for piece in pieces:
        if str(piece.get("side")) not in names:
            names.append(str(piece.get("side")))
    return palette.assign(names, SIDE_COLOURS)


def _badges(
    parent: ET.Element, styles: _Styles, statuses: Sequence[str], at: Point, r: float
) -> None:
    """A row of small lettered discs, one per status flag, the first centred at ``at``."""
    for i, status in enumerate(statuses):
        x, y = at[0] + i * (2 * r + 1), at[1]
        badge = _add(parent, "g", class_="status", data_status=status)
        _circle(badge, (x, y), r, {"fill": styles.status_colours[status], "stroke": "white"})
        letter = styles.status_letters[status]
        _text(badge, (x, y + r * 0.62), letter, r * 1.55, {**BOLD, **CENTRED}, fill="white")


Box = tuple[float, float, float, float]
"""A rectangle of the picture: left, top, right, bottom."""


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _log_rings(figure: Mapping[str, Any], where: str) -> list[list[str]] | None:
    """A figure's ``log`` as rings of marks, outermost first (None if it has none)."""
    raw = figure.get("log")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or "rings" not in raw:
        raise RenderError(
            f'{where}.log: expected {{"rings": [["", "S", ...], ...]}}, got {excerpt(repr(raw))}'
        )
    rings = raw["rings"]
    if not _is_list(rings) or not 1 <= len(rings) <= LOG_MAX_RINGS:
        raise RenderError(
            f"{where}.log.rings: expected a list of 1 to {LOG_MAX_RINGS} rings, "
            f"got {excerpt(repr(rings))}"
        )
    out: list[list[str]] = []
    for k, ring in enumerate(rings):
        here = f"{where}.log.rings[{k}]"
        if not _is_list(ring) or not 1 <= len(ring) <= LOG_MAX_CIRCLES:
            raise RenderError(
                f"{here}: expected a list of 1 to {LOG_MAX_CIRCLES} circles, "
                f"got {excerpt(repr(ring))}"
            )
        if len(ring) == 1 and k < len(rings) - 1:
            raise RenderError(
                f"{here}: only the innermost ring may be a single circle (it sits at the centre)"
            )
        for i, mark in enumerate(ring):
            letter = isinstance(mark, str) and len(mark) == 1 and mark.isascii() and mark.isalnum()
            if mark != "" and not letter:
                raise RenderError(
                    f"{here}[{i}]: expected '' (unmarked) or one letter or digit (the mark), "
                    f"got {excerpt(repr(mark))}"
                )
        out.append(list(ring))
    return out


@dataclass(frozen=True, slots=True)
class _Zone:
    id: str
    at: tuple[float, float]
    radius: float
    colour: str
    label: str


def _link(raw: Any, where: str) -> tuple[Point, Point, str]:
    """A ``view["links"]`` entry, checked."""
    if not isinstance(raw, Mapping):
        raise RenderError(f"{where}: expected a mapping with from, to and side")
    return (
        _xy(raw.get("from"), f"{where}.from"),
        _xy(raw.get("to"), f"{where}.to"),
        str(raw.get("side", "")),
    )


def _zone(raw: Any, where: str) -> _Zone:
    """A ``view["zones"]`` entry, checked."""
    if not isinstance(raw, Mapping):
        raise RenderError(f"{where}: expected a mapping with id, at, radius, colour, label")
    colour = raw.get("colour")
    if not isinstance(colour, str) or colour not in palette.MARKER_COLOURS:
        names = ", ".join(palette.MARKER_COLOURS)
        raise RenderError(f"{where}.colour: expected a marker colour ({names})")
    radius = _number(raw.get("radius"), f"{where}.radius")
    if radius < 0:
        raise RenderError(f"{where}.radius: cannot be negative")
    label = raw.get("label", "")
    if not isinstance(label, str):
        raise RenderError(f"{where}.label: expected text")
    return _Zone(str(raw.get("id", "")), _xy(raw.get("at"), f"{where}.at"), radius, colour, label)


def _markers(figure: Mapping[str, Any], where: str) -> list[_Peg]:
    """A figure's ``markers`` (none if it has none)."""
    raw = figure.get("markers")
    if raw is None:
        return []
    if not _is_list(raw):
        raise RenderError(
            f"{where}.markers: expected a list of colour names or "
            f'{{"colour": name, "label": text}}, got {excerpt(repr(raw))}'
        )
    pegs = []
    for i, marker in enumerate(raw):
        here = f"{where}.markers[{i}]"
        label, colour = "", marker
        if isinstance(marker, Mapping):
            colour, text = marker.get("colour"), marker.get("label", "")
            if not isinstance(text, str):
                raise RenderError(f"{here}.label: expected text, got {excerpt(repr(text))}")
            label = text
        if not isinstance(colour, str) or colour not in palette.MARKER_COLOURS:
            names = ", ".join(palette.MARKER_COLOURS)
            raise RenderError(
                f"{here}: expected a marker colour ({names}) or "
                f'{{"colour": name, "label": text}}, got {excerpt(repr(marker))}'
            )
        pegs.append(_Peg(colour, label))
    return pegs


def _shown_statuses(figure: Mapping[str, Any], pegs: Sequence[_Peg]) -> list[str]:
    """A figure's status flags, less those its markers stand for (drawn as pegs)."""
    labels = {peg.label for peg in pegs}
    return [str(s) for s in figure.get("status", ()) or () if str(s) not in labels]


def _row_start(centre: Point, radius: float, facing: Point, pegs: int) -> Point:
    """Where the row of a figure's pegs and status badges starts (it runs to the right).

    Right of the base, a little low; with pegs (black ones look like the facing
    tick), the first of that place, lower right, below and upper right where no
    peg touches the tick.
    """
    (cx, cy), (dx, dy) = centre, facing
    usual = (cx + radius + 5, cy + radius * 0.3)
    if not pegs:
        return usual
    edge = (cx + dx * radius, cy + dy * radius)
    reach = radius + max(4.0, 0.5 * radius)
    tip = (cx + dx * reach, cy + dy * reach)
    out = radius + PEG_RADIUS + 2
    spots = [usual] + [
        (cx + math.cos(math.radians(a)) * out, cy + math.sin(math.radians(a)) * out)
        for a in (40, 90, -40)
    ]
    for x, y in spots:
        centres = [(x + i * (2 * PEG_RADIUS + 2), y) for i in range(pegs)]
        if all(_gap(p, edge, tip) >= PEG_RADIUS + 2 for p in centres):
            return x, y
    return usual


def _gap(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = max(0.0, min(1.0, t))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _mark_colour(mark: str) -> str:
    """The fill of a log circle marked ``mark`` (a letter or a digit)."""
    index = int(mark) if mark.isdigit() else ord(mark.upper()) - ord("A")
    return LOG_MARK_COLOURS[index % len(LOG_MARK_COLOURS)]


def _draw_pegs(parent: ET.Element, pegs: Sequence[_Peg], at: Point, r: float) -> None:
    """A row of marker pegs, the first centred at ``at``."""
    for i, peg in enumerate(pegs):
        colour = palette.MARKER_COLOURS[peg.colour]
        group = _add(parent, "g", class_="marker", data_colour=peg.colour, data_label=peg.label)
        centre = (at[0] + i * (2 * r + 2), at[1])
        _circle(
            group, centre, r, {"fill": colour.fill, "stroke": colour.outline, "stroke-width": 1.3}
        )


def _log_geometry(rings: Sequence[Sequence[str]], reach: float) -> tuple[list[float], float]:
    """The radius of each ring (0 for a centre circle) and of every dot, within ``reach``."""
    centre = len(rings[-1]) == 1
    around = len(rings) - (1 if centre else 0)
    # Bands of equal width, one per ring round the centre; the innermost ring keeps
    # clear of a centre circle, or (without one) its circles clear of each other.
    width = reach / (around + (0.7 if centre else 0.2)) if around else reach
    radii = [reach - width * (k + 0.5) for k in range(around)] + ([0.0] if centre else [])
    dot = 0.45 * width
    for rho, ring in zip(radii, rings, strict=True):
        if rho > 0 and len(ring) > 1:
            dot = min(dot, 0.45 * 2 * rho * math.sin(math.pi / len(ring)))
    return radii, dot


def _draw_log(
    parent: ET.Element,
    centre: Point,
    facing: float,
    rings: Sequence[Sequence[str]],
    colour: str,
    radius: float = LOG_RADIUS,
    **kw: object,
) -> None:
    """A hull diagram: rings of dots turned with ``facing`` (a tick at the front), marks filled."""
    cx, cy = centre
    group = _add(parent, "g", class_="log", data_facing=facing, **kw)
    back = {"fill": "white", "fill-opacity": 0.94, "stroke": colour, "stroke-width": 1.6}
    _circle(group, centre, radius, back, class_="log-back")
    radii, dot = _log_geometry(rings, radius - 2.5)
    for k, (rho, ring) in enumerate(zip(radii, rings, strict=True)):
        for i, mark in enumerate(ring):
            dx, dy = _direction(facing + i * 360 / len(ring))
            style: Style = LOG_UNMARKED
            if mark:
                fill = _mark_colour(mark)
                style = {"fill": fill, "stroke": _darker(fill, 0.5), "stroke-width": 0.8}
            _circle(
                group,
                (cx + dx * rho, cy + dy * rho),
                dot,
                style,
                class_="log-circle marked" if mark else "log-circle",
                data_ring=k + 1,
                data_circle=i + 1,
                data_mark=mark or None,
            )
    dx, dy = _direction(facing)
    front = {"stroke": "#111", "stroke-width": 2.2, **ROUND}
    tick = max(3.0, radius * 0.25)
    edge = (cx + dx * radius, cy + dy * radius)
    _line(group, edge, (edge[0] + dx * tick, edge[1] + dy * tick), front, class_="log-front")


def _overlap(a: Box, b: Box) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _box(centre: Point, half_w: float, half_h: float | None = None) -> Box:
    half_h = half_w if half_h is None else half_h
    return centre[0] - half_w, centre[1] - half_h, centre[0] + half_w, centre[1] + half_h
