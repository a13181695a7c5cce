"""Views follow the table-view contract (and render), annotations mark moves, shots and
arcs, odds of concrete actions are explained, and the greedy bot beats the random one."""

from __future__ import annotations

import json
import os

import pytest

from warbench.core.game import Game
from warbench.sim.runner import simulate


def test_the_view_follows_the_table_contract(vs):
    """notes/table-view.md: table, features, figures (x, y, facing, base, status), sides."""
    game = Game.start("vsgmr/field", seed=2)
    view = game.view("grey")
    json.dumps(view)
    assert view["table"] == {"width": 48.0, "height": 36.0}
    assert view["sides"] == ["grey", "green"]
    tank = next(f for f in view["figures"] if f["id"] == "T1")
    assert tank["base"] == {"shape": "rect", "width": 2.0, "depth": 3.0}
    assert "ridden" in tank["status"]
    driver = next(f for f in view["figures"] if f["id"] == "T1d")
    assert (driver["x"], driver["y"]) == (tank["x"], tank["y"]) and "riding" in driver["status"]
    farm = next(f for f in view["features"] if f["id"] == "farm")
    assert farm["shape"] == "polygon" and farm["blocks_los"] == "yes"
    assert view["phase"] == "initiative"


def test_items_and_tasks_are_drawn_as_markers(vs):
    game = Game.start("vsgmr/relic", seed=2)
    kinds = {f["id"]: f["kind"] for f in game.view(None)["features"]}
    assert kinds["relic"] == "item"


def test_views_render_as_svg_and_as_text(vs):
    """The renderers draw a VSGMR view (render/svg/, render/table_text.py)."""
    svg = pytest.importorskip("warbench.render.svg")
    text = pytest.importorskip("warbench.render.table_text")
    game = Game.start("vsgmr/street", seed=2)
    picture = svg.render_svg(game.view(None), title="street")
    assert picture.startswith("<svg") or "<svg" in picture[:200]
    assert text.render_table(game.view(None), width=100) is not None


def test_annotations_mark_the_path_of_a_move(vs):
    figures = [vs.fig("red", "A", "troop", (10, 10), 90), vs.fig("blue", "Z", "troop", (30, 30))]
    game = vs.start(figures)
    events = game.apply("move A 10,12 12,12", "red")
    marks = game.ruleset.annotations(game.state, events, None)
    assert marks == [
        {"kind": "path", "points": [[10.0, 10.0], [10.0, 12.0], [12.0, 12.0]], "side": "red"}
    ]


def test_annotations_mark_a_shot_and_the_arc(vs):
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 20), 270),
        vs.fig("blue", "B2", "troop", (30, 30), 270),
    ]
    game = vs.start(figures, dice=[5, 6, 1])
    vs.skip_to(game, "distance", "red")
    events = game.apply("shoot A B", "red")
    marks = game.ruleset.annotations(game.state, events, "blue")
    sight = next(m for m in marks if m["kind"] == "sight")
    assert sight["from"] == [10.0, 10.0] and sight["to"] == [10.0, 20.0]
    assert sight["clear"] is True and sight["label"] == "hit"
    arc = next(m for m in marks if m["kind"] == "arc")
    # Range is edge to edge (ruling 10): 12" beyond the 1" base's front, 12.5" from the centre.
    assert arc["half_angle"] == 90.0 and arc["range"] == 12.5 and arc["facing"] == 90.0


def test_the_arc_drawn_reaches_what_the_rule_measures(vs):
    """II.3 with ruling 10 (issue 11): the arc after a shot is drawn from the centre out to
    the Distance Attack Unit beyond the base's front; by centre under range_from = "centre"."""
    for options, reach in ((None, 13.5), ({"range_from": "centre"}, 12.0)):
        figures = [
            vs.fig("red", "A", "vehicle", (10, 10), 90, distance=True),  # 2" x 3" base
            ("red", {"id": "D", "type": "troop", "riding": "A"}),
            vs.fig("blue", "B", "troop", (10, 20), 270),
            vs.fig("blue", "B2", "troop", (30, 30), 270),
        ]
        game = vs.start(figures, dice=[1, 6, 1], options=options)
        vs.skip_to(game, "distance", "red")
        events = game.apply("shoot A B", "red")
        marks = game.ruleset.annotations(game.state, events, None)
        arc = next(m for m in marks if m["kind"] == "arc")
        assert arc["range"] == reach


def test_the_odds_of_an_action_are_explained(vs):
    figures = [
        vs.fig("red", "A", "hero", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 20), 270, armour="light"),
    ]
    game = vs.start(figures)
    vs.skip_to(game, "distance", "red")
    text = game.ruleset.action_odds(game.state, "red", game.parse("shoot A B"))
    assert "defeated 41.7% (5/12)" in text
    far = game.ruleset.action_odds(game.state, "red", game.parse("fight A B"))
    assert "not possible" in far


def test_greedy_beats_random_clearly(vs):
    """The greedy bot (exact odds, point values) wins most games against the random bot."""
    result = simulate("vsgmr/street", games=8, bots={"red": "greedy", "blue": "random"}, seed=3)
    assert result.wins.get("red", 0) >= 6


def test_figures_shot_down_are_not_listed_as_off_the_table(vs):
    """III (issue 11): a defeated figure was taken from the table, it did not move off it
    (II.2): the view names it under "defeated", and the text legend's "off the table" list
    keeps only figures that left by an edge."""
    text = pytest.importorskip("warbench.render.table_text")
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 20), 270),
        vs.fig("blue", "B2", "troop", (30, 30), 270),
    ]
    game = vs.start(figures, dice=[5, 6, 1])
    vs.skip_to(game, "distance", "red")
    game.apply("shoot A B", "red")
    view = game.view(None)
    assert view["defeated"] == ["B"]
    assert "B" not in [f["id"] for f in view["figures"]]
    from rich.console import Console

    console = Console(width=120, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(text.render_table(view, width=100))
    legend = console.export_text()
    assert "A troop" in legend and "off the table" not in legend
