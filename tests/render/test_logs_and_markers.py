"""Hull diagrams (``log``) and marker pegs (``markers``) of table figures, in SVG and text.

The generic contract of :mod:`warbench.render.svg` (module docstring): a figure
may carry ``log: {"rings": [[...], ...]}`` and ``markers: [colour | {"colour",
"label"}]``; MGV fills both from its hit logs and its 1.2 markers. Pictures are
checked by parsing the SVG and finding elements by ``class`` and ``data-*``.
"""

from __future__ import annotations

import copy
import io
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from rich.console import Console

from warbench.core.game import Game
from warbench.render import palette
from warbench.render.svg import LOG_RADIUS, SVG_NS, RenderError, render_svg
from warbench.render.table_text import render_table
from warbench.rulesets.mgv.hitlog import HitLog
from warbench.rulesets.mgv.state import Attack, State

NS = {"svg": SVG_NS}
Point = tuple[float, float]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def groups(root: ET.Element, css_class: str) -> list[ET.Element]:
    """Every ``<g>`` whose class list contains ``css_class``, in document order."""
    return [g for g in root.iter(f"{{{SVG_NS}}}g") if css_class in (g.get("class") or "").split()]


def circles(element: ET.Element, css_class: str) -> list[ET.Element]:
    return [
        c
        for c in element.iter(f"{{{SVG_NS}}}circle")
        if css_class in (c.get("class") or "").split()
    ]


def centre(element: ET.Element) -> Point:
    return float(element.get("cx", "nan")), float(element.get("cy", "nan"))


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{{{SVG_NS}}}text")]


def logs(root: ET.Element) -> list[ET.Element]:
    """The figures' hull diagrams (the legend's sample has no ``data-figure``)."""
    return [g for g in groups(root, "log") if g.get("data-figure")]


def log_of(root: ET.Element, figure: str) -> ET.Element:
    return next(g for g in logs(root) if g.get("data-figure") == figure)


def base_of(root: ET.Element, figure: str) -> ET.Element:
    group = next(g for g in groups(root, "figure") if g.get("data-figure") == figure)
    return next(e for e in group if e.get("class") == "base")


def screen_angle(origin: Point, point: Point) -> float:
    """Degrees counter-clockwise from east of ``point`` seen from ``origin`` (screen y down)."""
    return math.degrees(math.atan2(-(point[1] - origin[1]), point[0] - origin[0])) % 360


def angle_gap(a: float, b: float) -> float:
    d = (a - b) % 360
    return min(d, 360 - d)


EIGHT_THREE_ONE = [["S", "S", "P", "", "", "", "", ""], ["P", "", ""], ["B"]]


@pytest.fixture
def marked_view(table_view: dict[str, Any]) -> dict[str, Any]:
    """The hand-made table view with logs on A1 and B1 and markers on A1, A2 and B1."""
    view = copy.deepcopy(table_view)
    figures = {f["id"]: f for f in view["figures"]}
    figures["A1"]["log"] = {"rings": copy.deepcopy(EIGHT_THREE_ONE)}
    figures["A1"]["markers"] = ["white", {"colour": "yellow", "label": "fired"}]
    figures["A2"]["markers"] = [{"colour": "black", "label": "hero"}]  # stands for a status
    figures["B1"]["log"] = {"rings": [["", "", "S", "", "", ""], ["", ""]]}
    figures["B1"]["markers"] = [{"colour": "red", "label": "ranged fire target"}]
    return view


# -- the contract ----------------------------------------------------------------------------------
def test_logs_draw_every_circle_and_fill_the_marked_ones(marked_view: dict[str, Any]) -> None:
    root = parse(render_svg(marked_view))
    a1 = log_of(root, "A1")
    drawn = circles(a1, "log-circle")
    assert len(drawn) == 8 + 3 + 1
    marked = circles(a1, "marked")
    assert sorted(c.get("data-mark") or "" for c in marked) == ["B", "P", "P", "S", "S"]
    fills = {c.get("data-mark"): c.get("fill") for c in marked}
    assert len(set(fills.values())) == 3  # S, P and B each in a colour of its own
    assert all(c.get("fill") == "white" for c in drawn if c not in marked)
    where = {(c.get("data-ring"), c.get("data-circle")) for c in marked}
    assert where == {("1", "1"), ("1", "2"), ("1", "3"), ("2", "1"), ("3", "1")}
    b1 = log_of(root, "B1")
    assert len(circles(b1, "log-circle")) == 8 and len(circles(b1, "marked")) == 1
    assert {g.get("data-figure") for g in logs(root)} == {"A1", "B1"}


