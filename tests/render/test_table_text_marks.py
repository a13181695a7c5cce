"""What the terminal table map shows of the built-in scenarios (issue 12, "Seeing the game"):
items and tasks, no destroyed features, every figure's label even when figures stand close
together, and a roster with each figure's status and facing."""

from __future__ import annotations

import copy
import io
import re
from typing import Any

import pytest
from rich.console import Console

from warbench.core.dice import ScriptedDice
from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.geometry.table.text import ANGLE_CONVENTION
from warbench.render.table_text import render_table

TABLE_SCENARIOS = (
    "vsgmr/field",
    "vsgmr/relic",
    "vsgmr/street",
    "mgv/clear",
    "mgv/gauntlet",
    "mgv/strike",
    "invisible-enemy/company",
    "invisible-enemy/breach",
    "invisible-enemy/fungus",
)
MAP_LINE = re.compile(r"^[ 0-9]{3}[│┌└]")


def draw(view: dict[str, Any], width: int = 80, **options: Any) -> list[str]:
    """The rendered table as plain text lines, trailing spaces removed."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_table(view, width=width, **options))
    return [line.rstrip() for line in console.export_text().splitlines()]


def the_map(lines: list[str]) -> list[str]:
    """The framed map's lines (the box and the y-axis numbers), without the legend."""
    return [line for line in lines if MAP_LINE.match(line)]


def cell_char(lines: list[str], x: float, y: float, inch_x: float, inch_y: float) -> str:
    """The character drawn for the table point (x, y) on a map whose cells cover
    ``inch_x`` by ``inch_y`` inches (line 0 is the top border)."""
    rows = the_map(lines)
    row = 1 + int((rows_height(rows) * inch_y - y) / inch_y)
    return rows[row][3 + 1 + int(x / inch_x)]


def rows_height(rows: list[str]) -> int:
    return len(rows) - 2


def view_of(scenario: str, side: str | None = None) -> dict[str, Any]:
    return Game.start(scenario, seed=1).view(side)


# -- items and tasks ---------------------------------------------------------------------------
def test_the_relic_and_the_shrine_task_are_drawn_and_listed() -> None:
    """vsgmr/relic at 80 columns: a 36" square table drawn 72 x 36 cells (0.5" x 1")."""
    lines = draw(view_of("vsgmr/relic"), width=80)
    assert cell_char(lines, 18.0, 18.0, 0.5, 1.0) == "*"  # the relic, at the shrine's west door
    # The seal is broken at the shrine (18.6-21.6 by 16.5-19.5): its mark sits at the centre.
    assert cell_char(lines, 20.1, 18.0, 0.5, 1.0) == "!"
    text = "\n".join(lines)
    assert "on the table: * an item, ! a task's place" in text
    assert "*  Relic (relic) lies at 18,18, locked" in text
    assert '!  Break the seal (seal) on Shrine (shrine), within 0.5"' in text


def test_the_radio_of_street_is_drawn_where_it_stands() -> None:
    lines = draw(view_of("vsgmr/street"), width=80)
    assert cell_char(lines, 18.0, 18.0, 0.5, 1.0) == "!"
    assert '!  Radio for help (radio) at 18,18, within 0.5"' in "\n".join(lines)


def test_an_item_carried_is_shown_on_its_carrier_not_on_the_table() -> None:
    view = view_of("vsgmr/relic")
    view["items"][0].update(carrier="R1", at=None, locked=False)
    r1 = next(f for f in view["figures"] if f["id"] == "R1")
    r1["status"].append("carrying")
    view["features"] = [f for f in view["features"] if f["id"] != "relic"]
    lines = draw(view, width=100)
    text = "\n".join(lines)
    assert "*" not in "\n".join(the_map(lines))
    assert "Relic (relic): carried by R1" in text
    assert "R1 hero at 18,2 facing 90deg north [hero, carrying Relic]" in text


def test_a_done_task_says_so() -> None:
    view = view_of("vsgmr/street")
    view["tasks_done"] = ["radio"]
    assert '!  Radio for help (radio) at 18,18, within 0.5", done' in "\n".join(draw(view))


def test_marker_zones_are_drawn_in_their_colour() -> None:
    view = view_of("invisible-enemy/company")
    view["zones"] = [
        {"id": "M1", "at": [20.0, 20.0], "radius": 2.0, "colour": "yellow", "label": "Type 1"}
    ]
    lines = draw(view, width=80)
    assert cell_char(lines, 20.0, 20.0, 0.5, 1.0) == "X"
    assert 'X  Type 1 (M1) at 20,20, covering 2" round it' in "\n".join(lines)


