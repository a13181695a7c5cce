"""``info`` and ``goal`` for Invisible Enemy: a base's model, ratings, hits, unit and
status, a tower or other feature, a point of the table, and the scenario's mission.

Built from the side's view alone: the view holds no secret (the free barrages
of a tied initiative are a sealed choice the engine keeps until both are in,
see ``view.py``), and while barrage markers go down by hand it shows positions
to the whole inch, so no distance is given then either.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from warbench.geometry.table.text import num
from warbench.rulesets.invisible_enemy.charts import MISSION_WORDS
from warbench.rulesets.kit.table.info import (
    base_info,
    description_lines,
    exit_race_lines,
    find_row,
    measuring_forbidden,
    placed_text,
    points_line,
)
from warbench.scenario.model import Scenario

ROLES = {"combat": "combat vehicle", "engineer": "engineer", "network": "network relay"}


def _base_lines(view: Mapping[str, Any], base: Mapping[str, Any]) -> list[str]:
    figure = find_row(view.get("figures", []), str(base["id"]))
    unit = find_row(view.get("units", []), str(base["unit"]))
    role = ROLES.get(str(base["role"]), str(base["role"]))
    lines = [
        f"{base['id']}: {base['title']} ({base['model']}), {role}, {base['side']}",
        f'weapon {base["weapon"]}: ATT {base["attack"]}, range {num(float(base["range"]))}"; '
        f'DEF {base["defence"]}; speed {num(float(base["speed"]))}"'
        + (f"; worth {base['points']} points" if "points" in base else ""),
        f"hull {base['hull']}: {base['hits']} hit{'s' if base['hits'] != 1 else ''} "
        + (
            "(undamaged)"
            if base["damage"] == "none"
            else f"(fires at damage step {base['damage']}, 5.1)"
        ),
    ]
    if unit is not None:
        mates = [b for b in unit["bases"] if b != base["id"]]
        words = [f"unit {unit['id']} of {unit['formation']}"]
        if unit.get("mission"):
            words.append(f"mission {_mission(unit['mission'])}")
        if mates:
            words.append(f"with {', '.join(mates)}")
        if unit.get("tried"):
            words.append("has tried its action this turn")
        if unit.get("automatic"):
            words.append("moves automatically this turn")
        lines.append(", ".join(words))
    if base["destroyed"]:
        lines.append("destroyed")
    elif base["exited"]:
        lines.append("has left the table")
    else:
        if figure is not None:
            lines.append(placed_text(view, figure))
        status = list(base["status"])
        lines.append("status: " + ("; ".join(status) if status else "nothing marked"))
    return lines


def _barrages_at(view: Mapping[str, Any], x: float, y: float) -> list[str]:
    """The barrage markers whose zone holds the point (none while measuring is barred:
    saying so would measure)."""
    if measuring_forbidden(view):
        return []
    labels = {str(z["id"]): str(z["label"]) for z in view.get("zones", [])}
    return [
        f"inside {labels.get(str(m['id']), m['kind'])} {m['id']} of {m['side']}"
        for m in view.get("barrages", [])
        if math.hypot(float(m["at"][0]) - x, float(m["at"][1]) - y) <= float(m["radius"])
    ]


def _mission(code: str) -> str:
    """``demolition (general engineering, E)``: an engineer unit's mission in words (1.3)."""
    return f"{MISSION_WORDS.get(code, code)} ({code}, 1.3)"


def unit_info(view: Mapping[str, Any], ref: str) -> list[str]:
    """What the view's side may know of base, unit, feature or point ``ref``
    (QuestionRefused if none of them)."""
    return base_info(
        view,
        ref,
        lambda base: _base_lines(view, base),
        (("units", lambda unit: _unit_lines(view, unit)),),
        lambda point: _barrages_at(view, *point),
    )


def _unit_lines(view: Mapping[str, Any], unit: Mapping[str, Any]) -> list[str]:
    """A unit of bases, its mission, and how each of its bases stands."""
    lines = [
        f"unit {unit['id']} of {unit['formation']} ({unit['side']})"
        + (f", mission {_mission(unit['mission'])}" if unit.get("mission") else "")
    ]
    for base_id in unit["bases"]:
        row = find_row(view["bases"], str(base_id))
        if row is not None:
            state = (
                "destroyed"
                if row["destroyed"]
                else "left the table"
                if row["exited"]
                else f"{row['hits']}/{row['hull']} hits"
            )
            lines.append(f"  {row['id']} {row['title']}: {state}")
    return lines


def goal(scenario: Scenario) -> list[str]:
    """The description, then the mission's victory conditions (``victory.py``; the text
    has none, ruling 41)."""
    setup = scenario.spec
    victory = setup.victory
    lines = description_lines(scenario)
    turns = setup.turns
    if victory.kind == "breach":
        race = (victory.count, victory.edge, turns, "in its hands")
        lines += exit_race_lines(setup.sides, victory.side, *race)
    else:
        lines.append(
            "A side wins as soon as it is the only one with bases on the table in its hands "
            "(a contaminated base is lost to its side; both at once: a draw)."
        )
        worth = ((p.side, p.model.points) for p in setup.placements)
        lines.append(points_line(turns, setup.sides, worth, "destroyed (or saw contaminated)"))
    return lines