def test_markers_are_pegs_in_their_colours(marked_view: dict[str, Any]) -> None:
    root = parse(render_svg(marked_view))
    pegs = groups(root, "marker")
    by_figure = {
        g.get("data-figure"): [
            (p.get("data-colour"), p.get("data-label")) for p in groups(g, "marker") if p is not g
        ]
        for g in groups(root, "markers")
        if g.get("data-figure")
    }
    assert by_figure == {
        "A1": [("white", ""), ("yellow", "fired")],
        "A2": [("black", "hero")],
        "B1": [("red", "ranged fire target")],
    }
    for peg in pegs:
        if peg.get("data-colour"):
            disc = peg.find("svg:circle", NS)
            assert disc is not None
            assert disc.get("fill") == palette.MARKER_COLOURS[peg.get("data-colour", "")].fill


def test_markers_lie_beside_their_base_and_over_the_sight_lines(
    marked_view: dict[str, Any], table_marks: list[dict[str, Any]]
) -> None:
    """A sight line ends at B1's base: B1's red peg is drawn after (over) it."""
    root = parse(render_svg(marked_view, annotations=table_marks))
    order = [g.get("class") for g in root.iter(f"{{{SVG_NS}}}g")]
    assert order.index("overlays-over") < order.index("markers")
    for figure in ("A1", "A2", "B1"):
        base = base_of(root, figure)
        radius = float(base.get("r", "0"))
        mine = next(g for g in groups(root, "markers") if g.get("data-figure") == figure)
        for disc in mine.iter(f"{{{SVG_NS}}}circle"):
            distance = math.dist(centre(disc), centre(base))
            assert radius < distance < radius + 40


def test_a_status_a_marker_stands_for_is_drawn_only_as_the_peg(
    marked_view: dict[str, Any],
) -> None:
    """A2's black peg is labelled "hero": no "hero" badge on A2; B1 keeps its own."""
    root = parse(render_svg(marked_view))

    def badges(figure: str) -> list[str | None]:
        group = next(g for g in groups(root, "figure") if g.get("data-figure") == figure)
        return [g.get("data-status") for g in groups(group, "status")]

    assert badges("A2") == []
    assert badges("B1") == ["hero", "pinned"]


def test_the_legend_explains_pegs_and_logs(marked_view: dict[str, Any]) -> None:
    lines = texts(parse(render_svg(marked_view)))
    assert lines.index("Markers") < lines.index("white marker") < lines.index("fired")
    for text in ("hero", "ranged fire target", "pinned", "Logs", "unmarked"):
        assert text in lines
    for mark in "BPS":
        assert f"marked {mark}" in lines
    without = texts(parse(render_svg(marked_view, legend=False)))
    assert "Logs" not in without


@pytest.mark.parametrize("facing", [0.0, 90.0, 135.0, 200.0, 270.0, 333.0])
def test_the_log_turns_with_the_figure(table_view: dict[str, Any], facing: float) -> None:
    """Circle i of n at (i - 1) * 360 / n counter-clockwise from the front; the tick in front."""
    view = copy.deepcopy(table_view)
    a1 = view["figures"][0]
    a1["facing"] = facing
    a1["log"] = {"rings": copy.deepcopy(EIGHT_THREE_ONE)}
    log = log_of(parse(render_svg(view)), "A1")
    assert float(log.get("data-facing", "nan")) == pytest.approx(facing)
    middle = centre(circles(log, "log-back")[0])
    for disc in circles(log, "log-circle"):
        ring, index = int(disc.get("data-ring", "0")), int(disc.get("data-circle", "0"))
        at = centre(disc)
        if ring == 3:  # a ring of one circle: the centre
            assert math.dist(at, middle) == pytest.approx(0, abs=0.01)
            continue
        count = len(EIGHT_THREE_ONE[ring - 1])
        expected = (facing + (index - 1) * 360 / count) % 360
        assert angle_gap(screen_angle(middle, at), expected) < 0.5
    tick = next(e for e in log if e.get("class") == "log-front")
    end = float(tick.get("x2", "nan")), float(tick.get("y2", "nan"))
    assert angle_gap(screen_angle(middle, end), facing) < 0.5
    assert math.dist(end, middle) > LOG_RADIUS


