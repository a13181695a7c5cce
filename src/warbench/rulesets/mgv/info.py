"""``info`` and ``goal`` for MGV: a base's model, ratings, hit log and status, a feature,
a point of the table, and the scenario's mission.

Built from the side's view alone: the view holds no secret (the sealed weapon
choices and held range guesses stay with the engine until revealed, see
``view.py``); it shows the other side's bases by eye, and while a range guess
is asked no distance is given at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warbench.geometry.table.text import facing_text, num
from warbench.rulesets.kit.table.info import (
    base_info,
    description_lines,
    exit_race_lines,
    find_row,
    placed_text,
    points_line,
)
from warbench.scenario.model import Scenario

LAYER_WORDS = ("surface", "core", "heart")
"""The hit log's circles, outside in (2.0): S, P and B hits mark them."""


def side_text(view: Mapping[str, Any], side: str) -> str:
    titles = view.get("titles") or {}
    return f"{side} ({titles[side]})" if side in titles else side


def log_text(figure: Mapping[str, Any] | None, damage: str) -> str:
    """``hits: surface 2/14, core 0/6, heart 0/2 (S 2, P 0, B 0)`` from the figure's rings."""
    if figure is None or "log" not in figure:
        return f"hits: {damage}"
    rings = figure["log"]["rings"]
    parts = [
        f"{word} {sum(1 for mark in ring if mark)}/{len(ring)}"
        for word, ring in zip(LAYER_WORDS, rings, strict=False)
    ]
    return f"hits: {', '.join(parts)} ({damage})"


def _weapons_text(base: Mapping[str, Any]) -> str:
    words = []
    for slot, attack in base["attack"].items():
        weapon = base["weapons"].get(slot)
        words.append(f"{slot} ATT {attack} ({weapon or 'weapon not chosen yet'})")
    return "weapons: " + "; ".join(words)


def _base_lines(view: Mapping[str, Any], base: Mapping[str, Any]) -> list[str]:
    figure = find_row(view.get("figures", []), str(base["id"]))
    lines = [
        f"{base['id']}: {base['title']} ({base['model']}), {side_text(view, str(base['side']))}",
        _weapons_text(base),
        f'DEF {base["defence"]}, speed left {num(float(base["speed"]))}"'
        + (f", worth {base['points']} points" if "points" in base else ""),
    ]
    if base.get("wing"):
        mates = [
            str(b["id"])
            for b in view["bases"]
            if b.get("wing") == base["wing"] and b["side"] == base["side"] and b["id"] != base["id"]
        ]
        lines.append(f"wing {base['wing']}" + (f" with {', '.join(mates)}" if mates else ""))
    lines.append(log_text(figure, str(base["damage"])))
    if base["destroyed"]:
        lines.append("destroyed")
    elif base["exited"]:
        lines.append("has left the table")
    elif figure is not None:
        lines.append(placed_text(view, figure))
    elif "facing" in base:
        lines.append(f"facing {facing_text(float(base['facing']))}")
    if not base["destroyed"] and not base["exited"]:
        status = list(base["status"])
        if figure is not None:
            status += [
                str(m["label"]) for m in figure.get("markers", []) if m["label"] not in status
            ]
        lines.append("status: " + ("; ".join(status) if status else "nothing marked"))
    return lines


def unit_info(view: Mapping[str, Any], ref: str) -> list[str]:
    """What the view's side may know of base, feature or point ``ref`` (QuestionRefused if
    none of them)."""
    return base_info(view, ref, lambda base: _base_lines(view, base))


def goal(scenario: Scenario) -> list[str]:
    """The description, then the mission's victory conditions (``victory.py``: the text
    names the missions without their rules; docs/rules/mgv.md, rulings)."""
    setup = scenario.spec
    victory = setup.victory
    first, second = setup.sides
    lines = description_lines(scenario)
    turns = setup.turns
    if victory.kind == "gauntlet":
        race = (victory.count, victory.edge, turns, "able to move")
        lines += exit_race_lines(setup.sides, victory.side, *race)
    elif victory.kind == "strike":
        striker = victory.side or first
        holder = second if striker == first else first
        target = setup.placement(victory.target or "")
        lines.append(f"{striker} wins as soon as {target.id} ({target.model.title}) is destroyed.")
        lines.append(
            f"{holder} wins if {target.id} still stands when turn {turns} is over, or as soon "
            f"as every {striker} base is gone."
        )
    else:
        lines.append(
            "A side wins as soon as every enemy base is destroyed or gone (both at once: a draw)."
        )
        worth = ((p.side, p.model.points) for p in setup.placements)
        lines.append(points_line(turns, setup.sides, worth, "destroyed"))
    return lines
