"""Free-form tables, to scale: terrain features, figures and their bases."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from warbench.render import palette
from warbench.render.svg.base import (
    BOLD,
    CENTRED,
    DECORATION,
    FALLBACK_FILLS,
    LOG_RADIUS,
    MARGIN,
    PEG_RADIUS,
    ROUND,
    TABLE_PX,
    TABLE_SCALE_LIMITS,
    Entry,
    Point,
    RenderError,
    Swatch,
    _add,
    _circle,
    _darker,
    _direction,
    _fill_for,
    _halo_text,
    _line,
    _number,
    _points,
    _polygon,
    _rect,
    _shorten,
    _text,
    _xy,
)
from warbench.render.svg.board import _Board
from warbench.render.svg.legend import (
    _group_entries,
    _Legend,
    _line_swatch,
    _log_entries,
    _peg_entries,
    _peg_swatch,
    _side_entries,
    _status_entries,
)
from warbench.render.svg.pieces import (
    Box,
    _badges,
    _box,
    _draw_log,
    _draw_pegs,
    _link,
    _log_rings,
    _markers,
    _overlap,
    _Peg,
    _piece_group,
    _prominent,
    _row_start,
    _shown_statuses,
    _side_colours,
    _Styles,
    _zone,
)


class _TableBoard(_Board):
    """A table in inches: origin bottom-left, y up; an inch grid, features, figures."""

    AXIS = 22.0
    """Room left of and below the table for the inch numbers."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        table = view["table"]
        self.table_w = _number(table.get("width"), "table.width")
        self.table_h = _number(table.get("height"), "table.height")
        if self.table_w <= 0 or self.table_h <= 0:
            raise RenderError(f"table: {self.table_w} x {self.table_h} inches is no table")
        low, high = TABLE_SCALE_LIMITS
        self.scale = max(low, min(high, TABLE_PX / max(self.table_w, self.table_h)))
        self.range_px = self.scale
        self.left, self.top = MARGIN + self.AXIS, float(MARGIN)
        self.width = self.left + self.table_w * self.scale + MARGIN
        self.height = self.top + self.table_h * self.scale + self.AXIS + MARGIN
        self.features = [dict(f) for f in view.get("features", ()) or ()]
        self.figures = [dict(f) for f in view.get("figures", ()) or ()]
        self.zones = [_zone(z, f"zones[{i}]") for i, z in enumerate(view.get("zones", ()) or ())]
        self.links = [_link(k, f"links[{i}]") for i, k in enumerate(view.get("links", ()) or ())]
        self.by_eye = any(f.get("by_eye") and _on_table(f) for f in self.figures)
        """Some figure is drawn where its viewer sees it by eye (the legend says so)."""
        self.links_label = str(view.get("links_label") or "pieces that belong together")
        self.groups = [dict(g) for g in view.get("groups", ()) or ()]
        self.groups_label = str(view.get("groups_label") or "Groups")
        self.styles = _Styles(_side_colours(view, self.figures), _prominent(view))
        self.logs: dict[int, list[list[str]]] = {}
        self.pegs: dict[int, list[_Peg]] = {}
        for index, figure in enumerate(self.figures):
            where = f"figures[{index}] ({figure.get('id', '?')})"
            rings, pegs = _log_rings(figure, where), _markers(figure, where)
            if not _on_table(figure):  # figures off the table are not drawn, so not explained
                continue
            if rings is not None:
                self.logs[index] = rings
                self.styles.logs = True
                self.styles.log_marks.update(mark for ring in rings for mark in ring if mark)
            self.pegs[index] = pegs
            self.styles.pegs.update(dict.fromkeys(pegs))
            for status in _shown_statuses(figure, pegs):
                self.styles.add_status(status)
        self.titles = dict(view.get("titles", {}) or {})
        known = view.get("terrain_kinds") or ()  # every kind of the ruleset: stable colours
        kinds = list(
            dict.fromkeys(
                [*(str(k) for k in known), *(str(f.get("kind", "terrain")) for f in self.features)]
            )
        )
        spare = iter(FALLBACK_FILLS * (1 + len(kinds)))
        self.fills = {kind: _fill_for(kind, spare) for kind in kinds}

    def px(self, x: float, y: float) -> Point:
        return self.left + x * self.scale, self.top + (self.table_h - y) * self.scale

    def place(self, point: Any, where: str) -> Point:
        return self.px(*_xy(point, where))

    def cut(self, point: Any) -> float:
        try:
            x, y = _xy(point, "point")
        except RenderError:
            return 0.0
        for figure in self.figures:
            if _on_table(figure) and math.dist((x, y), (figure["x"], figure["y"])) < 0.05:
                return _base_radius(figure) * self.scale + 2
        return 0.0

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, parent: ET.Element, under_pieces: Callable[[ET.Element], None]) -> None:
        # Where the table lies in the picture, for a client that turns a pointer into
        # inches: x px = left + x" * scale, y px = bottom - y" * scale.
        board = _add(
            parent,
            "g",
            class_="board table",
            data_scale=self.scale,
            data_left=self.left,
            data_bottom=self.top + self.table_h * self.scale,
        )
        top = {"fill": "#e4ead0", "stroke": "#5d6b48", "stroke-width": 2}
        _add(
            board,
            "rect",
            top,
            x=self.left,
            y=self.top,
            width=self.table_w * self.scale,
            height=self.table_h * self.scale,
            class_="table-top",
        )
        self._draw_grid(_add(board, "g", DECORATION, class_="grid"))
        features = _add(board, "g", class_="features")
        # Areas first, then lines (walls, roads) over them, each in the view's order.
        lines_last = sorted(enumerate(self.features), key=lambda f: f[1].get("shape") == "polyline")
        for index, feature in lines_last:
            self._draw_feature(features, index, feature)
        labels = _add(board, "g", DECORATION, class_="feature-labels")
        for index, feature in enumerate(self.features):
            self._label_feature(labels, index, feature)
        if self.zones:
            self._draw_zones(_add(board, "g", class_="zones"))
        if self.links:
            self._draw_links(_add(board, "g", DECORATION, class_="links"))
        under_pieces(board)
        if any(self.pegs.values()):
            self.above = ET.Element("g", {"class": "markers"})
        figures = _add(board, "g", class_="figures")
        for index, figure in enumerate(self.figures):
            self._draw_figure(figures, index, figure)
        if self.logs:
            self._draw_logs(_add(board, "g", class_="logs"))

    def _draw_links(self, group: ET.Element) -> None:
        """Each link: a thin dashed line in its side's colour."""
        for a, b, side in self.links:
            colour = self.styles.side_colour(side)
            style = {"stroke": colour, "stroke-width": 1.6, "stroke-dasharray": "3 3"}
            _line(group, self.px(*a), self.px(*b), style, class_="link", data_side=side)

    def _draw_zones(self, group: ET.Element) -> None:
        """Each zone: its area as a dashed, lightly filled circle, a peg at its centre, its id."""
        for zone in self.zones:
            colour = palette.MARKER_COLOURS[zone.colour]
            centre = self.px(*zone.at)
            area = {
                "fill": colour.fill,
                "fill-opacity": 0.12,
                "stroke": colour.outline,
                "stroke-width": 1.5,
                "stroke-dasharray": "6 4",
            }
            _circle(group, centre, zone.radius * self.scale, area, class_="zone", data_zone=zone.id)
            _draw_pegs(group, [_Peg(zone.colour, zone.label)], centre, 6)
            _text(group, (centre[0] + 8, centre[1] - 8), zone.id, 10, {"fill": "#222"})

    def _draw_grid(self, group: ET.Element) -> None:
        """A line every inch, stronger every 6 inches, numbered along the bottom and left."""
        numbers = {"fill": "#555"}
        for inch in range(1, math.ceil(self.table_w)):
            strong = inch % 6 == 0
            line = {"stroke": "#55603f", "stroke-opacity": 0.35 if strong else 0.12}
            _line(group, self.px(inch, 0), self.px(inch, self.table_h), line)
        for inch in range(1, math.ceil(self.table_h)):
            strong = inch % 6 == 0
            line = {"stroke": "#55603f", "stroke-opacity": 0.35 if strong else 0.12}
            _line(group, self.px(0, inch), self.px(self.table_w, inch), line)
        for inch in range(0, int(self.table_w) + 1, 6 if self.table_w > 12 else 1):
            x, y = self.px(inch, 0)
            _text(group, (x, y + 14), f"{inch}\u2033", 9, {**numbers, **CENTRED})
        for inch in range(0, int(self.table_h) + 1, 6 if self.table_h > 12 else 1):
            x, y = self.px(0, inch)
            _text(group, (x - 4, y + 3), f"{inch}\u2033", 9, numbers, text_anchor="end")

    def _feature_points(self, index: int, feature: Mapping[str, Any]) -> list[Point]:
        where = f"features[{index}] ({feature.get('id', '?')})"
        points = feature.get("points")
        if not isinstance(points, Sequence) or isinstance(points, str) or not points:
            raise RenderError(f"{where}: 'points' must be a list of [x, y]")
        return [_xy(p, f"{where}.points[{i}]") for i, p in enumerate(points)]

    def _feature_holes(self, where: str, feature: Mapping[str, Any]) -> list[list[Point]]:
        """A polygon's holes (rings cut out of it), in pixels."""
        holes = feature.get("holes") or []
        if not isinstance(holes, Sequence) or isinstance(holes, str):
            raise RenderError(f"{where}: 'holes' must be a list of rings")
        out = []
        for i, ring in enumerate(holes):
            if not isinstance(ring, Sequence) or isinstance(ring, str) or len(ring) < 3:
                raise RenderError(f"{where}: holes[{i}] must be a ring of 3 or more [x, y]")
            out.append([self.px(*_xy(p, f"{where}.holes[{i}][{j}]")) for j, p in enumerate(ring)])
        return out

    def _draw_feature(self, parent: ET.Element, index: int, feature: Mapping[str, Any]) -> None:
        """An area (polygon, circle) or a line (polyline) in its kind's colour; faded if gone."""
        kind = str(feature.get("kind", "terrain"))
        shape = feature.get("shape")
        where = f"features[{index}] ({feature.get('id', '?')})"
        fill = self.fills[kind]
        destroyed = bool(feature.get("destroyed"))
        group = _add(
            parent,
            "g",
            class_="feature",
            data_feature=str(feature.get("id", index)),
            data_kind=kind,
            data_shape=str(shape),
            data_destroyed="true" if destroyed else None,
            opacity=0.55 if destroyed else None,
        )
        area = {"fill": fill, "fill-opacity": 0.85, "stroke": _darker(fill), "stroke-width": 1.5}
        if destroyed:
            area["stroke-dasharray"] = "5 3"
        points = [self.px(x, y) for x, y in self._feature_points(index, feature)]
        if shape == "polygon":
            if len(points) < 3:
                raise RenderError(f"{where}: a polygon needs at least 3 points")
            holes = self._feature_holes(where, feature)
            if holes:  # what was cleared inside it stays open ground
                rings = [points, *holes]
                d = " ".join(f"M{_points(ring).replace(' ', ' L')} Z" for ring in rings)
                _add(group, "path", area, d=d, fill_rule="evenodd")
            else:
                _polygon(group, points, area)
        elif shape == "circle":
            radius = _number(feature.get("radius"), f"{where}.radius") * self.scale
            _circle(group, points[0], radius, area)
            (cx, cy), points = points[0], [(points[0][0] - radius, points[0][1] - radius)]
            points.append((cx + radius, cy + radius))
        elif shape == "polyline":
            if len(points) < 2:
                raise RenderError(f"{where}: a polyline needs at least 2 points")
            width = max(3.0, (0.6 if _is_wide_line(kind) else 0.3) * self.scale)
            edge = {"fill": "none", "stroke": _darker(fill, 0.55), "stroke-width": width + 2}
            _add(group, "polyline", {**edge, **ROUND}, points=_points(points))
            body = {**area, "fill": "none", "stroke": fill, "stroke-width": width, **ROUND}
            _add(group, "polyline", body, points=_points(points))
            return
        else:
            raise RenderError(f"{where}: unknown shape {shape!r} (polygon, polyline or circle)")
        if destroyed:  # a dashed cross over the area's bounding box
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            cross = {"stroke": "#5a3a2a", "stroke-width": 1.5, "stroke-dasharray": "4 3"}
            _line(group, (min(xs), min(ys)), (max(xs), max(ys)), cross)
            _line(group, (min(xs), max(ys)), (max(xs), min(ys)), cross)

    def _label_feature(self, parent: ET.Element, index: int, feature: Mapping[str, Any]) -> None:
        placed = self._feature_label(index, feature)
        if placed is not None:
            style = {"fill": "#333", "font-style": "italic", **CENTRED}
            _halo_text(parent, placed[0], placed[1], 10, style)

    def _feature_label(self, index: int, feature: Mapping[str, Any]) -> tuple[Point, str] | None:
        """Where a feature's label is written (its baseline's middle) and its text."""
        label = feature.get("label")
        if not isinstance(label, str) or not label:
            return None
        points = self._feature_points(index, feature)
        if feature.get("shape") == "polyline":
            a, b = points[(len(points) - 1) // 2], points[(len(points) - 1) // 2 + 1]
            x, y = self.px((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        elif feature.get("shape") == "circle":
            x, y = self.px(*points[0])
        else:
            x, y = self.px(
                sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
            )
        # The name actions use beside the name on the board ("Bank (house1)"): a person
        # reads the one and types the other.
        ident = str(feature.get("id") or "")
        named = f"{label} ({ident})" if ident and ident.lower() != label.lower() else label
        text = named + (" (destroyed)" if feature.get("destroyed") else "")
        return (x, y + 4), text

    def _draw_figure(self, parent: ET.Element, index: int, figure: Mapping[str, Any]) -> None:
        """A base in the side's colour, a facing tick, the label above and status badges."""
        if not _on_table(figure):
            return  # off the table: the legend lists it
        where = f"figures[{index}] ({figure.get('id', '?')})"
        centre = cx, cy = self.px(_number(figure["x"], where), _number(figure["y"], where))
        dx, dy = _direction(_number(figure.get("facing", 90.0), f"{where}.facing"))
        colour = self.styles.side_colour(figure.get("side"))
        group = _piece_group(parent, "figure", figure, data_kind=str(figure.get("kind", "")))
        cell = figure.get("by_eye")
        if cell:  # seen by eye: somewhere in this square (warbench.rulesets.kit.eye)
            half = _number(cell, f"{where}.by_eye") * self.scale / 2
            eye_style = {"fill": "none", "stroke": colour, "stroke-width": 1, **DECORATION}
            eye_style["stroke-dasharray"] = "2 3"
            _rect(group, cx - half, cy - half, 2 * half, 2 * half, eye_style)
        base = figure.get("base") or {"shape": "round", "diameter": 1.0}
        style = {"fill": colour, "stroke": _darker(colour, 0.45), "stroke-width": 1.4}
        if base.get("shape") == "rect":
            half_w = _number(base.get("width"), f"{where}.base.width") * self.scale / 2
            half_d = _number(base.get("depth"), f"{where}.base.depth") * self.scale / 2
            # The depth runs along the facing (dx, dy), the width across it (-dy, dx).
            corners = [
                (cx + i * dx * half_d - j * dy * half_w, cy + i * dy * half_d + j * dx * half_w)
                for i, j in ((1, 1), (1, -1), (-1, -1), (-1, 1))
            ]
            _polygon(group, corners, style, class_="base")
            front, radius = half_d, max(half_w, half_d)
        elif base.get("shape", "round") == "round":
            diameter = _number(base.get("diameter", 1.0), f"{where}.base.diameter")
            front = radius = diameter * self.scale / 2
            _circle(group, centre, radius, style, class_="base")
        else:
            raise RenderError(f"{where}: unknown base shape {base.get('shape')!r} (round or rect)")
        edge = (cx + dx * front, cy + dy * front)
        tip = (cx + dx * (front + max(4.0, 0.5 * front)), cy + dy * (front + max(4.0, 0.5 * front)))
        _line(group, centre, edge, {"stroke": "white", "stroke-width": 2, **ROUND}, class_="facing")
        _line(group, edge, tip, {"stroke": "#111", "stroke-width": 2.2, **ROUND})
        label = str(figure.get("label") or figure.get("id", "?"))
        style = {"fill": "#111", **BOLD, **CENTRED}
        _halo_text(group, (cx, cy - radius - 4), label, 10, style)
        pegs = self.pegs.get(index, [])
        row = _row_start(centre, radius, (dx, dy), len(pegs))
        if pegs and self.above is not None:
            mine = _add(self.above, "g", class_="markers", data_figure=str(figure.get("id")))
            _draw_pegs(mine, pegs, row, PEG_RADIUS)
        after = (row[0] + len(pegs) * (2 * PEG_RADIUS + 2), row[1])
        _badges(group, self.styles, _shown_statuses(figure, pegs), after, 5)

    def _extent(self, figure: Mapping[str, Any]) -> tuple[Point, float, float]:
        """A drawn figure's centre and radius in pixels, and its facing."""
        base = figure.get("base") or {}
        if base.get("shape") == "rect":
            radius = max(float(base["width"]), float(base["depth"])) * self.scale / 2
        else:
            radius = float(base.get("diameter", 1.0)) * self.scale / 2
        facing = float(figure.get("facing", 90.0))
        return self.px(float(figure["x"]), float(figure["y"])), radius, facing

    def _taken(self) -> list[Box]:
        """What a hull diagram should not cover: feature labels; bases, facing ticks,
        labels, pegs and badges of figures."""
        boxes: list[Box] = []
        for index, feature in enumerate(self.features):
            placed = self._feature_label(index, feature)
            if placed is not None:
                (x, y), text = placed
                boxes.append(_box((x, y - 3.5), 3 * len(text), 6))
        for index, figure in enumerate(self.figures):
            if not _on_table(figure):
                continue
            (cx, cy), radius, facing = self._extent(figure)
            boxes.append(_box((cx, cy), radius))
            dx, dy = _direction(facing)
            reach = radius + max(4.0, 0.5 * radius)
            boxes.append(_box((cx + dx * reach, cy + dy * reach), 3))
            label = str(figure.get("label") or figure.get("id", "?"))
            boxes.append(_box((cx, cy - radius - 8), 3.3 * len(label) + 2, 6))
            pegs = self.pegs.get(index, [])
            things = len(pegs) * (2 * PEG_RADIUS + 2) + len(_shown_statuses(figure, pegs)) * 11
            if things:
                x, y = _row_start((cx, cy), radius, (dx, dy), len(pegs))
                boxes.append((x - 6, y - 6, x + things, y + 6))
        return boxes

    def _log_place(
        self, centre: Point, radius: float, facing: float, taken: Sequence[Box]
    ) -> Point:
        """Where a figure's hull diagram goes: near the base, clear of the other drawings.

        Tried in 16 directions round the base, close first, starting behind it and
        turning either way; the first clear place not in front of the base (where
        its arcs and sight lines go) wins, else the least crowded one.
        """
        table: Box = (
            self.left,
            self.top,
            self.left + self.table_w * self.scale,
            self.top + self.table_h * self.scale,
        )
        picture: Box = (0.0, 0.0, self.width, self.height - self.AXIS)
        size = LOG_RADIUS + 3  # with the front tick
        box_area = (2 * 0.886 * size) ** 2
        tick = max(4.0, 0.5 * radius) + 2
        bx, by = _direction(facing + 180)
        behind = math.degrees(math.atan2(by, bx))
        best: tuple[float, Point] | None = None
        for tier, gap in enumerate((5.0, 16.0, 30.0)):
            for step in range(16):
                turn = (step + 1) // 2 * (1 if step % 2 else -1) * 22.5
                angle = math.radians(behind + turn)
                ahead = abs(turn) > 130
                # In front, past the facing tick.
                distance = radius + gap + LOG_RADIUS + (tick if ahead else 0.0)
                spot = (
                    centre[0] + math.cos(angle) * distance,
                    centre[1] + math.sin(angle) * distance,
                )
                # The square of the disc's area stands for it; it may reach a little way
                # over the table's edge, not off the picture.
                box = _box(spot, 0.886 * size)
                crowd = sum(_overlap(box, other) for other in taken)
                outside = box_area - _overlap(box, table)
                off = box_area - _overlap(box, picture)
                score = crowd + outside + 10 * off + tier * 60 + abs(turn) * 0.05 + 250 * ahead
                if best is None or score < best[0]:
                    best = (score, spot)
                if crowd == 0 and outside < 0.1 * box_area and off == 0 and not ahead:
                    return spot
        assert best is not None
        return best[1]

    def _draw_logs(self, parent: ET.Element) -> None:
        """Each figure's hull diagram beside its base, joined to it by a short line."""
        taken = self._taken()
        for index, rings in self.logs.items():
            figure = self.figures[index]
            centre, radius, facing = self._extent(figure)
            spot = self._log_place(centre, radius, facing, taken)
            taken.append(_box(spot, LOG_RADIUS + 3))
            colour = self.styles.side_colour(figure.get("side"))
            link = _shorten(centre, spot, radius, LOG_RADIUS)
            if link is not None:
                style = {"stroke": colour, "stroke-width": 1.6, **ROUND}
                _line(parent, *link, style, class_="log-link", data_figure=str(figure.get("id")))
            _draw_log(parent, spot, facing, rings, colour, data_figure=str(figure.get("id")))

    # -- legend -----------------------------------------------------------------------------
    def legend(self, legend: _Legend) -> None:
        def area(fill: str, shape: Any) -> Swatch:
            if shape == "polyline":
                edge = {"stroke": _darker(fill, 0.55), "stroke-width": 6, **ROUND}
                return _line_swatch(edge, {"stroke": fill, "stroke-width": 4, **ROUND})
            style = {"fill": fill, "stroke": _darker(fill), "stroke-width": 1.2}
            rx = 5 if shape == "circle" else 1
            return lambda g, x, y: _add(g, "rect", style, x=x + 2, y=y, width=22, height=16, rx=rx)

        entries: list[Entry] = []
        for kind, fill in self.fills.items():
            examples = [f for f in self.features if str(f.get("kind", "terrain")) == kind]
            if not examples:
                continue  # a kind of the ruleset this table does not have
            sight = sorted({str(f["blocks_los"]) for f in examples if f.get("blocks_los")})
            text = kind + (f"; blocks sight: {' / '.join(sight)}" if sight else "")
            if "beyond" in sight:
                text += " (beyond: cover for a figure touching it, blocks sight past it)"
            entries.append((area(fill, examples[0].get("shape")), text))
        if any(f.get("destroyed") for f in self.features):

            def ruined(g: ET.Element, x: float, y: float) -> None:
                cross = {"stroke": "#5a3a2a", "stroke-dasharray": "4 3"}
                _rect(g, x + 2, y, 22, 16, {"fill": "#cccccc", "opacity": 0.55, **cross})
                _line(g, (x + 2, y), (x + 24, y + 16), cross)

            entries.append((ruined, "destroyed (faded and crossed)"))
        legend.section("Terrain", entries)

        def base(colour: str) -> Swatch:
            def swatch(g: ET.Element, x: float, y: float) -> None:
                _circle(g, (x + 12, y + 8), 7, {"fill": colour, "stroke": _darker(colour, 0.45)})
                _line(g, (x + 12, y + 8), (x + 19, y + 8), {"stroke": "white", "stroke-width": 2})
                _line(g, (x + 19, y + 8), (x + 24, y + 8), {"stroke": "#111", "stroke-width": 2})

            return swatch

        on_table = {str(f.get("id")) for f in self.figures if _on_table(f)}
        sides = _side_entries(self.styles, self.titles, self.figures, on_table, "table", base)
        if sides:
            sides.append((None, "The tick on a base points where the figure faces."))
        if self.links:

            def link(g: ET.Element, x: float, y: float) -> None:
                style = {"stroke": "#444", "stroke-width": 1.6, "stroke-dasharray": "3 3"}
                _line(g, (x + 2, y + 8), (x + 24, y + 8), style)

            sides.append((link, self.links_label))
        if self.by_eye:

            def square(g: ET.Element, x: float, y: float) -> None:
                style = {"fill": "none", "stroke": "#444", "stroke-dasharray": "2 3"}
                _rect(g, x + 5, y, 16, 16, style)

            sides.append((square, "Seen by eye: the base stands somewhere in the square."))
        legend.section("Sides", sides)
        legend.section(self.groups_label, _group_entries(self.groups))
        zones: dict[_Peg, None] = {}
        for zone in self.zones:
            zones[_Peg(zone.colour, zone.label)] = None
        zone_entries: list[Entry] = [
            (_peg_swatch(p), f"{p.text} (dashed: the area it covers)") for p in zones
        ]
        legend.section(
            "Markers", _peg_entries(self.styles) + zone_entries + _status_entries(self.styles)
        )
        legend.section("Logs", _log_entries(self.styles))


def _on_table(figure: Mapping[str, Any]) -> bool:
    return all(isinstance(figure.get(k), int | float) for k in ("x", "y"))


def _is_wide_line(kind: str) -> bool:
    return any(w in kind.lower() for w in ("road", "river", "stream", "track", "path", "water"))


def _base_radius(figure: Mapping[str, Any]) -> float:
    """Half the largest size of a figure's base in inches (to stop lines short of it)."""
    base = figure.get("base") or {}
    keys = ("width", "depth") if base.get("shape") == "rect" else ("diameter",)
    sizes = [float(base[k]) for k in keys if isinstance(base.get(k), int | float)]
    return max(sizes) / 2 if sizes else 0.5