def test_rings_are_nested_outermost_first(table_view: dict[str, Any]) -> None:
    """Ring radii shrink inwards; a ring of two (an MGV heart of two) sits front and back."""
    view = copy.deepcopy(table_view)
    view["figures"][0]["log"] = {"rings": [[""] * 12, [""] * 5, ["", "B"]]}
    log = log_of(parse(render_svg(view)), "A1")
    middle = centre(circles(log, "log-back")[0])
    radii: dict[int, set[float]] = {}
    for disc in circles(log, "log-circle"):
        distance = round(math.dist(centre(disc), middle), 1)
        radii.setdefault(int(disc.get("data-ring", "0")), set()).add(distance)
    assert all(len(r) == 1 for r in radii.values())
    assert max(radii[1]) > max(radii[2]) > max(radii[3]) > 0
    assert max(radii[1]) < LOG_RADIUS
    heart = [centre(d) for d in circles(log, "log-circle") if d.get("data-ring") == "3"]
    assert screen_angle(middle, heart[0]) == pytest.approx(0, abs=0.5)  # A1 faces east
    assert screen_angle(middle, heart[1]) == pytest.approx(180, abs=0.5)
    dots = circles(log, "log-circle")
    radius = float(dots[0].get("r", "0"))
    for a in dots:  # no two circles overlap
        for b in dots:
            if a is not b:
                assert math.dist(centre(a), centre(b)) >= 2 * radius


def test_a_log_stands_beside_its_base_clear_of_bases(marked_view: dict[str, Any]) -> None:
    root = parse(render_svg(marked_view))
    for figure in ("A1", "B1"):
        log = log_of(root, figure)
        middle = centre(circles(log, "log-back")[0])
        own = base_of(root, figure)
        gap = math.dist(middle, centre(own)) - float(own.get("r", "0")) - LOG_RADIUS
        assert 0 < gap < 40
        link = next(
            e
            for e in root.iter(f"{{{SVG_NS}}}line")
            if e.get("class") == "log-link" and e.get("data-figure") == figure
        )
        assert link.get("stroke") is not None


# -- views without the keys ------------------------------------------------------------------------
def test_views_without_logs_or_markers_draw_as_before(table_view: dict[str, Any]) -> None:
    """No log, no pegs, no new legend lines; empty keys change nothing at all."""
    plain = render_svg(table_view)
    root = parse(plain)
    assert not groups(root, "log") and not groups(root, "markers") and not groups(root, "marker")
    assert "Logs" not in texts(root)
    empty = copy.deepcopy(table_view)
    for figure in empty["figures"]:
        figure["markers"] = []
        figure["log"] = None
    assert render_svg(empty) == plain


def test_off_table_figures_are_checked_but_not_drawn(table_view: dict[str, Any]) -> None:
    view = copy.deepcopy(table_view)
    b2 = view["figures"][-1]
    assert b2["x"] is None
    b2["log"] = {"rings": [["S", ""]]}
    b2["markers"] = ["white"]
    root = parse(render_svg(view))
    assert not groups(root, "log") and not groups(root, "markers")
    assert "white marker" not in texts(root)
    b2["markers"] = ["pink"]
    with pytest.raises(RenderError, match=r"figures\[5\] \(B2\)\.markers\[0\]"):
        render_svg(view)


# -- refusals --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("log", "message"),
    [
        ("S S P", r"\.log: expected \{\"rings\""),
        ({"ring": [["S"]]}, r"\.log: expected \{\"rings\""),
        ({"rings": []}, r"\.log\.rings: expected a list of 1 to 6 rings"),
        ({"rings": [[""]] * 7}, r"\.log\.rings: expected a list of 1 to 6 rings"),
        ({"rings": "SSP"}, r"\.log\.rings: expected a list"),
        ({"rings": [["", ""], []]}, r"\.log\.rings\[1\]: expected a list of 1 to 48 circles"),
        ({"rings": [[""] * 49]}, r"\.log\.rings\[0\]: expected a list of 1 to 48 circles"),
        ({"rings": [["S"], ["", ""]]}, r"\.log\.rings\[0\]: only the innermost ring"),
        (
            {"rings": [["", "SS"]]},
            r"\.log\.rings\[0\]\[1\]: expected '' \(unmarked\) or one letter",
        ),
        ({"rings": [["", 1]]}, r"\.log\.rings\[0\]\[1\]: expected ''"),
        ({"rings": [["", None]]}, r"\.log\.rings\[0\]\[1\]: expected ''"),
        ({"rings": [["", "*"]]}, r"\.log\.rings\[0\]\[1\]: expected ''"),
    ],
)
def test_a_malformed_log_is_refused(table_view: dict[str, Any], log: Any, message: str) -> None:
    view = copy.deepcopy(table_view)
    view["figures"][1]["log"] = log
    with pytest.raises(RenderError, match=r"figures\[1\] \(A2\)" + message):
        render_svg(view)