# -- destroyed features ------------------------------------------------------------------------
def test_a_destroyed_feature_is_not_drawn() -> None:
    """VSGMR takes a destroyed feature off the terrain (III); its view marks it destroyed.
    The shrine's letter and the task on it leave the map; the legend says it is gone."""
    view = view_of("vsgmr/relic")
    before = draw(view, width=80)
    assert "bbbbbb" in "\n".join(the_map(before))
    shrine = next(f for f in view["features"] if f["id"] == "shrine")
    shrine["destroyed"] = True
    view["destroyed_features"] = ["shrine"]
    lines = draw(view, width=80)
    drawn = "\n".join(the_map(lines))
    assert "b" not in drawn and "!" not in drawn
    assert "building" not in "\n".join(lines)  # no terrain letter for it in the legend
    assert "destroyed (no longer drawn): Shrine (shrine)" in "\n".join(lines)
    assert "*" in drawn  # the relic itself is still there


def test_a_feature_cleared_from_the_view_is_named_gone() -> None:
    """Invisible Enemy drops a destroyed feature from ``features`` and lists it in
    ``cleared``."""
    view = view_of("invisible-enemy/fungus")
    view["features"] = [f for f in view["features"] if f["id"] != "T1"]
    view["cleared"] = ["T1"]
    assert "destroyed (no longer drawn): T1" in "\n".join(draw(view))


def test_a_destroyed_feature_in_play_leaves_the_map() -> None:
    """Played through the rules (III): red's archer shoots the shrine of vsgmr/relic on
    scripted dice (5 hits, the shrine rolls 2 and is destroyed); red's map no longer
    draws it, and the relic, freed in its rubble, is still drawn."""
    raw = copy.deepcopy(dict(load_scenario("vsgmr/relic").raw))
    game = Game(
        scenario_from_dict(raw, "relic.toml", "relic"), seed=0, dice=ScriptedDice([6, 1, 1])
    )
    game.apply("first red", "red")
    game.apply("move R2 15,8", "red")
    for _ in range(20):  # everyone else ends until red shoots
        view = game.view("red")
        if view["phase"] == "distance" and view["actor"] == "red":
            break
        game.apply("end", game.waiting_for()[0])
    assert isinstance(game.dice, ScriptedDice)
    game.dice.extend([5, 2])
    game.apply("shoot R2 shrine", "red")
    view = game.view("red")
    assert next(f for f in view["features"] if f["id"] == "shrine")["destroyed"] is True
    lines = draw(view, width=80)
    drawn = "\n".join(the_map(lines))
    assert "b" not in drawn and "*" in drawn
    assert "destroyed (no longer drawn): Shrine (shrine)" in "\n".join(lines)


# -- figures close together --------------------------------------------------------------------
def labels_on(lines: list[str]) -> tuple[set[str], dict[str, list[str]]]:
    """The ids written on the map, and the ids each key under the map stands for."""
    drawn = set(re.findall(r"[A-Z][A-Za-z0-9]*", "\n".join(the_map(lines))))
    notes: dict[str, list[str]] = {}
    text = "\n".join(lines)
    if "no room for these labels" in text:
        block = text.split("no room for these labels", 1)[1].split("\n")[1:]
        for line in block:
            match = re.match(r"^  (\S): (.*)$", line)
            if match is None:
                break
            notes[match[1]] = re.findall(r"(\S+) at [-0-9.]+,[-0-9.]+", match[2])
    return drawn, notes


@pytest.mark.parametrize("width", [80, 100])
def test_figures_close_together_keep_their_labels(width: int) -> None:
    """invisible-enemy/company with a unit bunched up: ids a cell or two apart would
    overwrite each other; each is written, or a key stands for it under the map."""
    view = view_of("invisible-enemy/company")
    spots = {"C1": (10.0, 10.0), "C2": (10.2, 10.1), "C3": (10.6, 10.0), "C4": (11.1, 10.3)}
    spots |= {"C5": (12.0, 10.0), "C6": (35.9, 12.0), "C7": (35.6, 12.0), "C8": (9.6, 10.0)}
    for figure in view["figures"]:
        if figure["id"] in spots:
            figure["x"], figure["y"] = spots[figure["id"]]
    lines = draw(view, width=width)
    drawn, notes = labels_on(lines)
    assert notes, "some labels cannot fit"
    inside = "\n".join(line[4:] for line in the_map(lines))  # no axis numbers
    for key, ids in notes.items():
        assert key in inside
        for ident in ids:
            x, y = spots.get(ident, (None, None))
            assert f"{ident} at {x:g},{y:g}" in "\n".join(lines)
    for figure in view["figures"]:
        ident = figure["id"]
        assert ident in drawn or any(ident in ids for ids in notes.values()), ident
    assert max(len(line) for line in lines) <= width


def test_several_in_one_cell_are_all_named() -> None:
    view = view_of("invisible-enemy/company")
    for figure in view["figures"]:
        if figure["id"] in ("C1", "C2"):
            figure["x"], figure["y"] = 20.0, 3.0
    assert "+C1,C2" in "\n".join(the_map(draw(view, width=100)))


def test_a_label_at_the_table_edge_is_kept() -> None:
    view = view_of("mgv/clear")
    figure = view["figures"][0]
    figure["x"], figure["y"] = view["table"]["width"] - 0.1, 12.0
    lines = draw(view, width=80)
    drawn, notes = labels_on(lines)
    assert figure["id"] in drawn or [figure["id"]] in notes.values()


