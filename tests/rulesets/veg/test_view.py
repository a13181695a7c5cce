"""What the V.E.G. view gives renderers: a wound is marked and named a wound.

The text map draws a mark after a unit id for the flags a view names in
``view["marks"]``; V.E.G. has no "disrupted" state (a MiniWars word), so its
view marks the ``wounded`` flag of a unit's status list.
"""

from __future__ import annotations

import io

from rich.console import Console

from warbench.render.text import render_map


def _draw(view):
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render_map(view))
    return console.export_text()


def _under(lines, label):
    """The units drawn in hex ``label``: the line under its label, inside its edges."""
    y = next(i for i, line in enumerate(lines) if label in line)
    x = lines[y].index(label)
    return lines[y + 1][x : x + 8].strip("_")


def test_the_map_marks_a_wounded_unit_and_the_legend_calls_it_wounded(veg):
    """Core wound (stand-in): the text map shows W~ and its legend reads "~ wounded"."""
    units = [
        {"side": "red", "id": "W", "type": "gun", "at": "0505", "wounded": True},
        ("red", "H", "gun", "0303"),
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units)
    view = game.view(None)
    assert view["marks"] == {"wounded": "~"}
    by_id = {u["id"]: u for u in view["units"]}
    assert "wounded" in by_id["W"]["status"] and not by_id["W"]["disrupted"]
    text = _draw(view)
    lines = text.splitlines()
    assert _under(lines, "0505") == "W~" and _under(lines, "0303") == "H"
    assert "~ wounded" in text
    assert "disrupted" not in text