@pytest.mark.parametrize(
    ("markers", "message"),
    [
        ("white", r"\.markers: expected a list of colour names"),
        ({"colour": "white"}, r"\.markers: expected a list"),
        (["pink"], r"\.markers\[0\]: expected a marker colour \(white, yellow, red, black"),
        (["white", "Yellow"], r"\.markers\[1\]: expected a marker colour"),
        ([3], r"\.markers\[0\]: expected a marker colour"),
        ([{"color": "red"}], r"\.markers\[0\]: expected a marker colour"),
        ([{"colour": "red", "label": 5}], r"\.markers\[0\]\.label: expected text"),
    ],
)
def test_malformed_markers_are_refused(
    table_view: dict[str, Any], markers: Any, message: str
) -> None:
    view = copy.deepcopy(table_view)
    view["figures"][1]["markers"] = markers
    with pytest.raises(RenderError, match=r"figures\[1\] \(A2\)" + message):
        render_svg(view)


# -- overlays that repeat ------------------------------------------------------------------------
def test_repeated_sight_lines_and_arcs_are_drawn_once_with_both_labels(
    table_view: dict[str, Any],
) -> None:
    """Two mounts of one base at one target: one line, labelled "1: photon, 2: kinetic"."""
    sight = {"kind": "sight", "from": [12, 12], "to": [36, 20], "clear": True}
    arc = {"kind": "arc", "at": [12, 12], "facing": 0.0, "half_angle": 30.0, "range": 8.0}
    marks = [
        {**sight, "label": "1: photon"},
        {**arc},
        {**sight, "label": "2: kinetic"},
        {**arc},
        {**sight, "to": [44, 8], "label": "3: missile"},
    ]
    root = parse(render_svg(table_view, annotations=marks))
    assert len(groups(root, "sight")) == 2 and len(groups(root, "arc")) == 1
    labels = texts(root)
    assert "1: photon, 2: kinetic" in labels and "3: missile" in labels
    assert "1: photon" not in labels


# -- MGV fills the contract ------------------------------------------------------------------------
@pytest.fixture
def mgv() -> Game:
    return Game.start("mgv/clear", seed=1)


def test_mgv_figures_carry_their_hull_and_markers(mgv: Game) -> None:
    state = mgv.state
    assert isinstance(state, State)
    b1, b4 = state.bases["B1"], state.bases["B4"]
    b1.log = HitLog().with_marks({"s1": "S", "s2": "P", "c1": "P", "h2": "B"})
    b4.beacon_turn = state.turn
    b4.trapped = True
    figures = {f["id"]: f for f in mgv.view(None)["figures"]}
    hull = b1.model.hull
    rings = figures["B1"]["log"]["rings"]
    assert [len(r) for r in rings] == [hull.surface, hull.core, hull.heart] == [14, 6, 3]
    assert rings[0][:3] == ["S", "P", ""] and rings[1][0] == "P" and rings[2] == ["", "B", ""]
    assert figures["B1"]["markers"] == []
    assert [m["colour"] for m in figures["B4"]["markers"]] == ["black", "white"]
    assert {m["label"] for m in figures["B4"]["markers"]} <= set(figures["B4"]["status"])
    root = parse(render_svg(mgv.view(None)))
    assert len(logs(root)) == len(state.active())
    assert len(circles(log_of(root, "B1"), "marked")) == 4
    b4_pegs = next(g for g in groups(root, "markers") if g.get("data-figure") == "B4")
    assert [p.get("data-colour") for p in groups(b4_pegs, "marker") if p is not b4_pegs] == [
        "black",
        "white",
    ]


def test_mgv_marks_the_target_of_ranged_fire_red(mgv: Game) -> None:
    """Red (1.2: ranged fire target point): a base a photon attack is declared at."""
    state = mgv.state
    assert isinstance(state, State)
    state.kind = "fire"
    state.fire.attacks = [Attack(1, ("R1",), "main", "photon", "B3")]
    figures = {f["id"]: f for f in mgv.view(None)["figures"]}
    assert {"colour": "red", "label": "ranged fire target (red)"} in figures["B3"]["markers"]
    assert all(m["colour"] != "red" for m in figures["B1"]["markers"])
    state.kind = "move"
    figures = {f["id"]: f for f in mgv.view(None)["figures"]}
    assert all(m["colour"] != "red" for m in figures["B3"]["markers"])