# -- the roster --------------------------------------------------------------------------------
def test_facings_are_whole_degrees_with_a_compass_word() -> None:
    text = "\n".join(draw(view_of("vsgmr/relic"), width=100))
    assert "R2 troop at 15,2 facing 79deg north" in text  # 79.4 degrees
    assert "B3 troop at 15,34 facing 281deg south" in text  # 280.6
    assert "°" not in text
    assert text.count(ANGLE_CONVENTION) == 1


def test_the_roster_shows_each_figures_status_from_the_view() -> None:
    view = view_of("invisible-enemy/company", "california")
    record = next(b for b in view["bases"] if b["id"] == "C1")
    record.update(hits=3, damage="1/3")
    c2 = next(f for f in view["figures"] if f["id"] == "C2")
    c2["status"] = ["moved", "fired"]
    text = "\n".join(draw(view, width=100))
    assert "C1 J90 at 6,10 facing 0deg east [unit CA, hull hits 3/9 (1/3 damage)]" in text
    assert "C2 J90 at 6,14 facing 0deg east [unit CA, moved, fired]" in text


def test_mgv_damage_and_gone_bases_are_listed() -> None:
    view = view_of("mgv/clear", "blue")
    b1 = next(b for b in view["bases"] if b["id"] == "B1")
    b1["damage"] = "S 2, P 1, B 0"
    b2 = next(b for b in view["bases"] if b["id"] == "B2")
    b2["destroyed"] = True
    b3 = next(b for b in view["bases"] if b["id"] == "B3")
    b3["exited"] = True
    view["figures"] = [f for f in view["figures"] if f["id"] not in ("B2", "B3")]
    text = "\n".join(draw(view, width=100))
    assert "B1 J90 at 3,8 facing 0deg east [damage S 2, P 1, B 0]" in text
    assert "destroyed: B2" in text and "off the table: B3 (exited)" in text
    assert "R1 J90 at 33,17 (by eye) facing 180deg west" in text  # 5.3: the other side
    assert "positions: other sides' bases by eye" in text


def test_vsgmr_records_add_what_the_figure_did() -> None:
    view = view_of("vsgmr/street")
    record = next(r for r in view["figures_state"] if r["id"] == "R2")
    record.update(moved=True, attacked=True)
    view["defeated"] = ["B5"]
    view["figures"] = [f for f in view["figures"] if f["id"] != "B5"]
    text = "\n".join(draw(view, width=100))
    assert "R2 troop at 15,3 facing 90deg north [moved, attacked]" in text
    assert "defeated: B5" in text


@pytest.mark.parametrize("scenario", TABLE_SCENARIOS)
@pytest.mark.parametrize("width", [80, 100])
def test_every_table_scenario_fits_with_one_roster_line_a_figure(scenario: str, width: int) -> None:
    game = Game.start(scenario, seed=1)
    for side in (None, *game.waiting_for()):
        view = game.view(side)
        lines = draw(copy.deepcopy(view), width=width)
        assert max(len(line) for line in lines) <= width
        for figure in view["figures"]:
            if figure["x"] is None:
                continue
            entry = [line for line in lines if line.startswith(f"  {figure['id']} ")]
            assert len(entry) == 1, (figure["id"], entry)
            assert re.search(r"facing \d+deg (north|south|east|west)", entry[0])
        drawn, notes = labels_on(lines)
        for figure in view["figures"]:
            if figure["x"] is not None:
                assert figure["id"] in drawn or any(figure["id"] in n for n in notes.values())


@pytest.mark.parametrize("ruleset", ["mgv", "invisible-enemy"])
def test_a_terrain_kind_looks_the_same_in_every_scenario_of_a_ruleset(ruleset: str) -> None:
    """view["terrain_kinds"] fixes each kind's letter in the text map and fill in the SVG
    before a scenario's own kinds are met (shrapnel was s in one MGV scenario, slime in
    another)."""
    from warbench.core.loader import builtin_scenarios
    from warbench.render.svg import render_svg

    letters: dict[str, set[str]] = {}
    fills: dict[str, set[str]] = {}
    for scenario in [s for s in builtin_scenarios() if s.startswith(ruleset + "/")]:
        view = view_of(scenario)
        text = "\n".join(draw(view, width=120))
        for letter, kind in re.findall(r"^ {3}(\w) {2}(\w+) \(", text, flags=re.M):
            letters.setdefault(kind, set()).add(letter)
        svg = render_svg(view)
        shapes = r'data-kind="([^"]+)"[^>]*>\s*<\w+ fill="(#[0-9a-fA-F]+)"'
        for kind, fill in re.findall(shapes, svg):
            fills.setdefault(kind, set()).add(fill)
    assert letters and all(len(found) == 1 for found in letters.values()), letters
    assert fills and all(len(found) == 1 for found in fills.values()), fills
