"""The SVG renderer: hex maps and tables drawn from views, parsed back and checked.

Pictures are checked by parsing the SVG and finding the elements each piece of
the view must produce (by their ``class`` and ``data-*`` attributes), never by
comparing text snapshots.
"""

from __future__ import annotations

import copy
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from warbench.core.game import Game
from warbench.render.svg import SVG_NS, RenderError, render_svg, svg_size

NS = {"svg": SVG_NS}


def parse(svg: str) -> ET.Element:
    """The document's root; fails the test if the SVG is not well-formed XML."""
    root = ET.fromstring(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def groups(root: ET.Element, css_class: str) -> list[ET.Element]:
    """Every ``<g>`` whose class list contains ``css_class``."""
    return [g for g in root.iter(f"{{{SVG_NS}}}g") if css_class in (g.get("class") or "").split()]


def texts(root: ET.Element) -> str:
    return "\n".join(t.text or "" for t in root.iter(f"{{{SVG_NS}}}text"))


def centre_of(element: ET.Element, tag: str) -> tuple[float, float]:
    found = element.find(f"svg:{tag}", NS)
    assert found is not None
    return float(found.get("cx", "nan")), float(found.get("cy", "nan"))


def polygon_points(element: ET.Element) -> list[tuple[float, float]]:
    pairs = (p.split(",") for p in (element.get("points") or "").split())
    return [(float(x), float(y)) for x, y in pairs]


@pytest.fixture(scope="module")
def danville() -> dict[str, Any]:
    return Game.start("miniwars/danville", seed=1).view()


# -- hex maps ----------------------------------------------------------------------------------
def test_every_hex_is_drawn_with_its_terrain(danville: dict[str, Any]) -> None:
    root = parse(render_svg(danville, title="The Danville Raid"))
    polygons = root.iter(f"{{{SVG_NS}}}polygon")
    hexes = {p.get("data-hex"): p.get("data-terrain") for p in polygons if p.get("class") == "hex"}
    assert len(hexes) == 16 * 12
    for terrain, labels in danville["map"]["terrain"].items():
        for label in labels:
            assert hexes[label] == terrain
    assert {"town", "forest", "lake", "marsh", "rough", "open"} <= set(texts(root).split("\n"))


def test_even_columns_sit_half_a_hex_lower(danville: dict[str, Any]) -> None:
    """Flat-topped hexes in the layout of render/text.py: 0201 lower than 0101 and 0301."""
    root = parse(render_svg(danville))
    tops = {}
    for polygon in root.iter(f"{{{SVG_NS}}}polygon"):
        if polygon.get("class") == "hex":
            points = polygon_points(polygon)
            tops[polygon.get("data-hex")] = min(y for _, y in points)
            assert len(points) == 6
    assert tops["0101"] == tops["0301"] < tops["0201"] < tops["0102"]


def test_every_unit_is_a_counter_in_its_hex(danville: dict[str, Any]) -> None:
    root = parse(render_svg(danville))
    counters = {g.get("data-unit"): g for g in groups(root, "unit")}
    assert set(counters) == {u["id"] for u in danville["units"]}
    colours = {}
    for unit in danville["units"]:
        counter = counters[unit["id"]]
        assert counter.get("data-hex") == unit["at"]
        assert counter.get("data-side") == unit["side"]
        assert unit["id"] in [t.text for t in counter.iter(f"{{{SVG_NS}}}text")]
        face = counter.findall("svg:rect", NS)[1]
        colours.setdefault(unit["side"], set()).add(face.get("fill"))
    assert all(len(fills) == 1 for fills in colours.values())  # one colour per side...
    assert len(set.union(*colours.values())) == 2  # ...and the sides differ


def test_hexsides_roads_and_hills(danville: dict[str, Any]) -> None:
    board = danville["map"]
    root = parse(render_svg(danville))
    drawn = [e for e in root.iter() if e.get("class") == "hexside"]
    expected = {(s["feature"], "/".join(s["hexes"])) for s in board["hexsides"]}
    assert {(e.get("data-feature"), e.get("data-hexes")) for e in drawn} == expected
    bridge = next(e for e in drawn if e.get("data-feature") == "bridge")
    assert bridge.tag == f"{{{SVG_NS}}}polygon"  # a deck across the river, not a line
    roads = {e.get("data-hexes") for e in root.iter() if e.get("class") == "road"}
    assert roads == {"/".join(pair) for pair in board["roads"]}
    rings = {e.get("data-hex") for e in groups(root, "elevation")[0]}
    assert rings == set(board["elevation"])
    legend = texts(root)
    assert "river (along a hexside)" in legend and "bridge (across a hexside)" in legend
    assert "hedgerow (along a hexside)" in legend and "road (from hex to hex)" in legend


def test_hex_labels_are_written(danville: dict[str, Any]) -> None:
    labels = groups(parse(render_svg(danville)), "labels")[0]
    assert {t.text for t in labels} == {
        f"{c:02d}{r:02d}" for c in range(1, 17) for r in range(1, 13)
    }


def test_title_turn_and_phase(danville: dict[str, Any]) -> None:
    root = parse(render_svg(danville, title="The Danville Raid", notes=["view: everyone"]))
    heading = [t.text for t in groups(root, "heading")[0]]
    assert heading[0] == "The Danville Raid"
    assert heading[1] == "Turn 1 of 50 · Initiative"
    assert heading[2] == "view: everyone"
    assert root.find("svg:title", NS) is not None


def test_disrupted_removed_and_status_flags(danville: dict[str, Any]) -> None:
    view = copy.deepcopy(danville)
    for unit in view["units"]:
        if unit["id"] == "G1":
            unit["disrupted"] = True
        if unit["id"] == "W1":
            unit["status"] = ["fired"]
        if unit["id"] == "HL":
            unit["at"] = None
    root = parse(render_svg(view))
    counters = {g.get("data-unit"): g for g in groups(root, "unit")}
    assert "HL" not in counters
    marks = {g.get("data-status") for g in counters["G1"].iter() if g.get("class") == "status"}
    assert marks == {"disrupted"}
    marks = {g.get("data-status") for g in counters["W1"].iter() if g.get("class") == "status"}
    assert marks == {"fired"}
    legend = texts(root)
    assert "off the map: HL" in legend
    assert "disrupted" in legend and "fired" in legend


def test_flags_the_view_marks_are_drawn_like_disrupted(danville: dict[str, Any]) -> None:
    """A flag named in ``view["marks"]`` (V.E.G.'s ``wounded``) gets the red badge and the
    yellow outline of a disrupted counter; other flags get neither."""

    def look(view: dict[str, Any], unit: str) -> tuple[set[str | None], set[str | None]]:
        root = parse(render_svg(view))
        counter = {g.get("data-unit"): g for g in groups(root, "unit")}[unit]
        fills = {
            c.get("fill")
            for g in counter.iter()
            if g.get("class") == "status"
            for c in g.iter(f"{{{SVG_NS}}}circle")
        }
        outlines = {
            r.get("stroke") for r in counter.iter(f"{{{SVG_NS}}}rect") if r.get("fill") == "none"
        }
        return fills, outlines

    view = copy.deepcopy(danville)
    for unit in view["units"]:
        if unit["id"] == "G1":
            unit["status"] = ["wounded"]
        if unit["id"] == "W1":
            unit["status"] = ["riding"]
    assert look(view, "G1") != ({"#d50000"}, {"#ffc400"})  # without marks, just a flag
    view["marks"] = {"wounded": "~"}
    assert look(view, "G1") == ({"#d50000"}, {"#ffc400"})
    fills, outlines = look(view, "W1")
    assert fills and "#d50000" not in fills and not outlines
    legend = " ".join(texts(parse(render_svg(view))).split())
    assert "wounded (counters also get a yellow outline)" in legend


def test_units_are_listed_by_type_in_the_legend(danville: dict[str, Any]) -> None:
    legend = texts(parse(render_svg(danville)))
    assert "G1 G2 G3: Town Guardsmen" in legend
    assert "danville: The defenders of Danville" in legend


def test_hex_overlays(danville: dict[str, Any]) -> None:
    marks = [
        {"kind": "path", "points": ["1410", "1409", "1408"], "side": "horde"},
        {"kind": "sight", "from": "1506", "to": "0606", "clear": True, "label": "hit"},
        {"kind": "sight", "from": "1402", "to": "0405", "clear": False},
        {"kind": "arc", "at": "0606", "facing": 0.0, "half_angle": 60.0, "range": 3},
    ]
    root = parse(render_svg(danville, annotations=marks))
    path = groups(root, "path")[0]
    assert path.get("data-side") == "horde"
    assert path.findall("svg:polyline", NS) and path.findall("svg:polygon", NS)  # arrowhead
    sights = groups(root, "sight")
    assert [g.get("data-clear") for g in sights] == ["true", "false"]
    assert "hit" in [t.text for t in sights[0].iter(f"{{{SVG_NS}}}text")]
    # Sight lines are drawn over the counters; paths and arcs under them.
    order = [g.get("class") for g in root.iter(f"{{{SVG_NS}}}g")]
    assert order.index("overlays-under") < order.index("units") < order.index("overlays-over")
    assert groups(root, "arc")[0].find("svg:path", NS) is not None
    legend = texts(root)
    assert "line of sight, clear" in legend and "line of sight, blocked (X)" in legend


def test_hex_overlay_off_the_map_is_an_error(danville: dict[str, Any]) -> None:
    with pytest.raises(RenderError, match=r"annotations\[0\] \(path\)\.points\[1\]: '2099'"):
        render_svg(danville, annotations=[{"kind": "path", "points": ["0101", "2099"]}])
    with pytest.raises(RenderError, match="unknown kind 'blast'"):
        render_svg(danville, annotations=[{"kind": "blast"}])


def test_a_view_with_nothing_to_draw() -> None:
    with pytest.raises(RenderError, match="neither a hex map"):
        render_svg({"units": []})


def test_names_from_files_are_escaped() -> None:
    """Terrain and unit names come from scenario files; markup in them stays text."""
    view = {
        "map": {"columns": 1, "rows": 1, "terrain": {"<b>&mud": ["0101"]}},
        "units": [{"id": "<x>", "side": "a&b", "at": "0101", "disrupted": False}],
    }
    root = parse(render_svg(view, title="A & <B>"))
    assert "<b>&mud" in texts(root) and "A & <B>" in texts(root)
    assert groups(root, "unit")[0].get("data-unit") == "<x>"


def test_declared_size(danville: dict[str, Any]) -> None:
    svg = render_svg(danville)
    width, height = svg_size(svg)
    root = parse(svg)
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert width > 16 * 1.5 * 32 and height > 12 * math.sqrt(3) * 32


# -- tables --------------------------------------------------------------------------------------
def test_every_feature_is_drawn_by_its_shape(table_view: dict[str, Any]) -> None:
    root = parse(render_svg(table_view))
    drawn = {g.get("data-feature"): g for g in groups(root, "feature")}
    assert set(drawn) == {f["id"] for f in table_view["features"]}
    tags = {"polygon": "polygon", "polyline": "polyline", "circle": "circle"}
    for feature in table_view["features"]:
        group = drawn[feature["id"]]
        assert group.get("data-kind") == feature["kind"]
        assert group.find(f"svg:{tags[feature['shape']]}", NS) is not None
    assert drawn["ruin"].get("data-destroyed") == "true"
    assert drawn["house1"].get("data-destroyed") is None
    labels = texts(root)
    assert "House (house1)" in labels and "Barn (ruin) (destroyed)" in labels and "Pond" in labels
    # (the id beside the name: actions name a feature by its id, the board by its name)


def test_table_coordinates_have_y_up(table_view: dict[str, Any]) -> None:
    """Origin bottom-left, y up: a figure further up the table is higher on the page."""
    root = parse(render_svg(table_view))
    figures = {g.get("data-figure"): g for g in groups(root, "figure")}
    a1 = centre_of(figures["A1"], "circle")  # (12, 12)
    b1 = centre_of(figures["B1"], "circle")  # (36, 20)
    assert b1[0] > a1[0] and b1[1] < a1[1]
    pond = next(g for g in groups(root, "feature") if g.get("data-feature") == "pond")
    circle = pond.find("svg:circle", NS)
    assert circle is not None
    scale = (b1[0] - a1[0]) / 24  # pixels per inch
    assert float(circle.get("r", "0")) == pytest.approx(3 * scale, abs=0.02)
    assert (a1[1] - b1[1]) / 8 == pytest.approx(scale, abs=0.02)


def test_every_figure_on_the_table_has_a_base_and_facing(table_view: dict[str, Any]) -> None:
    root = parse(render_svg(table_view))
    figures = {g.get("data-figure"): g for g in groups(root, "figure")}
    assert set(figures) == {"A1", "A2", "C1", "B1", "V1"}  # B2 is off the table
    for figure in table_view["figures"]:
        if figure["x"] is None:
            continue
        group = figures[figure["id"]]
        assert group.get("data-side") == figure["side"]
        base = next(e for e in group if e.get("class") == "base")
        shape = "circle" if figure["base"]["shape"] == "round" else "polygon"
        assert base.tag == f"{{{SVG_NS}}}{shape}"
        facing = next(e for e in group if e.get("class") == "facing")
        dx = float(facing.get("x2", "0")) - float(facing.get("x1", "0"))
        dy = float(facing.get("y2", "0")) - float(facing.get("y1", "0"))
        # Screen y points down: a facing of 90 degrees (north) has dy < 0.
        angle = math.degrees(math.atan2(-dy, dx)) % 360
        assert angle == pytest.approx(figure["facing"] % 360, abs=0.5)
        label = figure.get("label") or figure["id"]
        assert label in [t.text for t in group.iter(f"{{{SVG_NS}}}text")]
    assert "off the table: B2" in texts(root)


def test_a_rect_base_is_deep_along_its_facing(table_view: dict[str, Any]) -> None:
    """V1: 2 inches wide across its facing of 135 degrees, 3 inches deep along it."""
    root = parse(render_svg(table_view))
    v1 = next(g for g in groups(root, "figure") if g.get("data-figure") == "V1")
    corners = polygon_points(next(e for e in v1 if e.get("class") == "base"))
    sides = [math.dist(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    assert max(sides) / min(sides) == pytest.approx(1.5, abs=0.01)
    a, b = corners[1], corners[2]  # a side along the facing (front corner to back corner)
    along = math.degrees(math.atan2(-(a[1] - b[1]), a[0] - b[0])) % 360
    assert math.dist(a, b) == pytest.approx(max(sides), abs=0.05)
    assert along == pytest.approx(135, abs=0.5)


def test_status_flags_are_marked_and_explained(table_view: dict[str, Any]) -> None:
    root = parse(render_svg(table_view))
    b1 = next(g for g in groups(root, "figure") if g.get("data-figure") == "B1")
    assert [g.get("data-status") for g in b1.iter() if g.get("class") == "status"] == [
        "hero",
        "pinned",
    ]
    legend = texts(root)
    for status in ("hero", "mounted", "pinned"):
        assert status in legend.split("\n")
    assert "woods; blocks sight: beyond" in legend


def test_table_overlays(table_view: dict[str, Any], table_marks: list[dict[str, Any]]) -> None:
    root = parse(render_svg(table_view, annotations=table_marks))
    path = groups(root, "path")[0]
    assert path.get("data-side") == "red"
    line = path.find("svg:polyline", NS)
    assert line is not None and len(polygon_points(line)) == 3
    sights = groups(root, "sight")
    colours = [g.findall("svg:line", NS)[1].get("stroke") for g in sights]
    assert [g.get("data-clear") for g in sights] == ["true", "false"]
    assert colours[0] != colours[1]
    arc = groups(root, "arc")[0]
    assert arc.get("data-facing") == "0" and arc.get("data-half-angle") == "45"


def test_the_arc_wedge_spans_its_angle_and_range(
    table_view: dict[str, Any], table_marks: list[dict[str, Any]]
) -> None:
    """A 45-degree half angle about east from A1 at (12, 12), 12 inches long."""
    root = parse(render_svg(table_view, annotations=[table_marks[3]]))
    a1 = centre_of(
        next(g for g in groups(root, "figure") if g.get("data-figure") == "A1"), "circle"
    )
    b1 = centre_of(
        next(g for g in groups(root, "figure") if g.get("data-figure") == "B1"), "circle"
    )
    scale = (b1[0] - a1[0]) / 24
    wedge = groups(root, "arc")[0].find("svg:path", NS)
    assert wedge is not None
    words = (wedge.get("d") or "").replace("M", "").replace("L", " ").replace("A", " ").split()
    start = tuple(float(v) for v in words[0].split(","))
    first = tuple(float(v) for v in words[1].split(","))
    last = tuple(float(v) for v in words[-2].split(","))
    assert start == pytest.approx(a1, abs=0.02)
    for corner, angle in ((first, -45), (last, 45)):
        assert math.dist(start, corner) == pytest.approx(12 * scale, abs=0.05)
        assert math.degrees(math.atan2(-(corner[1] - start[1]), corner[0] - start[0])) == (
            pytest.approx(angle, abs=0.2)
        )


def test_bad_table_input_names_the_culprit(table_view: dict[str, Any]) -> None:
    broken = copy.deepcopy(table_view)
    broken["features"][1]["shape"] = "blob"
    with pytest.raises(RenderError, match=r"features\[1\] \(woods1\): unknown shape 'blob'"):
        render_svg(broken)
    broken = copy.deepcopy(table_view)
    broken["figures"][0]["base"] = {"shape": "hex"}
    with pytest.raises(RenderError, match=r"figures\[0\] \(A1\): unknown base shape"):
        render_svg(broken)
    with pytest.raises(RenderError, match=r"annotations\[0\] \(sight\)\.from: expected \[x, y\]"):
        render_svg(table_view, annotations=[{"kind": "sight", "from": "0101", "to": [1, 1]}])


def test_an_empty_table(table_view: dict[str, Any]) -> None:
    view = {"table": {"width": 24, "height": 24}, "features": [], "figures": []}
    root = parse(render_svg(view, legend=False))
    assert not groups(root, "figure") and not groups(root, "legend")


def test_groups_that_actions_name_are_in_the_legend() -> None:
    """Invisible Enemy's actions name units (``buy auto=CA``) that are no piece on the
    table: the legend lists each with its bases, so the board shows what the action says."""
    from warbench.core.game import Game

    game = Game.start("invisible-enemy/company", 1)
    labels = texts(parse(render_svg(game.view("california"))))
    assert "Units (as actions name them)" in labels
    assert "CA: C1 C2 C3 C4 C5 C6 C7 C8" in labels and "CN: N1 (1st Clip)" in labels