def test_mgv_pictures_keep_logs_off_the_bases() -> None:
    """At the set-up of every MGV scenario, no hull diagram covers a base."""
    for scenario in ("mgv/clear", "mgv/gauntlet", "mgv/strike"):
        root = parse(render_svg(Game.start(scenario, seed=1).view(None)))
        bases = [base for base in root.iter(f"{{{SVG_NS}}}circle") if base.get("class") == "base"]
        backs = [circles(log, "log-back")[0] for log in logs(root)]
        assert len(backs) == len(bases)
        for log in backs:
            for base in bases:
                distance = math.dist(centre(log), centre(base))
                assert distance > LOG_RADIUS + float(base.get("r", "0")), scenario
        for a in backs:
            for b in backs:
                if a is not b:
                    assert math.dist(centre(a), centre(b)) > 2 * LOG_RADIUS * 0.9, scenario


# -- the terminal map ------------------------------------------------------------------------------
def test_the_terminal_map_writes_marker_letters_after_the_id(marked_view: dict[str, Any]) -> None:
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render_table(marked_view, width=120))
    text = console.export_text()
    assert "→A1WY" in text and "←B1R" in text
    assert "after an id: W white marker, Y yellow marker, K black marker, R red marker" in text
    assert "A1 troop at 12,12 facing 0deg east [white marker, fired]" in text
    assert "B1 troop at 36,20 facing 180deg west [hero, pinned, ranged fire target]" in text
    plain = Console(record=True, width=200, color_system=None, file=io.StringIO())
    view = copy.deepcopy(marked_view)
    for figure in view["figures"]:
        figure.pop("markers", None)
    plain.print(render_table(view, width=120))
    assert "after an id" not in plain.export_text()


# -- zones: markers standing on the table (Invisible Enemy's barrage markers) -----------------
def test_zones_are_pegs_inside_dashed_circles_of_their_radius(table_view: dict[str, Any]) -> None:
    view = copy.deepcopy(table_view)
    view["zones"] = [
        {"id": "M1", "at": [10, 10], "radius": 3.0, "colour": "yellow", "label": "Type 1 barrage"},
        {"id": "M2", "at": [20, 8], "radius": 3.0, "colour": "red", "label": "Type 2 barrage"},
    ]
    svg = render_svg(view)
    root = parse(svg)
    circles = {
        c.get("data-zone"): c for c in root.iter(f"{{{SVG_NS}}}circle") if c.get("data-zone")
    }
    assert set(circles) == {"M1", "M2"}
    r1 = float(circles["M1"].get("r", "0"))
    assert circles["M1"].get("stroke-dasharray")
    # the radius is drawn to the table's scale: 3 inches is three grid inches
    width = float(root.get("width", "0"))
    assert 0 < r1 < width / 4
    assert "Type 1 barrage (dashed" in svg
    assert "Type 2 barrage (dashed" in svg


@pytest.mark.parametrize(
    ("zone", "message"),
    [
        ({"id": "M1", "at": [1, 1], "radius": 3, "colour": "teal"}, r"zones\[0\]\.colour"),
        ({"id": "M1", "at": [1, 1], "radius": -1, "colour": "red"}, r"zones\[0\]\.radius"),
        ("M1", r"zones\[0\]: expected a mapping"),
    ],
)
def test_malformed_zones_are_refused(table_view: dict[str, Any], zone: Any, message: str) -> None:
    view = copy.deepcopy(table_view)
    view["zones"] = [zone]
    with pytest.raises(RenderError, match=message):
        render_svg(view)


def test_links_are_dashed_lines_in_the_side_colour_explained_in_the_legend(
    table_view: dict[str, Any],
) -> None:
    view = copy.deepcopy(table_view)
    view["links"] = [{"from": [10, 10], "to": [14, 11], "side": view["figures"][0]["side"]}]
    view["links_label"] = "bases of one unit within its base interval"
    svg = render_svg(view)
    root = parse(svg)
    lines = [e for e in root.iter(f"{{{SVG_NS}}}line") if e.get("class") == "link"]
    assert len(lines) == 1 and lines[0].get("stroke-dasharray")
    assert "bases of one unit" in svg
    view["links"] = [{"from": "x", "to": [1, 1]}]
    with pytest.raises(RenderError, match=r"links\[0\]\.from"):
        render_svg(view)
